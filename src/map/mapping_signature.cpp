#include "map/mapping_signature.h"

#include <algorithm>
#include <regex>

namespace ucutlass::map {

namespace {

std::string joined(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ",") + n;
  return s;
}

}  // namespace

std::string mapping_signature(const std::string& dsl) {
  static const std::regex declaration(R"((^|\n)[ \t]*kernel[ \t]+(\w+)[ \t]*=)");
  std::vector<std::string> names;
  for (auto it = std::sregex_iterator(dsl.begin(), dsl.end(), declaration); it != std::sregex_iterator(); ++it)
    names.push_back((*it)[2]);
  return joined(std::move(names));
}

std::string mapping_signature(const std::vector<GemmMatch>& kernels) {
  std::vector<std::string> names;
  for (const GemmMatch& m : kernels) names.push_back(m.name);
  return joined(std::move(names));
}

}  // namespace ucutlass::map

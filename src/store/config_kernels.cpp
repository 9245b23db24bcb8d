#include "store/config_kernels.h"

#include <algorithm>

namespace ucutlass::store {

namespace {
constexpr char kSeparator[] = "; ";
constexpr size_t kSeparatorLength = sizeof kSeparator - 1;
}  // namespace

std::vector<std::string> config_kernels(const std::string& config) {
  std::vector<std::string> out;
  for (size_t from = 0; from <= config.size();) {
    const size_t end = std::min(config.find(kSeparator, from), config.size());
    out.push_back(config.substr(from, end - from));
    from = end + kSeparatorLength;
  }
  return out;
}

std::string config_text(const std::vector<std::string>& kernels) {
  std::string out;
  for (size_t i = 0; i < kernels.size(); ++i) out += (i ? kSeparator : "") + kernels[i];
  return out;
}

bool extends_config(const std::string& longer, const std::string& shorter) {
  return !shorter.empty() && longer.size() > shorter.size() + kSeparatorLength &&
         longer.compare(0, shorter.size(), shorter) == 0 && longer.compare(shorter.size(), kSeparatorLength, kSeparator) == 0;
}

}  // namespace ucutlass::store

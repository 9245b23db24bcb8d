#include "store/superseded.h"

#include <map>
#include <string>

namespace ucutlass::store {

std::vector<bool> superseded_attempts(const std::vector<AttemptRow>& rows) {
  std::map<std::string, std::string> latest;  // config -> the program it last ran as
  for (const AttemptRow& r : rows)
    if (!r.config.empty()) latest[r.config] = r.hash;
  std::vector<bool> out(rows.size(), false);
  for (size_t i = 0; i < rows.size(); ++i) out[i] = !rows[i].config.empty() && latest[rows[i].config] != rows[i].hash;
  return out;
}

}  // namespace ucutlass::store

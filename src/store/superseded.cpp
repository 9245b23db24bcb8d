#include "store/superseded.h"

#include "store/config_kernels.h"

#include <map>
#include <string>

namespace ucutlass::store {

std::vector<bool> superseded_attempts(const std::vector<AttemptRow>& rows) {
  std::map<std::string, std::string> latest;  // config -> the program it last ran as
  for (const AttemptRow& r : rows)
    if (!r.config.empty()) latest[r.config] = r.hash;
  std::vector<bool> out(rows.size(), false);
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].config.empty()) continue;
    out[i] = latest[rows[i].config] != rows[i].hash;
    // A later row that runs this row's kernels with more after them: today's mapping of the problem,
    // which gained a kernel since, measured again this row's configs (cmd_optimize's extended_pick).
    for (size_t j = i + 1; j < rows.size() && !out[i]; ++j) out[i] = extends_config(rows[j].config, rows[i].config);
  }
  return out;
}

}  // namespace ucutlass::store

#include "exec/baseline_file.h"

#include <filesystem>

namespace ucutlass {

BaselineTimes baseline_times(const nlohmann::json& doc, const std::string& problem_py) {
  namespace fs = std::filesystem;
  const std::string level = fs::path(problem_py).parent_path().filename().string();
  const std::string name = fs::path(problem_py).filename().string();
  BaselineTimes out;
  auto pick = [&](const std::string& key) {
    if (!doc.is_object() || !doc.contains(key) || !doc[key].is_object() || !doc[key].contains(name)) return 0.0;
    const nlohmann::json& e = doc[key][name];
    if (!e.is_object()) return 0.0;
    out.current = out.current && e.contains("timing_window");
    if (e.contains("median") && e["median"].is_number()) return e["median"].get<double>();
    return e.contains("mean") && e["mean"].is_number() ? e["mean"].get<double>() : 0.0;
  };
  out.eager_ms = pick(level);
  out.compile_ms = pick(level + "_compile");
  return out;
}

}  // namespace ucutlass

#include "exec/python_worker.h"

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "support/install_paths.h"

namespace ucutlass {

namespace {

// The last lines of a child's stderr.
std::string tail_lines(const std::string& s, size_t max_lines = 6) {
  size_t pos = s.size();
  while (pos > 0 && (s[pos - 1] == '\n' || s[pos - 1] == ' ')) --pos;
  size_t end = pos;
  for (size_t lines = 0; pos > 0 && lines < max_lines; --pos)
    if (s[pos - 1] == '\n') ++lines;
  std::string t = s.substr(pos, end - pos);
  if (!t.empty() && t[0] == '\n') t.erase(0, 1);
  return t;
}

}  // namespace

std::string python_executable() {
  const char* p = std::getenv("UCUTLASS_PYTHON");
  return p && *p ? p : "python3";
}

ProcessResult run_python_module(const std::string& module, const std::vector<std::string>& args,
                                ProcessOptions options) {
  const char* old = std::getenv("PYTHONPATH");
  options.extra_env.push_back("PYTHONPATH=" + find_install_dir("python") + (old && *old ? std::string(":") + old : ""));
  // Output must reach us as it is printed, not when the worker dies.
  options.extra_env.push_back("PYTHONUNBUFFERED=1");
  std::vector<std::string> argv = {python_executable(), "-m", module};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, options);
}

std::string python_failure_reason(const ProcessResult& r) {
  std::string why = tail_lines(r.err);
  nlohmann::json reported = nlohmann::json::parse(r.out, nullptr, false);
  if (reported.is_object() && reported.value("format", "") == "ucutlass-error" && reported.contains("error") &&
      reported["error"].is_string())
    why = reported["error"].get<std::string>() + (why.empty() ? "" : "\n" + why);
  return why;
}

}  // namespace ucutlass

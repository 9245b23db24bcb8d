#include "graph/problem_trace.h"

#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "exec/subprocess.h"
#include "graph/graph_reader.h"

namespace ucutlass::graph {

namespace {

// The last lines of a child's stderr: where Python puts the exception.
std::string tail(const std::string& s, size_t max_lines = 6) {
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

bool trace_problem(const std::string& problem_py, const std::string& python_dir, double timeout_s, OpGraph* out,
                   std::string* err) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(problem_py, ec)) {
    *err = problem_py + ": no such problem file";
    return false;
  }
  ProcessOptions options;
  options.timeout_s = timeout_s;
  if (!python_dir.empty()) {
    const char* old = std::getenv("PYTHONPATH");
    options.extra_env.push_back("PYTHONPATH=" + python_dir + (old && *old ? std::string(":") + old : ""));
  }
  ProcessResult r = run_process({"python3", "-m", "ucutlass_harness", "trace", problem_py}, options);
  if (r.spawn_failed) {
    *err = problem_py + ": cannot trace: python3 could not be started (" + r.err + ")";
    return false;
  }
  if (!r.ok()) {
    std::string why = tail(r.err);
    std::string advice;
    if (why.find("No module named 'torch'") != std::string::npos)
      advice = "; tracing needs PyTorch, which this machine lacks: trace on the GPU machine and pass the graph JSON";
    else if (why.find("No module named ucutlass_harness") != std::string::npos ||
             why.find("invalid choice: 'trace'") != std::string::npos)
      advice = "; the harness tracer (python/ucutlass_harness) is missing or lacks `trace`: pass a graph JSON instead";
    // The harness reports its own errors as {"format": "ucutlass-error", "error": ...} on stdout.
    nlohmann::json reported = nlohmann::json::parse(r.out, nullptr, false);
    if (reported.is_object() && reported.value("format", "") == "ucutlass-error" && reported.contains("error") &&
        reported["error"].is_string())
      why = reported["error"].get<std::string>() + (why.empty() ? "" : "\n" + why);
    *err = problem_py + ": tracing failed (" + r.describe() + ")" + advice + (why.empty() ? "" : "\n" + why);
    return false;
  }
  return read_op_graph(r.out, problem_py + " (traced)", out, err);
}

}  // namespace ucutlass::graph

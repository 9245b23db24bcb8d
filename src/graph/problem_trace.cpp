#include "graph/problem_trace.h"

#include <filesystem>

#include "exec/python_worker.h"
#include "graph/graph_reader.h"

namespace ucutlass::graph {

bool run_tracer(const std::string& problem_py, double timeout_s, std::string* json_text, std::string* err) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(problem_py, ec)) {
    *err = problem_py + ": no such problem file";
    return false;
  }
  ProcessOptions options;
  options.timeout_s = timeout_s;
  ProcessResult r = run_python_module("ucutlass_harness", {"trace", problem_py}, options);
  if (r.spawn_failed) {
    *err = problem_py + ": cannot trace: python3 could not be started (" + r.err + ")";
    return false;
  }
  if (!r.ok()) {
    std::string why = r.err;
    std::string advice;
    if (why.find("No module named 'torch'") != std::string::npos)
      advice = "; tracing needs PyTorch, which this machine lacks: trace on the GPU machine and pass the graph JSON";
    else if (why.find("No module named ucutlass_harness") != std::string::npos ||
             why.find("invalid choice: 'trace'") != std::string::npos)
      advice = "; the harness tracer (python/ucutlass_harness) is missing or lacks `trace`: pass a graph JSON instead";
    why = python_failure_reason(r);
    *err = problem_py + ": tracing failed (" + r.describe() + ")" + advice + (why.empty() ? "" : "\n" + why);
    return false;
  }
  *json_text = std::move(r.out);
  return true;
}

bool trace_problem(const std::string& problem_py, double timeout_s, OpGraph* out, std::string* err) {
  std::string text;
  return run_tracer(problem_py, timeout_s, &text, err) && read_op_graph(text, problem_py + " (traced)", out, err);
}

}  // namespace ucutlass::graph

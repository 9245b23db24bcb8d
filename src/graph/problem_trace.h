#pragma once
// Turning a KernelBench problem file into an op graph: the harness tracer
// (`python3 -m ucutlass_harness trace PROBLEM.py`, python/ucutlass_harness)
// runs torch.export and prints the graph JSON on stdout. Without torch or the
// harness on this machine that fails, and the message says how to proceed.
#include <string>

#include "graph/op_graph.h"

namespace ucutlass::graph {

// Runs the tracer (with ucutlass's python/ on PYTHONPATH) and hands back the
// graph JSON it printed, unparsed.
bool run_tracer(const std::string& problem_py, double timeout_s, std::string* json_text, std::string* err);

// run_tracer, then read_op_graph.
bool trace_problem(const std::string& problem_py, double timeout_s, OpGraph* out, std::string* err);

}  // namespace ucutlass::graph

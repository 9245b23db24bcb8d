#pragma once
// Turning a KernelBench problem file into an op graph: the harness tracer
// (`python3 -m ucutlass_harness trace PROBLEM.py`, python/ucutlass_harness)
// runs torch.export and prints the graph JSON on stdout. Without torch or the
// harness on this machine that fails, and the message says how to proceed.
#include <string>

#include "graph/op_graph.h"

namespace ucutlass::graph {

// Runs the tracer; `python_dir` goes on PYTHONPATH ("" = leave it alone).
bool trace_problem(const std::string& problem_py, double timeout_s, OpGraph* out, std::string* err);

}  // namespace ucutlass::graph

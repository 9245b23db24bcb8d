#pragma once
// Tracing a whole suite: every tracer is its own python process that spends
// seconds importing torch, so a 71-problem suite took 6 minutes traced one
// after the other on a 2-core machine, and a resumed campaign paid it again.
// Problems are traced `parallel` at a time, and each traced graph is kept in a
// cache file beside the problem's outputs, reused while the problem file and
// the tracer's own sources are byte-for-byte what produced it.
#include <string>
#include <vector>

#include "graph/op_graph.h"

namespace ucutlass::graph {

struct TraceJob {
  std::string problem_py;
  std::string cache_file;  // "" = no cache
};

struct TraceOutcome {
  bool ok = false;
  bool from_cache = false;
  OpGraph graph;
  std::string err;
};

// The cache key of a problem: its bytes and the tracer's sources (a changed
// tracer may trace differently). "" when the problem file cannot be read.
std::string trace_cache_key(const std::string& problem_py);

// One outcome per job, in the jobs' order.
std::vector<TraceOutcome> trace_problems(const std::vector<TraceJob>& jobs, int parallel, double timeout_s);

}  // namespace ucutlass::graph

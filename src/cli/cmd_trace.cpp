// `ucutlass trace PROBLEM [--out FILE]`: a KernelBench-format problem to its
// op graph (docs/formats.md), through the harness tracer; runs without a GPU.
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "graph/graph_reader.h"
#include "graph/problem_trace.h"
#include "support/phase_timer.h"

namespace ucutlass::cli {
namespace {

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

int run_trace(const std::string& problem, const std::string& out_path, double timeout_s, const GlobalOptions& g) {
  std::string text, err;
  bool ok;
  {
    PhaseTimer t("trace");
    ok = graph::run_tracer(problem, timeout_s, &text, &err);
  }
  graph::OpGraph graph;
  if (ok) {
    PhaseTimer t("read");
    ok = graph::read_op_graph(text, problem + " (traced)", &graph, &err);
  }
  if (!ok) {
    if (g.json) std::cout << nlohmann::json{{"problem", problem}, {"ok", false}, {"error", err}}.dump(2) << "\n";
    else std::cerr << "ucutlass trace: " << err << "\n";
    return kExitFailure;
  }
  if (!out_path.empty()) {
    std::ofstream f(out_path);
    f << text;
    if (!f) {
      std::cerr << "ucutlass trace: cannot write " << out_path << "\n";
      return kExitFailure;
    }
  }
  if (g.json) {
    // The graph itself: what every later stage reads.
    std::cout << text << (text.ends_with("\n") ? "" : "\n");
    return kExitOk;
  }
  std::map<std::string, int> ops;
  for (const graph::Node& n : graph.nodes) ++ops[n.op];
  std::cout << graph.problem_name << ": " << graph.nodes.size() << " ops, " << graph.tensors.size() << " tensors\n";
  auto list = [&](const char* what, const std::vector<int>& ids) {
    for (int i : ids) {
      const graph::Tensor& t = graph.tensors[i];
      std::printf("  %-8s %-24s %-10s %s\n", what, t.name.empty() ? t.id.c_str() : t.name.c_str(),
                  graph::dtype_name(t.dtype).c_str(), shape_text(t.shape).c_str());
    }
  };
  list("input", graph.inputs);
  list("weight", graph.weights);
  list("output", graph.outputs);
  for (const auto& [op, count] : ops) std::printf("  %5d x %s\n", count, op.c_str());
  if (!out_path.empty()) std::cout << "graph written to " << out_path << "\n";
  if (g.stats) std::cerr << phase_stats_table();
  return kExitOk;
}

}  // namespace

UCUTLASS_COMMAND(trace, "Trace a KernelBench-format problem into an op graph (needs PyTorch, no GPU)",
                 [](CLI::App& app, const GlobalOptions& g) {
                   auto problem = std::make_shared<std::string>();
                   auto out = std::make_shared<std::string>();
                   auto timeout = std::make_shared<double>(600);
                   app.add_option("PROBLEM", *problem, "Problem file (class Model, get_inputs, get_init_inputs)")
                       ->required();
                   app.add_option("-o,--out", *out, "Also write the graph JSON to this file");
                   app.add_option("--timeout", *timeout, "Seconds the tracer may take");
                   return [problem, out, timeout, &g] { return run_trace(*problem, *out, *timeout, g); };
                 });

}  // namespace ucutlass::cli

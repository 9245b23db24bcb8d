#include "solution/channels_last.h"

#include "graph/node_args.h"
#include "sol/op_cost.h"

namespace ucutlass::solution {

std::set<int> channels_last_tensors(const graph::OpGraph& g, const std::vector<map::GemmMatch>& gemms,
                                    const std::vector<map::FusedEpilogue>& fused) {
  std::set<int> out;
  for (size_t i = 0; i < gemms.size(); ++i) {
    const map::GemmMatch& m = gemms[i];
    if (!m.conv || m.conv->output_copy || m.conv->subpixel) continue;
    out.insert(fused[i].steps ? m.chain[fused[i].steps - 1].output : m.output);
  }
  for (const graph::Node& n : g.nodes) {
    if (n.outputs.size() != 1 || !sol::elementwise_flops_per_element(graph::op_base_name(n.op))) continue;
    const auto& shape = g.tensors[n.outputs[0]].shape;
    for (int t : n.inputs)
      if (out.count(t) && g.tensors[t].shape == shape) {
        out.insert(n.outputs[0]);
        break;
      }
  }
  return out;
}

bool is_channel_softmax(const graph::OpGraph& g, const graph::Node& n, const std::set<int>& channels_last) {
  const std::string base = graph::op_base_name(n.op);
  if (base != "softmax" && base != "_softmax" && base != "log_softmax" && base != "_log_softmax") return false;
  if (n.args.size() < 2 || !n.args[1].is_number_integer()) return false;
  const int x = graph::arg_tensor(g, n, 0, "self");
  if (x < 0 || !channels_last.count(x)) return false;
  const int64_t rank = static_cast<int64_t>(g.tensors[x].shape.size());
  const int64_t dim = n.args[1].get<int64_t>();
  return rank >= 3 && (dim == 1 || dim == 1 - rank);
}

}  // namespace ucutlass::solution

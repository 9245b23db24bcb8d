#include "sol/degenerate.h"

#include <algorithm>
#include <cstdio>
#include <unordered_set>

#include "graph/node_args.h"

namespace ucutlass::sol {

using graph::Node;
using graph::OpGraph;
using graph::Tensor;

namespace {

enum class ValueKind { varying, input_independent, zero };

// What is provably known about a tensor's values.
struct ValueFact {
  ValueKind kind = ValueKind::varying;
  int same_as = -1;  // a tensor with identical values in the same order (itself by default)
  int sign = 0;      // +1: never negative, -1: never positive, 0: unknown
  int origin = -1;   // the node where the fact arose
  std::string why;   // how that node made it so
};

bool in(std::string_view name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Ops with f(0) = 0 elementwise or as a reduction: a zero input stays zero.
bool preserves_zero(std::string_view b) {
  return is_view_op(b) ||
         in(b, {"relu", "relu6", "gelu", "silu", "tanh", "neg", "abs", "sum", "mean", "nansum", "amax", "amin",
                "hardtanh", "leaky_relu", "elu", "selu", "celu", "mish", "hardswish", "sin", "sqrt", "square",
                "sign", "trunc", "floor", "ceil", "round", "clone", "_to_copy", "to", "copy", "cat", "stack",
                "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
                "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "_adaptive_avg_pool2d",
                "dropout", "native_dropout", "feature_dropout", "softshrink", "hardshrink", "tanhshrink"});
}

bool is_random(std::string_view b) {
  return in(b, {"rand", "randn", "rand_like", "randn_like", "randint", "randint_like", "bernoulli", "dropout",
                "native_dropout", "feature_dropout", "alpha_dropout", "rrelu", "empty", "empty_like", "new_empty",
                "empty_strided", "new_empty_strided", "normal", "uniform", "multinomial"});
}

// Views and copies that keep every value in place (same order, same count).
bool keeps_values(std::string_view b) {
  return in(b, {"view", "_unsafe_view", "reshape", "flatten", "unflatten", "unsqueeze", "squeeze", "alias",
                "detach", "contiguous", "clone", "view_as", "lift_fresh_copy", "_reshape_alias", "identity"});
}

bool is_linear_reduction(std::string_view b) { return in(b, {"sum", "mean", "nansum"}); }

bool is_reduction_over_dims(std::string_view b) {
  return in(b, {"sum", "mean", "nansum", "nanmean", "amax", "amin", "max", "min", "logsumexp", "prod", "median",
                "argmax", "argmin", "var", "std", "cumsum", "cumprod", "logcumsumexp"});
}

std::string quote(const std::string& s) { return "\"" + s + "\""; }

class Analyzer {
 public:
  Analyzer(const OpGraph& g, const std::vector<OpCost>& costs, ToleranceProfile tolerance)
      : g_(g), costs_(costs), tolerance_(tolerance), facts_(g.tensors.size()), consumers_(g.consumers()), producers_(g.producers()) {
    result_.fate.assign(g.nodes.size(), NodeFate::live);
    result_.reduced.assign(g.nodes.size(), std::nullopt);
    identity_why_.assign(g.nodes.size(), "");
  }

  DegenerateAnalysis run() {
    seed_sources();
    for (size_t n = 0; n < g_.nodes.size(); ++n) propagate(static_cast<int>(n));
    find_collapses();
    assign_fates();
    return std::move(result_);
  }

 private:
  std::string describe(int node) const { return "node " + g_.nodes[node].id + " (" + g_.nodes[node].op + ")"; }
  std::string tensor_words(int t) const {
    const Tensor& x = g_.tensors[t];
    return quote(x.id) + (x.name.empty() ? "" : " (" + x.name + ")");
  }
  int root(int t) const { return facts_[t].same_as >= 0 ? facts_[t].same_as : t; }

  void seed_sources() {
    for (size_t t = 0; t < g_.tensors.size(); ++t) {
      facts_[t].same_as = static_cast<int>(t);
      const Tensor& x = g_.tensors[t];
      if (producers_[t] >= 0) continue;
      bool is_input = std::find(g_.inputs.begin(), g_.inputs.end(), static_cast<int>(t)) != g_.inputs.end() ||
                      x.role == graph::TensorRole::input;
      if (is_input) continue;
      facts_[t].kind = ValueKind::input_independent;
      if (x.value && std::all_of(x.value->begin(), x.value->end(), [](double v) { return v == 0; }))
        facts_[t].kind = ValueKind::zero;
    }
  }

  // A tensor argument's fact, or for a Python number the fact of a constant.
  std::optional<double> scalar_arg(const Node& n, size_t pos) const {
    if (n.args.is_array() && pos < n.args.size() && n.args[pos].is_number()) return n.args[pos].get<double>();
    int t = graph::arg_tensor(g_, n, pos, "other");
    if (t >= 0 && g_.tensors[t].value && g_.tensors[t].value->size() == 1) return (*g_.tensors[t].value)[0];
    return std::nullopt;
  }

  void set(int t, ValueKind kind, int node, std::string why, int same_as = -1) {
    facts_[t].kind = kind;
    facts_[t].origin = node;
    facts_[t].why = std::move(why);
    if (same_as >= 0) facts_[t].same_as = same_as;
  }

  // Output equals input `from` (same values, same order).
  void alias(int node, int out, int from, std::string why) {
    facts_[out] = facts_[from];
    facts_[out].same_as = root(from);
    if (!why.empty()) identity_why_[node] = std::move(why);
  }

  // The dims a reduction reduces, normalized; every dim when none are given.
  std::vector<int64_t> reduced_dims(const Node& n, const Tensor& x) const {
    std::vector<int64_t> dims = graph::arg_int_list(n, 1, "dim");
    const int64_t rank = static_cast<int64_t>(x.shape.size());
    if (dims.empty())
      for (int64_t d = 0; d < rank; ++d) dims.push_back(d);
    for (int64_t& d : dims)
      if (d < 0) d += rank;
    return dims;
  }

  bool all_size_one(const Tensor& x, const std::vector<int64_t>& dims) const {
    if (dims.empty()) return false;
    for (int64_t d : dims)
      if (d < 0 || d >= static_cast<int64_t>(x.shape.size()) || x.shape[d] != 1) return false;
    return true;
  }

  // Elements each normalization statistic is computed over, for norms that normalize groups.
  std::optional<int64_t> norm_group_size(const Node& n, std::string_view b, const Tensor& x) const {
    const int64_t c = x.shape.size() >= 2 ? x.shape[1] : 0;
    if (in(b, {"layer_norm", "native_layer_norm"})) {
      std::vector<int64_t> ns = graph::arg_int_list(n, 1, "normalized_shape");
      int64_t p = 1;
      for (int64_t d : ns) p *= d;
      return ns.empty() ? std::nullopt : std::optional<int64_t>(p);
    }
    if (b == "group_norm") {
      int64_t groups = graph::arg_int(n, 1, "num_groups").value_or(0);
      if (groups <= 0 || c == 0) return std::nullopt;
      return x.numel() / (x.shape[0] * groups);
    }
    if (b == "native_group_norm") {
      int64_t groups = graph::arg_int(n, 6, "group").value_or(0);
      int64_t hxw = graph::arg_int(n, 5, "HxW").value_or(0);
      int64_t cc = graph::arg_int(n, 4, "C").value_or(c);
      if (groups <= 0) return std::nullopt;
      return cc / groups * hxw;
    }
    if (in(b, {"batch_norm", "native_batch_norm", "_native_batch_norm_legit", "_native_batch_norm_legit_functional"})) {
      if (!graph::arg_bool(n, 5, "training").value_or(false) || c == 0) return std::nullopt;
      return x.numel() / c;
    }
    if (b == "instance_norm" && x.shape.size() >= 2) return x.numel() / (x.shape[0] * c);
    return std::nullopt;
  }

  void propagate(int node) {
    const Node& n = g_.nodes[node];
    const std::string b = graph::op_base_name(n.op);
    if (n.outputs.empty()) return;
    const int out = n.outputs[0];
    auto fact_of = [&](int t) { return t >= 0 ? facts_[t].kind : ValueKind::input_independent; };
    auto input = [&](size_t pos, const char* kw) { return graph::arg_tensor(g_, n, pos, kw); };
    const int x = n.inputs.empty() ? -1 : n.inputs[0];
    const Tensor* xt = x >= 0 ? &g_.tensors[x] : nullptr;

    bool any_zero = false, all_independent = true;
    for (int t : n.inputs) {
      any_zero = any_zero || facts_[t].kind == ValueKind::zero;
      all_independent = all_independent && facts_[t].kind != ValueKind::varying;
    }

    if (b == "sub" || b == "rsub") {
      int a = input(0, "input"), c = input(1, "other");
      if (a >= 0 && c >= 0 && root(a) == root(c) && g_.tensors[a].shape == g_.tensors[c].shape &&
          graph::arg_number(n, 2, "alpha").value_or(1.0) == 1.0)
        return set(out, ValueKind::zero, node, describe(node) + " subtracts a tensor from itself");
      if (a >= 0 && (fact_of(c) == ValueKind::zero || scalar_arg(n, 1) == 0.0) &&
          g_.tensors[a].shape == g_.tensors[out].shape && b == "sub")
        return alias(node, out, a, "subtracts zero");
    }
    if (b == "add") {
      int a = input(0, "input"), c = input(1, "other");
      if (a >= 0 && (fact_of(c) == ValueKind::zero || scalar_arg(n, 1) == 0.0) &&
          g_.tensors[a].shape == g_.tensors[out].shape)
        return alias(node, out, a, "adds zero");
      if (c >= 0 && fact_of(a) == ValueKind::zero && g_.tensors[c].shape == g_.tensors[out].shape)
        return alias(node, out, c, "adds zero");
    }
    if (b == "mul") {
      if (any_zero || scalar_arg(n, 1) == 0.0)
        return set(out, ValueKind::zero, node, describe(node) + " multiplies by zero");
      int a = input(0, "input");
      if (a >= 0 && scalar_arg(n, 1) == 1.0 && g_.tensors[a].shape == g_.tensors[out].shape)
        return alias(node, out, a, "multiplies by one");
    }
    if (in(b, {"relu", "relu6", "clamp_min"}) && x >= 0 && facts_[x].sign < 0 &&
        (b != "clamp_min" || scalar_arg(n, 1) == 0.0))
      return set(out, ValueKind::zero, node, describe(node) + " clips a value that is never positive");
    if (b == "div" && x >= 0 && facts_[x].kind == ValueKind::zero)
      return set(out, ValueKind::zero, node, describe(node) + " divides zero");
    if (in(b, {"mm", "bmm", "matmul", "linear", "addmm", "baddbmm", "convolution", "conv1d", "conv2d", "conv3d",
               "_convolution", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"})) {
      const bool bias_first = b == "addmm" || b == "baddbmm";
      int a = input(bias_first ? 1 : 0, "input"), w = input(bias_first ? 2 : 1, "weight");
      int bias = bias_first ? input(0, "input") : input(2, "bias");
      if (fact_of(a) == ValueKind::zero || (w >= 0 && fact_of(w) == ValueKind::zero)) {
        if (bias >= 0 && fact_of(bias) != ValueKind::zero)
          return set(out, ValueKind::input_independent, node, describe(node) + " multiplies by zero, leaving only its bias");
        return set(out, ValueKind::zero, node, describe(node) + " multiplies by zero");
      }
    }
    if (in(b, {"softmax", "_softmax", "log_softmax", "_log_softmax", "_safe_softmax"}) && xt) {
      int64_t dim = graph::arg_int(n, 1, "dim").value_or(-1);
      if (dim < 0) dim += static_cast<int64_t>(xt->shape.size());
      if (dim >= 0 && dim < static_cast<int64_t>(xt->shape.size()) && xt->shape[dim] == 1) {
        if (b.find("log") != std::string::npos)
          return set(out, ValueKind::zero, node,
                     describe(node) + " normalizes over a dimension of size 1 (every value is 0)");
        return set(out, ValueKind::input_independent, node,
                   describe(node) + " normalizes over a dimension of size 1 (every value is 1)");
      }
    }
    if (is_reduction_over_dims(b) && xt && b != "cumsum" && b != "cumprod" && b != "logcumsumexp") {
      if (all_size_one(*xt, reduced_dims(n, *xt))) {
        if (in(b, {"argmax", "argmin"}))
          return set(out, ValueKind::zero, node, describe(node) + " takes the index over dimensions of size 1");
        if (in(b, {"var", "std"}))
          return set(out, ValueKind::input_independent, node,
                     describe(node) + " measures spread over dimensions of size 1");
        alias(node, out, x, "reduces only dimensions of size 1, so its output equals its input");
        if (n.outputs.size() > 1)
          set(n.outputs[1], ValueKind::zero, node, describe(node) + " takes the index over dimensions of size 1");
        return;
      }
    }
    if (xt) {
      if (std::optional<int64_t> group = norm_group_size(n, b, *xt); group && *group == 1) {
        const bool layer = b.find("layer") != std::string::npos;
        int bias = input(layer ? 3 : b == "group_norm" ? 3 : 2, "bias");
        ValueKind kind = bias >= 0 && fact_of(bias) != ValueKind::zero ? ValueKind::input_independent : ValueKind::zero;
        return set(out, kind, node,
                   describe(node) + " normalizes groups of a single element, so its output is its bias" +
                       (kind == ValueKind::zero ? " (none: zero)" : ""));
      }
    }
    if (b == "neg" && x >= 0 && facts_[x].kind == ValueKind::varying) {
      facts_[out].sign = -facts_[x].sign;
      return;
    }
    if (in(b, {"relu", "relu6", "sigmoid", "softmax", "_softmax", "exp", "abs", "square", "sqrt", "softplus",
               "hardsigmoid"}) && !all_independent) {
      facts_[out].sign = 1;
      return;
    }
    if (keeps_values(b) && x >= 0 && g_.tensors[x].numel() == g_.tensors[out].numel()) return alias(node, out, x, "");
    if (any_zero && preserves_zero(b) && all_independent) {
      for (int o : n.outputs) set(o, ValueKind::zero, node, facts_[x >= 0 ? x : o].why);
      return;
    }
    if (all_independent && !is_random(b)) {
      // Carry the first explanation forward: the node that made the value constant.
      int src = -1;
      for (int t : n.inputs)
        if (facts_[t].origin >= 0) src = t;
      for (int o : n.outputs) {
        facts_[o].kind = ValueKind::input_independent;
        facts_[o].origin = src >= 0 ? facts_[src].origin : -1;
        facts_[o].why = src >= 0 ? facts_[src].why : "it is computed from weights and constants only";
      }
    }
  }

  // The chain GEMM -> (linear ops) -> sum/mean over N or M.
  void find_collapses() {
    for (size_t gi = 0; gi < g_.nodes.size(); ++gi) {
      const OpCost& c = costs_[gi];
      if ((c.kind != OpKind::gemm && c.kind != OpKind::bmm) || !c.gemm) continue;
      const Node& gemm_node = g_.nodes[gi];
      if (gemm_node.outputs.size() != 1) continue;
      int cur = gemm_node.outputs[0];
      std::vector<int> chain;
      while (true) {
        if (is_graph_output(cur) || consumers_[cur].size() != 1) break;
        int next = consumers_[cur][0];
        const Node& nn = g_.nodes[next];
        const std::string b = graph::op_base_name(nn.op);
        if (nn.outputs.empty()) break;
        const Tensor& cur_t = g_.tensors[cur];
        if (is_linear_reduction(b)) {
          if (try_collapse(static_cast<int>(gi), chain, next, cur_t)) break;
          break;
        }
        if (!linear_step(nn, b, cur, c.gemm->n)) break;
        chain.push_back(next);
        cur = nn.outputs[0];
      }
    }
  }

  bool is_graph_output(int t) const { return std::find(g_.outputs.begin(), g_.outputs.end(), t) != g_.outputs.end(); }

  // Ops that commute with a sum over N: reshapes keeping N last, adding an
  // input-independent term, scaling by a scalar or a per-column constant.
  bool linear_step(const Node& n, const std::string& b, int cur, int64_t gemm_n) const {
    const Tensor& out = g_.tensors[n.outputs[0]];
    if (keeps_values(b)) return !out.shape.empty() && out.shape.back() == gemm_n;
    if (out.shape != g_.tensors[cur].shape) return false;  // a broadcast that grows the tensor changes the sum
    int other = -1;
    for (int t : n.inputs)
      if (t != cur) other = t;
    const bool scalar_other = other < 0 || g_.tensors[other].numel() == 1;
    const bool independent_other = other < 0 || facts_[other].kind != ValueKind::varying;
    if (b == "add" || b == "sub") return independent_other;
    if (b == "mul" || b == "div") {
      if (b == "div" && other >= 0 && graph::arg_tensor(g_, n, 0, "input") == other) return false;  // c / y
      return scalar_other || (independent_other && g_.tensors[other].numel() <= gemm_n);
    }
    return false;
  }

  bool try_collapse(int gi, const std::vector<int>& chain, int red, const Tensor& cur_t) {
    const Node& rn = g_.nodes[red];
    const int64_t rank = static_cast<int64_t>(cur_t.shape.size());
    if (rank < 1) return false;
    std::vector<int64_t> dims = reduced_dims(rn, cur_t);
    const bool over_n = std::find(dims.begin(), dims.end(), rank - 1) != dims.end();
    const bool over_m = rank >= 2 && std::find(dims.begin(), dims.end(), rank - 2) != dims.end();
    if (!over_n && !over_m) return false;
    const GemmDims d = *costs_[gi].gemm;
    OpCost r = costs_[gi];
    r.kind = OpKind::gemv;
    const double batch = static_cast<double>(d.batch);
    std::string way;
    if (over_n) {
      // sum_n x_m . W_n = x_m . (sum_n W_n): a GEMV plus one pass over W.
      r.flops = 2.0 * batch * d.m * d.k + batch * d.n * d.k;
      r.gemm = GemmDims{d.batch, d.m, 1, d.k};
      r.shape = "M=" + std::to_string(d.m) + " N=1 K=" + std::to_string(d.k) + " (from N=" + std::to_string(d.n) + ")";
      way = "sums over N=" + std::to_string(d.n);
    } else {
      r.flops = batch * d.m * d.k + 2.0 * batch * d.n * d.k;
      r.gemm = GemmDims{d.batch, 1, d.n, d.k};
      r.shape = "M=1 N=" + std::to_string(d.n) + " K=" + std::to_string(d.k) + " (from M=" + std::to_string(d.m) + ")";
      way = "sums over M=" + std::to_string(d.m);
    }
    if (d.batch > 1) r.shape = "B=" + std::to_string(d.batch) + " " + r.shape;
    r.writes.clear();
    for (int t : rn.outputs) r.writes.push_back({t, static_cast<double>(g_.tensors[t].bytes())});
    r.note = "collapsed: the reduction after it is folded in";
    result_.reduced[gi] = r;
    collapse_of_[gi] = true;
    for (int c : chain) absorbed_.insert(c);
    absorbed_.insert(red);
    const Node& gn = g_.nodes[gi];
    result_.findings.push_back({"gemm-collapses-to-gemv", gn.id, g_.tensors[rn.outputs[0]].id,
                                describe(red) + " " + way + " right after " + describe(gi) + " (" +
                                    costs_[gi].shape + "), so the GEMM reduces to a GEMV (" + r.shape + ")"});
    return true;
  }

  // A softmax over L elements averages 1/L; when that is under the absolute
  // tolerance, an all-zero output passes allclose. The bound still prices the
  // real softmax: skipping it would be gaming, not a cheaper honest kernel.
  void check_under_tolerance(int t) {
    int p = producers_[root(t)];
    if (p < 0) return;
    const Node& n = g_.nodes[p];
    const std::string b = graph::op_base_name(n.op);
    if (!in(b, {"softmax", "_softmax", "_safe_softmax"}) || n.inputs.empty()) return;
    const Tensor& x = g_.tensors[n.inputs[0]];
    int64_t dim = graph::arg_int(n, 1, "dim").value_or(-1);
    if (dim < 0) dim += static_cast<int64_t>(x.shape.size());
    if (dim < 0 || dim >= static_cast<int64_t>(x.shape.size())) return;
    const int64_t len = x.shape[dim];
    const double atol = tolerance_for(g_.tensors[t].dtype, tolerance_);
    if (len <= 0 || 1.0 / static_cast<double>(len) >= atol) return;
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  " is a softmax over %lld elements: its values average 1/%lld = %.3g, under the tolerance %g, "
                  "so an all-zero output passes allclose; the bound still prices the full softmax",
                  static_cast<long long>(len), static_cast<long long>(len), 1.0 / static_cast<double>(len), atol);
    result_.findings.push_back({"output-under-tolerance", n.id, g_.tensors[t].id, "output " + tensor_words(t) + buf});
  }

  void assign_fates() {
    const size_t nn = g_.nodes.size();
    // Naive liveness: which nodes reach an output at all.
    std::vector<bool> reaches(g_.tensors.size(), false);
    for (int t : g_.outputs) reaches[t] = true;
    std::vector<bool> live(nn, false);
    for (size_t i = nn; i-- > 0;) {
      const Node& n = g_.nodes[i];
      live[i] = std::any_of(n.outputs.begin(), n.outputs.end(), [&](int t) { return reaches[t]; });
      if (live[i])
        for (int t : n.inputs) reaches[t] = true;
    }
    // Reduced liveness: constant values are precomputed, identities pass through.
    std::vector<bool> needed(g_.tensors.size(), false);
    for (int t : g_.outputs)
      if (facts_[t].kind == ValueKind::varying) needed[root(t)] = needed[t] = true;
    for (size_t i = nn; i-- > 0;) {
      const Node& n = g_.nodes[i];
      if (!live[i]) {
        result_.fate[i] = NodeFate::dead;
        continue;
      }
      const bool wanted = std::any_of(n.outputs.begin(), n.outputs.end(), [&](int t) { return needed[t]; });
      const bool constant = std::all_of(n.outputs.begin(), n.outputs.end(),
                                        [&](int t) { return facts_[t].kind != ValueKind::varying; });
      if (constant) {
        result_.fate[i] = NodeFate::constant;
        continue;
      }
      if (!wanted) {
        result_.fate[i] = NodeFate::unneeded;
        continue;
      }
      if (!identity_why_[i].empty() && !n.outputs.empty() && root(n.outputs[0]) != n.outputs[0]) {
        result_.fate[i] = NodeFate::identity;
        needed[root(n.outputs[0])] = true;
        for (int t : n.inputs)
          if (root(t) == root(n.outputs[0])) needed[t] = true;
        continue;
      }
      result_.fate[i] = absorbed_.count(static_cast<int>(i)) ? NodeFate::absorbed
                        : collapse_of_.count(static_cast<int>(i)) ? NodeFate::collapsed
                                                                  : NodeFate::live;
      for (int t : n.inputs)
        if (facts_[t].kind == ValueKind::varying) needed[t] = needed[root(t)] = true;
    }
    // A collapse whose GEMM turned out unneeded (its sum feeds a constant) is moot.
    for (auto& [gi, _] : collapse_of_)
      if (result_.fate[gi] != NodeFate::collapsed) result_.reduced[gi].reset();
    std::erase_if(result_.findings, [&](const DegenerateFinding& f) {
      if (f.kind != "gemm-collapses-to-gemv") return false;
      for (size_t i = 0; i < nn; ++i)
        if (g_.nodes[i].id == f.node) return result_.fate[i] != NodeFate::collapsed;
      return true;
    });

    for (int t : g_.outputs) {
      const ValueFact& f = facts_[t];
      if (f.kind == ValueKind::varying) {
        check_under_tolerance(t);
        continue;
      }
      const bool zero = f.kind == ValueKind::zero;
      std::string msg = "output " + tensor_words(t) + (zero ? " is provably zero" : " does not depend on the inputs");
      msg += f.why.empty() ? "" : ": " + f.why;
      std::vector<std::string> skipped;
      for (size_t i = 0; i < nn; ++i)
        if ((result_.fate[i] == NodeFate::unneeded || result_.fate[i] == NodeFate::constant) &&
            costs_[i].kind != OpKind::view)
          skipped.push_back(g_.nodes[i].id);
      if (!skipped.empty()) {
        msg += "; the reduced problem skips ";
        for (size_t i = 0; i < skipped.size(); ++i) msg += (i ? ", " : "") + skipped[i];
      }
      result_.findings.push_back({zero ? "zero-output" : "constant-output",
                                  f.origin >= 0 ? g_.nodes[f.origin].id : "", g_.tensors[t].id, msg});
    }
    for (size_t i = 0; i < nn; ++i) {
      const Node& n = g_.nodes[i];
      if (result_.fate[i] == NodeFate::dead && costs_[i].kind != OpKind::view) {
        std::string outs;
        for (int t : n.outputs) outs += (outs.empty() ? "" : ", ") + quote(g_.tensors[t].id);
        result_.findings.push_back({"dead-op", n.id, "", describe(static_cast<int>(i)) + " computes " +
                                                            (outs.empty() ? "nothing" : outs) + ", which no output uses"});
      }
      if (result_.fate[i] == NodeFate::identity)
        result_.findings.push_back({"identity-op", n.id, "", describe(static_cast<int>(i)) + " " + identity_why_[i]});
    }
  }

  const OpGraph& g_;
  const std::vector<OpCost>& costs_;
  ToleranceProfile tolerance_;
  std::vector<ValueFact> facts_;
  std::vector<std::vector<int>> consumers_;
  std::vector<int> producers_;
  std::vector<std::string> identity_why_;
  std::unordered_set<int> absorbed_;
  std::unordered_map<int, bool> collapse_of_;
  DegenerateAnalysis result_;
};

}  // namespace

std::string fate_name(NodeFate f) {
  switch (f) {
    case NodeFate::live: return "live";
    case NodeFate::dead: return "dead";
    case NodeFate::constant: return "constant";
    case NodeFate::identity: return "identity";
    case NodeFate::absorbed: return "absorbed";
    case NodeFate::collapsed: return "collapsed";
    case NodeFate::unneeded: return "unneeded";
  }
  return "live";
}

DegenerateAnalysis analyze_degenerate(const OpGraph& g, const std::vector<OpCost>& costs, ToleranceProfile tolerance) {
  return Analyzer(g, costs, tolerance).run();
}

}  // namespace ucutlass::sol

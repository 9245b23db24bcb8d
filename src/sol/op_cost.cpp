#include "sol/op_cost.h"

#include <algorithm>
#include <array>
#include <unordered_map>
#include <unordered_set>

#include "graph/node_args.h"

namespace ucutlass::sol {

using graph::DType;
using graph::Node;
using graph::OpGraph;
using graph::Tensor;

namespace {

constexpr std::array<const char*, 17> kKindNames{
    "view", "gemm", "bmm", "gemv", "conv", "conv_transpose", "conv_depthwise", "attention", "elementwise",
    "reduction", "softmax", "norm", "pooling", "embedding", "copy", "creation", "unknown"};

const std::unordered_set<std::string_view>& view_ops() {
  static const std::unordered_set<std::string_view> ops{
      "view", "_unsafe_view", "reshape", "t", "permute", "transpose", "expand", "expand_as", "unsqueeze",
      "squeeze", "flatten", "unflatten", "slice", "select", "narrow", "as_strided", "alias", "detach",
      "contiguous", "view_as", "split", "split_with_sizes", "chunk", "unbind", "getitem", "unsafe_split",
      "movedim", "_reshape_alias", "numpy_T", "mT", "lift_fresh", "lift_fresh_copy", "sym_size", "sym_stride",
      "sym_numel", "_assert_async", "_assert_scalar", "_assert_tensor_metadata", "unfold", "diagonal",
      "view_as_real", "view_as_complex", "broadcast_to", "swapaxes", "swapdims", "adjoint", "identity"};
  return ops;
}

// FLOPs per output element. Transcendentals count as 4: they run on the SFU
// or as short polynomials, and none of this matters once an op is memory-bound,
// which element-wise ops always are.
const std::unordered_map<std::string_view, double>& elementwise_ops() {
  static const std::unordered_map<std::string_view, double> ops{
      {"add", 1}, {"sub", 1}, {"rsub", 1}, {"mul", 1}, {"div", 1}, {"neg", 1}, {"abs", 1}, {"relu", 1},
      {"relu6", 2}, {"clamp", 2}, {"clamp_min", 1}, {"clamp_max", 1}, {"clip", 2}, {"hardtanh", 2},
      {"maximum", 1}, {"minimum", 1}, {"fmax", 1}, {"fmin", 1}, {"where", 1}, {"masked_fill", 1},
      {"sign", 1}, {"reciprocal", 1}, {"square", 1}, {"threshold", 1}, {"leaky_relu", 2}, {"fmod", 2},
      {"remainder", 2}, {"floor", 1}, {"ceil", 1}, {"round", 1}, {"trunc", 1}, {"eq", 1}, {"ne", 1},
      {"lt", 1}, {"le", 1}, {"gt", 1}, {"ge", 1}, {"logical_and", 1}, {"logical_or", 1}, {"logical_not", 1},
      {"bitwise_and", 1}, {"bitwise_or", 1}, {"bitwise_not", 1}, {"lerp", 3}, {"addcmul", 3}, {"addcdiv", 3},
      {"exp", 4}, {"exp2", 4}, {"expm1", 4}, {"log", 4}, {"log2", 4}, {"log10", 4}, {"log1p", 4},
      {"sigmoid", 4}, {"tanh", 4}, {"sqrt", 4}, {"rsqrt", 4}, {"pow", 4}, {"erf", 4}, {"erfc", 4},
      {"sin", 4}, {"cos", 4}, {"softplus", 4}, {"elu", 4}, {"selu", 4}, {"celu", 4}, {"silu", 5},
      {"gelu", 8}, {"mish", 8}, {"hardswish", 3}, {"hardsigmoid", 3}, {"log_sigmoid", 5}, {"logit", 4},
      {"softsign", 2}, {"tanhshrink", 5}, {"hardshrink", 1}, {"softshrink", 2}, {"glu", 5}, {"prelu", 2},
      {"rrelu", 2}, {"dropout", 2}, {"native_dropout", 2}, {"feature_dropout", 2}, {"alpha_dropout", 3},
      {"bernoulli", 1}, {"nan_to_num", 1}, {"isnan", 1}, {"isinf", 1}, {"copysign", 1}, {"atan2", 4},
      {"xlogy", 4}, {"hypot", 4}, {"sgn", 1}};
  return ops;
}

enum class Family { view, matmul, conv, attention, elementwise, reduction, softmax, norm, pooling, embedding, copy, creation };

const std::unordered_map<std::string_view, Family>& families() {
  static const std::unordered_map<std::string_view, Family> f = [] {
    std::unordered_map<std::string_view, Family> m;
    for (const char* n : {"mm", "addmm", "bmm", "baddbmm", "addbmm", "matmul", "linear", "mv", "addmv", "dot",
                          "vdot", "_scaled_mm", "inner", "_grouped_mm", "_scaled_grouped_mm"})
      m[n] = Family::matmul;
    for (const char* n : {"convolution", "_convolution", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                          "conv_transpose2d", "conv_transpose3d", "cudnn_convolution", "cudnn_convolution_transpose"})
      m[n] = Family::conv;
    for (const char* n : {"scaled_dot_product_attention", "_scaled_dot_product_flash_attention",
                          "_scaled_dot_product_efficient_attention", "_scaled_dot_product_cudnn_attention",
                          "_scaled_dot_product_flash_attention_for_cpu", "_scaled_dot_product_attention_math"})
      m[n] = Family::attention;
    for (const char* n : {"sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin", "prod", "var", "std",
                          "var_mean", "std_mean", "logsumexp", "norm", "linalg_vector_norm", "frobenius_norm",
                          "cumsum", "cumprod", "logcumsumexp", "cummax", "cummin", "any", "all", "count_nonzero",
                          "nansum", "nanmean", "median", "aminmax"})
      m[n] = Family::reduction;
    for (const char* n : {"softmax", "_softmax", "log_softmax", "_log_softmax", "_safe_softmax", "softmin"})
      m[n] = Family::softmax;
    for (const char* n : {"layer_norm", "native_layer_norm", "group_norm", "native_group_norm", "batch_norm",
                          "native_batch_norm", "_native_batch_norm_legit", "_native_batch_norm_legit_functional",
                          "_native_batch_norm_legit_no_training", "instance_norm", "rms_norm", "_fused_rms_norm",
                          "local_response_norm", "_batch_norm_with_update", "_batch_norm_no_update"})
      m[n] = Family::norm;
    for (const char* n : {"max_pool1d", "max_pool2d", "max_pool3d", "max_pool1d_with_indices",
                          "max_pool2d_with_indices", "max_pool3d_with_indices", "avg_pool1d", "avg_pool2d",
                          "avg_pool3d", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
                          "_adaptive_avg_pool2d", "_adaptive_avg_pool3d", "adaptive_max_pool1d",
                          "adaptive_max_pool2d", "adaptive_max_pool3d", "lp_pool1d", "lp_pool2d"})
      m[n] = Family::pooling;
    m["embedding"] = Family::embedding;
    for (const char* n : {"clone", "cat", "concat", "concatenate", "stack", "index_select", "gather", "scatter",
                          "scatter_add", "scatter_reduce", "index", "index_put", "slice_scatter", "select_scatter",
                          "diagonal_scatter", "constant_pad_nd", "pad", "reflection_pad1d", "reflection_pad2d",
                          "reflection_pad3d", "replication_pad1d", "replication_pad2d", "replication_pad3d",
                          "repeat", "roll", "flip", "tril", "triu", "copy", "_to_copy", "to", "type_as",
                          "masked_select", "sort", "topk", "im2col", "col2im", "pixel_shuffle", "pixel_unshuffle",
                          "channel_shuffle", "upsample_nearest2d", "upsample_bilinear2d", "_unsafe_index",
                          "expand_copy", "permute_copy", "view_copy", "transpose_copy", "tile"})
      m[n] = Family::copy;
    for (const char* n : {"zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like",
                          "new_zeros", "new_ones", "new_full", "new_empty", "arange", "linspace", "rand", "randn",
                          "rand_like", "randn_like", "randint", "randint_like", "scalar_tensor", "eye",
                          "empty_strided", "new_empty_strided", "fill"})
      m[n] = Family::creation;
    for (const auto& [name, _] : elementwise_ops()) m[name] = Family::elementwise;
    for (std::string_view v : view_ops()) m[v] = Family::view;
    return m;
  }();
  return f;
}

std::string dims_text(const std::vector<int64_t>& dims, const char* sep = "x") {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? sep : "") + std::to_string(dims[i]);
  return s.empty() ? "scalar" : s;
}

int64_t product(const std::vector<int64_t>& v, size_t from = 0) {
  int64_t p = 1;
  for (size_t i = from; i < v.size(); ++i) p *= v[i];
  return p;
}

class Coster {
 public:
  Coster(const OpGraph& g, const Node& n) : g_(g), n_(n), base_(graph::op_base_name(n.op)) {}

  OpCost run() {
    cost_.reads.clear();
    for (int t : n_.inputs)
      if (std::none_of(cost_.reads.begin(), cost_.reads.end(), [&](const TensorAccess& a) { return a.tensor == t; }))
        cost_.reads.push_back({t, static_cast<double>(g_.tensors[t].bytes())});
    for (int t : n_.outputs) cost_.writes.push_back({t, static_cast<double>(g_.tensors[t].bytes())});
    cost_.math_dtype = data_dtype();

    // `max.other`/`min.other` are element-wise, `max.dim` a reduction: the overload decides.
    std::string_view overload = std::string_view(n_.op).substr(std::min(n_.op.size(), n_.op.rfind('.') + 1));
    auto it = families().find(base_);
    if ((base_ == "max" || base_ == "min") && overload == "other") {
      elementwise(1);
    } else if (it == families().end()) {
      unknown();
    } else {
      switch (it->second) {
        case Family::view: view(); break;
        case Family::matmul: matmul(); break;
        case Family::conv: conv(); break;
        case Family::attention: attention(); break;
        case Family::elementwise: elementwise(elementwise_ops().at(base_)); break;
        case Family::reduction: reduction(); break;
        case Family::softmax: per_input_element(OpKind::softmax, 5); break;
        case Family::norm: per_input_element(OpKind::norm, base_.find("rms") != std::string::npos ? 4 : 8); break;
        case Family::pooling: pooling(); break;
        case Family::embedding: embedding(); break;
        case Family::copy: cost_.kind = OpKind::copy; break;
        case Family::creation:
          cost_.kind = OpKind::creation;
          cost_.reads.clear();  // *_like ops read only the shape
          break;
      }
    }
    return cost_;
  }

 private:
  const Tensor* tensor(int i) const { return i >= 0 ? &g_.tensors[i] : nullptr; }

  // The tensor bound to an argument; tracers that left `args` empty still list inputs in order.
  const Tensor* operand(size_t position, std::string_view name) const {
    int t = graph::arg_tensor(g_, n_, position, name);
    if (t < 0 && n_.args.empty() && n_.kwargs.empty() && position < n_.inputs.size()) t = n_.inputs[position];
    return tensor(t);
  }

  const Tensor* output() const { return n_.outputs.empty() ? nullptr : &g_.tensors[n_.outputs[0]]; }

  DType data_dtype() const {
    for (int t : n_.inputs)
      if (graph::is_floating(g_.tensors[t].dtype)) return g_.tensors[t].dtype;
    if (const Tensor* o = output()) return o->dtype;
    return DType::f32;
  }

  void drop_read(const Tensor* t) {
    std::erase_if(cost_.reads, [&](const TensorAccess& a) { return &g_.tensors[a.tensor] == t; });
  }

  void view() {
    cost_.kind = OpKind::view;
    cost_.reads.clear();
    cost_.writes.clear();
  }

  void unknown() {
    cost_.kind = OpKind::unknown;
    for (int t : n_.outputs) cost_.flops += static_cast<double>(g_.tensors[t].numel());
    cost_.note = "unknown op: priced as an element-wise op over its tensors, a floor below its real cost";
  }

  void elementwise(double per_element) {
    cost_.kind = OpKind::elementwise;
    const Tensor* o = output();
    cost_.flops = per_element * static_cast<double>(o ? o->numel() : 0);
  }

  void per_input_element(OpKind kind, double per_element) {
    cost_.kind = kind;
    const Tensor* x = operand(0, "input");
    if (!x) x = output();
    cost_.flops = per_element * static_cast<double>(x ? x->numel() : 0);
  }

  void reduction() {
    double per = 1;
    if (base_ == "logsumexp" || base_ == "logcumsumexp") per = 4;
    if (base_.starts_with("var") || base_.starts_with("std")) per = 3;
    if (base_.find("norm") != std::string::npos) per = 2;
    per_input_element(OpKind::reduction, per);
  }

  // torch._grouped_mm(mat_a, mat_b, offs): G independent GEMMs in one op. The bound is the
  // sum over groups. With a 2-D operand, `offs` (cumulative ends, one per group) splits one of
  // its dimensions, and the sum of the groups' extents along it is offs[G - 1]: 2-D x 3-D splits
  // A's rows (MoE: sum m_g), 3-D x 2-D B's columns, 2-D x 2-D the shared K (out is [G, M, N]).
  // The per-group sizes themselves are not needed, only the covered extent; when the graph
  // does not record offs's value, the groups are assumed to cover the whole dimension (the
  // note says so), which is the largest work the tensors allow.
  void grouped_matmul() {
    const Tensor* a = operand(0, "mat_a");
    const Tensor* b = operand(1, "mat_b");
    const Tensor* offs = operand(2, "offs");
    const Tensor* out = output();
    if (!a || !b || !out || a->shape.size() < 2 || a->shape.size() > 3 || b->shape.size() < 2 ||
        b->shape.size() > 3)
      return unknown();
    cost_.math_dtype = a->dtype;
    const bool a3 = a->shape.size() == 3, b3 = b->shape.size() == 3;
    const int64_t split_full = a3 && b3 ? 0 : !a3 && b3 ? a->shape[0] : a3 ? b->shape[1] : a->shape[1];
    int64_t split = split_full;
    if (!(a3 && b3)) {
      if (offs && offs->value && !offs->value->empty())
        split = std::clamp<int64_t>(static_cast<int64_t>(offs->value->back()), 0, split_full);
      else
        cost_.note = "grouped_mm: offs is not recorded, so the groups are assumed to cover all " +
                     std::to_string(split_full) + (a3 ? " columns of mat_b" : b3 ? " rows of mat_a" : " of K") +
                     "; the bound needs the sum of the groups' extents (offs[-1]) to be exact";
    }
    GemmDims d;  // the groups' sum as one problem: batch G for 3-D x 3-D, else the split extent summed
    if (a3 && b3) d = {a->shape[0], a->shape[1], b->shape[2], a->shape[2]};
    else if (b3) d = {1, split, b->shape[2], a->shape[1]};
    else if (a3) d = {1, a->shape[1], split, a->shape[2]};
    else d = {1, a->shape[0], b->shape[1], split};
    cost_.flops = 2.0 * static_cast<double>(d.batch) * d.m * d.n * d.k;
    // Rows (or columns) no group covers are neither read nor written.
    if (split < split_full && split_full > 0) {
      const double covered = static_cast<double>(split) / split_full;
      for (TensorAccess& r : cost_.reads) {
        const Tensor* t = &g_.tensors[r.tensor];
        if ((t == a && !a3) || (t == b && !b3)) r.bytes *= covered;  // the 2-D operands hold the split
      }
      if (a3 != b3)
        for (TensorAccess& w : cost_.writes) w.bytes *= covered;
    }
    cost_.kind = OpKind::bmm;
    const int64_t groups = offs ? offs->numel() : a3 ? a->shape[0] : b3 ? b->shape[0] : 1;
    cost_.shape = "grouped G=" + std::to_string(groups) + " " + (a3 && b3 ? "M=" : b3 ? "sum M=" : "M=") +
                  std::to_string(d.m) + (a3 && !b3 ? " sum N=" : " N=") + std::to_string(d.n) +
                  (!a3 && !b3 ? " sum K=" : " K=") + std::to_string(d.k);
  }

  void matmul() {
    if (base_ == "_grouped_mm" || base_ == "_scaled_grouped_mm") return grouped_matmul();
    const bool has_bias = base_ == "addmm" || base_ == "baddbmm" || base_ == "addmv" || base_ == "addbmm";
    const size_t a_pos = has_bias ? 1 : 0;
    const Tensor* a = operand(a_pos, has_bias ? "mat1" : "input");
    const Tensor* b = operand(a_pos + 1, has_bias ? "mat2" : (base_ == "linear" ? "weight" : "mat2"));
    const Tensor* out = output();
    if (!a || !b || !out || a->shape.empty()) return unknown();
    cost_.math_dtype = a->dtype;
    GemmDims d;
    d.k = a->shape.back();
    if (base_ == "linear") {
      d.n = b->shape.size() == 2 ? b->shape[0] : 1;
      d.m = d.k ? a->numel() / d.k : 0;
    } else if (base_ == "addbmm" && a->shape.size() == 3 && b->shape.size() == 3) {
      d.batch = a->shape[0];
      d.m = a->shape[1];
      d.n = b->shape[2];
    } else if (b->shape.size() == 1) {
      d.n = 1;
      d.m = std::max<int64_t>(out->numel(), 1);
    } else {
      d.n = b->shape.back();
      if (b->shape.size() == 2) {
        d.m = d.k ? a->numel() / d.k : 0;
      } else {
        d.m = a->shape.size() >= 2 ? a->shape[a->shape.size() - 2] : 1;
        d.batch = (d.m * d.n) != 0 ? out->numel() / (d.m * d.n) : 0;
      }
    }
    const double mnb = static_cast<double>(d.batch) * d.m * d.n;
    cost_.flops = 2.0 * mnb * static_cast<double>(d.k);

    const Tensor* bias = nullptr;
    if (has_bias) bias = operand(0, "input");
    if (base_ == "linear") bias = operand(2, "bias");
    if (base_ == "_scaled_mm") bias = operand(4, "bias");
    if (bias) {
      double beta = has_bias ? graph::arg_number(n_, 3, "beta").value_or(1.0) : 1.0;
      if (beta == 0)
        drop_read(bias);  // beta = 0: the input is never read
      else
        cost_.flops += mnb * (beta == 1 ? 1 : 2);
    }
    if (has_bias && graph::arg_number(n_, 4, "alpha").value_or(1.0) != 1.0) cost_.flops += mnb;

    cost_.kind = (d.m == 1 || d.n == 1) ? OpKind::gemv : d.batch > 1 ? OpKind::bmm : OpKind::gemm;
    cost_.gemm = d;
    cost_.shape = (d.batch > 1 ? "B=" + std::to_string(d.batch) + " " : std::string()) + "M=" + std::to_string(d.m) +
                  " N=" + std::to_string(d.n) + " K=" + std::to_string(d.k);
  }

  void conv() {
    const Tensor* x = operand(0, "input");
    const Tensor* w = operand(1, "weight");
    const Tensor* out = output();
    if (!x || !w || !out || w->shape.size() < 3) return unknown();
    cost_.math_dtype = x->dtype;
    const bool full_form = base_ == "convolution" || base_ == "_convolution";
    const bool transposed = full_form ? graph::arg_bool(n_, 6, "transposed").value_or(false)
                                      : base_.find("transpose") != std::string::npos;
    const size_t groups_pos = full_form ? 8 : 6;
    const int64_t groups = std::max<int64_t>(graph::arg_int(n_, groups_pos, "groups").value_or(1), 1);
    const size_t spatial = w->shape.size() - 2;
    const int64_t kernel = product(w->shape, 2);
    const bool batched = x->shape.size() == spatial + 2;
    const int64_t c_in = x->shape.size() > spatial ? x->shape[batched ? 1 : 0] : 0;
    std::vector<int64_t> kernel_dims(w->shape.begin() + 2, w->shape.end());
    std::vector<int64_t> in_dims(x->shape.end() - static_cast<long>(std::min(spatial, x->shape.size())), x->shape.end());
    std::vector<int64_t> out_dims(out->shape.end() - static_cast<long>(std::min(spatial, out->shape.size())),
                                  out->shape.end());

    GemmDims d;
    d.batch = groups;
    int64_t c_out = 0;
    if (!transposed) {
      const int64_t k = w->shape[0], c_per_group = w->shape[1];
      c_out = k;
      cost_.flops = 2.0 * static_cast<double>(out->numel()) * c_per_group * kernel;
      d.m = k ? out->numel() / k : 0;
      d.n = k / groups;
      d.k = c_per_group * kernel;
      cost_.kind = groups > 1 && c_per_group == 1 ? OpKind::conv_depthwise : OpKind::conv;
    } else {
      const int64_t c_out_per_group = w->shape[1];
      c_out = c_out_per_group * groups;
      cost_.flops = 2.0 * static_cast<double>(x->numel()) * c_out_per_group * kernel;
      d.m = c_in ? x->numel() / c_in : 0;
      d.n = c_out_per_group * kernel;
      d.k = c_in / groups;
      cost_.kind = OpKind::conv_transpose;
    }
    if (operand(2, "bias")) cost_.flops += static_cast<double>(out->numel());
    cost_.gemm = d;
    cost_.shape = "conv" + std::to_string(spatial) + "d N=" + std::to_string(batched ? x->shape[0] : 1) +
                  " C=" + std::to_string(c_in) + " K=" + std::to_string(c_out) + " in=" + dims_text(in_dims) +
                  " out=" + dims_text(out_dims) + " filter=" + dims_text(kernel_dims) +
                  (groups > 1 ? " groups=" + std::to_string(groups) : "");
    if (cost_.kind == OpKind::conv_depthwise)
      cost_.note = "depthwise: one input channel per filter, so memory-bound; priced on the tensor path as a floor";
  }

  void attention() {
    const Tensor* q = operand(0, "query");
    const Tensor* k = operand(1, "key");
    const Tensor* v = operand(2, "value");
    if (!q || !k || !v || q->shape.size() < 2 || k->shape.size() < 2 || v->shape.empty()) return unknown();
    cost_.math_dtype = q->dtype;
    size_t causal_pos = 5;
    if (base_ == "_scaled_dot_product_flash_attention" || base_ == "_scaled_dot_product_flash_attention_for_cpu")
      causal_pos = 4;
    if (base_ == "_scaled_dot_product_efficient_attention" || base_ == "_scaled_dot_product_cudnn_attention")
      causal_pos = 6;
    const bool causal = graph::arg_bool(n_, causal_pos, "is_causal").value_or(false);
    const int64_t sq = q->shape[q->shape.size() - 2], d = q->shape.back();
    const int64_t sk = k->shape[k->shape.size() - 2], dv = v->shape.back();
    const int64_t bh = (sq * d) != 0 ? q->numel() / (sq * d) : 0;
    // Causal masks are aligned top-left (torch): row i sees keys 0..i.
    double pairs = static_cast<double>(sq) * sk;
    if (causal) {
      const int64_t full_rows = std::max<int64_t>(sq - sk, 0);  // rows that see every key
      const int64_t ramp = sq - full_rows;                       // rows i < sk see i + 1 keys
      pairs = static_cast<double>(ramp) * (ramp + 1) / 2 + static_cast<double>(full_rows) * sk;
    }
    cost_.kind = OpKind::attention;
    cost_.flops = 2.0 * bh * pairs * static_cast<double>(d + dv);
    cost_.gemm = GemmDims{bh, sq, sk, d};
    cost_.shape = "BH=" + std::to_string(bh) + " Sq=" + std::to_string(sq) + " Sk=" + std::to_string(sk) +
                  " D=" + std::to_string(d) + (dv != d ? " Dv=" + std::to_string(dv) : "") + (causal ? " causal" : "");
    cost_.note = "QK^T and PV on tensor cores; softmax exponentials are not priced";
  }

  void pooling() {
    cost_.kind = OpKind::pooling;
    const Tensor* x = operand(0, "input");
    const Tensor* out = output();
    if (!x || !out) return unknown();
    size_t digit = base_.find_first_of("123");
    const size_t spatial = digit == std::string::npos ? 2 : static_cast<size_t>(base_[digit] - '0');
    double window = 1;
    if (base_.find("adaptive") != std::string::npos) {
      for (size_t i = 0; i < spatial && i < x->shape.size() && i < out->shape.size(); ++i) {
        int64_t in_d = x->shape[x->shape.size() - 1 - i], out_d = out->shape[out->shape.size() - 1 - i];
        window *= out_d ? static_cast<double>((in_d + out_d - 1) / out_d) : 0;
      }
    } else {
      window = static_cast<double>(product(graph::arg_int_list(n_, 1, "kernel_size", spatial)));
    }
    cost_.flops = window * static_cast<double>(out->numel());
  }

  void embedding() {
    cost_.kind = OpKind::embedding;
    const Tensor* w = operand(0, "weight");
    const Tensor* idx = operand(1, "indices");
    if (!w || !idx || w->shape.size() != 2) return unknown();
    // Only the rows looked up are compulsory; repeated indices read once.
    const double rows = static_cast<double>(std::min(idx->numel(), w->shape[0]));
    for (TensorAccess& a : cost_.reads)
      if (&g_.tensors[a.tensor] == w) a.bytes = rows * w->shape[1] * graph::dtype_bytes(w->dtype);
    cost_.math_dtype = w->dtype;
    cost_.note = "reads only the looked-up rows (at most one per index)";
  }

  const OpGraph& g_;
  const Node& n_;
  std::string base_;
  OpCost cost_;
};

}  // namespace

std::string kind_name(OpKind k) { return kKindNames[static_cast<size_t>(k)]; }

bool is_gemm_like(OpKind k) {
  return k == OpKind::gemm || k == OpKind::bmm || k == OpKind::gemv || k == OpKind::conv ||
         k == OpKind::conv_transpose || k == OpKind::conv_depthwise || k == OpKind::attention;
}

double OpCost::bytes_read() const {
  double s = 0;
  for (const TensorAccess& a : reads) s += a.bytes;
  return s;
}

double OpCost::bytes_written() const {
  double s = 0;
  for (const TensorAccess& a : writes) s += a.bytes;
  return s;
}

bool is_view_op(std::string_view base_name) { return view_ops().count(base_name) > 0; }

std::optional<double> elementwise_flops_per_element(std::string_view base_name) {
  auto it = elementwise_ops().find(base_name);
  if (it == elementwise_ops().end()) return std::nullopt;
  return it->second;
}

OpCost cost_node(const OpGraph& g, const Node& node) { return Coster(g, node).run(); }

}  // namespace ucutlass::sol

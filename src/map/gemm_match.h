#pragma once
// Pattern matching over an op graph: every GEMM-like node (mm, addmm, linear,
// matmul, bmm) becomes a GemmMatch with its problem extents, its operands as
// graph tensors with their natural layouts, and the chain of element-wise
// nodes after it that could fold into the epilogue (epilogue_table.h). Which
// prefix of that chain a kernel really fuses depends on the configuration
// (sm80 takes a leading per-column bias and one activation), so that choice is made later, by
// fusable_prefix().
//
//   linear(x[B,S,K], W[N,K], b) -> gelu -> mul 0.5
//   => gemm m = B*S, n = N, k = K; a = x (flattened, row), b = W^T (col);
//      chain: bias(col) [built into linear], gelu, scale(0.5)
//
// Convolution anchors become GemmMatches too, named conv0, conv1, ..., with
// `conv` set and the implicit GEMM's extents (conv_match.h).
//
// Nodes that match nothing stay in PyTorch inside the same ModelNew.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "graph/op_graph.h"
#include "ir/types.h"
#include "map/epilogue_table.h"

namespace ucutlass::map {

// How a kernel operand is made from a graph tensor, in Python terms.
enum class OperandView {
  as_is,       // the tensor is the operand ([R, C] or [batch, R, C])
  transposed,  // the operand is tensor.transpose(-1, -2) (nn.Linear's weight)
  flattened,   // [..., K] folded to [M, K] by reshape(-1, K)
  batch_flattened,  // [..., R, C] folded to [batch, R, C] by reshape(-1, R, C)
};

struct GemmOperand {
  int tensor = -1;
  OperandView view = OperandView::as_is;
  ir::Layout natural = ir::Layout::row;  // layout of the operand as the graph stores it
  bool strided = false;                  // neither layout: the kernel needs a copy whatever it chooses
  bool parameter = false;                // a module parameter or buffer: fixed across calls, so derived
                                         // forms (a K-stacked split) are built once per version
};

// A convolution anchor (conv_match.h): the window in PyTorch's terms. The
// match's m, n, k are the implicit GEMM's; a is the activation, b the weight,
// both in PyTorch's NC(D)(H)W / K C (T)(R)S shapes (the binding copies them to
// channels-last). A transposed convolution is kept in ConvTranspose's terms
// (c = its in_channels, k = its out_channels) and runs as the forward's dgrad.
struct ConvSpec {
  int dims = 2;  // 1, 2 or 3 spatial dimensions
  bool transposed = false;
  int64_t n = 0, c = 0, k = 0, groups = 1;
  // Per spatial dimension d, h, w as in ir::ConvProblem: a conv2d uses [1] and [2]; unused ones are
  // extent 1, pad 0, stride 1, dilation 1.
  std::array<int64_t, 3> input{}, filter{}, pad{}, stride{1, 1, 1}, dilation{1, 1, 1}, output_padding{};
  // Layout traffic of the PyTorch side: the activation is copied to
  // channels-last unless an earlier conv kernel produced it (already
  // channels-last in memory); the result is copied back to contiguous only
  // when a consumer needs contiguous strides (view) or would copy it itself
  // (group norm, avg_pool3d: map/conv_match.cpp).
  bool input_copy = true;
  bool output_copy = false;
  int64_t x_elements = 0, w_elements = 0, y_elements = 0;  // activation, weight, result

  // Set when this spec is a transposed conv rewritten as a sub-pixel convolution (map/subpixel.h):
  // the spec is then the stride-1 fprop over prod(stride) x Cout channels, and this keeps what the
  // pixel shuffle after the kernel needs to rebuild the transposed conv's output.
  struct Subpixel {
    std::array<int64_t, 3> stride{1, 1, 1};  // the transposed conv's, per d, h, w
    std::array<int64_t, 3> crop{};           // its padding: where the output starts in the shuffled grid
    std::array<int64_t, 3> out{1, 1, 1};     // its output extents
    int64_t y_elements = 0;                   // its output's elements
  };
  std::optional<Subpixel> subpixel;
  // Set when `c` was zero-padded up to 16-byte pixels for sm90a's TMA loads (map/channel_pad.h): the
  // input channels the problem has.
  int64_t padded_from = 0;
  // Set when this spec is a strided forward conv rewritten over its input's space-to-depth blocks
  // (map/space_to_depth.h): the spec is then the stride-1, unpadded conv over prod(stride) x C
  // channels, and this keeps what the solution needs to build that input from the problem's.
  struct SpaceToDepth {
    std::array<int64_t, 3> stride{1, 1, 1};  // the conv's, per d, h, w: the block
    std::array<int64_t, 3> pad{};            // its padding: where block row 0 starts in x
    std::array<int64_t, 3> grid{1, 1, 1};    // blocks per dimension: the rewritten input's extents
    int64_t channels = 0;                    // the problem's input channels
  };
  std::optional<SpaceToDepth> space_to_depth;

  // A depthwise conv2d fprop (groups = c = k): what sm80 runs as CUTLASS's SIMT direct
  // convolution (ir/validate_depthwise.h), with its own tiles (a bias fuses as C, as on sm80).
  bool is_depthwise_conv2d() const { return !transposed && dims == 2 && groups > 1 && groups == c && c == k; }
};

// A row-wise anchor (map/row_match.h): softmax, a norm or a reduction over each row of x's
// contiguous innermost `length` elements, run by a row kernel (ir/row_problem.h).
struct RowSpec {
  ir::RowOp op = ir::RowOp::softmax;
  int x = -1;                       // the input tensor
  int weight = -1, bias = -1;       // an affine norm's parameters, else -1
  int64_t rows = 0, length = 0;
  int64_t groups = 1, channel_span = 1;  // groupnorm
  double eps = 1e-5;
};

// A fused attention anchor (map/attention_match.h): softmax(scale Q K^T [masked]) V over the
// [batch..., seq, head_dim] tensors q, k, v, run by an attention kernel (ir/attention_problem.h).
struct AttentionSpec {
  int q = -1, k = -1, v = -1;
  int mask = -1;        // a bool [seq_q, seq_k] tensor (masked_fill / attn_mask semantics), else -1
  bool causal = false;  // sdpa's is_causal
  int64_t batch = 0, seq_q = 0, seq_k = 0, head_dim = 0;
  double scale = 0;
  // q or k is a problem input: the harness redraws it unnormalized (x * 4 - 1 on its shifted trial), and
  // bf16 scores of such inputs missed 1e-2, so only split (bf16x3) scores are searched.
  bool scores_from_inputs = false;
  std::vector<int> nodes;  // every graph node the kernel replaces, the last one producing the output
};

struct GemmMatch {
  std::string name;  // kernel name in the DSL program: gemm0, gemm1, ...
  int anchor = -1;   // the GEMM node
  std::string anchor_op;
  int64_t m = 0, n = 0, k = 0, batch = 1;
  graph::DType in = graph::DType::f32, out = graph::DType::f32;
  GemmOperand a, b;
  int output = -1;  // the anchor's output tensor
  // Candidate epilogue steps in order; a bias built into linear/addmm comes
  // first with node == anchor and output == the anchor's output.
  std::vector<ChainStep> chain;
  std::optional<ConvSpec> conv;  // set for a convolution anchor: the kernel is a conv of the DSL
  std::optional<RowSpec> rows;   // set for a row anchor (map/row_match.h): named row0, row1, ...
  std::optional<AttentionSpec> attention;  // set for an attention anchor (map/attention_match.h): attn0, ...
  // The anchor is in OpGraph::fp32_products: only the math paths of the strict (1e-4) profile.
  bool fp32_products = false;
};

struct MatchReport {
  std::vector<GemmMatch> gemms;
  int collapsed_sums = 0;  // linear + sum pairs match_problem rewrote as GEMVs first (graph/collapse_gemm_sum.h)
  std::vector<std::string> notes;  // GEMM-like and conv nodes left to PyTorch, and why
};

MatchReport match_gemms(const graph::OpGraph& g);

// match_gemms; where it finds nothing, again after spelling out the graph's plain attention
// (graph/decompose_attention.h, which rewrites `g`). Only then: a problem with other GEMMs keeps
// PyTorch's fused attention, whose measured speed (level3/005 ran 3.03x under kernelbench-v0.1 with it)
// the spelled-out form, which stores Q K^T, has not yet been measured against.
// `spelled_out` (if given) says whether the attention was spelled out.
MatchReport match_gemms_or_attention(graph::OpGraph& g, bool* spelled_out = nullptr);

// The element type of a graph dtype in the DSL, when the DSL has it.
std::optional<ir::DType> dsl_dtype(graph::DType d);

// What a kernel on `arch` can fuse of the chain: the longest legal prefix,
// with alpha and beta folded. sm90a: one bias, any activations, scales before
// any bias (or through relu/leaky_relu when positive), a residual before any
// other step; sm80: a per-column bias first (read as C), at most one activation.
// One fused chain step that the kernel runs as an epilogue step of the DSL (bias and activations
// always; on sm90a also what follows them: scale(v), add(v), add(col), mul(col), residual).
struct FusedStep {
  const ChainStep* step = nullptr;
  std::string dsl;    // its DSL text: "gelu", "scale(0.5)", "add(col)"
  std::string extra;  // the host entry's operand it reads ("add_col", "residual", ...), or ""
};

struct FusedEpilogue {
  size_t steps = 0;  // chain[0, steps) is fused
  double alpha = 1, beta = 0;
  int residual = -1;  // tensor read as C
  int bias = -1;
  // A second per-column vector added right after the bias (level2/025's deconv bias + a bias parameter),
  // where the kernel takes no operand for it (convolutions, sm80): passed summed with the bias.
  int bias2 = -1;
  ir::BiasKind bias_kind = ir::BiasKind::col;
  std::vector<FusedStep> dsl_steps;  // in order
  bool reads_matrix_extra = false;   // a residual after other steps, read as an aux tensor of D's shape
};
// A GEMV kernel (`gemv`, ir/validate_gemv.h) fuses alpha and beta only: scales and a residual.
// At most `max_steps` steps (0: no cap; KernelConfig::fuse_steps).
FusedEpilogue fusable_prefix(const GemmMatch& m, ir::Arch arch, bool gemv = false, size_t max_steps = 0);

// Whether the match can run as a GEMV kernel (gemv(m = M, k = K), ir/validate_gemv.h): a
// matrix-vector product y = A x, N = 1, with A row-major as the graph stores it (K contiguous:
// a transposed view of it would need a copy of the whole matrix, the very traffic a GEMV is
// bound by), x not strided, and a type the Gemv takes (f32, f16, bf16).
bool runs_as_gemv(const GemmMatch& m);

}  // namespace ucutlass::map

namespace ucutlass::map {

// One line: "gemm0 linear m=1024 n=8192 k=8192 f32 a=row b=col chain: bias(col) relu".
std::string describe(const GemmMatch& m);

}  // namespace ucutlass::map

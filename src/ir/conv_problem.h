#pragma once
// The problem of a convolution kernel: which pass (fprop, dgrad, wgrad), the
// tensor extents in PyTorch's terms, and the window (padding, stride,
// dilation, groups). A conv kernel is an implicit GEMM, so the GemmKernel
// that holds a ConvProblem keeps every GEMM setting (types, tile, cluster,
// schedule, stages, epilogue); conv_gemm_extents() gives its M, N, K:
//
//   pass    A (operand)        B (operand)       D (result)        M        N          K
//   fprop   x      [N,D,H,W,C] w  [K,T,R,S,C/g]  y  [N,Z,P,Q,K]     N*Z*P*Q  K          T*R*S*C/g
//   dgrad   dy     [N,Z,P,Q,K] w  [K,T,R,S,C/g]  dx [N,D,H,W,C]     N*D*H*W  C          T*R*S*K/g
//   wgrad   dy     [N,Z,P,Q,K] x  [N,D,H,W,C]    dw [K,T,R,S,C/g]   K        T*R*S*C/g  N*Z*P*Q
//
// Tensors are channels-last (NHWC, NDHWC, NWC; filters KRSC): what CUTLASS
// reads. Unused spatial dimensions (depth for conv2d, depth and height for
// conv1d) have extent 1, padding 0, stride 1, dilation 1, so one formula
// serves 1D, 2D and 3D. Indices 0, 1, 2 are depth, height, width.
#include <array>
#include <cstdint>
#include <initializer_list>

#include "ir/types.h"
#include "support/source_file.h"

namespace ucutlass::ir {

// An integer of the problem with the span of the text that set it.
struct ConvValue {
  int64_t value = 0;  // 0 = given at run time (`dynamic`), for batch and spatial input extents only
  Span span;
  bool is_dynamic() const { return value == 0; }
};

// padding, stride or dilation: one value per spatial dimension.
struct ConvWindow {
  std::array<int64_t, 3> value{};
  Span span;
};

struct ConvProblem {
  int dims = 2;  // 1, 2 or 3 spatial dimensions
  ConvMode mode = ConvMode::fprop;
  Span mode_span;
  ConvValue n, c, k;                    // batch, input channels, output channels
  std::array<ConvValue, 3> input;       // D, H, W of the input x
  std::array<ConvValue, 3> filter;      // T, R, S
  ConvWindow pad{{0, 0, 0}, {}};
  ConvWindow stride{{1, 1, 1}, {}};
  ConvWindow dilation{{1, 1, 1}, {}};
  ConvValue groups{1, {}};

  // Output extent Z, P or Q of spatial dimension i (0 when the input is dynamic):
  // (in + 2 pad - dilation (f - 1) - 1) / stride + 1, PyTorch's formula.
  int64_t output(int i) const;
  // First spatial index used by this rank: 2 for conv1d (width only), 1 for conv2d, 0 for conv3d.
  int first_dim() const { return 3 - dims; }
  bool is_depthwise() const { return groups.value > 1 && groups.value == c.value && c.value == k.value; }
  int64_t input_pixels() const;   // N*D*H*W, 0 if any is dynamic
  int64_t output_pixels() const;  // N*Z*P*Q, 0 if any is dynamic
  int64_t filter_taps() const;    // T*R*S
};

// The product of non-negative factors, saturated at INT64_MAX (extents come from the program text, up to
// 2^31 - 1 each, and products of four of them overflow).
int64_t saturating_product(std::initializer_list<int64_t> factors);

// The implicit GEMM's extents for the table above (0 where a factor is dynamic).
struct ConvGemmExtents {
  int64_t m = 0, n = 0, k = 0;
};
ConvGemmExtents conv_gemm_extents(const ConvProblem& p);

// "conv2d" etc., for messages and canonical text.
const char* conv_op_name(const ConvProblem& p);
// Names of the spatial extents of the input, filter and output per index: "d", "h", "w"; "t", "r", "s"; "z", "p", "q".
const char* input_dim_name(int i);
const char* filter_dim_name(int i);
const char* output_dim_name(int i);

}  // namespace ucutlass::ir

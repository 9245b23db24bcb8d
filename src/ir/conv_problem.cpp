#include "ir/conv_problem.h"

#include <limits>

namespace ucutlass::ir {

int64_t saturating_product(std::initializer_list<int64_t> factors) {
  int64_t v = 1;
  for (int64_t f : factors) {
    if (f == 0) return 0;
    if (v > std::numeric_limits<int64_t>::max() / f) v = std::numeric_limits<int64_t>::max();
    else v *= f;
  }
  return v;
}

int64_t ConvProblem::output(int i) const {
  if (input[i].is_dynamic()) return 0;
  const int64_t span = dilation.value[i] * (filter[i].value - 1) + 1;
  const int64_t padded = input[i].value + 2 * pad.value[i];
  if (padded < span) return 0;
  return (padded - span) / stride.value[i] + 1;
}

int64_t ConvProblem::input_pixels() const {
  return saturating_product({n.value, input[0].value, input[1].value, input[2].value});
}

int64_t ConvProblem::output_pixels() const { return saturating_product({n.value, output(0), output(1), output(2)}); }

int64_t ConvProblem::filter_taps() const {
  return saturating_product({filter[0].value, filter[1].value, filter[2].value});
}

ConvGemmExtents conv_gemm_extents(const ConvProblem& p) {
  const int64_t g = p.groups.value > 0 ? p.groups.value : 1;
  switch (p.mode) {
    case ConvMode::fprop: return {p.output_pixels(), p.k.value, saturating_product({p.filter_taps(), p.c.value / g})};
    case ConvMode::dgrad: return {p.input_pixels(), p.c.value, saturating_product({p.filter_taps(), p.k.value / g})};
    case ConvMode::wgrad: return {p.k.value, saturating_product({p.filter_taps(), p.c.value / g}), p.output_pixels()};
  }
  return {};
}

const char* conv_op_name(const ConvProblem& p) { return p.dims == 1 ? "conv1d" : p.dims == 2 ? "conv2d" : "conv3d"; }

const char* input_dim_name(int i) { return i == 0 ? "d" : i == 1 ? "h" : "w"; }
const char* filter_dim_name(int i) { return i == 0 ? "t" : i == 1 ? "r" : "s"; }
const char* output_dim_name(int i) { return i == 0 ? "z" : i == 1 ? "p" : "q"; }

}  // namespace ucutlass::ir

#include "ir/operand_swap.h"

#include <utility>

namespace ucutlass::ir {

namespace {

Layout flipped(Layout l) { return l == Layout::row ? Layout::col : Layout::row; }

// A matrix read as its transpose keeps its bytes: only the name of its
// contiguous axis changes (row-major M x N = column-major N x M).
Setting<Layout> flipped(const Setting<Layout>& s) {
  Setting<Layout> out = s;
  out.value = flipped(s.value);
  return out;
}

}  // namespace

GemmKernel transposed(const GemmKernel& k) {
  GemmKernel t = k;
  std::swap(t.m, t.n);
  std::swap(t.a, t.b);
  t.layout_a = flipped(k.layout_b);
  t.layout_b = flipped(k.layout_a);
  t.layout_c = flipped(k.layout_c);
  std::swap(t.align_a, t.align_b);
  for (EpilogueStep& s : t.epilogue)
    if (s.kind == EpilogueStep::Kind::bias) s.bias = s.bias == BiasKind::col ? BiasKind::row : BiasKind::col;
  for (EpilogueExtra& x : t.extras) {
    if (x.kind == ExtraKind::row) x.kind = ExtraKind::col;
    else if (x.kind == ExtraKind::col) x.kind = ExtraKind::row;
  }
  return t;
}

GemmKernel as_run(const GemmKernel& k) { return k.swaps_operands() ? transposed(k) : k; }

}  // namespace ucutlass::ir

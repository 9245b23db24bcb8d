#include "map/stacked_k.h"

namespace ucutlass::map {

int64_t stacked_part_k(const GemmMatch& m, const KernelConfig& c) {
  if (!c.k_stack3 || m.conv) return m.k;
  const int64_t per_row = c.bf16_operands ? 8 : 4;  // 16 bytes of bf16 or f32 parts
  return (m.k + per_row - 1) / per_row * per_row;
}

}  // namespace ucutlass::map

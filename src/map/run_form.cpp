#include "map/run_form.h"

#include <algorithm>

#include "map/channel_pad.h"
#include "map/space_to_depth.h"
#include "map/subpixel.h"

namespace ucutlass::map {

GemmMatch as_run(const GemmMatch& m, const KernelConfig& c) {
  GemmMatch run = m;
  if (m.conv && !m.conv->subpixel && !m.conv->padded_from && !m.conv->space_to_depth) {
    std::optional<GemmMatch> r = c.subpixel         ? subpixel_match(m)
                                 : c.pad_channels   ? channel_pad_match(m)
                                 : c.space_to_depth ? space_to_depth_match(m)
                                                    : std::nullopt;
    if (r) run = *r;
  }
  // The kernel reads the operands the solution rounded (or split) to bf16; its output stays f32.
  if (c.bf16_operands && run.in == graph::DType::f32) run.in = graph::DType::bf16;
  return run;
}

int64_t forward_channels_per_group(const GemmMatch& run, const KernelConfig& c) {
  if (!run.conv || run.conv->transposed) return 0;
  return run.conv->c / std::max<int64_t>(1, run.conv->groups) * (c.k_stack3 ? 3 : 1);
}

}  // namespace ucutlass::map

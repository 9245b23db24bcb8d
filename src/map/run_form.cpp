#include "map/run_form.h"

#include <algorithm>

#include "map/channel_pad.h"
#include "map/space_to_depth.h"
#include "map/subpixel.h"

namespace ucutlass::map {

GemmMatch as_run(const GemmMatch& m, const KernelConfig& c) {
  // The kernel reads the operands the solution rounded (or split) to bf16; its output stays f32. The
  // rounding comes first: a channel pad fills 16-byte pixels of the type the kernel reads.
  GemmMatch run = m;
  run.in = run_input_type(m, c);
  if (run.conv && !run.conv->subpixel && !run.conv->padded_from && !run.conv->space_to_depth) {
    std::optional<GemmMatch> r = c.form == ConvForm::subpixel          ? subpixel_match(run)
                                 : c.form == ConvForm::padded_channels ? channel_pad_match(run)
                                 : c.form == ConvForm::space_to_depth  ? space_to_depth_match(run)
                                                                       : std::nullopt;
    if (r) run = *r;
  }
  return run;
}

graph::DType run_input_type(const GemmMatch& m, const KernelConfig& c) {
  return c.bf16_operands && m.in == graph::DType::f32 ? graph::DType::bf16 : m.in;
}

bool rounds_in_layout_copy(const KernelConfig& c) {
  return c.bf16_operands && !c.k_stack3 && c.form != ConvForm::padded_channels && c.form != ConvForm::space_to_depth;
}

int64_t forward_channels_per_group(const GemmMatch& run, const KernelConfig& c) {
  if (!run.conv || run.conv->transposed) return 0;
  return run.conv->c / std::max<int64_t>(1, run.conv->groups) * (c.k_stack3 ? 3 : 1);
}

}  // namespace ucutlass::map

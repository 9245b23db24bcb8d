#include "ir/gemm_settings_check.h"

namespace ucutlass::ir {

void reject_gemm_settings(const GemmKernel& k, Diagnostics& d, const std::string& kind, const std::string& settings,
                          const std::string& levers) {
  auto foreign = [&](const auto& s, const char* setting) {
    if (!s.is_auto) d.error(s.span, std::string(setting) + " does not apply to " + kind, settings, levers);
  };
  foreign(k.tile, "with_tile");
  foreign(k.cluster, "with_cluster");
  foreign(k.warps, "with_warps");
  foreign(k.schedule, "with_schedule");
  if (k.schedule.is_auto) foreign(k.epilogue_schedule, "with_schedule");
  foreign(k.stages, "with_stages");
  foreign(k.raster, "with_raster");
  foreign(k.scheduler, "with_scheduler");
  foreign(k.operand_swap, "with_operand_swap");
  foreign(k.align_a, "with_alignment");
  foreign(k.align_b, "with_alignment");
  foreign(k.align_c, "with_alignment");
  foreign(k.layout_a, "with_layouts");
  foreign(k.layout_b, "with_layouts");
  foreign(k.layout_c, "with_layouts");
  foreign(k.math, "with_math");
}

}  // namespace ucutlass::ir

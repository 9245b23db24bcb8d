#include "ir/resolve_auto.h"

#include <algorithm>

#include "ir/operand_swap.h"
#include "ir/validate.h"
#include "ir/validate_conv.h"
#include "ir/validate_depthwise.h"
#include "ir/validate_gemv.h"
#include "ir/validate_attention.h"
#include "ir/validate_rows.h"

namespace ucutlass::ir {

namespace {

// The extent along which consecutive elements of an operand are stored.
int64_t contiguous_a(const GemmKernel& k) { return k.layout_a.value == Layout::row ? k.k.value : k.m.value; }
int64_t contiguous_b(const GemmKernel& k) { return k.layout_b.value == Layout::col ? k.k.value : k.n.value; }
int64_t contiguous_c(const GemmKernel& k) { return k.layout_c.value == Layout::row ? k.n.value : k.m.value; }

// sm80 runs depthwise convolutions with CUTLASS's direct (SIMT) convolution (validate_depthwise.h).
bool is_sm80_depthwise(const GemmKernel& k) {
  return k.is_conv() && k.arch.value == Arch::sm80 && k.conv->is_depthwise();
}

bool is_cpasync(KernelSchedule s) {
  return s == KernelSchedule::cpasync || s == KernelSchedule::cpasync_cooperative ||
         s == KernelSchedule::cpasync_pingpong;
}

void resolve_types(GemmKernel& k) {
  bool f32_in = k.a.value == DType::f32;
  // Saying only A's type means B has the same one.
  if (k.b.is_auto) k.b.value = k.a.value;
  if (k.d.is_auto) k.d.value = is_fp8(k.a.value) ? DType::bf16 : k.a.value;
  // C is read only when beta can be non-zero or a custom step reads c; then it has D's type.
  if (k.c.is_auto) k.c.value = k.beta.value != 0.0 || k.reads_source_in_steps() ? k.d.value : DType::void_;
  choose(k.acc, DType::f32);
  choose(k.math, is_sm80_depthwise(k) || k.is_gemv() ? MathPath::simt
                 : f32_in                             ? MathPath::tf32
                                                      : MathPath::tensor_op);
  for (EpilogueStep& s : k.epilogue)
    if (s.kind == EpilogueStep::Kind::bias && s.bias_type == DType::void_) s.bias_type = k.d.value;
  for (EpilogueExtra& x : k.extras)
    if (x.type == DType::void_) x.type = x.kind == ExtraKind::scalar ? DType::f32 : k.d.value;
}

void resolve_alignment(GemmKernel& k) {
  // A convolution's contiguous extents are channels (per group), not GEMM rows.
  const ConvContiguous cc = k.is_conv() ? conv_contiguous_channels(*k.conv) : ConvContiguous{};
  choose(k.align_a, natural_alignment(k.a.value, k.is_conv() ? cc.a : contiguous_a(k)));
  choose(k.align_b, natural_alignment(k.b.value, k.is_conv() ? cc.b : contiguous_b(k)));
  DType cd = k.has_source() ? (bits_of(k.c.value) > bits_of(k.d.value) ? k.c.value : k.d.value) : k.d.value;
  choose(k.align_c, natural_alignment(cd, k.is_conv() ? cc.d : contiguous_c(k)));
  if (k.arch.value == Arch::sm80 && k.math.value == MathPath::simt && !is_sm80_depthwise(k)) {
    choose(k.align_a, 1);
    choose(k.align_b, 1);
    choose(k.align_c, 1);
  }
}

// Whether `auto` may pick the persistent ping-pong kernel: an fprop whose settings leave it legal
// (validate_conv.h's check_sm90_persistent: 1x1x1 cluster, tile M 64 or 128, M*N <= 16384).
bool pingpong_conv_fits(const GemmKernel& k) {
  if (k.conv->mode != ConvMode::fprop) return false;
  const Shape3& c = k.cluster.value;
  if (!k.cluster.is_auto && c.m * c.n * c.k != 1) return false;
  const Shape3& t = k.tile.value;
  if (!k.tile.is_auto && ((t.m != 64 && t.m != 128) || t.m * t.n > 16384)) return false;
  return k.epilogue_schedule.is_auto || k.epilogue_schedule.value == EpilogueSchedule::tma ||
         k.epilogue_schedule.value == EpilogueSchedule::tma_warpspecialized;
}

// SM90 convolutions (validate_conv.h): an fprop runs ucutlass's persistent ping-pong kernel by
// default, the fastest measured on the H200 (the 3x3 bf16 benchmark at 1.13-1.23x cuDNN against
// 0.60-0.73x for CUTLASS's non-persistent kernel, bench/results/conv-2026-11-30-105331 and -105448);
// dgrad, wgrad and fprops whose tile or cluster rule ping-pong out run CUTLASS's non-persistent
// warp-specialized kernel. Tile N follows the channel count so narrow layers waste no MMA work.
void resolve_sm90_conv(GemmKernel& k) {
  choose(k.schedule, pingpong_conv_fits(k) ? KernelSchedule::pingpong : KernelSchedule::warpspecialized);
  const bool cooperative = k.schedule.value == KernelSchedule::cooperative;
  const bool persistent = is_persistent_conv_schedule(k.schedule.value);
  int bits = bits_of(k.a.value);
  bool small_m = !k.m.is_dynamic() && k.m.value <= 64;
  int tile_n = !k.n.is_dynamic() && k.n.value <= 64 ? 64 : 128;
  choose(k.tile, Shape3{small_m && !cooperative ? 64 : 128, tile_n, bits == 16 ? 64 : 32});
  if (k.epilogue_schedule.is_auto || k.epilogue_schedule.value == EpilogueSchedule::tma)
    k.epilogue_schedule.value = cooperative ? EpilogueSchedule::tma_cooperative : EpilogueSchedule::tma_warpspecialized;
  choose(k.cluster, persistent ? Shape3{1, 1, 1} : Shape3{2, 1, 1});
  choose(k.warps, Shape3{0, 0, 0});
  choose(k.stages, 0);
  choose(k.scheduler, TileScheduler::persistent);  // emitted as the kernel's default (void) scheduler
}

void resolve_sm90(GemmKernel& k) {
  if (k.is_conv()) return resolve_sm90_conv(k);
  int bits = bits_of(k.a.value);
  bool small_m = !k.m.is_dynamic() && k.m.value <= 64;
  bool needs_coop = k.scheduler.value == TileScheduler::stream_k || k.scheduler.value == TileScheduler::split_k;
  int tile_m = (small_m && !needs_coop) ? 64 : 128;
  int tile_k = bits == 8 ? 128 : bits == 16 ? 64 : 32;
  // A narrow N (a swapped decode GEMM's few rows) takes the narrowest WGMMA N that covers it.
  int tile_n = !k.n.is_dynamic() && k.n.value <= 64 ? static_cast<int>((k.n.value + 15) / 16 * 16) : 128;
  choose(k.tile, Shape3{tile_m, tile_n, tile_k});
  // TMA needs 16-byte aligned rows; narrower operands fall back to cp.async.
  // A grouped GEMM has TMA schedules only (validate_grouped.h): no cp.async fallback.
  bool tma_ok = k.is_grouped() ||
                (k.align_a.value * bits_of(k.a.value) % 128 == 0 && k.align_b.value * bits_of(k.b.value) % 128 == 0);
  if (k.schedule.is_auto) {
    bool coop = k.tile.value.m % 128 == 0;
    if (tma_ok) k.schedule.value = coop ? KernelSchedule::cooperative : KernelSchedule::pingpong;
    else k.schedule.value = coop ? KernelSchedule::cpasync_cooperative : KernelSchedule::cpasync_pingpong;
  }
  bool cpasync = is_cpasync(k.schedule.value);
  bool tma_epi_ok = k.align_c.value * bits_of(k.d.value) % 128 == 0 &&
                    (!k.has_source() || k.align_c.value * bits_of(k.c.value) % 128 == 0);
  if (k.epilogue_schedule.is_auto || k.epilogue_schedule.value == EpilogueSchedule::tma) {
    bool plain = k.epilogue.empty();
    // Only `auto` may fall back to the no-smem epilogue; an explicit `tma`
    // stays a TMA epilogue and the validator says why it cannot be.
    if (k.epilogue_schedule.is_auto && !k.is_grouped() && (cpasync || (!tma_epi_ok && plain))) {
      k.epilogue_schedule.value = EpilogueSchedule::nosmem;
    } else {
      bool coop = k.schedule.value == KernelSchedule::cooperative ||
                  k.schedule.value == KernelSchedule::cpasync_cooperative;
      k.epilogue_schedule.value = coop ? EpilogueSchedule::tma_cooperative : EpilogueSchedule::tma_warpspecialized;
    }
  }
  choose(k.cluster, cpasync ? Shape3{1, 1, 1} : Shape3{2, 1, 1});
  choose(k.warps, Shape3{0, 0, 0});  // SM90 warp layout is fixed by the schedule
  choose(k.stages, 0);
  choose(k.scheduler, TileScheduler::persistent);
}

// Depthwise: 8x8 output pixels by up to 64 channels per CTA, all r x s taps, warps of 16 pixels
// (a 4x4, 2x4 or 2x2 thread tile by tile N) and 3 stages. The epilogue stages the output tile's
// accumulators in one activation stage (depthwise_epilogue_fits): when they do not fit (16-bit
// inputs, f32 accumulators, 64 channels, stride 1), more warps, whose whole loads round the stage
// up. A stride or dilation widens the activation tile in shared memory: then 2 stages, then 4x8
// and 4x4 output tiles, until one fits.
void resolve_sm80_depthwise(GemmKernel& k) {
  const int64_t channels = k.conv->k.value;
  const int tile_n = channels % 64 == 0 ? 64 : channels % 32 == 0 ? 32 : 16;
  const int taps = static_cast<int>(k.conv->filter[1].value * k.conv->filter[2].value);
  const bool auto_warps = k.warps.is_auto, auto_stages = k.stages.is_auto;
  for (int tile_m : {64, 32, 16}) {
    choose(k.tile, Shape3{tile_m, tile_n, taps});
    const int first = std::max(k.tile.value.m / 16, 1);
    for (int warps = first; warps <= (auto_warps ? 16 : first); warps *= 2) {
      if (auto_warps) k.warps.value = Shape3{warps, 1, 1};
      if (warps > first && !depthwise_thread_tile_ok(k)) continue;
      for (int stages : {3, 2}) {
        if (auto_stages) k.stages.value = stages;
        if (depthwise_epilogue_fits(k) && depthwise_smem_bytes(k, k.stages.value) <= kSmemCapacityBytes) return;
      }
    }
    // Nothing fits this tile: back to its warps of 16 pixels (the validator explains the last try).
    if (auto_warps) k.warps.value = Shape3{first, 1, 1};
    if (auto_stages) k.stages.value = 2;
  }
}

void resolve_sm80(GemmKernel& k) {
  bool simt = k.math.value == MathPath::simt;
  int bits = bits_of(k.a.value);
  if (is_sm80_depthwise(k)) {
    resolve_sm80_depthwise(k);
  } else if (simt) {
    choose(k.tile, Shape3{128, 128, 8});
    choose(k.warps, Shape3{4, 2, 1});
    choose(k.stages, 4);
  } else if (bits == 32) {  // tf32 and tf32x3
    choose(k.tile, Shape3{128, 128, 16});
    choose(k.warps, Shape3{2, 2, 1});
    choose(k.stages, 4);
  } else {
    choose(k.tile, Shape3{128, 128, 32});
    choose(k.warps, Shape3{2, 2, 1});
    choose(k.stages, 4);
  }
  // A grouped conv's N tile must lie inside one group or cover whole groups (validate_conv.h).
  if (k.is_conv() && k.conv->groups.value > 1 && !k.conv->is_depthwise() && k.tile.is_auto) {
    const int64_t per_group = k.conv->k.value / k.conv->groups.value;
    k.tile.value.n = per_group % 128 == 0 ? 128 : per_group % 64 == 0 || 64 % per_group == 0 ? 64 : 128;
  }
  choose(k.cluster, Shape3{1, 1, 1});
  choose(k.schedule, KernelSchedule::multistage);
  choose(k.epilogue_schedule, EpilogueSchedule::nosmem);
  // SM80 has no persistent scheduler: a plain data-parallel grid.
  choose(k.scheduler, TileScheduler::persistent);
}

// GEMV (validate_gemv.h): sm80 (its only kernel), 32-byte loads or the widest that divides K,
// a whole warp per row (every M is legal, and a long row has 32 loads in flight per warp
// instead of 4 rows' worth of short ones), 256 threads, or fewer when that leaves under
// two CTAs per SM of a 132-SM GPU. Alignments follow the loads: A and x by access, y by
// the element (it is stored one element per row).
void resolve_gemv(GemmKernel& k) {
  choose(k.arch, Arch::sm80);
  GemvLevers& g = k.gemv_levers;
  const int max_access = gemv_max_access(k.a.value);
  if (g.access.is_auto) {
    g.access.value = max_access;
    while (g.access.value > 1 && !k.k.is_dynamic() && k.k.value % g.access.value != 0) g.access.value /= 2;
  }
  choose(g.threads_per_row, 32);
  if (g.threads.is_auto) {
    g.threads.value = 256;
    const int tpr = std::max(g.threads_per_row.value, 1);
    auto ctas = [&](int threads) { return (k.m.value + threads / tpr - 1) / std::max(threads / tpr, 1); };
    while (!k.m.is_dynamic() && g.threads.value > 32 && g.threads.value / 2 >= tpr && ctas(g.threads.value) < 264)
      g.threads.value /= 2;
  }
  choose(k.align_a, g.access.value);
  choose(k.align_b, g.access.value);
  choose(k.align_c, 1);
  // The settings of tiled kernels, at fixed values so the canonical text means one kernel.
  choose(k.tile, Shape3{0, 0, 0});
  choose(k.cluster, Shape3{1, 1, 1});
  choose(k.warps, Shape3{0, 0, 0});
  choose(k.stages, 0);
  choose(k.schedule, KernelSchedule::multistage);
  choose(k.epilogue_schedule, EpilogueSchedule::nosmem);
  choose(k.scheduler, TileScheduler::persistent);
}

// with_operand_swap(auto): swap a fixed-size sm90a GEMM whose M would leave most of a
// 64-row tile empty while N is wide, the LLM-decode shape (operand_swap.h). A swapped
// tile N can be 16 or 32 rows of the problem; a convolution's operands are fixed.
void resolve_operand_swap(GemmKernel& k) {
  if (k.operand_swap.value != OperandSwap::auto_) return;
  const bool fixed = !k.m.is_dynamic() && !k.n.is_dynamic();
  k.operand_swap.value = k.arch.value == Arch::sm90a && !k.is_conv() && !k.is_grouped() && fixed &&
                                 swap_pays_off(k.m.value, k.n.value)
                             ? OperandSwap::on
                             : OperandSwap::off;
}

// Tiles, schedules and alignments are chosen for the kernel as it runs, then the
// problem is turned back to the program's view (transposed twice is the identity).
void resolve_settings(GemmKernel& k) {
  resolve_alignment(k);
  if (k.arch.value == Arch::sm90a) resolve_sm90(k);
  else resolve_sm80(k);
}

}  // namespace

int natural_alignment(DType t, int64_t contiguous_extent) {
  int bits = bits_of(t);
  if (bits == 0) return 1;
  int a = 128 / bits;
  if (contiguous_extent > 0)
    while (a > 1 && contiguous_extent % a != 0) a /= 2;
  return a;
}

void resolve_auto(GemmKernel& k) {
  if (k.is_rows()) return resolve_rows(k);
  if (k.is_attention()) return resolve_attention(k);
  resolve_types(k);
  if (k.is_gemv()) return resolve_gemv(k);
  resolve_operand_swap(k);
  // validate rejects a swapped conv or grouped GEMM
  if (!k.swaps_operands() || k.is_conv() || k.is_grouped()) return resolve_settings(k);
  GemmKernel run = transposed(k);
  resolve_settings(run);
  k = transposed(run);
}

void resolve_auto(Program& p) {
  for (GemmKernel& k : p.kernels) resolve_auto(k);
}

}  // namespace ucutlass::ir

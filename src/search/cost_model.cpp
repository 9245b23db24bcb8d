#include "search/cost_model.h"

#include <algorithm>
#include <cmath>

#include "map/channel_pad.h"
#include "map/conv_match.h"
#include "map/run_form.h"
#include "map/stacked_k.h"
#include "sol/op_cost.h"

namespace ucutlass::search {

namespace {

constexpr double kLaunchSeconds = 3e-6;
// The 3xTF32 split of one element (codegen/tf32_split.h) moves 4 words (read x, write the stack's
// three), at 2.9 TB/s on the H200 (tf32-split-2026-11-30-142223.json: level1/001's operands), about
// two thirds of the realistic DRAM rate the model divides by: its bytes are priced 1.5 times over
// (6 words for 3xTF32; 3xBF16 writes 2-byte parts: 1.5 x (4 + 3 x 2) bytes).
constexpr double kSplitTrafficFactor = 1.5;
// Conv layout copies (the binding's tiled transpose, the sub-pixel shuffle's PyTorch copy) run below the
// DRAM rate: on the H200 (campaigns/conv18-v01-2026-11-30-141739.sqlite) the transpose moved level1/019's
// input at 2.65 TB/s and level2/021's input and result at 2.7, the shuffle level1/025's result at 2.35:
// 0.55-0.64 of the realistic rate.
constexpr double kLayoutCopyFraction = 0.62;
// Host time a conv call adds before and between its kernels beyond what a GEMM call does (the binding's
// checks and layout-copy launches, TMA im2col descriptors), which the harness's window includes: in that
// campaign, harness time minus kernel time had a median of 87 us over 13 plain conv problems against
// 30 us over 7 single-kernel GEMM problems (gemm9-v01-2026-11-30-142950.sqlite); a sub-pixel conv's
// Python around the call (cached filter, repeated bias, shuffle and crop) 169 us over 3
// (bench/kernel_breakdown.py STORE PROBLEM...: each problem's per-kernel times and host gap).
constexpr double kConvCallSeconds = 57e-6;
constexpr double kSubpixelCallSeconds = 82e-6;
constexpr double kShortRowExponent = 1.24;
// An sm80 tensor-op kernel on a Hopper GPU issues the legacy mma.sync, not wgmma: public reports put it
// at about half of the wgmma peak that the profile's tf32/bf16/f16 rates describe. A prior until
// `ucutlass calibrate` measures an sm80 kernel; without it a tie between an sm80 and an sm90a config
// went to whichever came first, and sm80 tf32 could outrank sm90a tf32.
constexpr double kSm80TensorOpOnHopper = 0.5;
constexpr double kStreamKEfficiency = 0.92;
constexpr double kSm80NarrowPixelConv = 0.115;  // measured, see estimate_time

constexpr double kAccumulatorSpill = 0.075;  // measured, see shape_efficiency
constexpr double kSm80Tf32x3Spill = 0.5;     // measured, see shape_efficiency

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// How close a tile of this shape gets to the path's ceiling when every SM is
// busy: the product of a size term (operand reuse in shared memory) and the
// schedule's fit.
double shape_efficiency(const map::KernelConfig& c, graph::DType in) {
  const double area = static_cast<double>(c.tile.m) * c.tile.n;
  const bool wide = graph::dtype_bytes(in) <= 2;
  double size;
  if (c.math == ir::MathPath::simt) {
    size = area >= 128.0 * 128 ? 1.0 : area >= 128.0 * 64 ? 0.9 : 0.7;
  } else {
    // The persistent conv kernel: cooperative splits a tile between two warp groups, so its best tile
    // is 128x256 for TF32 too (256x128 ran 4 % faster than 128x128 on the H200, conv-2026-11-30-080553
    // and -081617); pingpong gives each group a whole tile, best at 128x128 (64x128 ran 13 % slower).
    const bool conv_cooperative = c.conv && c.schedule == ir::KernelSchedule::cooperative;
    const bool conv_pingpong = c.conv && c.schedule == ir::KernelSchedule::pingpong;
    const double best = conv_pingpong ? 128.0 * 128 : wide || conv_cooperative ? 128.0 * 256 : 128.0 * 128;
    size = area >= best ? 1.0 : std::pow(area / best, 0.25);  // halving the tile costs ~16 %
    // Past the best tile, register pressure and fewer resident CTAs cost a little;
    // a 64-row tile feeds the tensor cores worse than a 128-row one of equal area.
    if (area > best) size *= 0.97;
    if (c.tile.m < 128) size *= 0.95;
  }
  double schedule = 1.0;
  switch (c.schedule) {
    // Conv factors are relative to the persistent pingpong kernel, the fastest measured on the H200's
    // bf16 and TF32 3x3 benchmark (conv-2026-11-30-*: pingpong 128x128 0.94 / 1.78 ms, cooperative
    // 256x128 1.10 / 1.92 ms, CUTLASS's non-persistent one-warp-group kernel at best 1.41 / 2.47 ms).
    case ir::KernelSchedule::cooperative: schedule = c.conv ? 0.89 : c.tile.m >= 128 ? 1.0 : 0.85; break;
    case ir::KernelSchedule::warpspecialized: schedule = c.conv ? 0.69 : 1.0; break;
    case ir::KernelSchedule::pingpong: schedule = c.conv ? 1.0 : c.tile.m <= 64 ? 1.0 : 0.97; break;
    case ir::KernelSchedule::cpasync:
    case ir::KernelSchedule::cpasync_cooperative:
    case ir::KernelSchedule::cpasync_pingpong: schedule = 0.7; break;
    default: break;
  }
  double cluster = 1.0;
  if (c.arch == ir::Arch::sm90a && c.cluster.m * c.cluster.n > 1) cluster = 1.03;
  // An sm90a warp group holds its share of the tile's f32 accumulators in registers: cooperative splits
  // a tile over two groups, pingpong gives each group a whole one. Past 128 per thread (256: a 256x256
  // cooperative or 128x256 pingpong tile) they spill: on the H200 such tiles ran 12-14x slower than
  // the half-size tile of the same run (2026-11-30: level1/002 73.8 vs 5.28 ms, level1/008 9.16 vs
  // 0.716, level2/015 TF32 6.09 vs 0.43; campaigns/gemmbf16a-v01-2026-11-30-165748, gemmbf16b-v01-2026-11-30-170531, v01-2026-11-30-053241).
  double spill = 1.0;
  if (c.arch == ir::Arch::sm90a && !c.conv && c.math != ir::MathPath::simt) {
    const int groups = c.schedule == ir::KernelSchedule::cooperative ? 2 : 1;
    if (area / (128.0 * groups) > 128) spill = kAccumulatorSpill;
  }
  // sm80's 3xTF32 mainloop keeps each operand fragment twice (big and small parts) beside the
  // accumulators: at 128 f32 accumulators per thread (a 128x128 tile on the default 2x2 warps) it ran
  // half as fast as the 128x64 tile of the same run on the H200 (2026-11-30, kernelbench campaign:
  // level1/008 4.16 vs 2.05 ms, level1/010 4.55 vs 2.04, level1/018 8.16 vs 4.33, level1/012 0.596 vs
  // 0.310, the grouped conv level1/023 2.70 vs 0.742; campaigns/kbsuite-{a,b}-2026-11-30.sqlite). Priced at
  // half: the grouped conv lost more, but its 128x128 tile also covers two groups' channels.
  if (c.arch == ir::Arch::sm80 && c.math == ir::MathPath::tf32x3) {
    const int warps = c.warps.m * c.warps.n * c.warps.k > 0 ? c.warps.m * c.warps.n * c.warps.k : 4;
    if (area / (32.0 * warps) >= 128) spill = kSm80Tf32x3Spill;
  }
  return size * schedule * cluster * spill;
}

// GEMV kernels (ir/validate_gemv.h) are priced as the memory-bound products they are. Each lane has
// one load of A in flight at a time (the kernel's loop loads, then multiplies), so how close a config
// gets to the DRAM rate depends on the bytes it keeps loading per SM: resident lanes x bytes per load.
// On the H200 (bench/results/gemv-sweep-h200-2026-11-30.json: level1/016's A [4096, 32768] f32 under
// all 18 configs the search enumerates) the time over the best one grew as the inverse square of those
// bytes: eff = 1 / (1 + (kGemvHalfSpeedBytes / in flight)^2), half speed at 6.4 KB per SM, with the
// best (32-byte loads, 32 lanes per row: 31.8 KB per SM) at 0.96 of the realistic DRAM rate; the model
// is within 5 % of 15 of the 18 measured times and 21 % of the rest.
constexpr double kGemvHalfSpeedBytes = 6400;
constexpr double kGemvPeakFraction = 0.96;

Estimate estimate_gemv(const map::GemmMatch& m, const map::KernelConfig& c, const sol::GpuProfile& gpu) {
  Estimate e;
  const int sms = gpu.sms > 0 ? gpu.sms : 132;
  const double in_bytes = graph::dtype_bytes(m.in), out_bytes = graph::dtype_bytes(m.out);
  const int lanes = std::max(1, c.gemv_threads_per_row), threads = std::max(32, c.gemv_threads);
  const int access = std::max(1, c.gemv_access);
  const int64_t rows = m.m * m.batch, rows_per_cta = std::max(1, threads / lanes);
  e.ctas = ceil_div(rows, rows_per_cta);
  const int64_t ctas_per_sm = std::min<int64_t>(32, 2048 / threads);
  const double resident_ctas = std::min(static_cast<double>(ctas_per_sm), static_cast<double>(e.ctas) / sms);
  // Lanes past a short row's end idle: K / access loads shared by `lanes` lanes.
  const double busy = std::min(1.0, static_cast<double>(m.k) / (static_cast<double>(access) * lanes));
  const double in_flight = resident_ctas * threads * busy * access * in_bytes;
  e.wave_efficiency = 1.0 / (1.0 + std::pow(kGemvHalfSpeedBytes / std::max(in_flight, 1.0), 2.0));
  e.shape_efficiency = kGemvPeakFraction;
  const map::FusedEpilogue f = map::fusable_prefix(m, c.arch, true, c.fuse_steps);
  double bytes = (static_cast<double>(m.m) * m.k + m.k) * m.batch * in_bytes + static_cast<double>(m.m) * m.batch * out_bytes;
  if (f.residual >= 0) bytes += static_cast<double>(m.m) * m.batch * out_bytes;
  const double bw = sol::realistic_dram_bandwidth(gpu);
  e.t_memory = bytes / (bw * e.wave_efficiency * e.shape_efficiency);
  e.t_math = 2.0 * m.m * m.k * m.batch / sol::realistic_flops(gpu, sol::MathPath::fp32).value;
  e.t_overhead = kLaunchSeconds;
  for (size_t i = f.steps; i < m.chain.size(); ++i)
    e.t_overhead += 2.0 * m.m * m.batch * out_bytes / bw + kLaunchSeconds;
  const double body = std::max(e.t_math, e.t_memory);
  e.seconds = body + e.t_overhead;
  e.note = e.t_overhead > body ? "overhead-bound" : e.t_math >= e.t_memory ? "math-bound" : "memory-bound";
  return e;
}

// Row kernels (ir/row_problem.h) are memory-bound by design. A thread issues all `items` loads of its
// chunk before it reduces, so the bytes in flight per SM are resident CTAs x threads x access x items
// x element bytes; the same in-flight curve as the GEMV's prices how near the DRAM rate that gets
// (not yet fitted to row kernels: the first GPU campaign over them measures it). Residency is capped
// by threads (2048 per SM) and by registers (about 32 + access x items per thread of 64K). Whole
// waves: a last wave of few CTAs runs at their share of the SMs. splits > 1 adds a second launch,
// and the row-shaped operations read their input a second time there.
Estimate estimate_rows(const map::GemmMatch& m, const map::KernelConfig& c, const sol::GpuProfile& gpu) {
  Estimate e;
  const map::RowSpec& r = *m.rows;
  const int sms = gpu.sms > 0 ? gpu.sms : 132;
  const double in_bytes = graph::dtype_bytes(m.in), out_bytes = graph::dtype_bytes(m.out);
  const int threads = std::max(128, c.row_threads), access = std::max(1, c.row_access);
  const int items = std::max(1, c.row_items), splits = std::max(1, c.row_splits);
  const int regs = 32 + access * items;
  const int64_t ctas_per_sm = std::max<int64_t>(1, std::min<int64_t>(2048 / threads, 65536 / (int64_t{threads} * regs)));
  e.ctas = r.rows * splits;
  const double resident_ctas = std::min(static_cast<double>(ctas_per_sm), static_cast<double>(e.ctas) / sms);
  const double chunk = static_cast<double>(ir::row_chunk(r.length, splits, access));
  const double busy = std::min(1.0, chunk / (static_cast<double>(threads) * access * items));
  const double in_flight = resident_ctas * threads * access * items * busy * in_bytes;
  e.wave_efficiency = 1.0 / (1.0 + std::pow(kGemvHalfSpeedBytes / std::max(in_flight, 1.0), 2.0));
  const double slots = static_cast<double>(ctas_per_sm) * sms;
  const double waves = std::ceil(static_cast<double>(e.ctas) / slots);
  const double fill = static_cast<double>(e.ctas) / (waves * slots);
  e.tile_efficiency = 1.0 - (1.0 - fill) / waves;
  e.shape_efficiency = kGemvPeakFraction;
  const bool keeps = ir::row_op_keeps_shape(r.op);
  const double x_bytes = static_cast<double>(r.rows) * r.length * in_bytes;
  double bytes = x_bytes + (keeps ? static_cast<double>(r.rows) * r.length * out_bytes : r.rows * 8.0);
  if (splits > 1 && keeps) bytes += x_bytes;
  if (r.weight >= 0) bytes += 2.0 * (r.op == ir::RowOp::groupnorm ? r.groups * (r.length / r.channel_span) : r.length) * in_bytes;
  const double bw = sol::realistic_dram_bandwidth(gpu);
  e.t_memory = bytes / (bw * e.wave_efficiency * e.tile_efficiency * e.shape_efficiency);
  e.t_overhead = kLaunchSeconds * (splits > 1 ? 2 : 1);
  e.seconds = e.t_memory + e.t_overhead;
  e.note = e.t_overhead > e.t_memory ? "overhead-bound" : "memory-bound";
  return e;
}

// Attention kernels (ir/attention_problem.h) multiply on bf16 tensor cores through mma.sync, which
// reaches a fraction of the wgmma rate the profile gives (kAttentionMmaFraction, a guess until the first
// GPU campaign measures it); a causal mask halves the work (a mask tensor's pattern is not known here:
// priced as full). Q, K and V are read once from DRAM (K and V again from L2) and O written once.
constexpr double kAttentionMmaFraction = 0.35;
// Split (bf16x3) scores triple the S products, half of the products: 2x the tensor-core work. The
// kernel is not bound by its products alone (the exp, the conversions and the tile loads share the
// time), so the estimate charges 1.5x, between the bounds, until the GPU measures it.
constexpr double kSplitScoresCost = 1.5;

Estimate estimate_attention(const map::GemmMatch& m, const map::KernelConfig& c, const sol::GpuProfile& gpu) {
  Estimate e;
  const map::AttentionSpec& a = *m.attention;
  const double flops = 4.0 * a.batch * a.seq_q * a.seq_k * a.head_dim * (a.causal ? 0.5 : 1.0);
  // Fewer queries per CTA re-read K and V more often; short key blocks pay the softmax bookkeeping more.
  const double shape = (c.attention_block_q == 128 ? 1.0 : 0.95) * (c.attention_block_k == 32 ? 0.9 : 1.0);
  e.shape_efficiency = shape;
  const double split = c.attention_scores == ir::AttentionScores::bf16x3 ? kSplitScoresCost : 1.0;
  e.t_math = split * flops / (sol::realistic_flops(gpu, sol::MathPath::bf16).value * kAttentionMmaFraction * shape);
  const double bytes = 4.0 * a.batch * a.head_dim * (2.0 * a.seq_q + 2.0 * a.seq_k);
  e.t_memory = bytes / sol::realistic_dram_bandwidth(gpu);
  e.ctas = a.batch * ((a.seq_q + c.attention_block_q - 1) / std::max(c.attention_block_q, 1));
  e.t_overhead = kLaunchSeconds;
  e.seconds = std::max(e.t_math, e.t_memory) + e.t_overhead;
  e.note = e.t_math >= e.t_memory ? "math-bound" : "memory-bound";
  return e;
}

}  // namespace

sol::MathPath rate_path(ir::MathPath math, graph::DType in) {
  switch (math) {
    case ir::MathPath::tf32: return sol::MathPath::tf32;
    case ir::MathPath::tf32x3: return sol::MathPath::tf32x3;
    case ir::MathPath::simt: return sol::MathPath::fp32;
    case ir::MathPath::fast_accum: return sol::MathPath::fp8;
    case ir::MathPath::tensor_op: break;
  }
  if (in == graph::DType::bf16) return sol::MathPath::bf16;
  if (in == graph::DType::f16) return sol::MathPath::fp16;
  return sol::MathPath::fp8;
}

Estimate estimate_time(const map::GemmMatch& given, const map::KernelConfig& c, const sol::GpuProfile& gpu) {
  if (c.gemv) return estimate_gemv(given, c, gpu);
  if (given.rows) return estimate_rows(given, c, gpu);
  if (given.attention) return estimate_attention(given, c, gpu);
  // A sub-pixel conv is priced as the fprop it runs plus its pixel shuffle below.
  const map::GemmMatch m = map::as_run(given, c);
  Estimate e;
  const int sms = gpu.sms > 0 ? gpu.sms : 132;
  const int64_t bm = std::max(1, c.tile.m), bn = std::max(1, c.tile.n), bk = std::max(1, c.tile.k);
  // Tiles cover the kernel as it runs: swapped, its M is the problem's N.
  const int64_t run_m = c.operand_swap ? m.n : m.m, run_n = c.operand_swap ? m.m : m.n;
  const int64_t tiles = ceil_div(run_m, bm) * ceil_div(run_n, bn) * m.batch;
  const int splits = c.scheduler == ir::TileScheduler::split_k ? std::max(1, c.splits) : 1;
  e.ctas = tiles * splits;
  // Small tiles fit two CTAs per SM.
  const int per_sm = bm * bn <= 64 * 128 ? 2 : 1;
  const int64_t slots = static_cast<int64_t>(sms) * per_sm;
  const int64_t waves = ceil_div(e.ctas, slots);
  e.wave_efficiency = static_cast<double>(e.ctas) / static_cast<double>(waves * slots);
  if (c.scheduler == ir::TileScheduler::stream_k) e.wave_efficiency = std::max(e.wave_efficiency, kStreamKEfficiency);
  e.tile_efficiency =
      static_cast<double>(run_m) * run_n / (static_cast<double>(ceil_div(run_m, bm) * bm) * ceil_div(run_n, bn) * bn);
  e.shape_efficiency = shape_efficiency(c, m.in);
  // sm80 loads pixels of fewer than 16 bytes (c = 3 f32 channels) in narrow cp.async vectors: on the
  // H200 level1/020's RGB stem ran 1.19-1.53 ms on sm80 tf32 against 0.137 ms predicted without this
  // (fixed-budget campaign 2026-11-30, bench/results/campaigns/fixed4-v01-2026-11-30-111933.log).
  if (c.arch == ir::Arch::sm80 && m.conv && !m.conv->is_depthwise_conv2d() && map::short_pixels(*m.conv, m.in))
    e.shape_efficiency *= kSm80NarrowPixelConv;
  // sm90a's TMA im2col loads one filter tap's block of tile-K channels per K step: channels short of the
  // block are zeros multiplied (c = 4 on a 32-deep TF32 tile: 1/8 of the work counts). Its rows (one
  // pixel's channels of the block that exist) under 64 bytes load at a row rate, not a byte rate: on the
  // H200 level1/020's stem (c = 3 padded to 4: 16-byte rows) ran its kernel in 0.735-0.78 ms on the best
  // tiles (256 x 64 and 256 x 128 cooperative, 8-deep), 0.18 of what full rows would allow in this model
  // (campaigns/conv18-v01-2026-11-30-141739 and convsub-v01-2026-11-30-140119). Shorter rows than 64
  // bytes are priced at (bytes / 64)^1.24, the power through that one measured point.
  if (const int64_t channels = map::forward_channels_per_group(m, c); c.arch == ir::Arch::sm90a && channels > 0) {
    e.tile_efficiency *= static_cast<double>(channels) / static_cast<double>(ceil_div(channels, bk) * bk);
    const double row_bytes = static_cast<double>(std::min(channels, bk)) * graph::dtype_bytes(m.in);
    if (row_bytes < 64) e.shape_efficiency *= std::pow(row_bytes / 64.0, kShortRowExponent);
  }
  // K as the kernel runs it: tripled by 3xTF32's K stacking (map::KernelConfig::k_stack3), each part
  // padded to whole 16-byte rows (map/stacked_k.h).
  const int64_t part_k = map::stacked_part_k(m, c);  // m.k unless K-stacked parts are padded
  const int64_t run_k = c.k_stack3 ? 3 * part_k : m.k;
  // Few K iterations per CTA leave the pipeline's fill and drain exposed.
  const double k_iters = static_cast<double>(ceil_div(run_k, bk)) / splits;
  const double pipeline = k_iters / (k_iters + 2.0);

  const double flops = 2.0 * m.m * m.n * run_k * m.batch;
  const bool legacy_mma = c.arch == ir::Arch::sm80 && c.math != ir::MathPath::simt && gpu.arch.rfind("sm_90", 0) == 0;
  const double rate = sol::realistic_flops(gpu, rate_path(c.math, m.in)).value * (legacy_mma ? kSm80TensorOpOnHopper : 1.0);
  e.t_math = flops / (rate * e.wave_efficiency * e.tile_efficiency * e.shape_efficiency * pipeline);

  // The kernel's operand bytes, and the problem's (f32 where the kernel reads bf16 roundings of it).
  const double in_bytes = graph::dtype_bytes(m.in), out_bytes = graph::dtype_bytes(m.out);
  const double src_bytes = graph::dtype_bytes(given.in);
  const map::FusedEpilogue f = map::fusable_prefix(m, c.arch, c.gemv, c.fuse_steps);
  // A conv's implicit GEMM reads the activation once, not M·K im2col elements.
  double bytes = m.conv ? map::conv_kernel_bytes(m) + (c.k_stack3 ? 2.0 * static_cast<double>(m.conv->x_elements + m.conv->w_elements) * in_bytes : 0.0)
                        : (static_cast<double>(m.m) * run_k + static_cast<double>(run_k) * m.n) * m.batch * in_bytes +
                              static_cast<double>(m.m) * m.n * m.batch * out_bytes;
  if (f.residual >= 0) bytes += static_cast<double>(m.m) * m.n * m.batch * out_bytes;
  if (f.reads_matrix_extra) bytes += static_cast<double>(m.m) * m.n * m.batch * out_bytes;
  if (splits > 1) bytes += 2.0 * splits * m.m * m.n * m.batch * 4;  // f32 partials out and back
  const double bw = sol::realistic_dram_bandwidth(gpu);
  e.t_memory = bytes / bw;

  // Layout copies in PyTorch (one read + one write of the operand) and the
  // unfused tail: each remaining step is one element-wise kernel over D.
  e.t_overhead = kLaunchSeconds;
  auto copy = [&](const map::GemmOperand& op, ir::Layout want, double elements) {
    if (op.strided || op.natural != want) e.t_overhead += 2 * elements * in_bytes / bw + kLaunchSeconds;
  };
  if (m.conv) {
    // NCHW <-> channels-last copies around a conv kernel (map::conv_layout_copy_bytes), and the
    // residual C, which the binding copies to channels-last too.
    const int copies = 1 + m.conv->input_copy + m.conv->output_copy + (f.residual >= 0);
    double copy_bytes = map::conv_layout_copy_bytes(m), split_bytes = 0;
    if (f.residual >= 0) copy_bytes += 2.0 * static_cast<double>(m.conv->y_elements) * out_bytes;
    if (c.k_stack3) {
      // The split writes channels-last stacks, which replace the layout copies of x and w: the
      // input's per call (priced as for a GEMM's split), the weight's once per version.
      copy_bytes -= 2.0 * static_cast<double>((m.b.parameter ? 0 : m.conv->w_elements) + (m.conv->input_copy ? m.conv->x_elements : 0)) *
                    in_bytes;
      split_bytes = kSplitTrafficFactor * static_cast<double>(m.conv->x_elements) * (src_bytes + 3 * in_bytes);
    }
    if (c.bf16_operands && !c.k_stack3 && src_bytes > in_bytes) {
      // The rounding: the binding's transpose reads f32 and writes bf16 (priced above at bf16 both
      // ways); x already channels-last, or a form's helper output, takes a separate .to() pass.
      const double x = static_cast<double>(m.conv->x_elements);
      if (map::rounds_in_layout_copy(c) && m.conv->input_copy) copy_bytes += x * (src_bytes - in_bytes);
      else {
        split_bytes += x * (src_bytes + in_bytes);
        e.t_overhead += kLaunchSeconds;
      }
      if (!m.b.parameter) copy_bytes += static_cast<double>(m.conv->w_elements) * (src_bytes - in_bytes);
    }
    e.t_overhead += copy_bytes / (bw * kLayoutCopyFraction) + split_bytes / bw + copies * kLaunchSeconds + kConvCallSeconds;
  } else {
    // A K-stacked operand is split from its own layout (the split reads either stride pattern,
    // solution/modelnew_writer.cpp): only a strided one is copied first.
    copy(m.a, c.k_stack3 ? m.a.natural : c.layout_a, static_cast<double>(m.m) * m.k * m.batch);
    copy(m.b, c.k_stack3 ? m.b.natural : c.layout_b, static_cast<double>(m.k) * m.n * m.batch);
    if (c.k_stack3 || c.bf16_operands) {
      // The split, per call for an input: one kernel of the program (codegen/tf32_split.h,
      // kSplitTrafficFactor); a bf16 rounding alone is one PyTorch copy (read f32, write bf16). A
      // parameter's split or rounding is built once and reused.
      const double per_element =
          c.k_stack3 ? kSplitTrafficFactor * (src_bytes + 3 * in_bytes) : src_bytes + in_bytes;
      // Parts padded to whole 16-byte rows (map/stacked_k.h) cost a zero-padding copy of the f32
      // operand first (read, write), then a split of the padded width.
      const bool padded = part_k != m.k;
      const double widen = padded ? static_cast<double>(part_k) / static_cast<double>(m.k) : 1.0;
      auto split = [&](const map::GemmOperand& op, double elements) {
        if (op.parameter) return;
        e.t_overhead += per_element * elements * widen / bw + kLaunchSeconds;
        if (padded) e.t_overhead += (1.0 + widen) * elements * src_bytes / bw + kLaunchSeconds;
      };
      split(m.a, static_cast<double>(m.m) * m.k * m.batch);
      split(m.b, static_cast<double>(m.k) * m.n * m.batch);
    }
  }
  for (size_t i = f.steps; i < m.chain.size(); ++i)
    e.t_overhead += 2.0 * m.m * m.n * m.batch * out_bytes / bw + kLaunchSeconds;
  if (m.conv && m.conv->subpixel) {
    // The shuffle reads the kernel's result and writes the transposed conv's (one PyTorch copy); the
    // rewritten weight is built once per parameter version. Steps left after a residual run on y.
    const double y = static_cast<double>(m.conv->subpixel->y_elements);
    e.t_overhead += (static_cast<double>(m.conv->y_elements) + y) * out_bytes / (bw * kLayoutCopyFraction) + kLaunchSeconds +
                    kSubpixelCallSeconds;
    for (size_t i = m.chain.size(); i < given.chain.size(); ++i) e.t_overhead += 2.0 * y * out_bytes / bw + kLaunchSeconds;
  }

  const double body = std::max(e.t_math, e.t_memory);
  e.seconds = body + e.t_overhead;
  e.note = e.t_overhead > body ? "overhead-bound" : e.t_math >= e.t_memory ? "math-bound" : "memory-bound";
  return e;
}

double unmapped_ops_seconds(const graph::OpGraph& g, const std::vector<map::GemmMatch>& matches, const sol::GpuProfile& gpu) {
  std::vector<bool> covered(g.nodes.size(), false);
  for (const map::GemmMatch& m : matches) {
    if (m.anchor >= 0 && static_cast<size_t>(m.anchor) < covered.size()) covered[m.anchor] = true;
    for (const map::ChainStep& step : m.chain)
      if (step.node >= 0 && static_cast<size_t>(step.node) < covered.size()) covered[step.node] = true;
    if (m.attention)
      for (int node : m.attention->nodes)
        if (node >= 0 && static_cast<size_t>(node) < covered.size()) covered[node] = true;
  }
  const double bw = sol::realistic_dram_bandwidth(gpu);
  double seconds = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (covered[i] || sol::is_view_op(graph::op_base_name(g.nodes[i].op))) continue;
    seconds += sol::cost_node(g, g.nodes[i]).bytes() / bw + kLaunchSeconds;
  }
  return seconds;
}

}  // namespace ucutlass::search

#include "search/config_space.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "compiler/frontend.h"
#include "ir/operand_swap.h"
#include "map/run_form.h"
#include "search/conv_space.h"
#include "search/cost_model.h"
#include "search/refine.h"

namespace ucutlass::search {

namespace {

using ir::Arch;
using ir::KernelSchedule;
using ir::Layout;
using ir::MathPath;
using ir::Shape3;
using ir::TileScheduler;
using map::KernelConfig;

std::vector<Layout> layouts_for(const map::GemmOperand& op) {
  // The natural layout costs nothing; the other one costs a copy in PyTorch
  // but may be the only legal one (f32 on sm90a wants a = row, b = col).
  return {op.natural, op.natural == Layout::row ? Layout::col : Layout::row};
}

struct SchedulerChoice {
  TileScheduler scheduler;
  int splits;
};

// Persistent always; stream-K and split-K only when the output tiles leave
// SMs idle (fewer than two waves of tiles), split counts that fill ~one wave.
std::vector<SchedulerChoice> schedulers_for(const map::GemmMatch& m, const Shape3& tile, int sms) {
  std::vector<SchedulerChoice> out{{TileScheduler::persistent, 1}};
  const int64_t tiles = ((m.m + tile.m - 1) / tile.m) * ((m.n + tile.n - 1) / tile.n) * m.batch;
  if (tiles >= 2 * sms) return out;
  out.push_back({TileScheduler::stream_k, 1});
  for (int s : {2, 4, 8, 16, 32, 64})
    if (tiles * s <= 2 * sms && m.k / tile.k >= 2 * s) out.push_back({TileScheduler::split_k, s});
  return out;
}

std::vector<Shape3> sm90_tiles(graph::DType in) {
  const int k = graph::dtype_bytes(in) == 4 ? 32 : 64;
  std::vector<Shape3> out;
  for (int tm : {64, 128, 256})
    for (int tn : {64, 128, 256}) out.push_back({tm, tn, k});
  return out;
}

// The extents of the kernel as it runs when swapped: M and N trade places.
map::GemmMatch swapped_extents(const map::GemmMatch& m) {
  map::GemmMatch t = m;
  std::swap(t.m, t.n);
  return t;
}

// Swapped (ir/operand_swap.h), the problem's few rows are the kernel's N: tile N
// the narrowest WGMMA width that covers them, and twice that.
std::vector<Shape3> sm90_swapped_tiles(const map::GemmMatch& m, graph::DType in) {
  const int k = graph::dtype_bytes(in) == 4 ? 32 : 64;
  const int narrow = static_cast<int>((m.m + 15) / 16 * 16);
  std::vector<Shape3> out;
  for (int tm : {64, 128, 256})
    for (int tn : {narrow, 2 * narrow})
      if (tn <= 64) out.push_back({tm, tn, k});
  return out;
}

std::vector<Shape3> sm80_tiles(MathPath math, graph::DType in) {
  if (math == MathPath::simt) return {{128, 128, 8}, {128, 64, 8}, {64, 64, 8}, {32, 128, 8}};
  const int k = math == MathPath::tensor_op && graph::dtype_bytes(in) == 2 ? 32 : 16;
  return {{128, 256, k}, {128, 128, k}, {128, 64, k}, {64, 128, k}, {64, 64, k}};
}

// The math paths by name, for the lists below.
const MathChoice kTf32{.arch = Arch::sm90a, .math = MathPath::tf32};
const MathChoice kSm80Tf32{.arch = Arch::sm80, .math = MathPath::tf32};
const MathChoice kSm80Tf32x3{.arch = Arch::sm80, .math = MathPath::tf32x3};
const MathChoice kSm80Simt{.arch = Arch::sm80, .math = MathPath::simt};
const MathChoice kNative16{.arch = Arch::sm90a, .math = MathPath::tensor_op};
const MathChoice kBf16Rounded{.arch = Arch::sm90a, .math = MathPath::tensor_op, .bf16_operands = true};
const MathChoice kTf32KStacked{.arch = Arch::sm90a, .math = MathPath::tf32, .k_stack3 = true};
const MathChoice kBf16KStacked{.arch = Arch::sm90a, .math = MathPath::tensor_op, .k_stack3 = true, .bf16_operands = true};

MathChoice speculative(MathChoice c) {
  c.speculative = true;
  return c;
}

}  // namespace

std::vector<MathChoice> allowed_math_paths(graph::DType in, sol::ToleranceProfile tolerance, int64_t input_only_k) {
  if (in != graph::DType::f32) return {kNative16};
  if (tolerance == sol::ToleranceProfile::kernelbench_v01) {
    // Under 1e-2 plain TF32 passes the problem's own inputs (gpu.md), so sm80 runs it too (one pass,
    // not 3xTF32's three) where sm90a has no kernel: strided dgrad, grouped convs, misaligned rows.
    // But the harness also redraws every input as N(0, 1): with both operands inputs (no parameter
    // to keep the output small) TF32's error grows as sqrt(K) while atol stays 1e-2, and it failed
    // there on every such level-1 GEMM of the suite (H200, 2026-11-30, K = 4096: 0.9 % of elements
    // off by up to 0.11). Then K-stacked 3xTF32 is an honest path.
    //
    // The bf16 rate is legal too (the SOL prices f32 here at it, sol/precision_policy.h): operands
    // rounded to bf16 (2^-9) with f32 accumulation. Where a parameter keeps the output small that
    // passes like TF32 does (the N(0, 1) trial's error is ~1e-3 of a unit-scale output against
    // atol 1e-2) at twice TF32's rate; where both operands are inputs it cannot, but their bf16 split
    // (3xBF16: 2^-16 per product, ~2e-4 at K = 4096) can, at 1.7x the K-stacked TF32 rate. Each leads
    // its case; an `incorrect` result defers it behind the more accurate TF32 paths (refine.h).
    // One rounding stays a probe there (speculative): it missed on the level-1 GEMMs but passed where
    // a softmax bounds the output (level2/027's bmm and level3/004's attention ran plain TF32), and
    // then it is the fastest. The probe is whichever the estimate ranks first: TF32 where the bf16
    // rounding copies cost more than the bf16 rate saves (level2/027, memory-bound), else bf16.
    if (input_only_k >= kTf32InputOnlyK)
      return {kBf16KStacked, kTf32KStacked, kSm80Tf32x3, speculative(kBf16Rounded), speculative(kTf32)};
    return {kBf16Rounded, kTf32, kSm80Tf32, kTf32KStacked, kSm80Tf32x3};
  }
  // Under 1e-4: 3xTF32, as sm80's mainloop and as sm90a TF32 over K-stacked split operands (near-f32
  // accuracy at the wgmma rate, a third of TF32's speed), exact SIMT, and plain TF32 as a probe.
  // With both operands inputs the N(0, 1) trial leaves outputs near 0 where only atol = 1e-4 holds:
  // K-stacked missed it on all seven such level-1 GEMMs of the suite (H200, 2026-11-30: max error
  // 1.4e-3 at K = 2048, 4.1e-3 at 4096, 1e-2 at 8192; the wgmma accumulation, not the split) while
  // sm80's 3xTF32 passed at K = 3079. Then sm80's 3xTF32 leads and K-stacked is the probe (plain TF32,
  // less accurate still, is left out).
  //
  // Where a parameter keeps outputs small the K-stacked split passed 1e-4 (every Linear problem of the
  // kernelbench campaign, campaigns/kb-2026-11-30-051333), and its bf16 parts should too: 2^-16 per
  // product against the 3xTF32 parts' 2^-21, but the tensor cores' truncating accumulation dominates
  // both (bench/kstack_accumulation.py's model: worst error 0.14 of the tolerance either way at
  // K = 8192), at 1.7x the rate. Not yet measured on the GPU: a miss defers it behind K-stacked 3xTF32.
  //
  // Since the harness's atol has PyTorch's own fp32 error as its floor (docs/formats.md, "native
  // atol"), K-stacked 3xTF32 passes the input-only GEMMs it missed before wherever K is moderate: in
  // the kernelbench campaign (kbsuite-{a,b}-2026-11-30) at K = 64, 256, 512, 2048, 4096 and 8192
  // (level1/006, 007, 012, 018, 008, 010, 001, 003, 009, 002) at 1.6-3.3x sm80's 3xTF32 speed (call 4:
  // level1/001 2.03 -> 1.18 ms, 002 15.7 -> 9.9 ms); it still missed at K = 32768 (level1/016),
  // where the wgmma accumulation's error outgrows PyTorch's. So up to kKStackedInputOnlyMaxK it leads,
  // sm80's 3xTF32 its hedge; above it stays the probe.
  if (input_only_k >= kTf32InputOnlyK && input_only_k <= kKStackedInputOnlyMaxK)
    return {kTf32KStacked, kSm80Tf32x3, kSm80Simt};
  if (input_only_k >= kTf32InputOnlyK)
    return {kSm80Tf32x3, kSm80Simt, speculative(kTf32KStacked)};
  return {kSm80Tf32x3, kSm80Simt, kBf16KStacked, kTf32KStacked, speculative(kTf32)};
}

std::vector<KernelConfig> enumerate_configs(const map::GemmMatch& m, const MathChoice& path) {
  if (m.conv) return enumerate_conv_configs(m, path);
  std::vector<KernelConfig> out;
  const int sms = 132;
  for (Layout la : layouts_for(m.a))
    for (Layout lb : layouts_for(m.b)) {
      // K stacking concatenates along the contiguous K of a row-major A and a column-major B.
      if (path.k_stack3 && (la != Layout::row || lb != Layout::col)) continue;
      // A bf16 rounding is a copy already: it keeps the operand's own layout (16-bit kernels take both).
      if (path.bf16_operands && !path.k_stack3 && (la != m.a.natural || lb != m.b.natural)) continue;
      KernelConfig base;
      base.arch = path.arch;
      base.math = path.math;
      base.layout_a = la;
      base.layout_b = lb;
      base.k_stack3 = path.k_stack3;
      base.bf16_operands = path.bf16_operands;
      const graph::DType run_in = map::run_input_type(m, base);
      if (path.arch == Arch::sm90a) {
        for (bool swap : {false, true}) {
          // sm80 cannot swap: CUTLASS 2.x turns a column-major output back into the unswapped problem.
          if (swap && !ir::swap_pays_off(m.m, m.n)) continue;
          const map::GemmMatch run = swap ? swapped_extents(m) : m;
          for (const Shape3& tile : swap ? sm90_swapped_tiles(m, run_in) : sm90_tiles(run_in))
            for (Shape3 cluster : {Shape3{1, 1, 1}, Shape3{2, 1, 1}, Shape3{1, 2, 1}})
              for (KernelSchedule s : {KernelSchedule::cooperative, KernelSchedule::pingpong})
                for (const SchedulerChoice& sc : schedulers_for(run, tile, sms))
                  for (auto [raster, swizzle] : {std::pair{ir::RasterOrder::heuristic, 1}, std::pair{ir::RasterOrder::along_n, 2},
                                                 std::pair{ir::RasterOrder::along_m, 2}}) {
                    KernelConfig c = base;
                    c.tile = tile;
                    c.cluster = cluster;
                    c.schedule = s;
                    c.scheduler = sc.scheduler;
                    c.splits = sc.splits;
                    c.raster = raster;
                    c.swizzle = swizzle;
                    c.operand_swap = swap;
                    out.push_back(c);
                  }
        }
      } else {
        const std::vector<int> stages = path.math == MathPath::simt ? std::vector<int>{3, 4} : std::vector<int>{3, 4, 5};
        for (const Shape3& tile : sm80_tiles(path.math, m.in))
          for (int st : stages)
            for (const SchedulerChoice& sc : schedulers_for(m, tile, sms)) {
              KernelConfig c = base;
              c.tile = tile;
              c.schedule = KernelSchedule::multistage;
              c.stages = st;
              c.scheduler = sc.scheduler == TileScheduler::persistent ? TileScheduler::auto_ : sc.scheduler;
              c.splits = sc.splits;
              out.push_back(c);
            }
      }
    }
  return out;
}

std::vector<KernelConfig> enumerate_gemv_configs(const map::GemmMatch& m) {
  std::vector<KernelConfig> out;
  if (!map::runs_as_gemv(m)) return out;
  const int widest = 32 / graph::dtype_bytes(m.in);  // 32-byte loads; 16-byte ones below
  for (int access : {widest, widest / 2})
    for (int lanes : {8, 16, 32})
      for (int threads : {128, 256, 512}) {
        KernelConfig c;
        c.arch = Arch::sm80;
        c.math = MathPath::simt;
        c.layout_a = Layout::row;
        c.layout_b = m.b.natural;  // x is a vector: either stride pattern is contiguous, no copy
        c.gemv = true;
        c.gemv_access = access;
        c.gemv_threads_per_row = lanes;
        c.gemv_threads = threads;
        out.push_back(c);
      }
  return out;
}

std::vector<KernelConfig> enumerate_row_configs(const map::GemmMatch& m) {
  std::vector<KernelConfig> out;
  if (!m.rows) return out;
  const map::RowSpec& r = *m.rows;
  const int widest = 16 / graph::dtype_bytes(m.in);
  for (int access : {widest, widest / 2}) {
    if (access < 1) continue;
    for (int threads : {128, 256, 512, 1024}) {
      const int max_items = std::min(32, ir::kRowRegisterValues / access);
      const int64_t cta = int64_t{threads} * access;
      // The fewest splits whose chunk fits the registers, then twice and four times as many (shorter
      // chunks, more CTAs: what few rows need to fill the GPU).
      int fewest = 1;
      while (fewest < 1024 && ir::row_chunk(r.length, fewest, access) > cta * max_items) ++fewest;
      for (int splits : {fewest, 2 * fewest, 4 * fewest, 16 * fewest}) {
        if (splits > 1024 || (splits > fewest && ir::row_chunk(r.length, splits, access) < cta)) continue;
        const int64_t chunk = ir::row_chunk(r.length, splits, access);
        KernelConfig c;
        c.rows = true;
        c.row_access = access;
        c.row_threads = threads;
        c.row_splits = splits;
        c.row_items = static_cast<int>((chunk + cta - 1) / cta);
        out.push_back(c);
      }
    }
  }
  return out;
}

bool fused_attention_allowed(sol::ToleranceProfile tolerance) {
  for (const MathChoice& c : allowed_math_paths(graph::DType::f32, tolerance))
    if (c.bf16_operands && !c.k_stack3) return true;
  return false;
}

std::vector<KernelConfig> enumerate_attention_configs(const map::GemmMatch& m) {
  std::vector<KernelConfig> out;
  if (!m.attention) return out;
  std::vector<ir::AttentionScores> scores = {ir::AttentionScores::bf16x3};
  if (!m.attention->scores_from_inputs) scores.push_back(ir::AttentionScores::bf16);
  for (ir::AttentionScores s : scores)
    for (int block_q : {64, 128})
      for (int block_k : {64, 32}) {
        KernelConfig c;
        c.attention = true;
        c.attention_block_q = block_q;
        c.attention_block_k = block_k;
        c.attention_scores = s;
        out.push_back(c);
      }
  return out;
}

std::vector<Candidate> legal_candidates(const map::GemmMatch& m, sol::ToleranceProfile tolerance,
                                        const sol::GpuProfile& gpu, SpaceStats* stats) {
  SpaceStats local;
  std::vector<Candidate> out;
  std::set<std::string> hashes;
  const int64_t input_only_k = !m.a.parameter && !m.b.parameter ? m.k : 0;
  std::vector<std::pair<MathChoice, std::vector<KernelConfig>>> spaces;
  if (m.rows) {
    // A row kernel computes in f32 whatever the tolerance: one space, its levers.
    spaces.emplace_back(MathChoice{Arch::sm90a, MathPath::tensor_op}, enumerate_row_configs(m));
  } else if (m.attention) {
    // Q, K and V rounded to bf16: only where the tolerance allows bf16 operands.
    if (fused_attention_allowed(tolerance))
      spaces.emplace_back(MathChoice{Arch::sm90a, MathPath::tensor_op}, enumerate_attention_configs(m));
  } else {
    // A product marked fp32-accurate (GemmMatch::fp32_products) gets the strict profile's paths.
    const sol::ToleranceProfile paths = m.fp32_products ? sol::ToleranceProfile::kernelbench : tolerance;
    for (const MathChoice& path : m.conv ? conv_math_paths(m, paths) : allowed_math_paths(m.in, paths, input_only_k))
      spaces.emplace_back(path, enumerate_configs(m, path));
    // A matrix-vector product also runs as a GEMV kernel: f32 FMAs with f32 accumulation on CUDA cores, as
    // accurate as the problem's own fp32 (or 16-bit) product, so under every tolerance profile.
    spaces.emplace_back(kSm80Simt, enumerate_gemv_configs(m));
  }
  // A config through the front end, estimated, kept unless illegal or a program already kept.
  auto add = [&](const KernelConfig& c, bool speculative) {
    ++local.enumerated;
    std::string dsl = map::kernel_dsl(m, c);
    FrontendResult fe = run_frontend(m.name + ".dsl", dsl + "\n");
    if (!fe.ok) return;
    ++local.legal;
    if (!hashes.insert(fe.hash).second) {
      ++local.duplicates;
      return;
    }
    Candidate cand;
    cand.config = c;
    cand.speculative = speculative;
    cand.dsl = std::move(dsl);
    cand.hash = fe.hash;
    Estimate e = estimate_time(m, c, gpu);
    cand.estimate_s = e.seconds;
    cand.estimate_note = e.note;
    out.push_back(std::move(cand));
  };
  for (const auto& [path, configs] : spaces)
    for (const KernelConfig& c : configs) add(c, path.speculative);
  auto by_estimate = [](const Candidate& x, const Candidate& y) { return x.estimate_s < y.estimate_s; };
  std::stable_sort(out.begin(), out.end(), by_estimate);
  // Shorter fused chains of every honest config (KernelConfig::fuse_steps): the model prices the
  // PyTorch passes they add but not what a costly epilogue step costs in the kernel, so they rank
  // below their full-chain twins and are tried as the best's one-knob neighbours (refine.h).
  if (!m.conv && !m.rows && !m.attention) {
    std::vector<KernelConfig> shorter;
    for (size_t i = 0; i < out.size(); ++i) {
      if (out[i].speculative || out[i].config.gemv) continue;
      const KernelConfig& c = out[i].config;
      const size_t full = map::fusable_prefix(map::as_run(m, c), c.arch, false).steps;
      if (full < 2) continue;
      for (size_t cap : {full - 1, size_t{1}}) {  // the same cap twice is one program, kept once (add)
        KernelConfig v = c;
        v.fuse_steps = cap;
        shorter.push_back(v);
      }
    }
    for (const KernelConfig& v : shorter) add(v, false);
    std::stable_sort(out.begin(), out.end(), by_estimate);
  }
  if (stats) *stats = local;
  return out;
}

namespace {

auto family(const KernelConfig& c) {
  return std::make_tuple(static_cast<int>(c.arch), static_cast<int>(c.math), c.k_stack3, c.bf16_operands, static_cast<int>(c.form),
                         c.tile.m, c.tile.n, static_cast<int>(c.scheduler), c.operand_swap, c.gemv, c.row_threads,
                         c.row_splits, c.attention_block_q, c.attention_block_k, static_cast<int>(c.attention_scores));
}

int knob_differences(const KernelConfig& a, const KernelConfig& b) {
  int d = 0;
  d += a.math != b.math || a.arch != b.arch || a.k_stack3 != b.k_stack3 || a.bf16_operands != b.bf16_operands;
  d += a.form != b.form;  // a different problem form
  d += !(a.tile == b.tile);
  d += !(a.cluster == b.cluster);
  d += a.schedule != b.schedule;
  d += a.scheduler != b.scheduler || a.splits != b.splits;
  d += a.raster != b.raster || a.swizzle != b.swizzle;
  d += a.stages != b.stages;
  d += a.layout_a != b.layout_a || a.layout_b != b.layout_b;
  d += a.operand_swap != b.operand_swap;
  d += a.gemv != b.gemv;
  d += a.gemv_access != b.gemv_access;
  d += a.gemv_threads_per_row != b.gemv_threads_per_row;
  d += a.gemv_threads != b.gemv_threads;
  d += a.row_access != b.row_access;
  d += a.row_threads != b.row_threads;
  d += a.row_splits != b.row_splits;
  d += a.attention_block_q != b.attention_block_q;
  d += a.attention_block_k != b.attention_block_k;
  d += a.attention_scores != b.attention_scores;
  d += a.fuse_steps != b.fuse_steps;
  return d;
}

}  // namespace

std::vector<const Candidate*> diverse_top(const std::vector<Candidate>& ranked, size_t count) {
  std::vector<const Candidate*> out;
  std::set<decltype(family(KernelConfig{}))> seen;
  std::set<const Candidate*> taken;
  auto take = [&](const Candidate& c) {
    if (out.size() >= count || !taken.insert(&c).second) return;
    if (!c.speculative) seen.insert(family(c.config));
    out.push_back(&c);
  };
  // The best honest candidate, then the speculative probe (plain TF32 under 1e-4, which passes on
  // some problems and is then the fastest), then the best of every other honest math path within 3x
  // of the best: a path that fails on the GPU (numerics, a build) must not leave a batch with nothing
  // measured. Then distinct families in rank order.
  const Candidate* best = nullptr;
  for (const Candidate& c : ranked)
    if (!c.speculative) {
      best = &c;
      break;
    }
  if (best) take(*best);
  for (const Candidate& c : ranked)
    if (c.speculative) {
      take(c);
      break;
    }
  // Paths more accurate than the best's come first: a batch of two then holds a hedge against the
  // best path missing the tolerance (two TF32 kernels on two architectures fail together).
  auto path_of = [](const KernelConfig& c) { return std::make_tuple(c.arch, c.math, c.k_stack3, c.bf16_operands); };
  std::set<decltype(path_of(KernelConfig{}))> paths;
  if (best) paths.insert(path_of(best->config));
  for (const bool more_accurate : {true, false})
    for (const Candidate& c : ranked)
      if (best && !c.speculative && c.estimate_s <= 3 * best->estimate_s &&
          (accuracy_rank(c.config) > accuracy_rank(best->config)) == more_accurate &&
          paths.insert(path_of(c.config)).second)
        take(c);
  for (const Candidate& c : ranked)
    if (!c.speculative && !seen.count(family(c.config))) take(c);
  return out;
}

std::vector<const Candidate*> neighbours(const std::vector<Candidate>& ranked, const KernelConfig& best, size_t count) {
  std::vector<const Candidate*> out;
  for (const Candidate& c : ranked) {
    if (out.size() >= count) break;
    if (knob_differences(c.config, best) == 1) out.push_back(&c);
  }
  return out;
}

}  // namespace ucutlass::search

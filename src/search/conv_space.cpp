#include "search/conv_space.h"

#include <algorithm>

#include "compiler/frontend.h"
#include "ir/validate_conv.h"
#include "map/channel_pad.h"
#include "map/run_form.h"
#include "map/space_to_depth.h"
#include "map/subpixel.h"

namespace ucutlass::search {

namespace {

using ir::Arch;
using ir::MathPath;
using ir::Shape3;

// sm90a conv tiles as (M, N); tile K comes from conv_sm90_tile_ks.
struct TileMN {
  int m, n;
};

// CUTLASS's non-persistent kernel: one consumer warp group, tile M 64 or 128.
const std::vector<TileMN> kSm90Tiles = {{64, 64}, {64, 128}, {64, 256}, {128, 64}, {128, 128}, {128, 256}};

// Cooperative: tile M 128 or 256 (a warp group per half), at most 128 accumulators per consumer thread.
const std::vector<TileMN> kSm90CooperativeTiles = {{128, 64}, {128, 128}, {128, 256}, {256, 64}, {256, 128}};

// Pingpong: a warp group per tile, the two taking turns. Not 64x256 though it is legal: on the H200 it
// ran at a fifth of 64x128's speed (bench/results/conv-2026-11-30-*: bench_bf16_tile_pingpong_64x256).
const std::vector<TileMN> kSm90PingpongTiles = {{64, 128}, {128, 64}, {128, 128}};

std::vector<Shape3> conv_sm80_tiles(MathPath math, graph::DType in, bool grouped) {
  if (math == MathPath::simt) return {{128, 128, 8}, {128, 64, 8}, {64, 64, 8}, {32, 128, 8}};
  const int k = math == MathPath::tensor_op && graph::dtype_bytes(in) == 2 ? 32 : 16;
  std::vector<Shape3> out = {{128, 256, k}, {128, 128, k}, {128, 64, k}, {64, 128, k}, {64, 64, k}};
  if (grouped) out.insert(out.end(), {{128, 32, k}, {64, 32, k}});
  return out;
}

// Tile K values for an sm90a conv over `channels` input channels (per group): the usual 64 16-bit / 32 f32,
// and for fewer channels the smallest legal tile that holds them (wgmma K: 16 for 16-bit, 8 for TF32, times a
// power of two).
// TMA im2col loads one filter tap's channel block per K step, so a 4-channel stem on a 32-deep tile
// multiplies 28 zero channels per step (the cost model's channel-block factor).
// A dgrad's GEMM K runs over the output channels (channels = 0): the usual tile K only.
std::vector<int> conv_sm90_tile_ks(int64_t channels, graph::DType in) {
  const int usual = graph::dtype_bytes(in) == 4 ? 32 : 64, step = graph::dtype_bytes(in) == 4 ? 8 : 16;
  // A power-of-two multiple of the step (validate_conv: the swizzle atom wants 32, 64 or 128 bytes).
  int fit = step;
  while (fit < channels) fit *= 2;
  if (channels <= 0 || fit >= usual) return {usual};
  return {usual, fit};
}

bool is_depthwise(const map::GemmMatch& m) { return m.conv && m.conv->is_depthwise_conv2d(); }

// Its tile is (output pixels, channels, taps): K is fixed at r * s; the front end
// keeps the (M, N) pairs whose output tile and warp grid CUTLASS has.
std::vector<Shape3> depthwise_tiles(const map::GemmMatch& m) {
  const int taps = static_cast<int>(m.conv->filter[1] * m.conv->filter[2]);
  std::vector<Shape3> out;
  for (int tm : {32, 64, 128})
    for (int tn : {16, 32, 64}) out.push_back({tm, tn, taps});
  return out;
}

// allowed_math_paths without K stacking unless `stackable`, plus sm80 tensor_op for 16-bit inputs.
std::vector<MathChoice> paths_for(graph::DType in, sol::ToleranceProfile tolerance, bool stackable) {
  std::vector<MathChoice> out = allowed_math_paths(in, tolerance);
  std::erase_if(out, [&](const MathChoice& c) { return c.k_stack3 && !stackable; });
  if (graph::dtype_bytes(in) == 2) out.push_back({Arch::sm80, MathPath::tensor_op, false});
  return out;
}

}  // namespace

std::vector<MathChoice> conv_math_paths(const map::GemmMatch& m, sol::ToleranceProfile tolerance) {
  // A forward conv with groups = 1 stacks its input channels: conv over [x_hi x_hi x_lo] with
  // [w_hi w_lo w_hi] along C is the three-term sum (convolution is linear in the channels). Not under
  // 1e-2: a conv's weight is a parameter, which keeps TF32 within that tolerance. A strided transposed
  // conv stacks as its sub-pixel fprop (map/subpixel.h), the only form it then takes.
  const bool forward = m.conv && (!m.conv->transposed || map::subpixel_eligible(*m.conv));
  std::vector<MathChoice> out = paths_for(m.in, tolerance, forward && m.conv->groups == 1 &&
                                                               tolerance != sol::ToleranceProfile::kernelbench_v01);
  const bool has_simt = std::any_of(out.begin(), out.end(), [](const MathChoice& c) {
    return c.arch == Arch::sm80 && c.math == MathPath::simt;
  });
  if (is_depthwise(m) && !has_simt) out.push_back({Arch::sm80, MathPath::simt, false});
  return out;
}

std::vector<MathChoice> conv_math_paths(graph::DType in, sol::ToleranceProfile tolerance) {
  return paths_for(in, tolerance, false);  // K stacking needs the conv's shape
}

std::vector<map::KernelConfig> enumerate_conv_configs(const map::GemmMatch& m, const MathChoice& path) {
  std::vector<map::KernelConfig> out;
  map::KernelConfig base;
  base.arch = path.arch;
  base.math = path.math;
  base.conv = true;
  base.k_stack3 = path.k_stack3;
  base.bf16_operands = path.bf16_operands;
  const graph::DType run_in = map::run_input_type(m, base);
  if (path.arch == Arch::sm90a) {
    // The conv as given, and the rewrites that let sm90a run it (map/run_form.h): a strided transposed
    // conv, which sm90a's dgrad does not run, as a sub-pixel fprop; a conv with short pixels with its
    // channels zero-padded for TMA; a strided conv over few channels over its space-to-depth blocks.
    std::vector<map::KernelConfig> forms;
    if (!(base.k_stack3 && m.conv && m.conv->transposed)) forms.push_back(base);  // a dgrad does not stack
    if (m.conv && map::subpixel_eligible(*m.conv)) {
      forms.push_back(base);
      forms.back().form = map::ConvForm::subpixel;
    }
    if (m.conv && map::channel_pad_eligible(*m.conv, run_in)) {
      forms.push_back(base);
      forms.back().form = map::ConvForm::padded_channels;
    }
    if (m.conv && map::space_to_depth_eligible(*m.conv, run_in)) {
      forms.push_back(base);
      forms.back().form = map::ConvForm::space_to_depth;
    }
    for (const map::KernelConfig& form : forms) {
      const std::vector<int> ks = conv_sm90_tile_ks(map::forward_channels_per_group(map::as_run(m, form), form), run_in);
      auto add = [&](const TileMN& tile, const Shape3& cluster, ir::KernelSchedule schedule) {
        for (int k : ks) {
          map::KernelConfig c = form;
          c.tile = {tile.m, tile.n, k};
          c.cluster = cluster;
          c.schedule = schedule;
          out.push_back(c);
        }
      };
      for (const TileMN& tile : kSm90Tiles)
        for (Shape3 cluster : {Shape3{1, 1, 1}, Shape3{2, 1, 1}, Shape3{1, 2, 1}})
          add(tile, cluster, ir::KernelSchedule::warpspecialized);
      // The persistent kernel (fprop; validate_conv.h): two consumer warp groups split tile M
      // (cooperative) or take alternate tiles (pingpong).
      if (m.conv && m.conv->transposed && form.form != map::ConvForm::subpixel) continue;
      for (const TileMN& tile : kSm90CooperativeTiles) add(tile, {1, 1, 1}, ir::KernelSchedule::cooperative);
      for (const TileMN& tile : kSm90PingpongTiles) add(tile, {1, 1, 1}, ir::KernelSchedule::pingpong);
    }
    return out;
  }
  // A depthwise conv runs only as the SIMT direct convolution, over its own tiles (K = taps).
  const bool depthwise = is_depthwise(m);
  if (depthwise && path.math != MathPath::simt) return out;
  const std::vector<Shape3> tiles =
      depthwise ? depthwise_tiles(m) : conv_sm80_tiles(path.math, m.in, m.conv && m.conv->groups > 1);
  const std::vector<int> stages = depthwise ? std::vector<int>{2, 3, 4}
                                  : path.math == MathPath::simt ? std::vector<int>{3, 4}
                                                                : std::vector<int>{3, 4, 5};
  for (const Shape3& tile : tiles)
    for (int st : stages) {
      map::KernelConfig c = base;
      c.tile = tile;
      c.schedule = ir::KernelSchedule::multistage;
      c.stages = st;
      out.push_back(c);
    }
  return out;
}

std::string unplaced_reason(const map::GemmMatch& m, sol::ToleranceProfile tolerance) {
  // (message, the paths that gave it), in the order of the paths.
  std::vector<std::pair<std::string, std::string>> reasons;
  for (const MathChoice& path : conv_math_paths(m, tolerance)) {
    map::KernelConfig c;
    c.arch = path.arch;
    c.math = path.math;
    c.conv = true;
    c.bf16_operands = path.bf16_operands;
    FrontendResult fe = run_frontend(m.name + ".dsl", map::kernel_dsl(m, c) + "\n");
    if (fe.ok) return "";
    std::string message = "rejected";
    for (const Diagnostic& d : fe.diags->all())
      if (d.severity == Severity::error) {
        message = d.message;
        break;
      }
    const std::string label = std::string(ir::name_of(path.arch)) + " " + std::string(ir::name_of(path.math)) +
                              (path.bf16_operands ? " (f32 rounded to bf16)" : "");
    auto same = std::find_if(reasons.begin(), reasons.end(), [&](const auto& r) { return r.first == message; });
    if (same != reasons.end()) same->second += ", " + label;
    else reasons.push_back({message, label});
  }
  std::string out;
  for (const auto& [message, labels] : reasons) out += (out.empty() ? "" : "; ") + labels + ": " + message;
  return out;
}

void leave_unplaced_convs(const graph::OpGraph& g, sol::ToleranceProfile tolerance, map::MatchReport& r,
                          std::vector<std::vector<Candidate>>& lists) {
  for (size_t i = 0; i < r.gemms.size();) {
    const map::GemmMatch& m = r.gemms[i];
    if (!m.conv || !lists[i].empty()) {
      ++i;
      continue;
    }
    r.notes.push_back(g.nodes[m.anchor].id + " (" + m.anchor_op + "): left to PyTorch: " + unplaced_reason(m, tolerance));
    r.gemms.erase(r.gemms.begin() + static_cast<std::ptrdiff_t>(i));
    lists.erase(lists.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

size_t drop_sm90_convs_beside_gemms(std::vector<std::vector<Candidate>>& lists) {
  auto is_conv_list = [](const std::vector<Candidate>& l) { return !l.empty() && l.front().config.conv; };
  const bool has_gemm = std::any_of(lists.begin(), lists.end(), [&](const auto& l) { return !l.empty() && !is_conv_list(l); });
  if (!has_gemm) return 0;
  size_t dropped = 0;
  for (std::vector<Candidate>& l : lists) {
    if (!is_conv_list(l)) continue;
    // ucutlass's persistent conv kernel does not instantiate CUTLASS's, so it may stay (ir/lower.cpp).
    auto sm90 = [](const Candidate& c) {
      return c.config.arch == ir::Arch::sm90a && !ir::is_persistent_conv_schedule(c.config.schedule);
    };
    if (std::all_of(l.begin(), l.end(), sm90)) continue;
    const size_t before = l.size();
    l.erase(std::remove_if(l.begin(), l.end(), sm90), l.end());
    dropped += before - l.size();
  }
  return dropped;
}

std::vector<std::vector<Candidate>> candidate_lists(const graph::OpGraph& g, sol::ToleranceProfile tolerance,
                                                    const sol::GpuProfile& gpu, map::MatchReport& r) {
  std::vector<std::vector<Candidate>> lists;
  for (const map::GemmMatch& m : r.gemms) lists.push_back(legal_candidates(m, tolerance, gpu));
  leave_unplaced_convs(g, tolerance, r, lists);
  drop_sm90_convs_beside_gemms(lists);
  return lists;
}

}  // namespace ucutlass::search

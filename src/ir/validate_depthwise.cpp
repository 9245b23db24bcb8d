#include "ir/validate_depthwise.h"

#include <algorithm>
#include <string>

#include "ir/conv_problem.h"
#include "ir/validate.h"

namespace ucutlass::ir {

namespace {

std::string str(int64_t v) { return std::to_string(v); }
std::string tname(DType t) { return std::string(name_of(t)); }
bool pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// Output pixels (p, q) of one lane group, per warp pixels and lanes along pixels: CUTLASS's
// conv::threadblock::detail::SimtWarpShape specializations (depthwise_mma_core_with_lane_access_size.h).
struct ThreadTile {
  int warp_m, threads_m, p, q;
};
constexpr ThreadTile kThreadTiles[] = {{4, 4, 1, 1},  {4, 2, 2, 1},  {4, 1, 2, 2},  {8, 1, 2, 4},  {8, 2, 2, 2},
                                       {8, 4, 1, 2},  {16, 1, 4, 4}, {16, 2, 2, 4}, {16, 4, 2, 2}, {32, 1, 4, 8},
                                       {32, 2, 4, 4}, {32, 4, 2, 4}};

// A warp spans all N channels; lanes take 2 channels each (GroupsPerThread for 16- and 32-bit
// types), up to 32 lanes, and the remaining lanes split the warp's output pixels.
constexpr int kChannelTiles[] = {16, 32, 64, 128};

class DepthwiseValidator {
 public:
  DepthwiseValidator(const GemmKernel& k, Diagnostics& d)
      : k_(k), p_(*k.conv), d_(d), errors_before_(d.error_count()) {}

  bool run() {
    if (p_.dims != 2 || p_.mode != ConvMode::fprop) {
      error(p_.groups.span, "sm80 depthwise convolutions are fprop conv2d only (CUTLASS's direct convolution, "
                            "DefaultDepthwiseDirect2dConvFprop), not " + std::string(conv_op_name(p_)) + " " +
                                std::string(name_of(p_.mode)),
            "conv2d fprop with groups = c = k, or groups = 1");
      return false;
    }
    if (is_fp8(k_.a.value)) return false;  // the sm80 rule says fp8 needs sm90a
    check_types();
    check_channels();
    check_tile();
    check_settings();
    return d_.error_count() == errors_before_;
  }

 private:
  void error(Span s, std::string msg, std::string legal = {}, std::string hint = {}) {
    d_.error(s, std::move(msg), std::move(legal), std::move(hint));
  }

  void check_types() {
    const DType a = k_.a.value;
    if (k_.d.value != a)
      error(k_.d.span, "the direct convolution writes D in its input type: " + tname(a) + ", not " +
                           tname(k_.d.value),
            "d = " + tname(a) + " (or auto)");
    if (k_.math.value != MathPath::simt)
      error(k_.math.span, "depthwise convolutions run on CUDA cores (CUTLASS's direct convolution is SIMT only), "
                          "not '" + std::string(name_of(k_.math.value)) + "'",
            "with_math(simt) or auto");
  }

  // Activation, filter and output tiles move in 16-byte vectors (the direct-conv thread maps are
  // fixed at 128 bits); can_implement checks c and k against them.
  void check_channels() {
    const int vec = 128 / bits_of(k_.a.value);
    if (p_.c.value % vec != 0) {
      error(p_.c.span, "the direct convolution loads 16-byte vectors of channels: c = " + str(p_.c.value) + " " +
                           tname(k_.a.value) + " channels are " + str(p_.c.value * bits_of(k_.a.value) / 8) +
                           " bytes per pixel",
            "c = k = groups a multiple of " + str(vec) + " for " + tname(k_.a.value),
            "pad the channels with zeros to a multiple of " + str(vec) + " (the result is unchanged)");
      return;
    }
    const char* names[3] = {"a", "b", "c"};
    const Setting<int>* aligns[3] = {&k_.align_a, &k_.align_b, &k_.align_c};
    const DType types[3] = {k_.a.value, k_.b.value, k_.d.value};
    for (int i = 0; i < 3; ++i) {
      const int want = 128 / bits_of(types[i]);
      if (aligns[i]->value == want) continue;
      error(aligns[i]->span, "the direct convolution moves 16-byte vectors; alignment " + std::string(names[i]) +
                                 " = " + str(aligns[i]->value) + " is " +
                                 str(aligns[i]->value * bits_of(types[i]) / 8) + " bytes",
            "with_alignment(" + std::string(names[i]) + " = " + str(want) + ") or auto");
      return;
    }
  }

  void check_tile() {
    const Shape3& t = k_.tile.value;
    const int64_t taps = p_.filter[1].value * p_.filter[2].value;
    if (t.k != taps)
      error(k_.tile.span, "tile K of a depthwise convolution is the filter's r x s = " + str(taps) + " taps, not " +
                              str(t.k),
            "with_tile(M, N, " + str(taps) + ")");
    if (std::find(std::begin(kChannelTiles), std::end(kChannelTiles), t.n) == std::end(kChannelTiles))
      error(k_.tile.span, "tile N = " + str(t.n) + " is the channels per CTA, which one warp spans; the direct "
                          "convolution's lane layout takes 16, 32, 64 or 128",
            "with_tile(M, 16 | 32 | 64 | 128, K)");
    if (!pow2(t.m) || t.m < 4 || t.m > 256)
      error(k_.tile.span, "tile M = " + str(t.m) + " is the output pixels per CTA tile (out_h x out_w), which "
                          "must be a power of two in [4, 256]",
            "4 (2x2), 8 (2x4), 16 (4x4), 32 (4x8), 64 (8x8), 128 (8x16) or 256 (16x16)");
    if (d_.error_count() != errors_before_) return;
    const Shape3& w = k_.warps.value;
    if (w.n != 1 || w.k != 1 || !pow2(w.m) || w.m > 16 || t.m % w.m != 0) {
      error(k_.warps.span, "warps " + str(w.m) + "x" + str(w.n) + "x" + str(w.k) + " do not suit the direct "
                           "convolution: each warp spans all channels and an equal part of the " + str(t.m) +
                               " output pixels",
            "with_warps(M, 1, 1), M a power of two up to 16 that divides tile M");
      return;
    }
    const DepthwiseTiling dt = depthwise_tiling(k_);
    if (dt.thread_p == 0 || dt.out_h % dt.thread_p != 0 || dt.out_w % dt.thread_q != 0) {
      std::string legal;
      for (const ThreadTile& tt : kThreadTiles)
        if (tt.threads_m == dt.threads_m && t.m % tt.warp_m == 0 && t.m / tt.warp_m <= 16 &&
            dt.out_h % tt.p == 0 && dt.out_w % tt.q == 0)
          legal += (legal.empty() ? "" : ", ") + str(t.m / tt.warp_m);
      error(k_.warps.span, "a warp of " + str(dt.warp_m) + " output pixels with " + str(dt.threads_m) +
                               " lane group" + (dt.threads_m == 1 ? "" : "s") + " along pixels (tile N = " +
                               str(t.n) + ") has no thread tile in CUTLASS that divides the " + str(dt.out_h) +
                               "x" + str(dt.out_w) + " output tile",
            legal.empty() ? "another tile" : "with_warps(M, 1, 1) with M one of " + legal + " for this tile");
      return;
    }
    const int stages = k_.stages.value;
    if (stages < 2 || stages > 8) {
      error(k_.stages.span, "the direct convolution's pipeline takes 2 to 8 stages, not " + str(stages), "2 to 8");
      return;
    }
    if (!depthwise_epilogue_fits(k_)) {
      check_epilogue_staging(dt);
      return;
    }
    const int smem = depthwise_smem_bytes(k_, stages);
    if (smem > kSmemCapacityBytes)
      error(k_.stages.span, str(stages) + " stages of the " + str(dt.out_h) + "x" + str(dt.out_w) + "x" + str(t.n) +
                                " output tile need " + str(smem) + " bytes of shared memory (activation tiles " +
                                "grow with stride and dilation), more than " + str(kSmemCapacityBytes),
            "fewer stages, or a smaller tile M or N");
  }

  // DepthwiseFpropDirectConvMultipleStage hands the epilogue the activation stage it has just read
  // (smem_base_offset = filter + (tile % stages) * activation stage) and the epilogue writes the whole
  // output tile's accumulators there; stages are laid out one activation stage apart, so a larger
  // accumulator tile (16-bit inputs, f32 accumulators, a small halo) overwrites the next tile's
  // activations, which are already loaded: NaN and garbage in the rows read through them.
  void check_epilogue_staging(const DepthwiseTiling& dt) {
    const Shape3& t = k_.tile.value;
    const ConvProblem& p = p_;
    const int64_t act_h = (dt.out_h - 1) * p.stride.value[1] + (p.filter[1].value - 1) * p.dilation.value[1] + 1;
    const int64_t act_w = (dt.out_w - 1) * p.stride.value[2] + (p.filter[2].value - 1) * p.dilation.value[2] + 1;
    // The largest tile M up to this one, with the warp counts that fit it at these stages.
    std::string legal;
    for (int m = t.m; m >= 4 && legal.empty(); m /= 2) {
      std::string warps;
      for (int w = 1; w <= 16; w *= 2) {
        GemmKernel alt = k_;
        alt.tile.value.m = m;
        alt.warps.value = Shape3{w, 1, 1};
        if (m % w != 0 || !depthwise_thread_tile_ok(alt) || !depthwise_epilogue_fits(alt) ||
            depthwise_smem_bytes(alt, alt.stages.value) > kSmemCapacityBytes)
          continue;
        warps += (warps.empty() ? "" : ", ") + str(w);
      }
      if (!warps.empty())
        legal = "with_tile(" + str(m) + ", " + str(t.n) + ", " + str(t.k) + ").with_warps(M, 1, 1) with M one of " +
                warps;
    }
    if (k_.a.value == DType::f16 && k_.acc.value == DType::f32)
      legal += std::string(legal.empty() ? "" : "; or ") + "acc = f16 (accumulators of the input's size always fit)";
    error(k_.tile.span, "the direct convolution's epilogue stages the " + str(dt.out_h) + "x" + str(dt.out_w) + "x" +
                            str(t.n) + " output tile's " + tname(k_.acc.value) + " accumulators (" +
                            str(depthwise_epilogue_bytes(k_)) + " bytes) in the activation stage it has just read (" +
                            str(depthwise_activation_stage_bytes(k_)) + " bytes: " + str(act_h) + "x" + str(act_w) +
                            " input pixels in whole 16-byte loads of " + str(32 * k_.warps.value.m) +
                            " threads); the excess would overwrite the next output tile's activations",
          legal.empty() ? "accumulators of at most one activation stage" : legal);
  }

  void check_settings() {
    if (k_.swizzle.value != 1)
      error(k_.swizzle.span, "the direct convolution's grid is one row of channel tiles, so it takes no swizzle",
            "with_raster(heuristic, swizzle = 1) or none");
  }

  const GemmKernel& k_;
  const ConvProblem& p_;
  Diagnostics& d_;
  size_t errors_before_;
};

}  // namespace

DepthwiseTiling depthwise_tiling(const GemmKernel& k) {
  DepthwiseTiling dt;
  const Shape3& t = k.tile.value;
  if (pow2(t.m)) {
    int log2 = 0;
    while ((1 << (log2 + 1)) <= t.m) ++log2;
    dt.out_h = 1 << (log2 / 2);
    dt.out_w = t.m / dt.out_h;
  }
  dt.warp_m = k.warps.value.m > 0 ? t.m / k.warps.value.m : 0;
  dt.threads_n = std::min(std::max(t.n / 2, 1), 32);
  dt.threads_m = 32 / dt.threads_n;
  for (const ThreadTile& tt : kThreadTiles)
    if (tt.warp_m == dt.warp_m && tt.threads_m == dt.threads_m) {
      dt.thread_p = tt.p;
      dt.thread_q = tt.q;
    }
  return dt;
}

namespace {

int64_t activation_stage_bytes(const GemmKernel& k) {
  const DepthwiseTiling dt = depthwise_tiling(k);
  const ConvProblem& p = *k.conv;
  const int vec = 128 / bits_of(k.a.value);
  const int64_t threads = 32 * std::max(k.warps.value.m, 1), n = k.tile.value.n;
  // Depthwise2dFpropDirectConvParams: each thread loads whole 16-byte vectors of the activation tile
  // (activation_load_count loads of every thread: activation_size).
  const int64_t act_h = (dt.out_h - 1) * p.stride.value[1] + (p.filter[1].value - 1) * p.dilation.value[1] + 1;
  const int64_t act_w = (dt.out_w - 1) * p.stride.value[2] + (p.filter[2].value - 1) * p.dilation.value[2] + 1;
  const int64_t loads = (n / vec * act_h * act_w + threads - 1) / threads;
  return loads * 16 * threads;
}

// EpilogueDepthwise::SharedStorage: the output tile's accumulators, out_h * out_w x N, no padding.
int64_t epilogue_bytes(const GemmKernel& k) {
  const DepthwiseTiling dt = depthwise_tiling(k);
  return int64_t{dt.out_h} * dt.out_w * k.tile.value.n * (bits_of(k.acc.value) / 8);
}

int clamp_int(int64_t v) { return static_cast<int>(std::min<int64_t>(v, 1 << 30)); }

}  // namespace

int depthwise_activation_stage_bytes(const GemmKernel& k) { return clamp_int(activation_stage_bytes(k)); }

int depthwise_epilogue_bytes(const GemmKernel& k) { return clamp_int(epilogue_bytes(k)); }

bool depthwise_epilogue_fits(const GemmKernel& k) { return epilogue_bytes(k) <= activation_stage_bytes(k); }

bool depthwise_thread_tile_ok(const GemmKernel& k) {
  const DepthwiseTiling dt = depthwise_tiling(k);
  return dt.out_h > 0 && dt.thread_p > 0 && dt.out_h % dt.thread_p == 0 && dt.out_w % dt.thread_q == 0;
}

int depthwise_smem_bytes(const GemmKernel& k, int stages) {
  const int vec = 128 / bits_of(k.a.value);
  const int64_t threads = 32 * std::max(k.warps.value.m, 1), n = k.tile.value.n;
  // DirectConvolutionParams::smem_size_: stages x max(activation stage, epilogue staging) + the filters
  // (DepthwiseFpropFilterDirectConvTileAccessIteratorOptimized::kFilterSize, whole loads of every thread).
  const int64_t filter_loads = (n / vec * k.tile.value.k + threads - 1) / threads;
  const int64_t total = stages * std::max(activation_stage_bytes(k), epilogue_bytes(k)) + filter_loads * 16 * threads;
  return clamp_int(total);
}

bool validate_depthwise(const GemmKernel& k, Diagnostics& diags) { return DepthwiseValidator(k, diags).run(); }

}  // namespace ucutlass::ir

#include "ir/validate_conv.h"

#include <algorithm>
#include <string>
#include <tuple>

#include "ir/validate_depthwise.h"

namespace ucutlass::ir {

namespace {

std::string str(int64_t v) { return std::to_string(v); }
std::string tname(DType t) { return std::string(name_of(t)); }

// The hint for what sm90a cannot do but the SM80 implicit GEMM can.
constexpr const char* kSm80Hint = "with_arch(sm80): the SM80 implicit-GEMM convolution runs on Hopper too";

class ConvValidator {
 public:
  ConvValidator(const GemmKernel& k, Diagnostics& d) : k_(k), p_(*k.conv), d_(d), errors_before_(d.error_count()) {}

  bool run() {
    check_settings();
    check_epilogue();
    // Architecture rules assume a well-formed problem with aligned operands.
    if (!check_problem() || !check_alignment()) return false;
    if (k_.arch.value == Arch::sm90a) {
      check_sm90_types();
      check_sm90_problem();
      check_sm90_schedule();
    } else {
      check_sm80();
    }
    return d_.error_count() == errors_before_;
  }

 private:
  void error(Span s, std::string msg, std::string legal = {}, std::string hint = {}) {
    d_.error(s, std::move(msg), std::move(legal), std::move(hint));
  }
  std::string op() const { return conv_op_name(p_); }

  // ---- the problem itself ------------------------------------------------

  bool check_problem() {
    const size_t before = d_.error_count();
    const int64_t g = p_.groups.value;
    if (p_.c.value % g != 0 || p_.k.value % g != 0)
      error(p_.groups.span, "groups = " + str(g) + " does not divide " +
                                (p_.c.value % g != 0 ? "c = " + str(p_.c.value) : "k = " + str(p_.k.value)),
            "a group count that divides both c = " + str(p_.c.value) + " and k = " + str(p_.k.value));
    for (int i = p_.first_dim(); i < 3; ++i) {
      if (p_.input[i].is_dynamic() || p_.output(i) > 0) continue;
      const std::string in = input_dim_name(i), f = filter_dim_name(i);
      error(p_.filter[i].span,
            "the filter does not fit the input: " + f + " = " + str(p_.filter[i].value) + " with dilation " +
                str(p_.dilation.value[i]) + " spans " + str(p_.dilation.value[i] * (p_.filter[i].value - 1) + 1) + ", but " +
                in + " = " + str(p_.input[i].value) + " with pad " + str(p_.pad.value[i]) + " is " +
                str(p_.input[i].value + 2 * p_.pad.value[i]) + " wide",
            in + " + 2 pad >= dilation * (" + f + " - 1) + 1");
    }
    constexpr int64_t kMaxInt = 2147483647;
    if (k_.m.value > kMaxInt || k_.n.value > kMaxInt || k_.k.value > kMaxInt)
      error(k_.name_span, "the implicit GEMM of this " + op() + " is " + str(k_.m.value) + " x " + str(k_.n.value) +
                              " x " + str(k_.k.value) + ", beyond CUTLASS's 32-bit extents",
            "M, N, K (output pixels, channels, filter taps x channels) at most 2^31 - 1", "split the batch");
    return d_.error_count() == before;
  }

  // Settings that mean nothing for a convolution.
  void check_settings() {
    for (const Setting<Layout>* l : {&k_.layout_a, &k_.layout_b, &k_.layout_c})
      if (!l->is_auto) {
        error(l->span, "convolutions are channels-last (NHWC activations, KRSC filters); with_layouts does not apply",
              "no with_layouts on " + op() + " kernels",
              "PyTorch's NCHW tensors are converted by the torch binding (docs/codegen.md)");
        break;
      }
    if (k_.scheduler.value == TileScheduler::stream_k || k_.scheduler.value == TileScheduler::split_k)
      error(k_.scheduler.span, "stream-K and split-K are not available for convolutions in CUTLASS 4.2",
            "with_scheduler(auto) or none");
    if (!k_.raster.is_auto && k_.raster.value != RasterOrder::heuristic)
      error(k_.raster.span, "convolution kernels do not take a raster order", "with_raster(heuristic) or none");
  }

  // The epilogue sees D as [output pixels, output channels] (fprop, dgrad) or
  // [K, T*R*S*C] (wgrad): a per-channel vector is a `col` vector of length N
  // in the first two passes; aux tensors would need the conv's nested strides.
  void check_epilogue() {
    for (const EpilogueStep& s : k_.epilogue) {
      if (s.kind == EpilogueStep::Kind::bias && s.bias == BiasKind::row)
        error(s.span, "bias(row) would be one value per output pixel; a convolution's bias is per output channel",
              "bias(col): one value per output channel, like nn.Conv2d's bias");
      else if (s.kind == EpilogueStep::Kind::bias && p_.mode == ConvMode::wgrad)
        error(s.span, "a wgrad kernel writes the filter gradient, which has no bias to add",
              "alpha, beta and element-wise steps on wgrad");
    }
    for (const EpilogueExtra& x : k_.extras) {
      if (x.is_output && x.kind != ExtraKind::matrix)
        error(x.span, "'" + x.name + "' reduces into a side output, which convolution kernels do not fuse in this version",
              "alpha, beta, element-wise steps, scalars and per-channel vectors (col) on convolutions");
      else if (x.kind == ExtraKind::matrix)
        error(x.span, "epilogue tensor '" + x.name + "' is not supported on convolutions in this version",
              "scalars and per-channel vectors (col); for a residual add, read C: with_epilogue(beta(1.0))");
      else if (x.kind == ExtraKind::row)
        error(x.span, "'" + x.name + "' is a row vector (one value per output pixel), not per channel",
              "col vectors: one value per output channel");
      else if (x.kind == ExtraKind::col && p_.mode == ConvMode::wgrad)
        error(x.span, "a wgrad kernel takes no per-channel vectors in its epilogue", "scalars and constants on wgrad");
    }
  }

  bool check_alignment() {
    const size_t before = d_.error_count();
    const ConvContiguous cc = conv_contiguous_channels(p_);
    const char* names[3] = {"A", "B", "C/D"};
    const Setting<int>* aligns[3] = {&k_.align_a, &k_.align_b, &k_.align_c};
    const int64_t extents[3] = {cc.a, cc.b, cc.d};
    for (int i = 0; i < 3; ++i) {
      const Setting<int>& a = *aligns[i];
      if (a.value <= 0 || extents[i] % a.value == 0) continue;
      error(a.span, std::string(names[i]) + " holds " + str(extents[i]) + " contiguous channels" +
                        (p_.groups.value > 1 && !p_.is_depthwise() ? " per group" : "") + ", which alignment " +
                        str(a.value) + " does not divide",
            "an alignment that divides " + str(extents[i]), "with_alignment(" +
                std::string(i == 0 ? "a" : i == 1 ? "b" : "c") + " = auto)");
    }
    return d_.error_count() == before;
  }

  // ---- SM90 ----------------------------------------------------------------

  void check_sm90_types() {
    if (is_fp8(k_.a.value))
      error(k_.a.span, "fp8 convolutions are not supported in this version", "f16, bf16, or f32 (tf32) for fprop");
    if (k_.math.value == MathPath::tf32x3 || k_.math.value == MathPath::simt)
      error(k_.math.span, "sm90a has no '" + std::string(name_of(k_.math.value)) + "' convolution mainloop",
            "with_math(tf32) on sm90a", kSm80Hint);
    if (k_.a.value == DType::f32 && p_.mode != ConvMode::fprop)
      error(p_.mode_span, "sm90a " + std::string(name_of(p_.mode)) +
                              " reads an MN-major operand, which tf32 WGMMA cannot (it reads K-major operands only)",
            "fprop for f32 (tf32) on sm90a; f16 or bf16 for dgrad and wgrad", kSm80Hint);
  }

  void check_sm90_problem() {
    if (p_.groups.value > 1) {
      error(p_.groups.span,
            "sm90a convolutions in CUTLASS 4.2 take groups = 1 (" +
                std::string(p_.is_depthwise() ? "depthwise is groups = c" : "grouped") + ", groups = " +
                str(p_.groups.value) + ")",
            "groups = 1 on sm90a", p_.is_depthwise() ? "with_arch(sm80): CUTLASS's direct depthwise convolution"
                                                     : "with_arch(sm80): grouped fprop (DefaultConv2dGroupFprop)");
      return;  // the channel rules below assume one group
    }
    if (p_.mode == ConvMode::dgrad)
      for (int i = p_.first_dim(); i < 3; ++i)
        if (p_.stride.value[i] != 1) {
          error(p_.stride.span, "sm90a dgrad runs unit-stride problems only in this version (stride " +
                                    str(p_.stride.value[i]) + " along " + input_dim_name(i) + ")",
                "stride = 1 for dgrad on sm90a", kSm80Hint);
          break;
        }
    // Channel alignment for TMA: A's and B's contiguous channels are c and k in every pass.
    const ConvContiguous cc = conv_contiguous_channels(p_);
    const int in_vec = 128 / bits_of(k_.a.value);
    for (auto [extent, name, span] : {std::tuple{p_.c.value, "c", p_.c.span}, std::tuple{p_.k.value, "k", p_.k.span}})
      if (extent % in_vec != 0) {
        error(span, "sm90a convolutions load through TMA, which needs 16-byte aligned channels: " + std::string(name) +
                        " = " + str(extent) + " " + tname(k_.a.value) + " channels are " +
                        str(extent * bits_of(k_.a.value) / 8) + " bytes per pixel",
              std::string(name) + " a multiple of " + str(in_vec) + " for " + tname(k_.a.value),
              "pad the channels with zeros to a multiple of " + str(in_vec) + " (the result is unchanged)");
        return;
      }
    for (auto [align, t, name] : {std::tuple{&k_.align_a, k_.a.value, "A"}, std::tuple{&k_.align_b, k_.b.value, "B"},
                                  std::tuple{&k_.align_c, k_.d.value, "C/D"}})
      if (align->value * bits_of(t) % 128 != 0) {
        error(align->span, std::string("TMA moves 16-byte vectors; ") + name + " alignment " + str(align->value) +
                               " x " + str(bits_of(t)) + " bits is " + str(align->value * bits_of(t) / 8) + " bytes",
              str(128 / bits_of(t)) + " elements, or with_alignment(" +
                  (name[0] == 'A' ? "a" : name[0] == 'B' ? "b" : "c") + " = auto)");
        return;
      }
    const int out_vec = 128 / bits_of(k_.d.value);
    if (cc.d % out_vec != 0)
      error(k_.d.span, "the TMA epilogue writes 16-byte vectors; " + str(cc.d) + " " + tname(k_.d.value) +
                           " output channels per pixel do not fill them",
            "output channels a multiple of " + str(out_vec) + " for a " + tname(k_.d.value) + " output");
    // The shared-memory swizzle atom follows the K tile's row: 32, 64 or 128 bytes. A 96-byte row
    // (48 bf16 channels) takes the 32-byte atom three times over, which CuTe's layout division in the
    // conv mainloop rejects (static assertion "Stride Divisibility Condition"; nvcc, 2026-11-30, a bf16
    // conv3d over 48 channels the search proposed).
    const int64_t row_bytes = int64_t{k_.tile.value.k} * bits_of(k_.a.value) / 8;
    if (row_bytes > 0 && (row_bytes & (row_bytes - 1)) != 0) {
      const int64_t per32 = 256 / bits_of(k_.a.value);
      error(k_.tile.span, "an sm90a convolution's tile K spans a power-of-two number of bytes (its shared-memory "
                          "swizzle atom); tile K = " + str(k_.tile.value.k) + " " + tname(k_.a.value) + " is " +
                              str(row_bytes) + " bytes",
            "tile K = " + str(per32) + ", " + str(2 * per32) + " or " + str(4 * per32) + " for " + tname(k_.a.value));
      return;
    }
    // TMA im2col bounds (can_implement of the SM90 conv mainloop), per spatial rank.
    const int dims = p_.dims;
    const int64_t pad_limit = dims == 1 ? 65536 : dims == 2 ? 256 : 16;
    const int64_t corner_limit = int64_t{1} << (16 / dims - 1);
    const int64_t offset_limit = (int64_t{1} << (16 / dims)) - 1;
    for (int i = p_.first_dim(); i < 3; ++i) {
      const int64_t pad = p_.pad.value[i], reach = (p_.filter[i].value - 1) * p_.dilation.value[i];
      if (pad > pad_limit) {
        error(p_.pad.span, "TMA im2col takes padding up to " + str(pad_limit) + " for " + op() + ", not " + str(pad),
              "pad <= " + str(pad_limit));
        return;
      }
      if (reach >= offset_limit) {
        error(p_.filter[i].span, "TMA im2col addresses filter offsets below " + str(offset_limit) + " for " + op() +
                                     "; dilation * (" + filter_dim_name(i) + " - 1) = " + str(reach),
              "dilation * (" + std::string(filter_dim_name(i)) + " - 1) < " + str(offset_limit), kSm80Hint);
        return;
      }
      int64_t lower = -pad, upper = pad - reach;
      if (p_.mode == ConvMode::dgrad) {
        lower = pad - reach;
        upper = p_.input[i].is_dynamic() ? lower : lower + p_.input[i].value - p_.output(i);
      }
      if (lower < -corner_limit || lower > corner_limit - 1 || upper < -corner_limit || upper > corner_limit - 1) {
        error(p_.pad.span.end > p_.pad.span.begin ? p_.pad.span : p_.filter[i].span,
              "TMA im2col corners of " + op() + " must lie in [" + str(-corner_limit) + ", " + str(corner_limit - 1) +
                  "]; padding " + str(pad) + " and filter reach " + str(reach) + " along " + input_dim_name(i) +
                  " give " + str(lower) + " and " + str(upper),
              "smaller padding or filter reach", kSm80Hint);
        return;
      }
    }
  }

  // CUTLASS's non-persistent kernel ('warpspecialized', one consumer warp group) and ucutlass's
  // persistent one ('cooperative' and 'pingpong', fprop; codegen/runtime/persistent_conv_sm90.hpp),
  // since CUTLASS 4.2 dispatches no persistent conv kernel.
  void check_sm90_schedule() {
    KernelSchedule s = k_.schedule.value;
    if (is_persistent_conv_schedule(s)) return check_sm90_persistent();
    const int tile_m = k_.tile.value.m;
    if (tile_m % 64 == 0 && tile_m >= 64 && tile_m <= 256 && tile_m != 64 && tile_m != 128)  // else the tile rule speaks
      error(k_.tile.span, "the sm90a conv schedule 'warpspecialized' (one consumer warp group) takes tile M = 64 or "
                          "128, not " + str(tile_m),
            "with_tile(128, N, K) or with_tile(64, N, K), or with_schedule(cooperative) for fprop");
    if (s != KernelSchedule::warpspecialized)
      error(k_.schedule.span, "sm90a convolutions run CUTLASS's non-persistent 'warpspecialized' kernel or, for "
                              "fprop, ucutlass's persistent 'cooperative' and 'pingpong' ones (CUTLASS 4.2 has no "
                              "cp.async conv mainloop), not '" + std::string(name_of(s)) + "'",
            "with_schedule(warpspecialized), cooperative, pingpong or auto");
    EpilogueSchedule e = k_.epilogue_schedule.value;
    if (e != EpilogueSchedule::tma_warpspecialized && e != EpilogueSchedule::tma)
      error(k_.epilogue_schedule.span, "sm90a convolutions use the TMA epilogue that pairs with 'warpspecialized'",
            "epilogue = tma or tma_warpspecialized (or auto)");
  }

  // ucutlass's persistent kernels: the two consumer warp groups share each tile (cooperative, half
  // of tile M each) or take alternate tiles (pingpong, a whole tile each).
  void check_sm90_persistent() {
    const bool pingpong = k_.schedule.value == KernelSchedule::pingpong;
    const std::string sched = pingpong ? "'pingpong'" : "'cooperative'";
    if (p_.mode != ConvMode::fprop)
      error(k_.schedule.span, "the persistent " + sched + " conv schedule runs fprop, not " +
                                  (p_.mode == ConvMode::dgrad ? "dgrad" : "wgrad"),
            "with_schedule(warpspecialized) for dgrad and wgrad");
    const Shape3& t = k_.tile.value;
    const int threads = pingpong ? 128 : 256;
    const bool m_ok = pingpong ? (t.m == 64 || t.m == 128) : (t.m == 128 || t.m == 256);
    if (t.m % 64 == 0 && t.m >= 64 && t.m <= 256 && !m_ok)  // else the tile rule speaks
      error(k_.tile.span, pingpong ? "the 'pingpong' conv schedule gives each consumer warp group a whole tile, so it "
                                     "takes tile M = 64 or 128, not " + str(t.m)
                                   : "the 'cooperative' conv schedule splits tile M between two consumer warp groups, "
                                     "so it takes tile M = 128 or 256, not " + str(t.m),
            pingpong ? "with_tile(64, N, K) or with_tile(128, N, K)" : "with_tile(128, N, K) or with_tile(256, N, K)");
    else if (t.m * t.n / threads > 128)
      error(k_.tile.span, "tile " + str(t.m) + "x" + str(t.n) + " gives each of the " + str(threads) +
                              " threads of a tile " + str(t.m * t.n / threads) + " accumulators; the " + sched +
                              " conv kernel holds at most 128",
            pingpong ? "tile M x N up to 16384 elements, e.g. with_tile(128, 128, K) or with_tile(64, 256, K)"
                     : "tile M x N up to 32768 elements, e.g. with_tile(256, 128, K) or with_tile(128, 256, K)");
    const Shape3& c = k_.cluster.value;
    if (c.m * c.n * c.k != 1)
      error(k_.cluster.span, "the persistent " + sched + " conv kernel runs 1x1x1 clusters, not " + str(c.m) + "x" +
                                 str(c.n) + "x" + str(c.k),
            "with_cluster(1, 1, 1) or auto");
    EpilogueSchedule e = k_.epilogue_schedule.value;
    const EpilogueSchedule pair = pingpong ? EpilogueSchedule::tma_warpspecialized : EpilogueSchedule::tma_cooperative;
    if (e != pair && e != EpilogueSchedule::tma)
      error(k_.epilogue_schedule.span, "the " + sched + " conv schedule uses the TMA epilogue that pairs with it",
            std::string("epilogue = tma or ") + (pingpong ? "tma_warpspecialized" : "tma_cooperative") + " (or auto)");
  }

  // ---- SM80 ----------------------------------------------------------------

  // CUTLASS 2.x implicit GEMM (conv/kernel/default_conv{2,3}d_*.h, device/implicit_gemm_convolution.h).
  void check_sm80() {
    // Depthwise runs CUTLASS's direct (SIMT) convolution, not an implicit GEMM: its own rules.
    const bool depthwise = p_.is_depthwise();
    if (depthwise && !validate_depthwise(k_, d_)) return;
    if (p_.groups.value > 1 && !depthwise) check_sm80_groups();
    if (k_.math.value == MathPath::simt && !depthwise)
      error(k_.math.span, "the SIMT path is not emitted for convolutions", "tensor_op, tf32, tf32x3");
    if (p_.mode == ConvMode::dgrad)
      for (int i = p_.first_dim(); i < 3; ++i)
        if (p_.stride.value[i] != 1 && (p_.dilation.value[0] != 1 || p_.dilation.value[1] != 1 ||
                                        p_.dilation.value[2] != 1)) {
          error(p_.dilation.span, "the sm80 strided dgrad kernel does not take dilation (dilation " +
                                      str(p_.dilation.value[i]) + ")",
                "dilation = 1 with stride > 1, or stride = 1");
          break;
        }
    // The 3D defaults have no alignment parameters: they always move 128-bit vectors.
    const int vec = 128 / bits_of(k_.a.value);
    if (p_.dims == 3)
      for (auto [extent, name, span] : {std::tuple{p_.c.value, "c", p_.c.span}, std::tuple{p_.k.value, "k", p_.k.span}})
        if (extent % vec != 0) {
          error(span, "sm80 conv3d loads 16-byte vectors: " + std::string(name) + " = " + str(extent) + " " +
                          tname(k_.a.value) + " channels are " + str(extent * bits_of(k_.a.value) / 8) +
                          " bytes per pixel",
                std::string(name) + " a multiple of " + str(vec) + " for " + tname(k_.a.value),
                "pad the channels with zeros to a multiple of " + str(vec));
          return;
        }
    // The optimized iterators precompute filter offsets for at most 32 taps per dimension.
    for (int i = p_.first_dim(); i < 3; ++i)
      if (p_.filter[i].value > 32) {
        error(p_.filter[i].span, std::string(filter_dim_name(i)) + " = " + str(p_.filter[i].value) +
                                     " is beyond the 32 taps per dimension of the optimized sm80 iterators",
              std::string(filter_dim_name(i)) + " <= 32");
        return;
      }
    // 2.x conv kernels address each tensor with 32-bit byte offsets.
    constexpr int64_t kMaxBytes = int64_t{1} << 31;
    const int64_t bytes = bits_of(k_.a.value) / 8;
    const int64_t act = saturating_product({p_.input_pixels(), p_.c.value, bytes});
    const int64_t out = saturating_product({p_.output_pixels(), p_.k.value, bytes});
    if (act >= kMaxBytes || out >= kMaxBytes)
      error(k_.name_span, "an sm80 convolution tensor of " + str(std::max(act, out)) +
                              " bytes exceeds the 2 GiB the 2.x kernels address",
            "tensors under 2 GiB", "split the batch");
  }

  // DefaultConv2dGroupFprop: a CTA's N tile lies inside one group (kSingleGroup, optimized iterators)
  // or covers whole groups (kMultipleGroup, analytic iterators).
  void check_sm80_groups() {
    if (p_.mode != ConvMode::fprop || p_.dims == 3) {
      error(p_.groups.span, "sm80 grouped convolutions are fprop conv2d and conv1d only (DefaultConv2dGroupFprop), not " +
                                op() + " " + std::string(name_of(p_.mode)),
            "groups = 1 for dgrad, wgrad and conv3d");
      return;
    }
    const int64_t per_group = p_.k.value / p_.groups.value, tile_n = k_.tile.value.n;
    if (per_group % tile_n != 0 && tile_n % per_group != 0)
      error(k_.tile.span, "tile N = " + str(tile_n) + " neither divides nor is a multiple of the " + str(per_group) +
                              " output channels per group",
            "a tile N that divides k / groups (one group per CTA) or a multiple of it (several groups per CTA)");
  }

  const GemmKernel& k_;
  const ConvProblem& p_;
  Diagnostics& d_;
  size_t errors_before_;
};

}  // namespace

ConvContiguous conv_contiguous_channels(const ConvProblem& p) {
  // The direct convolution reads whole pixels of c channels and the filter reordered to [r * s, k].
  if (p.is_depthwise()) return {p.c.value, p.k.value, p.k.value};
  const int64_t g = p.groups.value > 0 ? p.groups.value : 1;
  const int64_t c = p.c.value / g, k = p.k.value / g;
  switch (p.mode) {
    case ConvMode::fprop: return {c, c, k};
    case ConvMode::dgrad: return {k, c, c};
    case ConvMode::wgrad: return {k, c, c};
  }
  return {};
}

bool is_persistent_conv_schedule(KernelSchedule s) {
  return s == KernelSchedule::cooperative || s == KernelSchedule::pingpong;
}

bool validate_conv(const GemmKernel& k, Diagnostics& diags) { return ConvValidator(k, diags).run(); }

}  // namespace ucutlass::ir

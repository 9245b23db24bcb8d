#include "ir/validate.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "ir/operand_swap.h"
#include "ir/validate_conv.h"
#include "ir/validate_gemv.h"
#include "ir/validate_attention.h"
#include "ir/validate_rows.h"
#include "ir/validate_grouped.h"
#include "support/did_you_mean.h"

namespace ucutlass::ir {

namespace {

std::string str(int v) { return std::to_string(v); }
std::string str(int64_t v) { return std::to_string(v); }
std::string shape(const Shape3& s) { return str(s.m) + "x" + str(s.n) + "x" + str(s.k); }
bool pow2(int v) { return v > 0 && (v & (v - 1)) == 0; }
int bytes_of(DType t) { return bits_of(t) / 8; }

bool is_cpasync(KernelSchedule s) {
  return s == KernelSchedule::cpasync || s == KernelSchedule::cpasync_cooperative ||
         s == KernelSchedule::cpasync_pingpong;
}
bool is_cooperative(KernelSchedule s) {
  return s == KernelSchedule::cooperative || s == KernelSchedule::cpasync_cooperative;
}

class Validator {
 public:
  // `note` goes with every error (the operand-swap note when k is a kernel as run).
  Validator(const GemmKernel& k, Diagnostics& d, std::string note = {})
      : k_(k), d_(d), errors_before_(d.error_count()), note_(std::move(note)) {}

  bool run() {
    check_types();
    if (k_.is_grouped()) validate_grouped(k_, d_);  // pointer-array kernels (validate_grouped.h)
    // A convolution's operands are channels-last tensors, not rows: its own rules (validate_conv.h).
    const bool conv = k_.is_conv();
    if (conv) validate_conv(k_, d_);
    else check_alignment_vs_shape();
    check_epilogue_common();
    if (k_.arch.value == Arch::sm90a) {
      check_sm90_tile();
      // A grouped kernel's schedule outside the pointer-array ones was rejected (validate_grouped);
      // the pairing rules would only add noise about it.
      const bool grouped_rejected = k_.is_grouped() && !is_grouped_schedule(k_.schedule.value);
      if (!conv && !grouped_rejected) check_sm90_schedules();  // a conv has one schedule pair (validate_conv)
      check_sm90_cluster();
      if (!conv) {  // a conv's layouts are fixed and its TMA alignment is per channel (validate_conv)
        check_sm90_layouts();
        check_sm90_alignment();
      }
      check_sm90_smem();
      check_sm90_column_reductions();
      if (!conv) check_sm90_scheduler();
      check_sm90_ignored_settings();
    } else {
      // A depthwise conv runs the direct (SIMT) convolution, whose tile rules are its own (validate_depthwise.h).
      if (!depthwise()) check_sm80_tile();
      check_sm80_misc();
      check_sm80_epilogue();
    }
    return d_.error_count() == errors_before_;
  }

 private:
  void error(Span s, std::string msg, std::string legal = {}, std::string hint = {}) {
    if (!note_.empty()) hint = hint.empty() ? note_ : hint + "; " + note_;
    d_.error(s, std::move(msg), std::move(legal), std::move(hint));
  }
  std::string tname(DType t) const { return std::string(name_of(t)); }
  bool depthwise() const { return k_.is_conv() && k_.arch.value == Arch::sm80 && k_.conv->is_depthwise(); }

  // ---- rules shared by both architectures --------------------------------

  void check_types() {
    DType a = k_.a.value, b = k_.b.value;
    MathPath m = k_.math.value;
    if (a == DType::void_ || b == DType::void_) {
      error(a == DType::void_ ? k_.a.span : k_.b.span, "A and B cannot be void", "f16, bf16, f32, e4m3, e5m2");
      return;
    }
    if (is_fp8(a) != is_fp8(b) || (!is_fp8(a) && a != b)) {
      error(k_.b.span, "A is " + tname(a) + " but B is " + tname(b),
            "A and B of one type (f16, bf16, f32), or both fp8 (e4m3/e5m2 in any pairing)");
      return;
    }
    if (k_.d.value == DType::void_) error(k_.d.span, "D cannot be void", "f16, bf16, f32, or fp8 for fp8 inputs");
    if (is_fp8(k_.d.value) && !is_fp8(a))
      error(k_.d.span, "an fp8 output needs fp8 inputs", "d = " + tname(a) + ", f32" );
    if (k_.acc.value != DType::f32 && !(k_.acc.value == DType::f16 && a == DType::f16))
      error(k_.acc.span, "accumulator " + tname(k_.acc.value) + " is not supported for " + tname(a) + " inputs",
            a == DType::f16 ? "acc = f32 or f16" : "acc = f32");
    if (k_.acc.value == DType::f16 && k_.arch.value == Arch::sm90a && !k_.epilogue.empty())
      error(k_.acc.span, "an f16 accumulator cannot feed a fused epilogue here", "acc = f32");
    // Math path against input type.
    if (depthwise()) {
      // Always SIMT, for every input type (validate_depthwise.h).
    } else if (a == DType::f32) {
      if (m == MathPath::tensor_op || m == MathPath::fast_accum)
        error(k_.math.span, "f32 inputs have no '" + std::string(name_of(m)) + "' path",
              "tf32 (fast, ~1e-3 relative error), tf32x3 (near-f32 accuracy), simt (exact f32)");
    } else if (m == MathPath::tf32 || m == MathPath::tf32x3 || m == MathPath::simt) {
      error(k_.math.span, "math path '" + std::string(name_of(m)) + "' is for f32 inputs, not " + tname(a),
            is_fp8(a) ? "tensor_op, fast_accum" : "tensor_op");
    } else if (m == MathPath::fast_accum && !is_fp8(a)) {
      error(k_.math.span, "fast_accum is only for fp8 inputs", "tensor_op");
    }
    if (k_.beta.value != 0.0 && !k_.has_source())
      error(k_.beta.span, "beta is non-zero but C is void, so there is nothing to scale",
            "beta(0), or with_types(c = " + tname(k_.d.value) + ")");
    if (k_.batch.value < 1) error(k_.batch.span, "batch must be at least 1", "an integer >= 1");
  }

  void check_alignment_one(const Setting<int>& align, DType t, const char* op, const char* layout_word,
                           const Extent& extent, const char* extent_name) {
    int bits = bits_of(t);
    if (bits == 0) return;
    if (align.value * bits > 128)
      error(align.span, std::string("alignment of ") + op + " = " + str(align.value) + " elements is " +
                            str(align.value * bits / 8) + " bytes, wider than a 16-byte access",
            "at most " + str(128 / bits) + " elements for " + tname(t));
    if (!extent.is_dynamic() && extent.value % align.value != 0)
      error(align.span, std::string(op) + " is " + layout_word + ", so its rows hold " + extent_name + " = " +
                            str(extent.value) + " contiguous elements, which alignment " + str(align.value) +
                            " does not divide",
            std::string("an alignment that divides ") + str(extent.value),
            "with_alignment(" + std::string(op == std::string("A") ? "a" : op == std::string("B") ? "b" : "c") +
                " = auto)");
  }

  void check_alignment_vs_shape() {
    check_alignment_one(k_.align_a, k_.a.value, "A", k_.layout_a.value == Layout::row ? "row-major" : "column-major",
                        k_.layout_a.value == Layout::row ? k_.k : k_.m, k_.layout_a.value == Layout::row ? "K" : "M");
    check_alignment_one(k_.align_b, k_.b.value, "B", k_.layout_b.value == Layout::col ? "column-major" : "row-major",
                        k_.layout_b.value == Layout::col ? k_.k : k_.n, k_.layout_b.value == Layout::col ? "K" : "N");
    check_alignment_one(k_.align_c, k_.d.value, "C/D", k_.layout_c.value == Layout::row ? "row-major" : "column-major",
                        k_.layout_c.value == Layout::row ? k_.n : k_.m, k_.layout_c.value == Layout::row ? "N" : "M");
  }

  void check_epilogue_common() {
    for (size_t i = 0; i < k_.epilogue.size(); ++i) {
      const EpilogueStep& s = k_.epilogue[i];
      if (s.kind == EpilogueStep::Kind::bias && s.bias_type != DType::void_ && is_fp8(s.bias_type))
        error(s.span, "an fp8 bias is not supported", "bias types f16, bf16, f32");
      if (s.kind != EpilogueStep::Kind::expr) continue;
      if (s.expr.uses(EpiExpr::Op::c) && !k_.has_source())
        error(s.span, "the expression reads c but C is void", "with_types(c = ...) or leave c to auto");
      if (i > 0 && !s.expr.uses(EpiExpr::Op::x))
        error(s.span, "this custom step does not use x, so the steps before it would be lost",
              "an expression of x, the value after the earlier steps");
    }
    for (size_t i = 0; i < k_.extras.size(); ++i) {
      const EpilogueExtra& x = k_.extras[i];
      if (is_fp8(x.type))
        error(x.span, "epilogue operand '" + x.name + "' cannot be fp8 (" + tname(x.type) + ")",
              "f16, bf16 or f32, e.g. " + f32_form(static_cast<int>(i)));
      if (x.kind != ExtraKind::matrix || is_fp8(x.type)) continue;
      const Extent& contiguous = k_.layout_c.value == Layout::row ? k_.n : k_.m;
      const int align = 128 / bits_of(x.type);
      if (!contiguous.is_dynamic() && contiguous.value % align != 0)
        error(x.span, "aux tensor '" + x.name + "' is read and written in 16-byte vectors, which " +
                          std::string(k_.layout_c.value == Layout::row ? "N" : "M") + " = " +
                          str(contiguous.value) + " " + tname(x.type) + " elements per row do not fill",
              "a row length that is a multiple of " + str(align) + " elements");
    }
  }

  // How the program writes extra i typed f32: col(f32), or row_sum(f32) for a reduction's output.
  std::string f32_form(int i) const {
    for (const EpilogueStep& s : k_.epilogue)
      if (s.kind == EpilogueStep::Kind::reduce && s.extra == i) return s.label + "(f32)";
    return std::string(name_of(k_.extras.at(i).kind)) + "(f32)";
  }

  // ---- SM90a -------------------------------------------------------------

  int wgmma_k() const {
    int bits = bits_of(k_.a.value);
    return bits == 8 ? 32 : bits == 16 ? 16 : 8;
  }

  void check_sm90_tile() {
    const Shape3& t = k_.tile.value;
    Span s = k_.tile.span;
    if (t.m % 64 != 0 || t.m < 64 || t.m > 256)
      error(s, "tile M = " + str(t.m) + " is not a multiple of 64 in [64, 256]", "64, 128, 192, 256");
    if (t.n % 16 != 0 || t.n < 16 || t.n > 256)
      error(s, "tile N = " + str(t.n) + " is not a multiple of 16 in [16, 256]", "16, 32, ..., 128, ..., 256");
    int wk = wgmma_k();
    // The K tile must cover whole WGMMA instructions and whole 32-byte TMA swizzle atoms.
    int min_k = std::max(wk, 256 / bits_of(k_.a.value));
    if (t.k % wk != 0 || t.k < min_k || t.k * bits_of(k_.a.value) > 256 * 8)
      error(s, "tile K = " + str(t.k) + " does not suit " + tname(k_.a.value) + " WGMMA (K step " + str(wk) + ")",
            "a multiple of " + str(min_k) + " up to " + str(256 * 8 / bits_of(k_.a.value)) + " such as " +
                str(512 / bits_of(k_.a.value)));
  }

  void check_sm90_schedules() {
    KernelSchedule ks = k_.schedule.value;
    EpilogueSchedule es = k_.epilogue_schedule.value;
    const Shape3& t = k_.tile.value;
    bool tile_m_ok = t.m % 64 == 0 && t.m >= 64 && t.m <= 256;  // else the tile rule has spoken
    if (ks == KernelSchedule::multistage)
      error(k_.schedule.span, "schedule 'multistage' is the SM80 mainloop",
            "warpspecialized, cooperative, pingpong, cpasync, cpasync_cooperative, cpasync_pingpong");
    if (tile_m_ok && is_cooperative(ks) && t.m % 128 != 0)
      error(k_.schedule.span, "the cooperative schedule splits tile M over two warp groups and needs tile M = 128 or 256, not " + str(t.m),
            "tile M of 128 or 256, or with_schedule(pingpong)");
    if (tile_m_ok && (ks == KernelSchedule::pingpong || ks == KernelSchedule::warpspecialized ||
                      ks == KernelSchedule::cpasync || ks == KernelSchedule::cpasync_pingpong) &&
        t.m != 64 && t.m != 128)
      error(k_.schedule.span, "schedule '" + std::string(name_of(ks)) + "' supports tile M = 64 or 128, not " + str(t.m),
            "tile M 64 or 128, or with_schedule(cooperative)");
    // Epilogue pairing.
    bool coop = is_cooperative(ks);
    if (es == EpilogueSchedule::tma_cooperative && !coop)
      error(k_.epilogue_schedule.span, "epilogue 'tma_cooperative' pairs only with a cooperative kernel schedule",
            "epilogue = tma_warpspecialized (or tma) for '" + std::string(name_of(ks)) + "'");
    if (es == EpilogueSchedule::tma_warpspecialized && coop)
      error(k_.epilogue_schedule.span, "epilogue 'tma_warpspecialized' does not pair with a cooperative kernel",
            "epilogue = tma_cooperative (or tma)");
    if (is_cpasync(ks) && es != EpilogueSchedule::nosmem)
      error(k_.epilogue_schedule.span, "cp.async kernel schedules use the no-shared-memory epilogue",
            "epilogue = nosmem (or auto)");
    if (es == EpilogueSchedule::nosmem && !k_.epilogue.empty())
      error(k_.epilogue.front().span, "the nosmem epilogue supports only alpha and beta, not a fused bias or activation",
            "a TMA epilogue (epilogue = tma) with 16-byte aligned C/D, or no fused steps");
    if (k_.math.value == MathPath::fast_accum && is_cpasync(ks))
      error(k_.math.span, "fast_accum needs a TMA kernel schedule", "warpspecialized, cooperative, pingpong");
  }

  // A per-column reduction (col_sum, col_max: CUTLASS's Sm90RowReduction) first reduces
  // each warp's rows, then combines the warps stacked along M (8 cooperative, 4 otherwise,
  // 16 rows each) through shared memory, borrowing the staging buffer of one D subtile
  // (EpilogueTileAuto's: 128 or 64 rows by gcd(min(32, tile N), tile N) columns, 64 for an
  // 8-bit D on a warp-specialized kernel when tile N allows). CUTLASS static_asserts that
  // tile N x warps f32 partials fit; this is that check, said before nvcc. Per-row
  // reductions (Sm90ColReduction) need no such buffer: no two warps share a row.
  void check_sm90_column_reductions() {
    const Shape3& t = k_.tile.value;
    if (k_.epilogue_schedule.value == EpilogueSchedule::nosmem || t.m <= 0 || t.n <= 0) return;
    const bool coop = is_cooperative(k_.schedule.value);
    const int d_bytes = bytes_of(k_.d.value);
    const int epi_m = std::min(coop ? 128 : 64, t.m);
    const int n_perf = !coop && d_bytes == 1 && t.n % 64 == 0 ? 64 : 32;
    const int epi_n = std::gcd(std::min(n_perf, t.n), t.n);
    const int warps_m = epi_m / 16;
    const int have = epi_m * epi_n * d_bytes, need = t.n * warps_m * 4;
    if (need <= have) return;
    for (const EpilogueStep& s : k_.epilogue) {
      if (s.kind != EpilogueStep::Kind::reduce || k_.extras.at(s.extra).kind != ExtraKind::col) continue;
      error(s.span, s.label + " combines the partials of " + str(warps_m) + " warps in the staging buffer of one " +
                        str(epi_m) + " x " + str(epi_n) + " " + tname(k_.d.value) + " D subtile (" + str(have) +
                        " bytes), too small for tile N = " + str(t.n) + " (" + str(need) + " bytes of f32)",
            "tile N at most " + str(have / (warps_m * 4)) + " here, or a wider D type");
      return;
    }
  }

  void check_sm90_ignored_settings() {
    if (!k_.warps.is_auto)
      error(k_.warps.span, "with_warps is an sm80 setting; on sm90a the schedule fixes the warp layout",
            "remove with_warps, or with_arch(sm80)");
  }

  void check_sm90_cluster() {
    const Shape3& c = k_.cluster.value;
    Span s = k_.cluster.span;
    if (c.k != 1) error(s, "cluster K must be 1, not " + str(c.k), "(M, N, 1)");
    if (!pow2(c.m) || !pow2(c.n))
      error(s, "cluster " + shape(c) + " is not made of powers of two", "1, 2, 4 or 8 along M and N");
    if (c.m * c.n * c.k > 8)
      error(s, "cluster " + shape(c) + " has " + str(c.m * c.n * c.k) + " CTAs, more than the portable 8",
            "at most 8 CTAs, e.g. 2x4x1, 4x2x1, 8x1x1");
    if (is_cpasync(k_.schedule.value) && c.m * c.n * c.k != 1)
      error(s, "cp.async schedules do not use TMA multicast, so the cluster must be 1x1x1", "with_cluster(1, 1, 1)");
  }

  void check_sm90_layouts() {
    bool k_major_a = k_.layout_a.value == Layout::row;
    bool k_major_b = k_.layout_b.value == Layout::col;
    int bits = bits_of(k_.a.value);
    if (bits != 16 && (!k_major_a || !k_major_b)) {
      Span s = !k_major_a ? k_.layout_a.span : k_.layout_b.span;
      error(s, tname(k_.a.value) + " WGMMA reads both operands K-major; " +
                   std::string(!k_major_a ? "A is column-major (M-major)" : "B is row-major (N-major)"),
            "with_layouts(a = row, b = col) for " + tname(k_.a.value) + " on sm90a",
            "transpose the operand, or use 16-bit types, or with_arch(sm80)");
    }
    if (k_.math.value == MathPath::tf32x3 || k_.math.value == MathPath::simt)
      error(k_.math.span, "sm90a has no '" + std::string(name_of(k_.math.value)) + "' mainloop in CUTLASS 4.2",
            "with_math(tf32) on sm90a, or with_arch(sm80) (it runs on Hopper too) for " +
                std::string(name_of(k_.math.value)));
  }

  void check_sm90_alignment() {
    bool tma = !is_cpasync(k_.schedule.value);
    if (tma) {
      for (auto [align, t, name] : {std::tuple{&k_.align_a, k_.a.value, "A"}, std::tuple{&k_.align_b, k_.b.value, "B"}})
        if (align->value * bits_of(t) % 128 != 0)
          error(align->span, std::string("TMA loads need 16-byte aligned rows; ") + name + " alignment " +
                                 str(align->value) + " x " + str(bits_of(t)) + " bits is " +
                                 str(align->value * bits_of(t) / 8) + " bytes",
                str(128 / bits_of(t)) + " elements, or a cp.async schedule (cpasync_cooperative, cpasync_pingpong)",
                align->is_auto ? std::string("auto chose ") + str(align->value) + " because the contiguous extent of " +
                                     name + " is not a multiple of " + str(128 / bits_of(t)) +
                                     "; pad it, or choose a cp.async schedule"
                               : "");
    } else {
      for (auto [align, t, name] : {std::tuple{&k_.align_a, k_.a.value, "A"}, std::tuple{&k_.align_b, k_.b.value, "B"}})
        if (align->value * bits_of(t) < 32)
          error(align->span, std::string("cp.async copies at least 4 bytes; ") + name + " alignment " + str(align->value) +
                                 " is " + str(align->value * bits_of(t) / 8) + " bytes",
                "at least " + str(32 / bits_of(t)) + " elements");
    }
    EpilogueSchedule es = k_.epilogue_schedule.value;
    if (es != EpilogueSchedule::nosmem) {
      for (DType t : {k_.d.value, k_.c.value})
        if (t != DType::void_ && k_.align_c.value * bits_of(t) % 128 != 0)
          error(k_.align_c.span, "a TMA epilogue needs 16-byte aligned C/D rows; alignment " + str(k_.align_c.value) +
                                     " of " + tname(t) + " is " + str(k_.align_c.value * bits_of(t) / 8) + " bytes",
                str(128 / bits_of(t)) + " elements, or epilogue = nosmem (no fused steps)");
    }
  }

  void check_sm90_smem() {
    int stage = mainloop_stage_bytes(k_);
    int epi = epilogue_smem_bytes(k_);
    int fit = (kSmemCapacityBytes - epi) / stage;
    int stages = k_.stages.value;
    if (stages == 0) {
      if (fit < 2)
        error(k_.tile.span, "tile " + shape(k_.tile.value) + " needs " + str(stage) +
                                " bytes of shared memory per stage; with the epilogue's " + str(epi) +
                                " bytes not even 2 stages fit in " + str(kSmemCapacityBytes),
              "a smaller tile");
      return;
    }
    if (stages < 2) error(k_.stages.span, "the SM90 mainloop needs at least 2 stages", "2 or more, or auto");
    else if (stages > fit)
      error(k_.stages.span, str(stages) + " stages of " + str(stage) + " bytes plus the epilogue's " + str(epi) +
                                " bytes exceed the " + str(kSmemCapacityBytes) + " bytes of shared memory",
            "at most " + str(fit) + " stages for tile " + shape(k_.tile.value) + ", or with_stages(auto)");
  }

  void check_sm90_scheduler() {
    TileScheduler s = k_.scheduler.value;
    if ((s == TileScheduler::stream_k || s == TileScheduler::split_k) && !is_cooperative(k_.schedule.value))
      error(k_.scheduler.span, "stream-K and split-K need a cooperative kernel schedule, not '" +
                                   std::string(name_of(k_.schedule.value)) + "'",
            "with_schedule(cooperative) (tile M 128 or 256)");
    if (s == TileScheduler::split_k && !k_.k.is_dynamic() && k_.k.value / k_.tile.value.k < k_.splits.value)
      error(k_.splits.span, "split_k(" + str(k_.splits.value) + ") leaves some slices without a K tile: K = " +
                                str(k_.k.value) + " holds " + str(k_.k.value / k_.tile.value.k) + " tiles of " +
                                str(k_.tile.value.k),
            "at most " + str(std::max<int64_t>(1, k_.k.value / k_.tile.value.k)) + " slices");
  }

  // ---- SM80 --------------------------------------------------------------

  Shape3 instruction() const {
    if (k_.math.value == MathPath::simt) return {1, 1, 1};
    int bits = bits_of(k_.a.value);
    return bits == 16 ? Shape3{16, 8, 16} : Shape3{16, 8, 8};
  }

  void check_sm80_tile() {
    const Shape3& t = k_.tile.value;
    const Shape3& w = k_.warps.value;
    Span s = k_.tile.span;
    int nwarps = w.m * w.n * w.k;
    if (w.k != 1) error(k_.warps.span, "warps along K must be 1 for GemmUniversal", "with_warps(M, N, 1)");
    if (!pow2(nwarps) || nwarps > 8)
      error(k_.warps.span, str(nwarps) + " warps per CTA is not supported", "1, 2, 4 or 8 warps");
    if (w.m == 0 || w.n == 0 || t.m % w.m != 0 || t.n % w.n != 0) {
      error(k_.warps.span, "tile " + shape(t) + " does not split evenly over warps " + shape(w),
            "warps that divide the tile");
      return;
    }
    Shape3 warp{t.m / w.m, t.n / w.n, t.k};
    if (k_.math.value == MathPath::simt) {
      static const Shape3 kTiles[] = {{128, 128, 8}, {128, 64, 8}, {64, 128, 8}, {64, 64, 8}, {256, 128, 8}, {128, 256, 8}};
      bool known = false;
      for (const Shape3& kt : kTiles) known |= kt == t;
      if (!known) error(s, "SIMT tile " + shape(t) + " is not one CUTLASS's SIMT mainloop supports",
                        "128x128x8, 128x64x8, 64x128x8, 64x64x8, 256x128x8, 128x256x8");
      if (!((warp.m == 32 && warp.n == 64) || (warp.m == 64 && warp.n == 32) || (warp.m == 32 && warp.n == 32) ||
            (warp.m == 64 && warp.n == 64)))
        error(k_.warps.span, "SIMT warp tile " + str(warp.m) + "x" + str(warp.n) + " is not supported",
              "warp tiles 32x32, 32x64, 64x32 or 64x64 (tile / warps)");
      if (k_.stages.value < 2 || k_.stages.value > 5)
        error(k_.stages.span, "SIMT kernels take 2 to 5 stages, not " + str(k_.stages.value), "2 to 5");
      return;
    }
    Shape3 inst = instruction();
    if (t.m % 16 || t.n % 16 || t.m < 16 || t.n < 16 || t.m > 256 || t.n > 256)
      error(s, "tile " + shape(t) + " must have M and N multiples of 16 in [16, 256]", "such as 128x128x32");
    int kbytes = t.k * bits_of(k_.a.value) / 8;
    if (t.k % inst.k != 0 || kbytes < 32 || kbytes > 128)
      error(s, "tile K = " + str(t.k) + " does not suit " + tname(k_.a.value) + " (" + str(kbytes) + " bytes per row)",
            "K of 32 to 128 bytes and a multiple of " + str(inst.k) + ": " +
                (bits_of(k_.a.value) == 16 ? "16, 32 or 64" : "8, 16 or 32"));
    if (warp.m % inst.m != 0 || warp.n % inst.n != 0 || warp.m < 16 || warp.n < 8 || warp.m > 128 || warp.n > 128)
      error(k_.warps.span, "warp tile " + str(warp.m) + "x" + str(warp.n) + " (tile / warps) does not fit the " +
                               str(inst.m) + "x" + str(inst.n) + "x" + str(inst.k) + " instruction",
            "warp tiles with M a multiple of 16 and N of 8, each at most 128, e.g. 64x64");
    else if (warp.m * warp.n / 32 > 128)  // f32 accumulators per thread
      error(k_.warps.span, "warp tile " + str(warp.m) + "x" + str(warp.n) + " needs more accumulator registers than a thread has",
            "a warp tile of at most 64x64 (128 accumulators per thread)");
    int stage = mainloop_stage_bytes(k_);
    if (k_.stages.value < 3 || k_.stages.value > 10)
      error(k_.stages.span, "the SM80 multistage mainloop takes 3 to 10 stages, not " + str(k_.stages.value), "3 to 10");
    else if (k_.stages.value * stage > kSmemCapacityBytes)
      error(k_.stages.span, str(k_.stages.value) + " stages of " + str(stage) + " bytes exceed the " +
                                str(kSmemCapacityBytes) + " bytes of shared memory",
            "at most " + str(kSmemCapacityBytes / stage) + " stages");
    int max_align = 128 / bits_of(k_.a.value);
    for (auto [align, name] : {std::pair{&k_.align_a, "A"}, std::pair{&k_.align_b, "B"}})
      if (align->value < 32 / bits_of(k_.a.value) || align->value > max_align)
        error(align->span, std::string("alignment of ") + name + " = " + str(align->value) +
                               " is outside what cp.async can copy for " + tname(k_.a.value),
              str(32 / bits_of(k_.a.value)) + " to " + str(max_align) + " elements");
  }

  void check_sm80_misc() {
    const Shape3& c = k_.cluster.value;
    if (c.m * c.n * c.k != 1) error(k_.cluster.span, "sm80 has no thread block clusters", "with_cluster(1, 1, 1) or none");
    if (k_.schedule.value != KernelSchedule::multistage)
      error(k_.schedule.span, "sm80 kernels use the 'multistage' mainloop, not '" +
                                  std::string(name_of(k_.schedule.value)) + "'",
            "multistage or auto");
    if (is_fp8(k_.a.value)) error(k_.a.span, "fp8 tensor cores need sm90a", "f16, bf16, f32 on sm80");
    if (k_.math.value == MathPath::simt && !depthwise() &&
        (k_.a.value != DType::f32 || k_.d.value != DType::f32))
      error(k_.math.span, "the SIMT path computes f32 in and out", "with_types(f32)");
    if (k_.scheduler.value == TileScheduler::split_k && k_.batch.value > 1)
      error(k_.scheduler.span, "sm80 split-K uses the batch dimension, so it cannot be combined with batch > 1",
            "split_k with batch = 1, or no split-K");
    if (!k_.raster.is_auto && k_.raster.value != RasterOrder::heuristic)
      error(k_.raster.span, "sm80 kernels raster along M with a swizzle; an order cannot be chosen",
            "with_raster(heuristic, swizzle = 1 | 2 | 4 | 8)");
    if (k_.scheduler.value == TileScheduler::stream_k && k_.batch.value > 1)
      error(k_.scheduler.span, "sm80 stream-K does not take batched problems", "batch = 1, or persistent");
  }

  // CUTLASS 2.x epilogues apply one element-wise functor to alpha * acc + beta * C;
  // what needs operands beyond that (vectors, aux tensors, expressions) needs sm90a's visitor trees.
  // A bias rides in C: C read with stride 0 along the broadcast axis and beta = 1 (sm80_bias_rule).
  void check_sm80_epilogue() {
    int pointwise = 0;
    for (size_t i = 0; i < k_.epilogue.size(); ++i) {
      const EpilogueStep& s = k_.epilogue[i];
      if (s.kind == EpilogueStep::Kind::bias) {
        check_sm80_bias(s, i);
      } else if (s.kind == EpilogueStep::Kind::aux_store || s.kind == EpilogueStep::Kind::reduce) {
        error(s.span, s.label + " needs an epilogue visitor tree, which sm80 kernels do not have",
              "alpha, beta and one element-wise step on sm80", "with_arch(sm90a)");
      } else if (s.kind == EpilogueStep::Kind::expr && s.label == "custom") {
        error(s.span, "custom epilogue expressions need sm90a (an epilogue visitor tree)",
              "alpha, beta and one element-wise step on sm80", "with_arch(sm90a)");
      } else if (s.kind == EpilogueStep::Kind::expr && s.expr.uses_extras()) {
        error(s.span, "'" + s.label + "' reads a vector, scalar or tensor operand, which sm80 kernels do not fuse",
              "alpha, beta and one element-wise step on sm80", "with_arch(sm90a)");
      } else if (++pointwise == 2) {
        error(s.span, "sm80 fuses at most one element-wise step",
              "one activation or one step with a constant, such as scale(2) or min(6)", "with_arch(sm90a) for chains");
      }
    }
  }

  // When the bias can take C's place: it is added before the one element-wise step,
  // C is not otherwise read, it has D's type (2.x reads C as D's element), its axis is
  // the one along which the output is contiguous (a leading dimension of 0 repeats one
  // row, or one column), and no serial split-K slice re-reads C as its partial sum.
  void check_sm80_bias(const EpilogueStep& s, size_t index) {
    const std::string legal = "on sm80: bias first, of D's type, along D's rows (bias(col) with a row-major D, "
                              "bias(row) with a column-major one), without C and without split-K";
    const bool along_rows = (s.bias == BiasKind::col) == (k_.layout_c.value == Layout::row);
    if (index != 0)
      error(s.span, "an sm80 bias is read through C, before the element-wise step, so it must be the first step", legal,
            "with_arch(sm90a) for a bias after other steps");
    else if (k_.has_source())
      error(s.span, "an sm80 bias is read through C, so C cannot also be read (beta or a residual)", legal,
            "with_arch(sm90a)");
    else if (s.bias_type != k_.d.value)
      error(s.span, "an sm80 bias is read through C as D's type " + tname(k_.d.value) + ", not " + tname(s.bias_type),
            legal, "bias(" + std::string(name_of(s.bias)) + ")");
    else if (!along_rows)
      error(s.span, std::string("an sm80 bias(") + std::string(name_of(s.bias)) + ") needs a " +
                        (s.bias == BiasKind::col ? "row-major" : "column-major") + " output, which repeats it with a "
                        "leading dimension of 0",
            legal, "with_layouts(c = " + std::string(s.bias == BiasKind::col ? "row" : "col") + ")");
    else if (k_.scheduler.value == TileScheduler::split_k)
      error(s.span, "an sm80 bias is read through C, which serial split-K re-reads as the partial sum", legal,
            "with_scheduler(persistent) or stream_k");
  }

  const GemmKernel& k_;
  Diagnostics& d_;
  size_t errors_before_;
  std::string note_;
};

// A swap transposes a GEMM; a convolution's implicit GEMM has its operands fixed
// by the tensors (activation, filter), and the sm80 conv kernels have no transposed form.
// A grouped GEMM's host entry hands CUTLASS per-group pointer arrays in the program's order.
bool check_operand_swap(const GemmKernel& k, Diagnostics& d) {
  if (!k.swaps_operands()) return true;
  if (k.is_conv()) {
    d.error(k.operand_swap.span, "with_operand_swap applies to GEMM kernels, not to a convolution",
            "with_operand_swap(off) (or remove it) for " + std::string(name_of(k.conv->mode)) + " convolutions");
    return false;
  }
  if (k.is_grouped()) {
    d.error(k.operand_swap.span, "with_operand_swap is not supported on grouped GEMMs in this version",
            "with_operand_swap(off) (or remove it) for a grouped GEMM");
    return false;
  }
  // CUTLASS 2.x's device GemmUniversal runs a column-major output as the transposed problem
  // with the same tile, so a swapped sm80 kernel (its D^T is column-major when D is row-major)
  // would be turned back into the unswapped one.
  if (k.arch.value == Arch::sm80) {
    d.error(k.operand_swap.span,
            "sm80 GEMMs cannot be swapped: CUTLASS 2.x runs a column-major output as the transposed problem, "
            "which undoes the swap",
            "with_operand_swap(off) on sm80", "with_arch(sm90a) for a swapped kernel");
    return false;
  }
  return true;
}

}  // namespace

int mainloop_stage_bytes(const GemmKernel& k) {
  const Shape3& t = k.tile.value;
  // One stage holds an A tile, a B tile and (SM90) its pipeline barriers.
  return t.m * t.k * bytes_of(k.a.value) + t.n * t.k * bytes_of(k.b.value) + (k.arch.value == Arch::sm90a ? 16 : 0);
}

int epilogue_smem_bytes(const GemmKernel& k) {
  if (k.arch.value != Arch::sm90a || k.epilogue_schedule.value == EpilogueSchedule::nosmem) return 0;
  // An upper estimate of CUTLASS's TMA epilogue: subtiles of (64 or 128) x 32,
  // two D stages, up to four C stages, plus broadcast vectors and barriers.
  int epi_m = is_cooperative(k.schedule.value) ? 128 : 64;
  int epi_n = std::min(k.tile.value.n, 32);
  int bytes = 2 * epi_m * epi_n * bytes_of(k.d.value);
  if (k.has_source()) bytes += 4 * epi_m * epi_n * bytes_of(k.c.value);
  if (k.has_bias()) bytes += (k.tile.value.m + k.tile.value.n) * 4;
  for (const EpilogueExtra& x : k.extras)
    if (x.kind == ExtraKind::row || x.kind == ExtraKind::col) bytes += (k.tile.value.m + k.tile.value.n) * 4;
  return bytes + 1024;
}

bool validate(const GemmKernel& k, Diagnostics& diags) {
  if (k.is_gemv()) return validate_gemv(k, diags);  // CUTLASS's Gemv: rules of its own (validate_gemv.h)
  if (k.is_rows()) return validate_rows(k, diags);  // our row kernel (validate_rows.h)
  if (k.is_attention()) return validate_attention(k, diags);  // our fused attention (validate_attention.h)
  if (!check_operand_swap(k, diags)) return false;
  if (k.swaps_operands()) return Validator(transposed(k), diags, kOperandSwapNote).run();
  return Validator(k, diags).run();
}

bool validate(const Program& p, Diagnostics& diags) {
  bool ok = true;
  for (const GemmKernel& k : p.kernels) ok &= validate(k, diags);
  return ok;
}

}  // namespace ucutlass::ir

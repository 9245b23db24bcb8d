#include "ir/validate_gemv.h"

#include <string>

namespace ucutlass::ir {

namespace {

std::string str(int64_t v) { return std::to_string(v); }
bool pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }
std::string tname(DType t) { return std::string(name_of(t)); }

const char* kGemvSettings =
    "gemv kernels take with_arch(sm80), with_types, with_layouts(a = row), with_math(simt), "
    "with_gemv(access, threads_per_row, threads) and with_epilogue(alpha(...), beta(...))";

class GemvValidator {
 public:
  GemvValidator(const GemmKernel& k, Diagnostics& d) : k_(k), d_(d), errors_before_(d.error_count()) {}

  bool run() {
    check_foreign_settings();
    check_arch_and_math();
    if (check_types()) check_levers();
    check_layouts();
    check_epilogue();
    check_batch();
    return d_.error_count() == errors_before_;
  }

 private:
  void error(Span s, std::string msg, std::string legal = {}, std::string hint = {}) {
    d_.error(s, std::move(msg), std::move(legal), std::move(hint));
  }

  // Settings of tiled GEMMs mean nothing to the GEMV kernel; saying one is a mistake worth naming.
  template <class T>
  void foreign(const Setting<T>& s, const char* setting, const char* instead) {
    if (!s.is_auto)
      error(s.span, std::string(setting) + " does not apply to a gemv kernel (it has no tiles, stages or schedules)",
            kGemvSettings, instead);
  }

  void check_foreign_settings() {
    const char* levers = "the gemv levers are with_gemv(access, threads_per_row, threads)";
    foreign(k_.tile, "with_tile", levers);
    foreign(k_.cluster, "with_cluster", levers);
    foreign(k_.warps, "with_warps", levers);
    foreign(k_.schedule, "with_schedule", levers);
    if (k_.schedule.is_auto) foreign(k_.epilogue_schedule, "with_schedule", levers);
    foreign(k_.stages, "with_stages", levers);
    foreign(k_.raster, "with_raster", levers);
    foreign(k_.scheduler, "with_scheduler", levers);
    foreign(k_.operand_swap, "with_operand_swap", levers);
    const char* align = "with_gemv(access = ...) sets A's and x's alignment";
    foreign(k_.align_a, "with_alignment", align);
    foreign(k_.align_b, "with_alignment", align);
    foreign(k_.align_c, "with_alignment", align);
  }

  void check_arch_and_math() {
    if (k_.arch.value != Arch::sm80)
      error(k_.arch.span,
            "gemv kernels run CUTLASS's SIMT Gemv, an sm80 kernel (it runs on Hopper as well); sm90a has none",
            "with_arch(sm80), or leave the architecture to auto");
    if (k_.math.value != MathPath::simt)
      error(k_.math.span, "gemv kernels multiply on CUDA cores, not on the '" + std::string(name_of(k_.math.value)) +
                              "' path",
            "with_math(simt), or leave the math path to auto");
  }

  bool check_types() {
    const DType a = k_.a.value;
    const bool input_ok = a == DType::f32 || a == DType::f16 || a == DType::bf16;
    if (!input_ok) {
      error(k_.a.span, "gemv inputs cannot be " + tname(a), "f32, f16, bf16");
      return false;
    }
    if (k_.b.value != a) {
      error(k_.b.span, "A is " + tname(a) + " but x is " + tname(k_.b.value), "A and x of one type (b = " + tname(a) + ")");
      return false;
    }
    const DType d = k_.d.value;
    if (d != a && d != DType::f32)
      error(k_.d.span, "a gemv of " + tname(a) + " inputs cannot write " + tname(d), "d = " + tname(a) + " or f32");
    // CUTLASS's Gemv reads C with D's element type.
    if (k_.has_source() && k_.c.value != d)
      error(k_.c.span, "the gemv reads c with y's type " + tname(d) + ", not " + tname(k_.c.value),
            "c = " + tname(d));
    if (k_.acc.value != DType::f32)
      error(k_.acc.span, "gemv kernels accumulate in f32, not " + tname(k_.acc.value), "acc = f32");
    return true;
  }

  void check_levers() {
    const GemvLevers& g = k_.gemv_levers;
    const int max_access = gemv_max_access(k_.a.value);
    const int access = g.access.value, tpr = g.threads_per_row.value, threads = g.threads.value;
    if (!pow2(access) || access > max_access) {
      error(g.access.span,
            "access = " + str(access) + " " + tname(k_.a.value) + " elements is not a load CUTLASS's Gemv can issue",
            "a power of two from 1 to " + str(max_access) + " (" + str(max_access * bits_of(k_.a.value) / 8) +
                " bytes, two 16-byte loads)");
    } else if (!k_.k.is_dynamic() && k_.k.value % access != 0) {
      int fits = access;
      while (k_.k.value % fits != 0) fits /= 2;
      error(g.access.span,
            "K = " + str(k_.k.value) + " is not a multiple of access = " + str(access) +
                ": each row of A starts K elements after the last, so its loads of " + str(access) +
                " elements would be misaligned (CUTLASS's can_implement rejects it)",
            "an access that divides K: at most " + str(fits) + " here", "with_gemv(access = " + str(fits) + ")");
    }
    if (!pow2(tpr) || tpr > 32) {
      error(g.threads_per_row.span,
            "threads_per_row = " + str(tpr) + " cannot be reduced by the kernel's xor shuffles within a warp",
            "1, 2, 4, 8, 16 or 32");
      return;
    }
    if (threads % 32 != 0 || threads > 1024) {
      error(g.threads.span,
            "threads = " + str(threads) + " is not a whole number of warps up to 1024: the row sums shuffle across "
            "all 32 lanes of a warp, so a partial warp is undefined",
            "a multiple of 32 from 32 to 1024");
      return;
    }
    const int rows = gemv_rows_per_warp(tpr);
    if (!k_.m.is_dynamic() && k_.m.value % rows != 0) {
      int fix = tpr;
      while (k_.m.value % gemv_rows_per_warp(fix) != 0) fix *= 2;
      error(g.threads_per_row.span,
            "M = " + str(k_.m.value) + " is not a multiple of the " + str(rows) +
                " rows a warp covers with threads_per_row = " + str(tpr) +
                ": the last warp would shuffle with lanes past the last row",
            "threads_per_row such that 32 / threads_per_row divides M", "with_gemv(threads_per_row = " + str(fix) + ")");
    }
  }

  void check_layouts() {
    if (k_.layout_a.value != Layout::row)
      error(k_.layout_a.span,
            "gemv kernels read a row-major A (K contiguous), whose rows are loaded access elements at a time",
            "with_layouts(a = row)", "a column-major A is the GEMM gemm(m = M, n = 1, k = K)");
    for (const Setting<Layout>* l : {&k_.layout_b, &k_.layout_c})
      if (!l->is_auto)
        error(l->span, "x and y are contiguous vectors; a gemv kernel takes only A's layout", "with_layouts(a = row)");
  }

  void check_epilogue() {
    for (const EpilogueStep& s : k_.epilogue)
      error(s.span,
            "gemv kernels fuse alpha and beta only (CUTLASS's Gemv applies one LinearCombination per output element)",
            "with_epilogue(alpha(...), beta(...))", "use gemm(m = M, n = 1, k = K) for other steps");
    if (k_.beta.value != 0.0 && !k_.has_source())
      error(k_.beta.span, "beta is non-zero but C is void, so there is nothing to scale",
            "beta(0), or with_types(c = " + tname(k_.d.value) + ")");
  }

  void check_batch() {
    // The device Gemv sizes grid z as batch % 65536: 65536 batches would launch none.
    if (k_.batch.value > 65535)
      error(k_.batch.span, "batch = " + str(k_.batch.value) + " exceeds the grid's z dimension",
            "batch from 1 to 65535");
  }

  const GemmKernel& k_;
  Diagnostics& d_;
  size_t errors_before_;
};

}  // namespace

int gemv_max_access(DType t) {
  const int bits = bits_of(t);
  return bits == 0 ? 1 : 256 / bits;
}

bool validate_gemv(const GemmKernel& k, Diagnostics& diags) { return GemvValidator(k, diags).run(); }

}  // namespace ucutlass::ir

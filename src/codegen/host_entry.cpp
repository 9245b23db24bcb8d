#include "codegen/host_entry.h"

#include "codegen/cutlass_names.h"
#include "codegen/text_template.h"

namespace ucutlass::codegen {

namespace {

using ir::GemmKernel;

constexpr std::string_view kPrelude = R"CPP(struct Status {
  int code;             // 0 ok; 1 invalid argument; 2 can_implement failed; 3 CUDA error; 4 CUTLASS error
  const char* message;  // static text, or this thread's message buffer (valid until its next error)
};

// Runtime contract of every kernel in this header. Extents are runtime values
// (they must equal the program's fixed extents); leading dimensions and batch
// strides are in elements, 0 meaning packed.
struct GemmParams {
  const void* a;
  const void* b;
  const void* c;
  void* d;
  const void* bias;
  int m, n, k, batch;
  long long lda, ldb, ldc, ldd;
  long long batch_stride_a, batch_stride_b, batch_stride_c, batch_stride_d;
  float alpha, beta;
  // Extra epilogue operands (scalars, vectors, aux tensors read or written), in the
  // order of the manifest's "extras"; ld and batch stride (elements, 0 = packed) for
  // aux tensors only. Kernels without extras never read these fields.
  void* extra[8];
  long long extra_ld[8];
  long long extra_batch_stride[8];
};

// Two calls' params name the same operands: every byte equal (the struct has no
// padding, so its bytes are its fields).
static_assert(sizeof(GemmParams) == 5 * sizeof(void*) + 4 * sizeof(int) + 8 * sizeof(long long) + 2 * sizeof(float) +
                                        8 * sizeof(void*) + 16 * sizeof(long long),
              "GemmParams has padding: same_operands would compare indeterminate bytes");
inline bool same_operands(const GemmParams& x, const GemmParams& y) { return std::memcmp(&x, &y, sizeof x) == 0; }

namespace detail {

inline thread_local char message_buffer[512];

inline Status error(int code, const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::vsnprintf(message_buffer, sizeof message_buffer, format, args);
  va_end(args);
  return Status{code, message_buffer};
}

inline Status cuda_error(const char* what, cudaError_t e) {
  return error(3, "CUDA error %d in %s: %s", static_cast<int>(e), what, cudaGetErrorString(e));
}

inline Status check_extent(const char* kernel, const char* name, int value, long long fixed) {
  if (value <= 0) return error(1, "%s: %s = %d must be positive", kernel, name, value);
  if (fixed != 0 && value != fixed)
    return error(1, "%s: %s = %d but the kernel was compiled for %s = %lld", kernel, name, value, name, fixed);
  return Status{0, nullptr};
}

// One matrix operand: resolves packed leading dimension and batch stride and
// checks them, and the pointer, against the kernel's alignment.
struct Operand {
  const char* name;     // "A", "B", "C", "D"
  const void* ptr;
  bool row_major;
  std::int64_t rows, cols;
  std::int64_t ld, batch_stride;  // in: as given (0 = packed); out: resolved
  int alignment;               // elements
  int element_bytes;
};

inline Status check_operand(const char* kernel, int batch, Operand& o) {
  if (o.ptr == nullptr) return error(1, "%s: pointer %s is null", kernel, o.name);
  const std::int64_t min_ld = o.row_major ? o.cols : o.rows;
  if (o.ld == 0) o.ld = min_ld;
  if (o.ld < min_ld)
    return error(1, "%s: leading dimension of %s = %lld is smaller than its %s (%lld) for a %s-major operand",
                 kernel, o.name, static_cast<long long>(o.ld), o.row_major ? "column count" : "row count",
                 static_cast<long long>(min_ld),
                 o.row_major ? "row" : "column");
  if (o.ld % o.alignment != 0)
    return error(1, "%s: leading dimension of %s = %lld is not a multiple of the kernel's alignment (%d elements)",
                 kernel, o.name, static_cast<long long>(o.ld), o.alignment);
  if (o.batch_stride == 0) o.batch_stride = (o.row_major ? o.rows : o.cols) * o.ld;
  if (batch > 1 && o.batch_stride % o.alignment != 0)
    return error(1, "%s: batch stride of %s = %lld is not a multiple of the kernel's alignment (%d elements)",
                 kernel, o.name, static_cast<long long>(o.batch_stride), o.alignment);
  const long long bytes = static_cast<long long>(o.alignment) * o.element_bytes;
  if (reinterpret_cast<std::uintptr_t>(o.ptr) % static_cast<std::uintptr_t>(bytes) != 0)
    return error(1, "%s: pointer %s is not %lld-byte aligned (the kernel's alignment is %d elements)", kernel,
                 o.name, bytes, o.alignment);
  return Status{0, nullptr};
}

inline Status check_bias(const char* kernel, const void* bias) {
  if (bias == nullptr) return error(1, "%s: pointer bias is null", kernel);
  if (reinterpret_cast<std::uintptr_t>(bias) % 16 != 0) return error(1, "%s: pointer bias is not 16-byte aligned", kernel);
  return Status{0, nullptr};
}

// A scalar or vector extra operand: non-null and aligned for the broadcast's loads.
inline Status check_extra_pointer(const char* kernel, const char* name, const void* ptr, int bytes) {
  if (ptr == nullptr) return error(1, "%s: pointer %s is null", kernel, name);
  if (reinterpret_cast<std::uintptr_t>(ptr) % static_cast<std::uintptr_t>(bytes) != 0)
    return error(1, "%s: pointer %s is not %d-byte aligned", kernel, name, bytes);
  return Status{0, nullptr};
}

// Op is a device-level operator (a Gemm, or a Conv over ConvParams).
template <class Op, class Params>
size_t workspace_size(Status (*make)(const Params&, typename Op::Arguments&), const Params& p) {
  typename Op::Arguments args{};
  if (make(p, args).code != 0) return 0;
  return Op::get_workspace_size(args);
}

// The kernel type under a CUTLASS 3.x device adapter (GemmUniversalAdapter or
// ConvUniversalAdapter over a 3.x kernel); void for the 2.x operators, GEMV and
// direct convolution. Only for these does building the launch's Params cost much:
// they hold the TMA descriptors, one driver encode each.
template <class Op, class = void>
struct ReusableKernel { using type = void; };
template <class Op>
struct ReusableKernel<Op, std::enable_if_t<cutlass::gemm::detail::IsCutlass3GemmKernel<typename Op::GemmKernel>::value>> {
  using type = typename Op::GemmKernel;
};
template <class Op>
struct ReusableKernel<Op, std::void_t<typename Op::ConvKernel,
                                      decltype(Op::run(std::declval<typename Op::Params&>(), cudaStream_t{}))>> {
  using type = typename Op::ConvKernel;
};

// UCUTLASS_NO_LAUNCH_CACHE=1 builds every launch's Params afresh (an A/B of the cache).
inline bool launch_cache_enabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("UCUTLASS_NO_LAUNCH_CACHE");
    return v == nullptr || v[0] == '\0' || v[0] == '0';
  }();
  return enabled;
}

// The last launch of one kernel: its operands (the caller's params, compared
// by same_operands), device and workspace, and the Params CUTLASS built from
// them. A call with the same operands launches those Params again: a PyTorch
// module calls its kernels on the same tensors call after call, and a fresh
// build encodes every TMA descriptor anew, host time the GPU waits through on a
// short problem.
template <class Op, class Params>
struct LaunchCache {
  std::mutex mutex;
  bool valid = false;
  int device = -1;
  void* workspace = nullptr;
  size_t need = 0;
  Params operands{};
  typename Op::Params params{};
};

// Each kernel entry owns one (a static in NAME_run): two kernels of one program may have the same CUTLASS
// type and would take turns evicting each other from a cache kept per type. Nothing for the others.
struct NoLaunchCache {};
template <class Op, class Params>
using LaunchCacheFor =
    std::conditional_t<std::is_void_v<typename ReusableKernel<Op>::type>, NoLaunchCache, LaunchCache<Op, Params>>;

// can_implement, workspace (caller's, or stream-ordered allocation freed after
// the launch), initialize, run, and the launch error check. `built`, when
// given, receives the launch's Params if they may be launched again (the
// workspace outlives the call).
// The status of a launch: its CUDA error first, then CUTLASS's.
inline Status launch_status(cudaError_t launch, cutlass::Status cs) {
  if (launch != cudaSuccess) return cuda_error("the kernel launch", launch);
  if (cs != cutlass::Status::kSuccess) return error(4, "CUTLASS error: %s", cutlass::cutlassGetStatusString(cs));
  return Status{0, "ok"};
}

template <class Op, class Built = std::nullptr_t>
Status run_fresh(const typename Op::Arguments& args, cudaStream_t stream, void* workspace, size_t workspace_bytes,
                 Built built = nullptr, size_t* built_need = nullptr) {
  Op op;
  cutlass::Status cs = op.can_implement(args);
  if (cs != cutlass::Status::kSuccess)
    return error(2, "can_implement failed: %s", cutlass::cutlassGetStatusString(cs));
  const size_t need = Op::get_workspace_size(args);
  bool owned = false;
  if (need > 0 && workspace == nullptr) {
    cudaError_t e = cudaMallocAsync(&workspace, need, stream);
    if (e != cudaSuccess) return cuda_error("cudaMallocAsync(workspace)", e);
    owned = true;
  } else if (need > workspace_bytes) {
    return error(1, "workspace too small: the kernel needs %zu bytes, got %zu", need, workspace_bytes);
  }
  cs = op.initialize(args, workspace, stream);
  if (cs == cutlass::Status::kSuccess) cs = op.run(stream);
  const cudaError_t launch = cudaGetLastError();
  if (owned) cudaFreeAsync(workspace, stream);
  const Status st = launch_status(launch, cs);
  if constexpr (!std::is_same_v<Built, std::nullptr_t>) {
    if (st.code == 0 && !owned) {
      *built = op.params();
      *built_need = need;
    }
  }
  return st;
}

// A 3.x adapter's launch through its LaunchCache. The workspace is initialized
// every call (stream-K's flags must start at zero), and its size checked again.
template <class Op, class Params>
Status run_reusing(const typename Op::Arguments& args, const Params& p, cudaStream_t stream, void* workspace,
                   size_t workspace_bytes, LaunchCache<Op, Params>& cache) {
  using Kernel = typename ReusableKernel<Op>::type;
  int device = -1;
  const cudaError_t e = cudaGetDevice(&device);
  if (e != cudaSuccess) return cuda_error("cudaGetDevice", e);
  typename Op::Params params{};
  bool hit = false;
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    hit = cache.valid && cache.device == device && cache.workspace == workspace && same_operands(cache.operands, p) &&
          cache.need <= workspace_bytes;
    if (hit) params = cache.params;
  }
  if (!hit) {
    size_t need = 0;
    const Status st = run_fresh<Op>(args, stream, workspace, workspace_bytes, &params, &need);
    if (st.code == 0 && (workspace != nullptr || need == 0)) {
      std::lock_guard<std::mutex> lock(cache.mutex);
      cache.valid = true;
      cache.device = device;
      cache.workspace = workspace;
      cache.need = need;
      cache.operands = p;
      cache.params = params;
    }
    return st;
  }
  cutlass::Status cs = Kernel::initialize_workspace(args, workspace, stream);
  if (cs == cutlass::Status::kSuccess) cs = Op::run(params, stream);
  const Status st = launch_status(cudaGetLastError(), cs);
  if (st.code != 0) {
    // Whatever failed (a reset device lost the shared-memory attribute, say), the next call builds afresh.
    std::lock_guard<std::mutex> lock(cache.mutex);
    cache.valid = false;
  }
  return st;
}

// One launch of Op over the caller's params p: through the kernel's LaunchCache for
// a 3.x adapter (unless UCUTLASS_NO_LAUNCH_CACHE is set), else built afresh.
template <class Op, class Params>
Status run(Status (*make)(const Params&, typename Op::Arguments&), const Params& p,
           cudaStream_t stream, void* workspace, size_t workspace_bytes, LaunchCacheFor<Op, Params>& cache) {
  typename Op::Arguments args{};
  const Status st = make(p, args);
  if (st.code != 0) return st;
  if constexpr (!std::is_void_v<typename ReusableKernel<Op>::type>) {
    if (launch_cache_enabled()) return run_reusing<Op>(args, p, stream, workspace, workspace_bytes, cache);
  }
  return run_fresh<Op>(args, stream, workspace, workspace_bytes);
}

}  // namespace detail
)CPP";

// The checks both architectures share; the variables they leave behind
// (a, b, c, d Operands with resolved ld/batch_stride) feed make_arguments.
constexpr std::string_view kChecks = R"CPP(  const char* kernel = "$NAME$";
  Status st{0, nullptr};
  if ((st = detail::check_extent(kernel, "m", p.m, $FIXED_M$)).code ||
      (st = detail::check_extent(kernel, "n", p.n, $FIXED_N$)).code ||
      (st = detail::check_extent(kernel, "k", p.k, $FIXED_K$)).code ||
      (st = detail::check_extent(kernel, "batch", p.batch, $FIXED_BATCH$)).code)
    return st;
  detail::Operand a{"A", p.a, $ROW_A$, p.m, p.k, p.lda, p.batch_stride_a, $ALIGN_A$, $BYTES_A$};
  detail::Operand b{"B", p.b, $ROW_B$, p.k, p.n, p.ldb, p.batch_stride_b, $ALIGN_B$, $BYTES_B$};
  detail::Operand d{"D", p.d, $ROW_C$, p.m, p.n, p.ldd, p.batch_stride_d, AlignmentC, $BYTES_D$};
  if ((st = detail::check_operand(kernel, p.batch, a)).code || (st = detail::check_operand(kernel, p.batch, b)).code ||
      (st = detail::check_operand(kernel, p.batch, d)).code)
    return st;
$SOURCE_CHECK$$BIAS_CHECK$$EXTRA_CHECKS$)CPP";

constexpr std::string_view kSourceCheck =
    R"CPP(  detail::Operand c{"C", p.c, $ROW_C$, p.m, p.n, p.ldc, p.batch_stride_c, AlignmentC, $BYTES_C$};
  if ((st = detail::check_operand(kernel, p.batch, c)).code) return st;
)CPP";

// SM90 strides are cute (M|N, K, L) tuples; the unit stride is static.
constexpr std::string_view kSm90Arguments = R"CPP(inline Status make_arguments(const GemmParams& p, typename Gemm::Arguments& args) {
$CHECKS$
  int device = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e != cudaSuccess) return detail::cuda_error("cudaGetDevice", e);
  args.mode = cutlass::gemm::GemmUniversalMode::kGemm;
  args.problem_shape = cute::make_shape($SHAPE_MN$, p.k, p.batch);
  args.mainloop.ptr_A = static_cast<decltype(args.mainloop.ptr_A)>($PTR_A$);
  args.mainloop.dA = cute::make_stride($STRIDE_A$);
  args.mainloop.ptr_B = static_cast<decltype(args.mainloop.ptr_B)>($PTR_B$);
  args.mainloop.dB = cute::make_stride($STRIDE_B$);
  args.epilogue.ptr_C = $PTR_C$;
  args.epilogue.dC = cute::make_stride($STRIDE_C$);
  args.epilogue.ptr_D = static_cast<decltype(args.epilogue.ptr_D)>(p.d);
  args.epilogue.dD = cute::make_stride($STRIDE_D$);
  set_fusion_arguments(args.epilogue.thread, $FUSION_PARAMS$);
  args.hw_info.device_id = device;
  args.hw_info.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(device);
  args.scheduler.raster_order = decltype(args.scheduler.raster_order)::$RASTER$;
  args.scheduler.max_swizzle_size = $SWIZZLE$;
$SCHEDULER$  return Status{0, nullptr};
}
)CPP";

constexpr std::string_view kSm80Arguments = R"CPP(inline Status make_arguments(const GemmParams& p, typename Gemm::Arguments& args) {
$CHECKS$$SOURCE_ALIAS$
  const cutlass::gemm::GemmUniversalMode mode = $MODE$;
  const int batch_count = $BATCH_COUNT$;
  args = typename Gemm::Arguments(
      mode, cutlass::gemm::GemmCoord(p.m, p.n, p.k), batch_count,
      typename EpilogueOp::Params(p.alpha, $BETA$),
      p.a, p.b, c.ptr, p.d,
      a.batch_stride, b.batch_stride, c.batch_stride, d.batch_stride,
      a.ld, b.ld, c.ld, d.ld);
  return Status{0, nullptr};
}
)CPP";

// CUTLASS's Gemv (gemv_types.h) steps from one row of A to the next by K and reads x, C and D
// as packed vectors, whatever their leading dimensions say: anything else is refused here.
constexpr std::string_view kGemvArguments = R"CPP(inline Status make_arguments(const GemmParams& p, typename Gemm::Arguments& args) {
$CHECKS$$SOURCE_ALIAS$  if (a.ld != p.k)
    return detail::error(1, "%s: rows of A must be packed (leading dimension %lld, K = %d)", kernel,
                         static_cast<long long>(a.ld), p.k);
  if (d.ld != 1 || c.ld != 1) return detail::error(1, "%s: C and D must be contiguous vectors", kernel);
  if (p.m % kRowsPerWarp != 0)
    return detail::error(1, "%s: m = %d is not a multiple of the %d rows a warp covers", kernel, p.m, kRowsPerWarp);
  using RefA = typename GemvKernel::TensorRefA;
  args = typename Gemm::Arguments(
      cutlass::MatrixCoord(p.m, p.k), p.batch, typename EpilogueOp::Params(p.alpha, $BETA$),
      RefA(const_cast<ElementA*>(static_cast<const ElementA*>(p.a)), LayoutA(a.ld)),
      p.b, c.ptr, p.d,
      a.batch_stride, b.batch_stride, c.batch_stride, d.batch_stride);
  return Status{0, nullptr};
}
)CPP";

constexpr std::string_view kEntry = R"CPP(// $SUMMARY$
inline size_t $NAME$_workspace_size(const GemmParams& p) {
  return detail::workspace_size<$NAME$_detail::Gemm>(&$NAME$_detail::make_arguments, p);
}

inline Status $NAME$_run(const GemmParams& p, cudaStream_t stream, void* workspace = nullptr,
                   size_t workspace_bytes = 0) {
  static detail::LaunchCacheFor<$NAME$_detail::Gemm, GemmParams> cache;
  return detail::run<$NAME$_detail::Gemm>(&$NAME$_detail::make_arguments, p, stream, workspace, workspace_bytes, cache);
}
)CPP";

std::string cute_stride(bool unit_first, const std::string& op) {
  return unit_first ? "cute::Int<1>{}, " + op + ".ld, " + op + ".batch_stride"
                    : op + ".ld, cute::Int<1>{}, " + op + ".batch_stride";
}

std::string bytes_of(ir::DType t) { return std::to_string(ir::bits_of(t) / 8); }

bool row_c(const GemmKernel& k) { return k.layout_c.value == ir::Layout::row; }

// Aux tensors are checked like C and their resolved ld and batch stride written
// back into `resolved`, the params copy the fusion arguments read.
constexpr std::string_view kAuxCheck =
    R"CPP(  detail::Operand $VAR${"$LABEL$", p.extra[$I$], $ROW_C$, p.m, p.n, p.extra_ld[$I$], p.extra_batch_stride[$I$],
                       $ALIGN$, $BYTES$};
  if ((st = detail::check_operand(kernel, p.batch, $VAR$)).code) return st;
  resolved.extra_ld[$I$] = $VAR$.ld;
  resolved.extra_batch_stride[$I$] = $VAR$.batch_stride;
)CPP";

// A reduction's output vector: stored one element at a time, so aligned to its element;
// one vector per batch, `length` apart when packed (batch stride 0), never overlapping
// (two batches adding into one vector would race with the final pass that writes it).
constexpr std::string_view kReductionCheck =
    R"CPP(  if ((st = detail::check_extra_pointer(kernel, "$LABEL$", p.extra[$I$], $BYTES$)).code) return st;
  resolved.extra_batch_stride[$I$] = p.extra_batch_stride[$I$] != 0 ? p.extra_batch_stride[$I$] : p.$LEN$;
  if (p.batch > 1 && resolved.extra_batch_stride[$I$] < p.$LEN$)
    return detail::error(1, "%s: batch stride of $LABEL$ = %lld is smaller than its length $SYMBOL$ = %d", kernel,
                         resolved.extra_batch_stride[$I$], p.$LEN$);
)CPP";

std::string extra_checks(const GemmKernel& k, const Substitutions& base) {
  if (k.extras.empty()) return "";
  std::string out = "  GemmParams resolved = p;\n";
  for (size_t i = 0; i < k.extras.size(); ++i) {
    const ir::EpilogueExtra& x = k.extras[i];
    const std::string label = std::string(x.kind == ir::ExtraKind::matrix ? "aux tensor " : "") + x.name;
    if (x.is_output && x.kind != ir::ExtraKind::matrix) {
      const bool per_row = x.kind == ir::ExtraKind::row;
      out += fill(kReductionCheck, {{"LABEL", label},
                                    {"I", std::to_string(i)},
                                    {"BYTES", bytes_of(x.type)},
                                    {"LEN", per_row ? "m" : "n"},
                                    {"SYMBOL", per_row ? "M" : "N"}});
      continue;
    }
    if (x.kind != ir::ExtraKind::matrix) {
      const int bytes = x.kind == ir::ExtraKind::scalar ? 4 : 16;
      out += "  if ((st = detail::check_extra_pointer(kernel, \"" + label + "\", p.extra[" + std::to_string(i) +
             "], " + std::to_string(bytes) + ")).code) return st;\n";
      continue;
    }
    Substitutions subs = base;
    subs.insert(subs.end(), {{"VAR", "extra" + std::to_string(i)},
                             {"LABEL", label},
                             {"I", std::to_string(i)},
                             {"ALIGN", std::to_string(128 / ir::bits_of(x.type))},
                             {"BYTES", bytes_of(x.type)}});
    out += fill(kAuxCheck, subs);
  }
  return out;
}

std::string checks(const GemmKernel& k) {
  const bool row_c = k.layout_c.value == ir::Layout::row;
  Substitutions subs = {{"NAME", k.name},
                        {"FIXED_M", std::to_string(k.m.value)},
                        {"FIXED_N", std::to_string(k.n.value)},
                        {"FIXED_K", std::to_string(k.k.value)},
                        {"FIXED_BATCH", std::to_string(k.batch.value)},
                        {"ROW_A", k.layout_a.value == ir::Layout::row ? "true" : "false"},
                        {"ROW_B", k.layout_b.value == ir::Layout::row ? "true" : "false"},
                        {"ROW_C", row_c ? "true" : "false"},
                        // A swapped kernel (operand_swap.h) reads the program's A as its B.
                        {"ALIGN_A", k.swaps_operands() ? "AlignmentB" : "AlignmentA"},
                        {"ALIGN_B", k.swaps_operands() ? "AlignmentA" : "AlignmentB"},
                        {"BYTES_A", bytes_of(k.a.value)},
                        {"BYTES_B", bytes_of(k.b.value)},
                        {"BYTES_C", bytes_of(k.c.value)},
                        {"BYTES_D", bytes_of(k.d.value)}};
  subs.push_back({"SOURCE_CHECK", k.has_source() ? fill(kSourceCheck, subs) : ""});
  subs.push_back({"BIAS_CHECK",
                  k.has_bias() ? "  if ((st = detail::check_bias(kernel, p.bias)).code) return st;\n" : ""});
  subs.push_back({"EXTRA_CHECKS", extra_checks(k, subs)});
  return fill(kChecks, subs);
}

std::string sm90_scheduler_arguments(const GemmKernel& k) {
  switch (k.scheduler.value) {
    case ir::TileScheduler::split_k:
      return "  args.scheduler.splits = " + std::to_string(k.splits.value) +
             ";\n  args.scheduler.decomposition_mode = "
             "decltype(args.scheduler.decomposition_mode)::SplitK;\n";
    case ir::TileScheduler::stream_k:
      return "  args.scheduler.decomposition_mode = decltype(args.scheduler.decomposition_mode)::StreamK;\n";
    case ir::TileScheduler::persistent:
    case ir::TileScheduler::auto_: break;
  }
  return "";
}

std::string raster(ir::RasterOrder r) {
  switch (r) {
    case ir::RasterOrder::along_m: return "AlongM";
    case ir::RasterOrder::along_n: return "AlongN";
    case ir::RasterOrder::heuristic: break;
  }
  return "Heuristic";
}

std::string sm90_make_arguments(const GemmKernel& k) {
  // CUTLASS orders B's modes (N, K): a column-major K x N B is K-major, unit stride in K.
  // The program's operands as the kernel reads them: A (M, K) unit in M when
  // column-major; B (N, K) unit in N when row-major; C/D (M, N) unit in M when
  // column-major. Swapped, the kernel's A is B^T (N, K), its B is A^T (M, K) and
  // its output D^T (N, M): the same unit axes under the other operand's name.
  const bool a_unit_m = k.layout_a.value == ir::Layout::col;
  const bool b_unit_n = k.layout_b.value == ir::Layout::row;
  const bool c_unit_first = (k.layout_c.value == ir::Layout::col) != k.swaps_operands();
  const std::string c_stride = k.has_source() ? cute_stride(c_unit_first, "c") : cute_stride(c_unit_first, "d");
  const std::string stride_a = k.swaps_operands() ? cute_stride(b_unit_n, "b") : cute_stride(a_unit_m, "a");
  const std::string stride_b = k.swaps_operands() ? cute_stride(a_unit_m, "a") : cute_stride(b_unit_n, "b");
  // The checks speak of the program's operands; the kernel as run takes them in its own
  // order: swapped, its A is the program's B and its problem (N, M). (sm80 never swaps.)
  const bool s = k.swaps_operands();
  return fill(kSm90Arguments,
              {{"SHAPE_MN", s ? "p.n, p.m" : "p.m, p.n"},
               {"PTR_A", s ? "p.b" : "p.a"},
               {"PTR_B", s ? "p.a" : "p.b"},
               {"CHECKS", checks(k)},
               {"STRIDE_A", stride_a},
               {"STRIDE_B", stride_b},
               {"PTR_C", k.has_source() ? "static_cast<decltype(args.epilogue.ptr_C)>(p.c)" : "nullptr"},
               {"STRIDE_C", c_stride},
               {"STRIDE_D", cute_stride(c_unit_first, "d")},
               {"RASTER", raster(k.raster.value)},
               {"SWIZZLE", std::to_string(k.swizzle.value)},
               {"SCHEDULER", sm90_scheduler_arguments(k)},
               {"FUSION_PARAMS", k.extras.empty() ? "p" : "resolved"}});
}

std::string sm80_make_arguments(const GemmKernel& k) {
  std::string mode, batch_count;
  if (k.scheduler.value == ir::TileScheduler::split_k) {
    // Serial split-K: kGemm with batch_count = slices.
    mode = "cutlass::gemm::GemmUniversalMode::kGemm";
    batch_count = std::to_string(k.splits.value);
  } else {
    mode = "p.batch > 1 ? cutlass::gemm::GemmUniversalMode::kBatched : cutlass::gemm::GemmUniversalMode::kGemm";
    batch_count = "p.batch";
  }
  // A bias is C with a leading dimension and batch stride of 0: every output row (or column,
  // for a column-major D) reads the same vector, added with beta = 1 (validate.cpp, check_sm80_bias).
  const std::string source =
      k.has_source() ? ""
      : k.has_bias() ? "  const detail::Operand c{\"bias\", p.bias, " + std::string(row_c(k) ? "true" : "false") +
                           ", 1, 1, 0, 0, AlignmentC, " + bytes_of(k.d.value) + "};\n"
                     : "  const detail::Operand& c = d;\n";
  return fill(kSm80Arguments, {{"CHECKS", checks(k)},
                               {"SOURCE_ALIAS", source},
                               {"MODE", mode},
                               {"BATCH_COUNT", batch_count},
                               {"BETA", k.has_source() ? "p.beta" : k.has_bias() ? "1.0f" : "0.0f"}});
}

std::string gemv_make_arguments(const GemmKernel& k) {
  return fill(kGemvArguments, {{"CHECKS", checks(k)},
                               {"SOURCE_ALIAS", k.has_source() ? "" : "  const detail::Operand& c = d;\n"},
                               {"BETA", k.has_source() ? "p.beta" : "0.0f"}});
}

}  // namespace

std::string emit_host_prelude() { return std::string(kPrelude); }

std::string emit_make_arguments(const GemmKernel& k) {
  if (k.is_gemv()) return gemv_make_arguments(k);
  return k.arch.value == ir::Arch::sm80 ? sm80_make_arguments(k) : sm90_make_arguments(k);
}

std::string emit_host_entry(const GemmKernel& k) {
  std::string summary = std::string(ir::name_of(k.arch.value)) + " " + std::string(ir::name_of(k.a.value)) +
                        "x" + std::string(ir::name_of(k.b.value)) + "->" +
                        std::string(ir::name_of(k.d.value)) + ", layouts " +
                        std::string(ir::name_of(k.layout_a.value)) + "/" +
                        std::string(ir::name_of(k.layout_b.value)) + "/" +
                        std::string(ir::name_of(k.layout_c.value)) + ", C " +
                        (k.has_source() ? "read" : "not read (void)") + (k.has_bias() ? ", bias" : "") +
                        (k.extras.empty() ? "" : ", " + std::to_string(k.extras.size()) + " extra operand" +
                                                     (k.extras.size() == 1 ? "" : "s")) +
                        (k.swaps_operands() ? ", operands swapped (runs D^T = B^T * A^T)" : "") +
                        (k.is_gemv() ? ", gemv (N = 1: B is the vector x [K], D the vector y [M])" : "");
  return fill(kEntry, {{"NAME", k.name}, {"SUMMARY", summary}});
}

std::string emit_c_params_struct() {
  return R"CPP(typedef struct ucutlass_gemm_params {
  const void* a;
  const void* b;
  const void* c;
  void* d;
  const void* bias;
  int m, n, k, batch;
  long long lda, ldb, ldc, ldd;
  long long batch_stride_a, batch_stride_b, batch_stride_c, batch_stride_d;
  float alpha, beta;
  void* extra[8];
  long long extra_ld[8];
  long long extra_batch_stride[8];
} ucutlass_gemm_params;
)CPP";
}

}  // namespace ucutlass::codegen

#include "codegen/grouped_gemm.h"

#include "codegen/cutlass_names.h"
#include "codegen/kernel_types.h"
#include "codegen/text_template.h"

namespace ucutlass::codegen {

namespace {

using ir::GemmKernel;

constexpr std::string_view kPrelude = R"CPP(
// Runtime contract of the grouped GEMM kernels in this header: `groups`
// independent problems, group g computing D_g = epilogue(alpha * A_g B_g + beta * C_g)
// with A_g [m_g, k_g], B_g [k_g, n_g], C_g and D_g [m_g, n_g] in the kernel's layouts.
// Every array is in host memory with one entry per group; the pointers held in
// a, b, c, d are device pointers. Leading dimensions are in elements; a null
// array or a 0 entry means packed. Extents fixed in the program must match.
struct GroupedGemmParams {
  int groups;
  const int* problems;  // 3 * groups ints: m, n, k of group g at [3g], [3g + 1], [3g + 2]
  const void* const* a;
  const void* const* b;
  const void* const* c;  // read only by kernels that read C
  void* const* d;
  const long long* lda;
  const long long* ldb;
  const long long* ldc;
  const long long* ldd;
  float alpha, beta;  // shared by every group
};

namespace detail {

// The host image of the device arrays a grouped kernel reads: problem shapes,
// A, B, C, D pointers and strides, one entry per group. They sit at the front
// of the workspace in that order, each block 256-byte aligned (`offset`), and
// CUTLASS's own workspace follows at `bytes`.
template <class Gemm>
struct GroupedImage {
  using Kernel = typename Gemm::GemmKernel;
  using Shape = typename Kernel::ProblemShape::UnderlyingProblemShape;
  std::vector<Shape> shapes;
  std::vector<const void*> a, b, c;
  std::vector<void*> d;
  std::vector<typename Kernel::InternalStrideA> stride_a;
  std::vector<typename Kernel::InternalStrideB> stride_b;
  std::vector<typename Kernel::InternalStrideC> stride_c;
  std::vector<typename Kernel::InternalStrideD> stride_d;
  size_t offset[9] = {};
  size_t bytes = 0;

  void resize(int groups) {
    const size_t n = static_cast<size_t>(groups);
    shapes.resize(n);
    a.resize(n);
    b.resize(n);
    c.resize(n);
    d.resize(n);
    stride_a.resize(n);
    stride_b.resize(n);
    stride_c.resize(n);
    stride_d.resize(n);
    const size_t sizes[9] = {n * sizeof(Shape), n * sizeof(void*), n * sizeof(void*), n * sizeof(void*),
                             n * sizeof(void*), n * sizeof(stride_a[0]), n * sizeof(stride_b[0]),
                             n * sizeof(stride_c[0]), n * sizeof(stride_d[0])};
    bytes = 0;
    for (int i = 0; i < 9; ++i) {
      offset[i] = bytes;
      bytes += (sizes[i] + 255) / 256 * 256;
    }
  }

  // Device pointers keep their bit patterns: an array of `ElementA const*` is
  // stored from the `const void*` values.
  void write(unsigned char* out) const {
    std::memcpy(out + offset[0], shapes.data(), shapes.size() * sizeof(Shape));
    std::memcpy(out + offset[1], a.data(), a.size() * sizeof(void*));
    std::memcpy(out + offset[2], b.data(), b.size() * sizeof(void*));
    std::memcpy(out + offset[3], c.data(), c.size() * sizeof(void*));
    std::memcpy(out + offset[4], d.data(), d.size() * sizeof(void*));
    std::memcpy(out + offset[5], stride_a.data(), stride_a.size() * sizeof(stride_a[0]));
    std::memcpy(out + offset[6], stride_b.data(), stride_b.size() * sizeof(stride_b[0]));
    std::memcpy(out + offset[7], stride_c.data(), stride_c.size() * sizeof(stride_c[0]));
    std::memcpy(out + offset[8], stride_d.data(), stride_d.size() * sizeof(stride_d[0]));
  }
};

// One group's cute (M|N, K, L) stride: the one dynamic mode of the first two
// is the leading dimension; the unit mode and the L mode are static.
template <class Stride>
Stride group_stride(std::int64_t ld) {
  Stride s{};
  if constexpr (!cute::is_static<decltype(cute::get<0>(s))>::value) cute::get<0>(s) = ld;
  if constexpr (!cute::is_static<decltype(cute::get<1>(s))>::value) cute::get<1>(s) = ld;
  return s;
}

inline Status check_groups(const char* kernel, const GroupedGemmParams& p, int fixed, bool reads_c) {
  if (p.groups <= 0) return error(1, "%s: groups = %d must be positive", kernel, p.groups);
  if (fixed != 0 && p.groups != fixed)
    return error(1, "%s: groups = %d but the kernel was compiled for groups = %d", kernel, p.groups, fixed);
  if (p.problems == nullptr) return error(1, "%s: the problems array (m, n, k per group) is null", kernel);
  const char* missing = p.a == nullptr ? "a" : p.b == nullptr ? "b" : p.d == nullptr ? "d"
                        : reads_c && p.c == nullptr ? "c" : nullptr;
  if (missing != nullptr) return error(1, "%s: the pointer array %s is null", kernel, missing);
  return Status{0, nullptr};
}

template <class Gemm>
using GroupedMake = Status (*)(const GroupedGemmParams&, GroupedImage<Gemm>&, typename Gemm::Arguments&);

// Points the arguments at the device arrays in `device` (the workspace's front).
template <class Gemm>
void point_arguments(typename Gemm::Arguments& args, const GroupedImage<Gemm>& img, void* device, bool reads_c) {
  auto at = [&](int block) { return reinterpret_cast<std::uintptr_t>(device) + img.offset[block]; };
  args.problem_shape.problem_shapes = reinterpret_cast<typename GroupedImage<Gemm>::Shape*>(at(0));
  args.mainloop.ptr_A = reinterpret_cast<decltype(args.mainloop.ptr_A)>(at(1));
  args.mainloop.ptr_B = reinterpret_cast<decltype(args.mainloop.ptr_B)>(at(2));
  args.epilogue.ptr_C = reads_c ? reinterpret_cast<decltype(args.epilogue.ptr_C)>(at(3)) : nullptr;
  args.epilogue.ptr_D = reinterpret_cast<decltype(args.epilogue.ptr_D)>(at(4));
  args.mainloop.dA = reinterpret_cast<decltype(args.mainloop.dA)>(at(5));
  args.mainloop.dB = reinterpret_cast<decltype(args.mainloop.dB)>(at(6));
  args.epilogue.dC = reinterpret_cast<decltype(args.epilogue.dC)>(at(7));
  args.epilogue.dD = reinterpret_cast<decltype(args.epilogue.dD)>(at(8));
}

template <class Gemm>
size_t grouped_workspace_size(GroupedMake<Gemm> make, const GroupedGemmParams& p) {
  GroupedImage<Gemm> img;
  typename Gemm::Arguments args{};
  if (make(p, img, args).code != 0 || img.shapes.empty()) return 0;
  return img.bytes + Gemm::get_workspace_size(args);
}

// Checks, workspace (the caller's, or a stream-ordered allocation freed after
// the launch), the arrays' upload, can_implement, initialize, run.
template <class Gemm>
Status run_grouped(GroupedMake<Gemm> make, const GroupedGemmParams& p, bool reads_c, cudaStream_t stream,
                   void* workspace, size_t workspace_bytes) {
  GroupedImage<Gemm> img;
  typename Gemm::Arguments args{};
  Status st = make(p, img, args);
  if (st.code != 0) return st;
  if (img.shapes.empty()) return Status{0, "ok (every group is empty)"};
  const size_t need = img.bytes + Gemm::get_workspace_size(args);
  bool owned = false;
  if (workspace == nullptr) {
    cudaError_t e = cudaMallocAsync(&workspace, need, stream);
    if (e != cudaSuccess) return cuda_error("cudaMallocAsync(workspace)", e);
    owned = true;
  } else if (need > workspace_bytes) {
    return error(1, "workspace too small: the kernel needs %zu bytes, got %zu", need, workspace_bytes);
  } else if (reinterpret_cast<std::uintptr_t>(workspace) % 256 != 0) {
    return error(1, "workspace is not 256-byte aligned");
  }
  point_arguments(args, img, workspace, reads_c);
  Gemm op;
  cutlass::Status cs = op.can_implement(args);  // reads the host copy of the problem shapes
  cudaError_t e = cudaSuccess;
  if (cs == cutlass::Status::kSuccess) {
    std::vector<unsigned char> staging(img.bytes);
    img.write(staging.data());
    // From pageable memory the copy is staged before cudaMemcpyAsync returns, so `staging` may go.
    e = cudaMemcpyAsync(workspace, staging.data(), img.bytes, cudaMemcpyHostToDevice, stream);
  }
  if (cs == cutlass::Status::kSuccess && e == cudaSuccess) {
    cs = op.initialize(args, static_cast<unsigned char*>(workspace) + img.bytes, stream);
    if (cs == cutlass::Status::kSuccess) cs = op.run(stream);
  }
  const cudaError_t launch = e != cudaSuccess ? e : cudaGetLastError();
  if (owned) cudaFreeAsync(workspace, stream);
  if (e != cudaSuccess) return cuda_error("cudaMemcpyAsync(group arrays)", e);
  if (launch != cudaSuccess) return cuda_error("the kernel launch", launch);
  if (cs != cutlass::Status::kSuccess) return error(2, "CUTLASS error: %s", cutlass::cutlassGetStatusString(cs));
  return Status{0, "ok"};
}

}  // namespace detail
)CPP";

constexpr std::string_view kTypes = R"CPP(using ElementA = $A$;
using ElementB = $B$;
using ElementC = $C$;
using ElementD = $D$;
using ElementAccumulator = $ACC$;
using ElementCompute = float;
using LayoutA = $LAYOUT_A$;
using LayoutB = $LAYOUT_B$;
using LayoutC = $LAYOUT_C$;
constexpr int AlignmentA = $ALIGN_A$;
constexpr int AlignmentB = $ALIGN_B$;
constexpr int AlignmentC = $ALIGN_C$;
using TileShape = $TILE$;
using ClusterShape = $CLUSTER$;
// (m, n, k) per group; the arrays live in device memory, a host copy serves can_implement.
using ProblemShape = cutlass::gemm::GroupProblemShape<cute::Shape<int, int, int>>;

$FUSION$
// Layout tags given as pointers (LayoutC*) make the builders take one stride per group.
using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
    TileShape, ClusterShape, cutlass::epilogue::collective::EpilogueTileAuto,
    ElementAccumulator, ElementCompute,
    ElementC, LayoutC*, AlignmentC,
    ElementD, LayoutC*, AlignmentC,
    $EPILOGUE_SCHEDULE$,
    Fusion>::CollectiveOp;

using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
    ElementA, LayoutA*, AlignmentA,
    ElementB, LayoutB*, AlignmentB,
    ElementAccumulator, TileShape, ClusterShape,
    $STAGES$,
    $KERNEL_SCHEDULE$>::CollectiveOp;

// No tile scheduler given: a GroupProblemShape selects CUTLASS's group scheduler.
using Kernel = cutlass::gemm::kernel::GemmUniversal<ProblemShape, Mainloop, Epilogue>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;
)CPP";

constexpr std::string_view kMakeArguments = R"CPP(inline Status make_arguments(const GroupedGemmParams& p, detail::GroupedImage<Gemm>& img,
                             typename Gemm::Arguments& args) {
  const char* kernel = "$NAME$";
  Status st = detail::check_groups(kernel, p, $FIXED_GROUPS$, $READS_C$);
  if (st.code != 0) return st;
  img.resize(p.groups);
  int used = 0;  // groups in the launch
  for (int g = 0; g < p.groups; ++g) {
    const int m = p.problems[3 * g], n = p.problems[3 * g + 1], k = p.problems[3 * g + 2];
$EMPTY_GROUP$    char group[128];
    std::snprintf(group, sizeof group, "%s: group %d", kernel, g);
    if ((st = detail::check_extent(group, "m", m, $FIXED_M$)).code ||
        (st = detail::check_extent(group, "n", n, $FIXED_N$)).code ||
        (st = detail::check_extent(group, "k", k, $FIXED_K$)).code)
      return st;
    detail::Operand a{"A", p.a[g], $ROW_A$, m, k, p.lda ? p.lda[g] : 0, 0, AlignmentA, $BYTES_A$};
    detail::Operand b{"B", p.b[g], $ROW_B$, k, n, p.ldb ? p.ldb[g] : 0, 0, AlignmentB, $BYTES_B$};
    detail::Operand d{"D", p.d[g], $ROW_C$, m, n, p.ldd ? p.ldd[g] : 0, 0, AlignmentC, $BYTES_D$};
    if ((st = detail::check_operand(group, 1, a)).code || (st = detail::check_operand(group, 1, b)).code ||
        (st = detail::check_operand(group, 1, d)).code)
      return st;
    const int i = used++;
$SOURCE$    img.shapes[i] = cute::make_shape(m, n, k);
    img.a[i] = p.a[g];
    img.b[i] = p.b[g];
    img.d[i] = p.d[g];
    img.stride_a[i] = detail::group_stride<typename Kernel::InternalStrideA>(a.ld);
    img.stride_b[i] = detail::group_stride<typename Kernel::InternalStrideB>(b.ld);
    img.stride_d[i] = detail::group_stride<typename Kernel::InternalStrideD>(d.ld);
  }
  img.resize(used);
  if (used == 0) return Status{0, nullptr};  // every group empty: nothing to launch, no device needed
  int device = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e != cudaSuccess) return detail::cuda_error("cudaGetDevice", e);
  args.mode = cutlass::gemm::GemmUniversalMode::kGrouped;
  args.problem_shape.num_groups = used;
  args.problem_shape.host_problem_shapes = img.shapes.data();
  set_fusion_arguments(args.epilogue.thread, p);
  args.hw_info.device_id = device;
  args.hw_info.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(device);
  args.scheduler.raster_order = decltype(args.scheduler.raster_order)::$RASTER$;
  args.scheduler.max_swizzle_size = $SWIZZLE$;
  return Status{0, nullptr};
}
)CPP";

// C is checked like D; without C the (unread) C stride repeats D's.
constexpr std::string_view kSource = R"CPP(    detail::Operand c{"C", p.c[g], $ROW_C$, m, n, p.ldc ? p.ldc[g] : 0, 0, AlignmentC, $BYTES_C$};
    if ((st = detail::check_operand(group, 1, c)).code) return st;
    img.c[i] = p.c[g];
    img.stride_c[i] = detail::group_stride<typename Kernel::InternalStrideC>(c.ld);
)CPP";

constexpr std::string_view kNoSource = R"CPP(    img.c[i] = nullptr;
    img.stride_c[i] = detail::group_stride<typename Kernel::InternalStrideC>(d.ld);
)CPP";

constexpr std::string_view kEntry = R"CPP(// $SUMMARY$
inline size_t $NAME$_workspace_size(const GroupedGemmParams& p) {
  return detail::grouped_workspace_size<$NAME$_detail::Gemm>(&$NAME$_detail::make_arguments, p);
}

inline Status $NAME$_run(const GroupedGemmParams& p, cudaStream_t stream, void* workspace = nullptr,
                   size_t workspace_bytes = 0) {
  return detail::run_grouped<$NAME$_detail::Gemm>(&$NAME$_detail::make_arguments, p, $READS_C$, stream, workspace,
                                                  workspace_bytes);
}
)CPP";

std::string bytes_of(ir::DType t) { return std::to_string(ir::bits_of(t) / 8); }
std::string row(ir::Layout l) { return l == ir::Layout::row ? "true" : "false"; }

std::string kernel_schedule(const GemmKernel& k) {
  const bool coop = k.schedule.value == ir::KernelSchedule::cooperative;
  return std::string("cutlass::gemm::KernelPtrArrayTmaWarpSpecialized") + (coop ? "Cooperative" : "Pingpong") +
         (k.math.value == ir::MathPath::fast_accum ? "FP8FastAccum" : "");
}

// The pointer-array TMA epilogue that pairs with the kernel schedule.
std::string epilogue_schedule(const GemmKernel& k) {
  const bool coop = k.schedule.value == ir::KernelSchedule::cooperative;
  return std::string("cutlass::epilogue::PtrArrayTmaWarpSpecialized") + (coop ? "Cooperative" : "Pingpong");
}

std::string stage_count(const GemmKernel& k) {
  if (k.stages.value > 0) return "cutlass::gemm::collective::StageCount<" + std::to_string(k.stages.value) + ">";
  return "cutlass::gemm::collective::StageCountAutoCarveout<\n        static_cast<int>(sizeof(typename "
         "Epilogue::SharedStorage))>";
}

// A group whose D_g is empty (a dynamic m or n of 0: an expert that got no tokens) has nothing
// to compute or write; it stays out of the launch, and its pointers may be null.
std::string empty_group_check(const GemmKernel& k) {
  std::string cond = k.m.is_dynamic() ? "m == 0" : "";
  if (k.n.is_dynamic()) cond += (cond.empty() ? "" : " || ") + std::string("n == 0");
  return cond.empty() ? "" : "    if (" + cond + ") continue;  // an empty D_g\n";
}

// The group scheduler has no heuristic raster order (the largest extent differs per group).
std::string raster(ir::RasterOrder r) { return r == ir::RasterOrder::along_n ? "AlongN" : "AlongM"; }

}  // namespace

bool program_has_grouped(const ir::Program& p) {
  for (const GemmKernel& k : p.kernels)
    if (k.is_grouped()) return true;
  return false;
}

std::string emit_grouped_host_prelude(const ir::Program& p) {
  return program_has_grouped(p) ? std::string(kPrelude) : "";
}

std::string emit_grouped_types(const GemmKernel& k) {
  return emit_custom_activations(k) +
         fill(kTypes, {{"A", element_type(k.a.value)},
                       {"B", element_type(k.b.value)},
                       {"C", element_type(k.c.value)},
                       {"D", element_type(k.d.value)},
                       {"ACC", element_type(k.acc.value)},
                       {"LAYOUT_A", layout_tag(k.layout_a.value)},
                       {"LAYOUT_B", layout_tag(k.layout_b.value)},
                       {"LAYOUT_C", layout_tag(k.layout_c.value)},
                       {"ALIGN_A", std::to_string(k.align_a.value)},
                       {"ALIGN_B", std::to_string(k.align_b.value)},
                       {"ALIGN_C", std::to_string(k.align_c.value)},
                       {"TILE", cute_shape(k.tile.value)},
                       {"CLUSTER", cute_shape(k.cluster.value)},
                       {"FUSION", emit_sm90_fusion(k, "GroupedGemmParams")},
                       {"EPILOGUE_SCHEDULE", epilogue_schedule(k)},
                       {"STAGES", stage_count(k)},
                       {"KERNEL_SCHEDULE", kernel_schedule(k)}});
}

std::string emit_grouped_make_arguments(const GemmKernel& k) {
  Substitutions subs = {{"NAME", k.name},
                        {"FIXED_GROUPS", std::to_string(k.groups->value)},
                        {"READS_C", k.has_source() ? "true" : "false"},
                        {"FIXED_M", std::to_string(k.m.value)},
                        {"FIXED_N", std::to_string(k.n.value)},
                        {"FIXED_K", std::to_string(k.k.value)},
                        {"ROW_A", row(k.layout_a.value)},
                        {"ROW_B", row(k.layout_b.value)},
                        {"ROW_C", row(k.layout_c.value)},
                        {"BYTES_A", bytes_of(k.a.value)},
                        {"BYTES_B", bytes_of(k.b.value)},
                        {"BYTES_C", bytes_of(k.c.value)},
                        {"BYTES_D", bytes_of(k.d.value)},
                        {"RASTER", raster(k.raster.value)},
                        {"SWIZZLE", std::to_string(k.swizzle.value)}};
  subs.push_back({"SOURCE", fill(k.has_source() ? kSource : kNoSource, subs)});
  subs.push_back({"EMPTY_GROUP", empty_group_check(k)});
  return fill(kMakeArguments, subs);
}

std::string emit_grouped_host_entry(const GemmKernel& k) {
  auto extent = [](const ir::Extent& e) { return e.is_dynamic() ? std::string("any") : std::to_string(e.value); };
  const std::string summary =
      "sm90a grouped GEMM over " + (k.groups->is_dynamic() ? std::string("any number of") : std::to_string(k.groups->value)) +
      " groups, m = " + extent(k.m) + ", n = " + extent(k.n) + ", k = " + extent(k.k) + " per group, " +
      std::string(ir::name_of(k.a.value)) + "x" + std::string(ir::name_of(k.b.value)) + "->" +
      std::string(ir::name_of(k.d.value)) + ", layouts " + std::string(ir::name_of(k.layout_a.value)) + "/" +
      std::string(ir::name_of(k.layout_b.value)) + "/" + std::string(ir::name_of(k.layout_c.value)) + ", C " +
      (k.has_source() ? "read" : "not read (void)");
  return fill(kEntry, {{"NAME", k.name}, {"SUMMARY", summary}, {"READS_C", k.has_source() ? "true" : "false"}});
}

std::string emit_c_grouped_params_struct() {
  return R"CPP(typedef struct ucutlass_grouped_gemm_params {
  int groups;
  const int* problems;
  const void* const* a;
  const void* const* b;
  const void* const* c;
  void* const* d;
  const long long* lda;
  const long long* ldb;
  const long long* ldc;
  const long long* ldd;
  float alpha, beta;
} ucutlass_grouped_gemm_params;
)CPP";
}

}  // namespace ucutlass::codegen

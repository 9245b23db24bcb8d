#include "codegen/tf32_split.h"

#include <vector>

#include "codegen/text_template.h"

namespace ucutlass::codegen {

namespace {

// The parts: TF32 (f32 words) hi rounds x as the PyTorch fallback does (add half a TF32 ulp to the
// bits, clear the 13 low mantissa bits: nearest, ties away; Inf and the usual NaN stay), lo = x - hi
// is exact in f32; bf16 (3xBF16) hi = x rounded to bf16, lo = x - hi rounded to bf16 (both nearest
// even, as PyTorch's .to(torch.bfloat16)). Two kernels per format: x's K axis contiguous (rows of K
// streamed by lane groups: a whole block for a long row, the next power of two of K lanes for a short
// one, so a block holds several), or x's rows contiguous (a row-major B read along K, a conv's NCHW
// input along C: 32 x 32 tiles transposed in shared memory). One block per row, as before, ran at a
// thirteenth of DRAM bandwidth on rows of 12 channels (level1/020's space-to-depth input: 0.51 ms for
// 160 MB, H200 2026-11-30, bench/results/campaigns/kbsuite-b-2026-11-30.sqlite) and cost level3/006 a
// third of its time: block launches, not bytes, bound it.
constexpr std::string_view kCapiSplitCommon = R"CPP(
#include <cuda_bf16.h>

namespace {

struct Tf32Parts {
  using T = float;
  static constexpr const char* name = "tf32_stack3";
  __device__ __forceinline__ static void split(float v, float& hi, float& lo) {
    hi = __uint_as_float((__float_as_uint(v) + 0x1000u) & 0xFFFFE000u);
    lo = __fsub_rn(v, hi);
  }
};

struct Bf16Parts {
  using T = __nv_bfloat16;
  static constexpr const char* name = "bf16_stack3";
  __device__ __forceinline__ static void split(float v, __nv_bfloat16& hi, __nv_bfloat16& lo) {
    hi = __float2bfloat16_rn(v);
    lo = __float2bfloat16_rn(__fsub_rn(v, __bfloat162float(hi)));
  }
};

// The three slots of element j of one output row: A [lo, hi, hi], B [hi, lo, hi].
template <class P>
__device__ __forceinline__ void store_stack3(typename P::T* row, long long k, long long j, float v, bool a_side) {
  typename P::T hi, lo;
  P::split(v, hi, lo);
  row[j] = a_side ? lo : hi;
  row[k + j] = a_side ? hi : lo;
  row[2 * k + j] = hi;
}

// Row blockIdx.x * blockDim.y + threadIdx.y of the batch_rows = batch * rows, its K elements strided
// over the blockDim.x lanes of that row's group.
template <class P>
__global__ void __launch_bounds__(256) stack3_rows(const float* __restrict__ src, typename P::T* __restrict__ dst,
                                                   long long batch_rows, long long rows, long long k,
                                                   long long stride_batch, long long stride_row, bool a_side) {
  const long long row = static_cast<long long>(blockIdx.x) * blockDim.y + threadIdx.y;
  if (row >= batch_rows) return;
  const long long b = row / rows, r = row % rows;
  const float* in = src + b * stride_batch + r * stride_row;
  typename P::T* out = dst + row * 3 * k;
  for (long long j = threadIdx.x; j < k; j += blockDim.x) store_stack3<P>(out, k, j, in[j], a_side);
}

template <class P>
__global__ void __launch_bounds__(256) stack3_tiles(const float* __restrict__ src, typename P::T* __restrict__ dst,
                                                    long long rows, long long k, long long stride_batch,
                                                    long long stride_k, bool a_side) {
  __shared__ float tile[32][33];  // [k][row]; the 33rd column spreads a tile column over all 32 banks
  const long long b = blockIdx.z, row0 = static_cast<long long>(blockIdx.x) * 32,
                  k0 = static_cast<long long>(blockIdx.y) * 32;
  const float* in = src + b * stride_batch;
  for (int i = threadIdx.y; i < 32; i += 8) {
    const long long j = k0 + i, r = row0 + threadIdx.x;
    if (j < k && r < rows) tile[i][threadIdx.x] = in[j * stride_k + r];
  }
  __syncthreads();
  for (int i = threadIdx.y; i < 32; i += 8) {
    const long long r = row0 + i, j = k0 + threadIdx.x;
    if (j < k && r < rows) store_stack3<P>(dst + (b * rows + r) * 3 * k, k, j, tile[threadIdx.x][i], a_side);
  }
}

// dst [batch][rows][3K] (contiguous) = the stack of src[b][r][j] at src + b*stride_batch + r*stride_row +
// j*stride_k, for stride_k = 1 or stride_row = 1. Returns 0, 1 when the strides or extents are outside
// what the kernels take (the caller splits another way), or 3 with the CUDA error's text.
template <class P>
int launch_stack3(const float* src, void* out, long long batch, long long rows, long long k, long long stride_batch,
                  long long stride_row, long long stride_k, int a_side, void* stream, char* msg, size_t msg_len) {
  if (batch <= 0 || rows <= 0 || k <= 0) return 1;
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  typename P::T* dst = static_cast<typename P::T*>(out);
  if (stride_k == 1 || k == 1) {
    int lanes = 1;  // per row: the next power of two of K, at most the block
    while (lanes < k && lanes < 256) lanes *= 2;
    const int rows_per_block = 256 / lanes;
    const long long blocks = (batch * rows + rows_per_block - 1) / rows_per_block;
    if (blocks > 2147483647LL) return 1;
    stack3_rows<P><<<static_cast<unsigned>(blocks), dim3(lanes, rows_per_block), 0, s>>>(
        src, dst, batch * rows, rows, k, stride_batch, stride_row, a_side != 0);
  } else if (stride_row == 1 || rows == 1) {
    if (batch > 65535 || (k + 31) / 32 > 65535 || (rows + 31) / 32 > 2147483647LL) return 1;
    const dim3 grid(static_cast<unsigned>((rows + 31) / 32), static_cast<unsigned>((k + 31) / 32),
                    static_cast<unsigned>(batch));
    stack3_tiles<P><<<grid, dim3(32, 8), 0, s>>>(src, dst, rows, k, stride_batch, stride_k, a_side != 0);
  } else {
    return 1;
  }
  const cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) return 0;
  std::snprintf(msg, msg_len, "%s: CUDA error %d: %s", P::name, static_cast<int>(e), cudaGetErrorString(e));
  return 3;
}

}  // namespace
)CPP";

// One C entry per part format; $NAME$ is tf32 or bf16, $PARTS$ its struct above.
constexpr std::string_view kCapiSplitEntry = R"CPP(
extern "C" int ucutlass_$NAME$_stack3(const float* src, void* dst, long long batch, long long rows, long long k,
                                      long long stride_batch, long long stride_row, long long stride_k, int a_side,
                                      void* stream, char* msg, size_t msg_len) {
  return launch_stack3<$PARTS$>(src, dst, batch, rows, k, stride_batch, stride_row, stride_k, a_side, stream, msg,
                                msg_len);
}
)CPP";

// x [..., K] viewed as [batch][rows][K]: the leading dimensions merged where their strides allow.
constexpr std::string_view kTorchSplitCommon = R"CPP(
namespace {

using Stack3Entry = int (*)(const float*, void*, long long, long long, long long, long long, long long, long long, int,
                            void*, char*, size_t);

// The stack of an f32 x along its last axis ([lo, hi, hi] for A, [hi, lo, hi] for B), contiguous, of
// `parts` elements, in one kernel; None where the kernels do not take x's strides.
std::optional<at::Tensor> stack3(const at::Tensor& x, bool a_side, at::ScalarType parts, Stack3Entry entry) {
  if (!x.is_cuda() || x.scalar_type() != at::kFloat || x.dim() < 1 || x.numel() == 0) return std::nullopt;
  std::vector<int64_t> sizes, strides;
  for (int64_t i = 0; i + 1 < x.dim(); ++i) {
    if (x.size(i) == 1) continue;
    if (!sizes.empty() && strides.back() == x.stride(i) * x.size(i)) {
      sizes.back() *= x.size(i);
      strides.back() = x.stride(i);
    } else {
      sizes.push_back(x.size(i));
      strides.push_back(x.stride(i));
    }
  }
  if (sizes.size() > 2) return std::nullopt;
  const int64_t batch = sizes.size() == 2 ? sizes[0] : 1, rows = sizes.empty() ? 1 : sizes.back();
  const int64_t stride_batch = sizes.size() == 2 ? strides[0] : 0, stride_row = sizes.empty() ? 1 : strides.back();
  c10::cuda::CUDAGuard guard(x.device());
  std::vector<int64_t> out_sizes = x.sizes().vec();
  out_sizes.back() *= 3;
  at::Tensor out = at::empty(out_sizes, x.options().dtype(parts).memory_format(at::MemoryFormat::Contiguous));
  char msg[256] = "";
  const int rc = entry(x.data_ptr<float>(), out.data_ptr(), batch, rows, x.size(-1), stride_batch, stride_row,
                       x.stride(-1), a_side ? 1 : 0, at::cuda::getCurrentCUDAStream(x.get_device()).stream(), msg,
                       sizeof msg);
  TORCH_CHECK(rc == 0 || rc == 1, msg);
  if (rc == 1) return std::nullopt;
  return out;
}

}  // namespace
)CPP";

constexpr std::string_view kTorchSplitEntry = R"CPP(
extern "C" int ucutlass_$NAME$_stack3(const float* src, void* dst, long long batch, long long rows, long long k,
                                      long long stride_batch, long long stride_row, long long stride_k, int a_side,
                                      void* stream, char* msg, size_t msg_len);

namespace {

std::optional<at::Tensor> $NAME$_stack3(const at::Tensor& x, bool a_side) {
  return stack3(x, a_side, $SCALAR$, &ucutlass_$NAME$_stack3);
}

}  // namespace
)CPP";

struct SplitFormat {
  const char* name;    // tf32 or bf16
  const char* parts;   // its device struct
  const char* scalar;  // its torch element type
  const char* what;    // for the m.def docstring
};

constexpr SplitFormat kTf32{"tf32", "Tf32Parts", "at::kFloat", "the 3xTF32 stack of an f32 tensor along its last axis"};
constexpr SplitFormat kBf16{"bf16", "Bf16Parts", "at::kBFloat16",
                            "the 3xBF16 stack (bf16 parts) of an f32 tensor along its last axis"};

std::string for_format(std::string_view text, const SplitFormat& f) {
  return fill(text, {{"NAME", f.name}, {"PARTS", f.parts}, {"SCALAR", f.scalar}});
}

// The formats the program's kernels can take a split in.
std::vector<SplitFormat> formats(const ir::Program& p) {
  std::vector<SplitFormat> out;
  if (program_has_tf32_split(p)) out.push_back(kTf32);
  if (program_has_bf16_split(p)) out.push_back(kBf16);
  return out;
}

}  // namespace

bool program_has_tf32_split(const ir::Program& p) {
  for (const ir::GemmKernel& k : p.kernels)
    if (!k.is_rows() && !k.is_attention() && k.math.value == ir::MathPath::tf32 && k.a.value == ir::DType::f32) return true;
  return false;
}

bool program_has_bf16_split(const ir::Program& p) {
  for (const ir::GemmKernel& k : p.kernels)
    if (!k.is_rows() && !k.is_attention() && k.math.value == ir::MathPath::tensor_op && k.a.value == ir::DType::bf16 &&
        k.d.value == ir::DType::f32)
      return true;
  return false;
}

std::string emit_capi_tf32_split(const ir::Program& p) {
  const std::vector<SplitFormat> fs = formats(p);
  if (fs.empty()) return "";
  std::string out(kCapiSplitCommon);
  for (const SplitFormat& f : fs) out += for_format(kCapiSplitEntry, f);
  return out;
}

std::string emit_torch_tf32_split(const ir::Program& p) {
  const std::vector<SplitFormat> fs = formats(p);
  if (fs.empty()) return "";
  std::string out(kTorchSplitCommon);
  for (const SplitFormat& f : fs) out += for_format(kTorchSplitEntry, f);
  return out;
}

std::string emit_torch_tf32_split_def(const ir::Program& p) {
  std::string out;
  for (const SplitFormat& f : formats(p))
    out += std::string("  m.def(\"") + f.name + "_stack3\", &" + f.name + "_stack3, \"" + f.what +
           "\", pybind11::arg(\"x\"), pybind11::arg(\"a_side\"));\n";
  return out;
}

}  // namespace ucutlass::codegen

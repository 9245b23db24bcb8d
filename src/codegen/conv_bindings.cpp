#include "codegen/conv_bindings.h"

#include "codegen/bindings.h"
#include "codegen/capi_entry.h"
#include "codegen/conv_host_entry.h"
#include "codegen/cutlass_names.h"
#include "codegen/manifest.h"
#include "codegen/text_template.h"

namespace ucutlass::codegen {

namespace {

using ir::ConvMode;
using ir::GemmKernel;

constexpr std::string_view kCapiConvSupport = R"CPP(
#define UCUTLASS_SAME_CONV_FIELD(f)                                                  \
  static_assert(offsetof(ucutlass_conv_params, f) == offsetof(ucutlass_$HASH$::ConvParams, f), \
                "ucutlass_conv_params." #f " must match ConvParams")
static_assert(sizeof(ucutlass_conv_params) == sizeof(ucutlass_$HASH$::ConvParams), "layout mismatch");
UCUTLASS_SAME_CONV_FIELD(a); UCUTLASS_SAME_CONV_FIELD(b); UCUTLASS_SAME_CONV_FIELD(c); UCUTLASS_SAME_CONV_FIELD(d);
UCUTLASS_SAME_CONV_FIELD(bias); UCUTLASS_SAME_CONV_FIELD(n); UCUTLASS_SAME_CONV_FIELD(in_d);
UCUTLASS_SAME_CONV_FIELD(in_h); UCUTLASS_SAME_CONV_FIELD(in_w); UCUTLASS_SAME_CONV_FIELD(in_c);
UCUTLASS_SAME_CONV_FIELD(out_c); UCUTLASS_SAME_CONV_FIELD(t); UCUTLASS_SAME_CONV_FIELD(r); UCUTLASS_SAME_CONV_FIELD(s);
UCUTLASS_SAME_CONV_FIELD(pad); UCUTLASS_SAME_CONV_FIELD(stride); UCUTLASS_SAME_CONV_FIELD(dilation);
UCUTLASS_SAME_CONV_FIELD(groups); UCUTLASS_SAME_CONV_FIELD(alpha); UCUTLASS_SAME_CONV_FIELD(beta);
UCUTLASS_SAME_CONV_FIELD(extra);
#undef UCUTLASS_SAME_CONV_FIELD

namespace {

ucutlass_$HASH$::ConvParams to_conv_params(const ucutlass_conv_params* p) {
  ucutlass_$HASH$::ConvParams q{};
  std::memcpy(&q, p, sizeof q);
  return q;
}

}  // namespace
)CPP";

constexpr std::string_view kTorchConvSupport = R"CPP(
extern "C" int ucutlass_batched_transpose_copy(const void* src, void* dst, long long batch, long long rows,
                                               long long cols, int element_bytes, void* stream, char* msg,
                                               size_t msg_len);
extern "C" int ucutlass_batched_transpose_to_bf16(const float* src, void* dst, long long batch, long long rows,
                                                  long long cols, void* stream, char* msg, size_t msg_len);

namespace {

// A tensor of PyTorch's shape [N, C, spatial...] in channels-last memory.
at::Tensor empty_channels_last(std::vector<int64_t> sizes, const at::TensorOptions& options) {
  if (sizes.size() == 4) return at::empty(sizes, options.memory_format(at::MemoryFormat::ChannelsLast));
  if (sizes.size() == 5) return at::empty(sizes, options.memory_format(at::MemoryFormat::ChannelsLast3d));
  return at::empty({sizes[0], sizes[2], sizes[1]}, options).transpose(1, 2);
}

bool is_channels_last(const at::Tensor& t) {
  if (t.dim() == 4) return t.is_contiguous(at::MemoryFormat::ChannelsLast);
  if (t.dim() == 5) return t.is_contiguous(at::MemoryFormat::ChannelsLast3d);
  return t.dim() == 3 && t.transpose(1, 2).is_contiguous();
}

// into = src with each batch entry's [rows][cols] transposed, by the tiled kernel of the C entries
// (rounded to bf16 on the way when src is f32 and into bf16); false when that kernel does not take the
// shape or the types (the caller copies through PyTorch).
bool tiled_transpose(const at::Tensor& src, const at::Tensor& into, int64_t rows, int64_t cols) {
  if (src.numel() == 0) return false;
  const bool rounding = src.scalar_type() != into.scalar_type();
  if (rounding && (src.scalar_type() != at::kFloat || into.scalar_type() != at::kBFloat16)) return false;
  c10::cuda::CUDAGuard guard(src.device());  // also called from Python, outside a kernel function's guard
  char msg[256] = "";
  void* stream = at::cuda::getCurrentCUDAStream(src.get_device()).stream();
  const int rc = rounding ? ucutlass_batched_transpose_to_bf16(src.data_ptr<float>(), into.data_ptr(), src.size(0), rows,
                                                               cols, stream, msg, sizeof msg)
                          : ucutlass_batched_transpose_copy(src.data_ptr(), into.data_ptr(), src.size(0), rows, cols,
                                                            static_cast<int>(src.element_size()), stream, msg,
                                                            sizeof msg);
  TORCH_CHECK(rc == 0 || rc == 1, msg);
  return rc == 0;
}

// Convolution operands in channels-last memory order (NWC, NHWC, NDHWC; filters KRSC),
// which is what the kernels read: the tensor itself when it already is (torch.channels_last,
// or the result of an earlier ucutlass conv), else one copy that reads and writes it once
// (the tiled transpose for a contiguous tensor). With `bf16`, an f32 tensor is rounded to bf16 in
// that same pass (a kernel over bf16 roundings of f32 data, map::KernelConfig::bf16_operands).
at::Tensor channels_last(const at::Tensor& t, bool bf16 = false) {
  const bool rounding = bf16 && t.scalar_type() == at::kFloat;
  if (is_channels_last(t)) return rounding ? t.to(at::kBFloat16) : t;  // .to keeps a dense tensor's strides
  if (t.is_contiguous() && t.is_cuda()) {
    at::Tensor out = empty_channels_last(t.sizes().vec(), rounding ? t.options().dtype(at::kBFloat16) : t.options());
    if (tiled_transpose(t, out, t.size(1), t.numel() / (t.size(0) * t.size(1)))) return out;
  }
  const at::Tensor src = rounding ? t.to(at::kBFloat16) : t;
  if (src.dim() == 4) return src.contiguous(at::MemoryFormat::ChannelsLast);
  if (src.dim() == 5) return src.contiguous(at::MemoryFormat::ChannelsLast3d);
  return src.transpose(1, 2).contiguous().transpose(1, 2);
}

// The solution's way back to PyTorch's contiguous [N, C, spatial...] memory, where an op after a conv
// kernel needs it (a view, or an op whose CUDA kernel would copy a channels-last input itself).
at::Tensor contiguous(const at::Tensor& t) {
  if (t.is_contiguous()) return t;
  if (t.dim() >= 3 && is_channels_last(t) && t.is_cuda()) {
    at::Tensor out = at::empty(t.sizes(), t.options().memory_format(at::MemoryFormat::Contiguous));
    if (tiled_transpose(t, out, t.numel() / (t.size(0) * t.size(1)), t.size(1))) return out;
  }
  return t.contiguous();
}

void check_conv_tensor(const at::Tensor& t, const char* kernel, const char* name, at::ScalarType dtype,
                       int64_t dim, const at::Tensor& first) {
  TORCH_CHECK(t.is_cuda(), kernel, ": ", name, " must be a CUDA tensor");
  TORCH_CHECK(t.device() == first.device(), kernel, ": ", name, " is on ", t.device(), " but the first input is on ",
              first.device());
  TORCH_CHECK(t.scalar_type() == dtype, kernel, ": ", name, " must have dtype ", dtype, ", got ", t.scalar_type());
  TORCH_CHECK(t.dim() == dim, kernel, ": ", name, " must be ", dim, "-D ([N, C, spatial...] or a filter), got ",
              t.dim(), "-D");
}

// The spatial extents (d, h, w) of a [N, C, spatial...] tensor, 1 for the dimensions its rank lacks.
std::array<int64_t, 3> spatial_of(const at::Tensor& t) {
  std::array<int64_t, 3> s{1, 1, 1};
  for (int64_t i = 2; i < t.dim(); ++i) s[3 - (t.dim() - i)] = t.size(i);
  return s;
}

int64_t conv_output_extent(int64_t in, int64_t pad, int64_t filter, int64_t stride, int64_t dilation) {
  const int64_t span = dilation * (filter - 1) + 1;
  return in + 2 * pad < span ? 0 : (in + 2 * pad - span) / stride + 1;
}

}  // namespace
)CPP";

// Layout changes between PyTorch's [N, C, spatial...] and the kernels' channels-last memory: each
// batch entry is a [rows][cols] matrix to transpose (NCHW -> NHWC: rows C, cols H*W; back: rows H*W,
// cols C). Tiles through shared memory make both the read and the write run along contiguous memory;
// PyTorch's generic strided copy walks one side an element at a time (on the H200, 1.7 TB/s for
// level2/023's 128 MB input, against 4.8 TB/s of HBM). A tile is 64 x 64 with 16 elements per thread,
// all loads issued before the first shared-memory store: 32 x 32 tiles (4 per thread) kept too few
// bytes in flight per SM and moved 2.75 TB/s (read + write) on level1/022's 268 MB activations.
constexpr std::string_view kCapiTranspose = R"CPP(
#include <cuda_bf16.h>

namespace {

constexpr int kTransposeTile = 64;  // a square tile's side
constexpr int kTransposeRowsPerPass = 8;  // threadIdx.y's extent: 32 x 8 threads

// An element as the destination stores it: the same bits, or an f32 rounded to bf16 (nearest even).
template <typename D, typename S>
__device__ __forceinline__ D stored_as(S v) {
  return v;
}
template <>
__device__ __forceinline__ __nv_bfloat16 stored_as<__nv_bfloat16, float>(float v) {
  return __float2bfloat16_rn(v);
}

template <typename T, typename D = T>
__global__ void __launch_bounds__(256) ucutlass_batched_transpose(const T* __restrict__ src, D* __restrict__ dst,
                                                                  long long rows, long long cols) {
  __shared__ T tile[kTransposeTile][kTransposeTile + 1];  // the extra column spreads a tile column over the banks
  const long long matrix = static_cast<long long>(blockIdx.z) * rows * cols;
  const long long row0 = static_cast<long long>(blockIdx.y) * kTransposeTile;
  const long long col0 = static_cast<long long>(blockIdx.x) * kTransposeTile;
  constexpr int kPasses = kTransposeTile / kTransposeRowsPerPass, kHalves = kTransposeTile / 32;
  T v[kPasses][kHalves] = {};
#pragma unroll
  for (int i = 0; i < kPasses; ++i)
#pragma unroll
    for (int j = 0; j < kHalves; ++j) {
      const long long r = row0 + threadIdx.y + i * kTransposeRowsPerPass, c = col0 + threadIdx.x + j * 32;
      if (r < rows && c < cols) v[i][j] = src[matrix + r * cols + c];
    }
#pragma unroll
  for (int i = 0; i < kPasses; ++i)
#pragma unroll
    for (int j = 0; j < kHalves; ++j) tile[threadIdx.y + i * kTransposeRowsPerPass][threadIdx.x + j * 32] = v[i][j];
  __syncthreads();
#pragma unroll
  for (int i = 0; i < kPasses; ++i)
#pragma unroll
    for (int j = 0; j < kHalves; ++j) {
      const int tc = threadIdx.y + i * kTransposeRowsPerPass, tr = threadIdx.x + j * 32;
      const long long c = col0 + tc, r = row0 + tr;
      if (r < rows && c < cols) dst[matrix + c * rows + r] = stored_as<D>(tile[tr][tc]);
    }
}

template <typename T, typename D = T>
void launch_batched_transpose(const void* src, void* dst, long long batch, long long rows, long long cols,
                              cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>((cols + kTransposeTile - 1) / kTransposeTile),
                  static_cast<unsigned>((rows + kTransposeTile - 1) / kTransposeTile), static_cast<unsigned>(batch));
  ucutlass_batched_transpose<T, D><<<grid, dim3(32, kTransposeRowsPerPass), 0, stream>>>(
      static_cast<const T*>(src), static_cast<D*>(dst), rows, cols);
}

bool transpose_fits(long long batch, long long rows, long long cols) {
  return batch > 0 && rows > 0 && cols > 0 && batch <= 65535 && (rows + kTransposeTile - 1) / kTransposeTile <= 65535 &&
         (cols + kTransposeTile - 1) / kTransposeTile <= 2147483647LL;
}

int transpose_status(char* msg, size_t msg_len) {
  const cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) return 0;
  std::snprintf(msg, msg_len, "batched transpose: CUDA error %d: %s", static_cast<int>(e), cudaGetErrorString(e));
  return 3;
}

}  // namespace

// dst[b][c][r] = src[b][r][c] for elements of 1, 2 or 4 bytes. Returns 0, 1 when the shape or element size
// is outside what the kernel takes (the caller copies another way), or 3 with the CUDA error's text.
extern "C" int ucutlass_batched_transpose_copy(const void* src, void* dst, long long batch, long long rows,
                                               long long cols, int element_bytes, void* stream, char* msg,
                                               size_t msg_len) {
  if (!transpose_fits(batch, rows, cols)) return 1;
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (element_bytes) {
    case 4: launch_batched_transpose<unsigned int>(src, dst, batch, rows, cols, s); break;
    case 2: launch_batched_transpose<unsigned short>(src, dst, batch, rows, cols, s); break;
    case 1: launch_batched_transpose<unsigned char>(src, dst, batch, rows, cols, s); break;
    default: return 1;
  }
  return transpose_status(msg, msg_len);
}

// The same transpose of f32 elements, each rounded to bf16 as it is stored (dst holds bf16).
extern "C" int ucutlass_batched_transpose_to_bf16(const float* src, void* dst, long long batch, long long rows,
                                                  long long cols, void* stream, char* msg, size_t msg_len) {
  if (!transpose_fits(batch, rows, cols)) return 1;
  launch_batched_transpose<float, __nv_bfloat16>(src, dst, batch, rows, cols, static_cast<cudaStream_t>(stream));
  return transpose_status(msg, msg_len);
}
)CPP";

// The PyTorch-facing function. The window and filter size are the program's
// constants; batch, channels and spatial extents come from the tensors and the
// C entry checks them against the compiled problem.
constexpr std::string_view kTorchConvFunction = R"CPP(
// $SUMMARY$
at::Tensor $NAME$($PARAMS$) {
  const char* kernel = "$NAME$";
  constexpr int64_t kPad[3] = {$PAD$}, kStride[3] = {$STRIDE$}, kDilation[3] = {$DILATION$};
  constexpr int64_t kFilter[3] = {$FILTER$}, kGroups = $GROUPS$;
  check_conv_tensor($A_NAME$, kernel, "$A_NAME$", $DTYPE_A$, $DIM$, $A_NAME$);
  check_conv_tensor($B_NAME$, kernel, "$B_NAME$", $DTYPE_B$, $DIM$, $A_NAME$);
$SHAPES$  std::array<int64_t, 3> out{};
  for (int i = 0; i < 3; ++i) out[i] = conv_output_extent(in[i], kPad[i], kFilter[i], kStride[i], kDilation[i]);
$SHAPE_CHECKS$$C_CHECK$$BIAS_CHECK$$EXTRA_CHECKS$  c10::cuda::CUDAGuard guard($A_NAME$.device());
  const at::Tensor a_cl = channels_last($A_NAME$);
  const at::Tensor b_cl = channels_last($B_NAME$);
  at::Tensor result = empty_channels_last($RESULT_SIZES$, $A_NAME$.options().dtype($DTYPE_D$));

  ucutlass_conv_params p{};
  p.a = a_cl.data_ptr();
  p.b = b_cl.data_ptr();
$C_PARAMS$  p.d = result.data_ptr();
$BIAS_PARAMS$$EXTRA_PARAMS$  p.n = static_cast<int>(n);
  p.in_d = static_cast<int>(in[0]);
  p.in_h = static_cast<int>(in[1]);
  p.in_w = static_cast<int>(in[2]);
  p.in_c = static_cast<int>(in_c);
  p.out_c = static_cast<int>(out_c);
  p.t = static_cast<int>(kFilter[0]);
  p.r = static_cast<int>(kFilter[1]);
  p.s = static_cast<int>(kFilter[2]);
  for (int i = 0; i < 3; ++i) {
    p.pad[i] = static_cast<int>(kPad[i]);
    p.stride[i] = static_cast<int>(kStride[i]);
    p.dilation[i] = static_cast<int>(kDilation[i]);
  }
  p.groups = static_cast<int>(kGroups);
  p.alpha = static_cast<float>(alpha);
  p.beta = static_cast<float>($BETA$);

  const size_t workspace_bytes = ucutlass_$NAME$_workspace_size(&p);
  const at::Tensor workspace = workspace_tensor(workspace_bytes, $A_NAME$.device());
  char msg[512];
  const int rc = ucutlass_$NAME$_run_with_workspace(&p, at::cuda::getCurrentCUDAStream().stream(),
                                                    workspace_bytes ? workspace.data_ptr() : nullptr,
                                                    workspace_bytes, msg, sizeof msg);
  TORCH_CHECK(rc == 0, kernel, ": ", msg);
  return result;
}
)CPP";

// Per pass: where n, the channels and the input extents come from, what is checked, what is returned.
constexpr std::string_view kFpropShapes = R"CPP(  const int64_t n = x.size(0), in_c = x.size(1), out_c = w.size(0);
  const std::array<int64_t, 3> filter{kFilter[0], kFilter[1], kFilter[2]};
  const std::array<int64_t, 3> in = spatial_of(x);
)CPP";
constexpr std::string_view kFpropChecks = R"CPP(  TORCH_CHECK(w.size(1) * kGroups == in_c && spatial_of(w) == filter,
              kernel, ": w must be [out_c, in_c / groups, filter...] = [", out_c, ", ", in_c / kGroups,
              ", ...] with the compiled filter size, got ", w.sizes());
)CPP";
constexpr std::string_view kDgradShapes = R"CPP(  const int64_t n = dy.size(0), out_c = dy.size(1), in_c = w.size(1) * kGroups;
  const std::array<int64_t, 3> filter{kFilter[0], kFilter[1], kFilter[2]};
  // The input extent a stride-s conv maps onto dy (output_padding 0) unless the program fixes it.
  constexpr int64_t kInput[3] = {$INPUT$};  // 0: dynamic
  const std::array<int64_t, 3> dy_spatial = spatial_of(dy);
  std::array<int64_t, 3> in{};
  for (int i = 0; i < 3; ++i)
    in[i] = kInput[i] != 0 ? kInput[i] : (dy_spatial[i] - 1) * kStride[i] - 2 * kPad[i] + kDilation[i] * (kFilter[i] - 1) + 1;
)CPP";
constexpr std::string_view kDgradChecks = R"CPP(  TORCH_CHECK(w.size(0) == out_c && spatial_of(w) == filter,
              kernel, ": w must be [out_c = ", out_c, ", in_c / groups, filter...] with the compiled filter size, got ",
              w.sizes());
  TORCH_CHECK(out == dy_spatial, kernel, ": dy's spatial extents do not match the input's convolution output");
)CPP";
constexpr std::string_view kWgradShapes = R"CPP(  const int64_t n = x.size(0), in_c = x.size(1), out_c = dy.size(1);
  const std::array<int64_t, 3> in = spatial_of(x);
)CPP";
constexpr std::string_view kWgradChecks = R"CPP(  TORCH_CHECK(dy.size(0) == n && spatial_of(dy) == out, kernel,
              ": dy must be [n, out_c, output...] for x's convolution output, got ", dy.sizes());
)CPP";

struct PassText {
  const char* a;
  const char* b;
  std::string_view shapes, checks;
};

PassText pass_text(const ir::ConvProblem& p) {
  switch (p.mode) {
    case ConvMode::fprop: return {"x", "w", kFpropShapes, kFpropChecks};
    case ConvMode::dgrad: return {"dy", "w", kDgradShapes, kDgradChecks};
    case ConvMode::wgrad: return {"dy", "x", kWgradShapes, kWgradChecks};
  }
  return {};
}

// {N, C, spatial...} of the result, in the kernel's rank.
std::string result_sizes(const ir::ConvProblem& p) {
  auto spatial = [&](const std::string& v) {
    std::string s;
    for (int i = p.first_dim(); i < 3; ++i) s += ", " + v + "[" + std::to_string(i) + "]";
    return s;
  };
  switch (p.mode) {
    case ConvMode::fprop: return "{n, out_c" + spatial("out") + "}";
    case ConvMode::dgrad: return "{n, in_c" + spatial("in") + "}";
    case ConvMode::wgrad: return "{out_c, in_c / kGroups" + spatial("kFilter") + "}";
  }
  return "{}";
}

std::string triple(const ir::ConvWindow& w) {
  return std::to_string(w.value[0]) + ", " + std::to_string(w.value[1]) + ", " + std::to_string(w.value[2]);
}

constexpr std::string_view kTorchConvCCheck = R"CPP(  check_conv_tensor(c, kernel, "c", $DTYPE_C$, $DIM$, $A_NAME$);
  const std::vector<int64_t> result_sizes = $RESULT_SIZES$;
  TORCH_CHECK(c.sizes().vec() == result_sizes, kernel, ": c must have the result's shape ", at::IntArrayRef(result_sizes),
              ", got ", c.sizes());
  const at::Tensor c_cl = channels_last(c);
)CPP";

constexpr std::string_view kTorchConvBiasCheck = R"CPP(  TORCH_CHECK(bias.is_cuda() && bias.device() == $A_NAME$.device(), kernel, ": bias must be on ", $A_NAME$.device());
  TORCH_CHECK(bias.scalar_type() == $DTYPE_BIAS$, kernel, ": bias must have dtype ", $DTYPE_BIAS$, ", got ",
              bias.scalar_type());
  TORCH_CHECK(bias.dim() == 1 && bias.size(0) == $CHANNELS$ && bias.stride(0) == 1, kernel,
              ": bias must be a contiguous 1-D tensor of one value per output channel (", $CHANNELS$, "), got ",
              bias.sizes());
)CPP";

constexpr std::string_view kTorchConvVectorCheck = R"CPP(  TORCH_CHECK(x_$NAME$.is_cuda() && x_$NAME$.device() == $A_NAME$.device(), kernel, ": $NAME$ must be on ", $A_NAME$.device());
  TORCH_CHECK(x_$NAME$.scalar_type() == $DTYPE$, kernel, ": $NAME$ must have dtype ", $DTYPE$, ", got ",
              x_$NAME$.scalar_type());
  TORCH_CHECK(x_$NAME$.dim() == 1 && x_$NAME$.size(0) == $LEN$ && x_$NAME$.stride(0) == 1, kernel,
              ": $NAME$ must be a contiguous 1-D tensor of length ", $LEN$, ", got shape ", x_$NAME$.sizes());
)CPP";

// The result's channels: output channels of fprop, input channels of dgrad.
std::string result_channels(const ir::ConvProblem& p) { return p.mode == ConvMode::dgrad ? "in_c" : "out_c"; }

}  // namespace

std::string emit_capi_conv_struct(const ir::Program& p) {
  return program_has_conv(p) ? emit_c_conv_params_struct() : "";
}

std::string emit_capi_conv_support(const ir::Program& p, const std::string& hash) {
  return program_has_conv(p) ? fill(kCapiConvSupport, {{"HASH", hash}}) + std::string(kCapiTranspose) : "";
}

std::string emit_conv_capi_entry(const GemmKernel& k, const std::string& hash) {
  return emit_capi_kernel_entry(
      {k.name, hash, "ucutlass_conv_params", "to_conv_params(p)", c_string_literal(kernel_signature_json(k, hash))});
}

std::string emit_torch_conv_support(const ir::Program& p) {
  return program_has_conv(p) ? std::string(kTorchConvSupport) : "";
}

std::string emit_torch_conv_support_defs(const ir::Program& p) {
  return program_has_conv(p) ? "  m.def(\"contiguous\", &contiguous, \"t in PyTorch's contiguous memory: a "
                               "channels-last conv result through the tiled transpose\", pybind11::arg(\"t\"));\n"
                               "  m.def(\"channels_last\", &channels_last, \"t in the conv kernels' channels-last memory "
                               "(t itself when it is), rounded to bf16 on the way when bf16 is true\", pybind11::arg(\"t\"), "
                               "pybind11::arg(\"bf16\") = false);\n"
                             : "";
}

std::string emit_conv_torch_declarations(const GemmKernel& k) {
  return emit_capi_kernel_declarations(k.name, "ucutlass_conv_params");
}

std::string emit_conv_torch_function(const GemmKernel& k) {
  const ir::ConvProblem& p = *k.conv;
  const PassText t = pass_text(p);
  std::string params = std::string("at::Tensor ") + t.a + ", at::Tensor " + t.b;
  if (k.has_source()) params += ", at::Tensor c";
  if (k.has_bias()) params += ", at::Tensor bias";
  for (const ir::EpilogueExtra& x : k.extras) params += ", at::Tensor x_" + x.name;
  params += ", double alpha";
  if (k.has_source()) params += ", double beta";
  const std::string dim = std::to_string(p.dims + 2);
  Substitutions subs = {{"NAME", k.name},
                        {"A_NAME", t.a},
                        {"DTYPE_A", torch_scalar_type(k.a.value)},
                        {"DTYPE_B", torch_scalar_type(k.b.value)},
                        {"DTYPE_C", torch_scalar_type(k.c.value)},
                        {"DTYPE_D", torch_scalar_type(k.d.value)},
                        {"DTYPE_BIAS", torch_scalar_type(bias_dtype(k))},
                        {"DIM", dim},
                        {"CHANNELS", result_channels(p)}};
  std::string extra_checks, extra_params;
  for (size_t i = 0; i < k.extras.size(); ++i) {
    const ir::EpilogueExtra& x = k.extras[i];
    Substitutions v = subs;
    v.insert(v.end(), {{"NAME", x.name}, {"DTYPE", torch_scalar_type(x.type)},
                       {"LEN", x.kind == ir::ExtraKind::scalar ? "1" : result_channels(p)}});
    extra_checks += fill(kTorchConvVectorCheck, v);
    extra_params += "  p.extra[" + std::to_string(i) + "] = x_" + x.name + ".data_ptr();\n";
  }
  std::string input;
  for (int i = 0; i < 3; ++i) input += (i ? ", " : "") + std::to_string(p.input[i].value);
  std::string filter;
  for (int i = 0; i < 3; ++i) filter += (i ? ", " : "") + std::to_string(p.filter[i].value);
  subs.push_back({"RESULT_SIZES", result_sizes(p)});
  subs.insert(subs.end(),
              {{"SUMMARY", std::string(ir::conv_op_name(p)) + " " + std::string(ir::name_of(p.mode)) + "(" + t.a +
                               ", " + t.b + ") in PyTorch's shapes; the result is channels-last in memory"},
               {"PARAMS", params},
               {"B_NAME", t.b},
               {"PAD", triple(p.pad)},
               {"STRIDE", triple(p.stride)},
               {"DILATION", triple(p.dilation)},
               {"FILTER", filter},
               {"GROUPS", std::to_string(p.groups.value)},
               {"INPUT", input},
               {"SHAPES", fill(t.shapes, {{"INPUT", input}})},
               {"SHAPE_CHECKS", std::string(t.checks)},
               {"C_CHECK", k.has_source() ? fill(kTorchConvCCheck, subs) : ""},
               {"BIAS_CHECK", k.has_bias() ? fill(kTorchConvBiasCheck, subs) : ""},
               {"EXTRA_CHECKS", extra_checks},
               {"C_PARAMS", k.has_source() ? "  p.c = c_cl.data_ptr();\n" : ""},
               {"BIAS_PARAMS", k.has_bias() ? "  p.bias = bias.data_ptr();\n" : ""},
               {"EXTRA_PARAMS", extra_params},
               {"BETA", k.has_source() ? "beta" : "0.0"}});
  return fill(kTorchConvFunction, subs);
}

std::string emit_conv_torch_def(const GemmKernel& k) {
  const PassText t = pass_text(*k.conv);
  std::string s = "  m.def(\"" + k.name + "\", &" + k.name + ", \"ucutlass kernel " + k.name +
                  "\", pybind11::arg(\"" + t.a + "\"), pybind11::arg(\"" + t.b + "\")";
  if (k.has_source()) s += ", pybind11::arg(\"c\")";
  if (k.has_bias()) s += ", pybind11::arg(\"bias\")";
  for (const ir::EpilogueExtra& x : k.extras) s += ", pybind11::arg(\"" + x.name + "\")";
  s += ",\n        pybind11::arg(\"alpha\") = " + python_float_literal(k.alpha.value);
  if (k.has_source()) s += ", pybind11::arg(\"beta\") = " + python_float_literal(k.beta.value);
  return s + ");\n";
}

std::string conv_layout_note(const GemmKernel& k) {
  const int rank = k.conv->dims + 2;
  const std::string cl = rank == 3 ? "NWC (x.transpose(1, 2) contiguous)" : rank == 4 ? "torch.channels_last"
                                                                                      : "torch.channels_last_3d";
  return "inputs in PyTorch's shapes; each operand not already " + cl +
         " is copied to it once per call (2 x its bytes of memory traffic); the result has PyTorch's shape in " + cl +
         " memory (no copy)";
}

}  // namespace ucutlass::codegen

// GPU check and benchmark of src/codegen/runtime/row_kernels.hpp. Every op runs over several
// instantiations and shapes (tails that are not a multiple of Threads x Access, split rows with
// empty chunks, one row and a thousand, f32, f16 and bf16) and is compared with a reference in
// double computed from the very inputs the kernel saw (bf16 inputs already rounded). Special values
// are planted where the kernels must follow torch: all -inf rows, -inf chunks of a split row, NaN,
// ties. Then the large cases of the ucutlass suite report their effective bandwidth.
//
// Build: nvcc -std=c++17 -O3 -arch=sm_90a tests/nvcc/row_kernels_gpu.cu -o /tmp/row_kernels_gpu
// Prints one line per case, PASS or FAIL, and exits with 1 if any case failed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "../../src/codegen/runtime/row_kernels.hpp"
#include "../../src/codegen/runtime/row_kernels_f16.hpp"

namespace {

using ucutlass_rows::RowArgs;
using ucutlass_rows::RowKernel;
using ucutlass_rows::RowOp;

#define CUDA_CHECK(call)                                                                                 \
  do {                                                                                                   \
    const cudaError_t status_ = (call);                                                                  \
    if (status_ != cudaSuccess) {                                                                        \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(status_)); \
      exit(2);                                                                                           \
    }                                                                                                    \
  } while (0)

class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t bytes) {
    if (bytes > 0) CUDA_CHECK(cudaMalloc(&data_, bytes));
  }
  ~DeviceBuffer() {
    if (data_ != nullptr) cudaFree(data_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  template <class T>
  T* as() const {
    return static_cast<T*>(data_);
  }

 private:
  void* data_ = nullptr;
};

const char* op_name(RowOp op) {
  static const char* const names[] = {"softmax", "log_softmax", "logsumexp", "layernorm", "groupnorm",
                                      "sum",     "mean",        "amax",      "argmax"};
  return names[int(op)];
}

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, float>) return "f32";
  if constexpr (std::is_same_v<T, __half>) return "f16";
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return "bf16";
  if constexpr (std::is_same_v<T, int64_t>) return "i64";
}

double host_value(float v) { return v; }
double host_value(__half v) { return __half2float(v); }
double host_value(__nv_bfloat16 v) { return __bfloat162float(v); }
double host_value(int64_t v) { return double(v); }

template <class T>
T host_element(float v) {
  if constexpr (std::is_same_v<T, float>) return v;
  if constexpr (std::is_same_v<T, __half>) return __float2half_rn(v);
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return __float2bfloat16_rn(v);
}

// Relative tolerance of an output type: f32 arithmetic, or the output's own rounding (up to 2^-8 of
// a bf16 value just above a power of 2, 2^-11 for f16).
template <class T>
double output_rtol() {
  if constexpr (std::is_same_v<T, float>) return 1e-5;
  if constexpr (std::is_same_v<T, __half>) return 1e-3;
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return 8e-3;
  if constexpr (std::is_same_v<T, int64_t>) return 0;
}

// splitmix64's finalizer: a hash of the element index, so that a fill is deterministic and runs on
// the device at memory speed.
__host__ __device__ uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

template <class T>
__global__ void fill_uniform(T* data, int64_t count, uint64_t seed, float low, float high) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += int64_t(gridDim.x) * blockDim.x) {
    const float unit = float(mix64(seed + uint64_t(i) * 0x9e3779b97f4a7c15ull) >> 40) * (1.f / 16777216.f);
    data[i] = ucutlass_rows::detail::from_float<T>(low + (high - low) * unit);
  }
}

template <class T>
void fill(T* data, int64_t count, float low, float high) {
  static uint64_t seed = 12345;
  seed = mix64(seed);
  if (count == 0) return;
  const int64_t blocks = std::min<int64_t>((count + 255) / 256, 132 * 16);
  fill_uniform<<<unsigned(blocks), 256>>>(data, count, seed, low, high);
  CUDA_CHECK(cudaGetLastError());
}

enum CaseFlags : unsigned {
  kPlain = 0,
  kAffine = 1,    // layernorm, groupnorm: with weight and bias
  kSpecials = 2,  // plant the op's special values in the first rows
  kTimed = 4,     // also report bandwidth; then only a few rows are checked
};

struct Case {
  int64_t rows;
  int64_t length;
  int splits;
  unsigned flags = kPlain;
  int64_t groups = 1;
  int64_t channel_span = 1;
};

// A [N, C, H*W] tensor in G groups viewed as [N*G, (C/G)*H*W] rows.
Case groupnorm_case(int64_t n, int64_t channels, int64_t groups, int64_t hw, int splits, unsigned flags) {
  return Case{n * groups, channels / groups * hw, splits, flags, groups, hw};
}

int64_t affine_length(RowOp op, const Case& c) {
  return op == RowOp::groupnorm ? c.groups * (c.length / c.channel_span) : c.length;
}

// Special values the kernels must treat as torch does. `chunk` is the kernel's chunk length, so
// that the -inf run of a split row covers whole chunks.
template <class X>
void plant_specials(RowOp op, int64_t row, X* x, int64_t length, int64_t chunk, int splits) {
  const X neg_inf = host_element<X>(-INFINITY);
  const X nan = host_element<X>(NAN);
  auto set_all = [&](float v) { std::fill(x, x + length, host_element<X>(v)); };
  auto add_all = [&](float offset) {
    for (int64_t i = 0; i < length; ++i) x[i] = host_element<X>(float(host_value(x[i])) + offset);
  };
  const int64_t masked = splits > 1 ? std::min(chunk, length) : length / 2;
  switch (op) {
    case RowOp::softmax:
    case RowOp::log_softmax:
    case RowOp::logsumexp:
      if (row == 0) std::fill(x, x + masked, neg_inf);  // a masked prefix: whole chunks of -inf
      if (row == 1) {  // the same below -88, where exp(0 - max) of an empty chunk would overflow
        add_all(-200.f);
        std::fill(x, x + masked, neg_inf);
      }
      if (row == 2) std::fill(x, x + length, neg_inf);  // NaN for softmax, -inf for logsumexp
      if (row == 3) add_all(50.f);                      // exp(x) alone would overflow
      break;
    case RowOp::layernorm:
    case RowOp::groupnorm:
      if (row == 0) add_all(100.f);  // a mean far from 0: one-pass variance would cancel
      if (row == 1) set_all(0.75f);  // zero variance: y = bias
      break;
    case RowOp::amax:
      if (row == 0) x[length * 2 / 3] = nan;
      if (row == 1) std::fill(x, x + length, neg_inf);
      if (row == 2) x[length - 1] = host_element<X>(10.f);
      break;
    case RowOp::argmax:
      if (row == 0) {  // ties across chunks and threads: the first wins
        x[length / 3] = host_element<X>(10.f);
        x[length * 2 / 3] = host_element<X>(10.f);
        x[length - 1] = host_element<X>(10.f);
      }
      if (row == 1) {  // NaN beats any number, the first NaN wins
        x[0] = host_element<X>(10.f);
        x[length / 2] = nan;
        x[length * 3 / 4] = nan;
      }
      if (row == 2) set_all(1.f);
      if (row == 3) std::fill(x, x + length, neg_inf);
      if (row == 4) x[length - 1] = host_element<X>(10.f);
      break;
    default:
      break;
  }
}

// The expected row in double, and the magnitude that its absolute error is measured against.
struct ExpectedRow {
  std::vector<double> values;
  double scale = 0;
};

ExpectedRow expected_row(RowOp op, const std::vector<double>& x, const std::vector<double>& weight,
                         const std::vector<double>& bias, int64_t row, const Case& c) {
  const int64_t n = int64_t(x.size());
  ExpectedRow e;
  switch (op) {
    case RowOp::softmax:
    case RowOp::log_softmax:
    case RowOp::logsumexp: {
      double max = -INFINITY;
      for (double v : x) max = std::isnan(v) || std::isnan(max) ? NAN : std::max(max, v);
      const double shift = op == RowOp::logsumexp && std::isinf(max) ? 0.0 : max;
      double sum = 0;
      for (double v : x) sum += std::exp(v - shift);
      if (op == RowOp::logsumexp) {
        e.values = {std::log(sum) + shift};
      } else {
        for (double v : x)
          e.values.push_back(op == RowOp::softmax ? std::exp(v - shift) / sum : (v - shift) - std::log(sum));
      }
      e.scale = op == RowOp::softmax ? 0.0 : 1.0;
      break;
    }
    case RowOp::layernorm:
    case RowOp::groupnorm: {
      double mean = 0, m2 = 0;
      for (double v : x) mean += v;
      mean /= double(n);
      for (double v : x) m2 += (v - mean) * (v - mean);
      const double rstd = 1.0 / std::sqrt(m2 / double(n) + double(1e-5f));
      const int64_t first_channel = (row % c.groups) * (c.length / c.channel_span);
      for (int64_t i = 0; i < n; ++i) {
        const int64_t a = op == RowOp::layernorm ? i : first_channel + i / c.channel_span;
        const double scale = weight.empty() ? 1.0 : weight[a];
        const double shift = bias.empty() ? 0.0 : bias[a];
        e.values.push_back((x[i] - mean) * rstd * scale + shift);
      }
      e.scale = 1.0;
      break;
    }
    case RowOp::sum:
    case RowOp::mean: {
      double sum = 0, magnitude = 0;
      for (double v : x) {
        sum += v;
        magnitude += std::fabs(v);
      }
      e.values = {op == RowOp::sum ? sum : sum / double(n)};
      e.scale = op == RowOp::sum ? magnitude : magnitude / double(n);
      break;
    }
    case RowOp::amax: {
      double max = -INFINITY;
      for (double v : x) max = std::isnan(v) || std::isnan(max) ? NAN : std::max(max, v);
      e.values = {max};
      break;
    }
    case RowOp::argmax: {
      int64_t best = 0;
      for (int64_t i = 1; i < n; ++i) {
        if (std::isnan(x[best])) break;
        if (std::isnan(x[i]) || x[i] > x[best]) best = i;
      }
      e.values = {double(best)};
      break;
    }
  }
  return e;
}

struct ErrorTally {
  double max_error = 0;
  double worst_ratio = 0;  // of the error to its tolerance
  int64_t mismatches = 0;

  void add(double got, double want, double tolerance) {
    double error;
    bool ok;
    if (std::isnan(want)) {
      ok = std::isnan(got);
      error = ok ? 0 : INFINITY;
    } else if (std::isinf(want) || std::isnan(got)) {
      ok = got == want;
      error = ok ? 0 : INFINITY;
    } else {
      error = std::fabs(got - want);
      ok = error <= tolerance;
    }
    max_error = std::max(max_error, error);
    worst_ratio = std::max(worst_ratio, tolerance > 0 ? error / tolerance : (error > 0 ? INFINITY : 0));
    if (!ok) ++mismatches;
  }
};

// Every row of a small case; the first, second, middle and last of a large one.
std::vector<int64_t> rows_to_check(const Case& c) {
  if (c.rows * c.length <= (int64_t(1) << 25)) {
    std::vector<int64_t> all(c.rows);
    for (int64_t r = 0; r < c.rows; ++r) all[r] = r;
    return all;
  }
  std::vector<int64_t> some = {0, 1, c.rows / 2, c.rows - 1};
  some.erase(std::unique(some.begin(), some.end()), some.end());
  return some;
}

// Median time of 20 runs after 3 warm-ups, each run after a 256 MB write that flushes L2.
template <class Kernel>
float median_milliseconds(const RowArgs& args) {
  constexpr size_t kFlushBytes = size_t(256) << 20;
  static DeviceBuffer flush(kFlushBytes);
  for (int i = 0; i < 3; ++i) CUDA_CHECK(Kernel::run(args, nullptr));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int i = 0; i < 20; ++i) {
    CUDA_CHECK(cudaMemsetAsync(flush.as<void>(), i & 0xff, kFlushBytes, nullptr));
    CUDA_CHECK(cudaEventRecord(start, nullptr));
    CUDA_CHECK(Kernel::run(args, nullptr));
    CUDA_CHECK(cudaEventRecord(stop, nullptr));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  std::sort(times.begin(), times.end());
  return (times[9] + times[10]) / 2;
}

template <RowOp Op, class X, class Y, int Threads, int Access, int Items>
bool check(const Case& c) {
  using Kernel = RowKernel<Op, X, Y, Threads, Access, Items>;
  using Out = typename Kernel::ElementOut;
  constexpr bool kWritesRows = ucutlass_rows::detail::writes_rows(Op);
  const int64_t length = c.length;
  const int64_t outputs_per_row = kWritesRows ? length : 1;
  const bool affine = (c.flags & kAffine) != 0;

  char label[200];
  snprintf(label, sizeof(label), "%s %s->%s T%dxA%dxI%d %lldx%lld splits=%d%s%s", op_name(Op), type_name<X>(),
           type_name<Out>(), Threads, Access, Items, (long long)c.rows, (long long)length, c.splits,
           Op == RowOp::groupnorm ? (affine ? " affine" : " no-affine")
                                  : (Op == RowOp::layernorm && affine ? " affine" : ""),
           (c.flags & kSpecials) ? " specials" : "");

  DeviceBuffer x(size_t(c.rows * length) * sizeof(X));
  DeviceBuffer y(size_t(c.rows * outputs_per_row) * sizeof(Out));
  DeviceBuffer workspace(Kernel::workspace_bytes(c.rows, c.splits));
  const int64_t affine_count = affine_length(Op, c);
  DeviceBuffer weight(affine ? size_t(affine_count) * sizeof(X) : 0);
  DeviceBuffer bias(affine ? size_t(affine_count) * sizeof(X) : 0);
  fill(x.as<X>(), c.rows * length, -3.f, 3.f);
  std::vector<double> weight_host, bias_host;
  if (affine) {
    fill(weight.as<X>(), affine_count, 0.5f, 1.5f);
    fill(bias.as<X>(), affine_count, -0.5f, 0.5f);
    std::vector<X> raw(affine_count);
    CUDA_CHECK(cudaMemcpy(raw.data(), weight.as<X>(), raw.size() * sizeof(X), cudaMemcpyDeviceToHost));
    for (X v : raw) weight_host.push_back(host_value(v));
    CUDA_CHECK(cudaMemcpy(raw.data(), bias.as<X>(), raw.size() * sizeof(X), cudaMemcpyDeviceToHost));
    for (X v : raw) bias_host.push_back(host_value(v));
  }

  const std::vector<int64_t> checked = rows_to_check(c);
  std::vector<X> x_host(checked.size() * length);
  for (size_t i = 0; i < checked.size(); ++i) {
    X* row = x_host.data() + i * length;
    const X* device_row = x.as<X>() + checked[i] * length;
    CUDA_CHECK(cudaMemcpy(row, device_row, length * sizeof(X), cudaMemcpyDeviceToHost));
    if (c.flags & kSpecials) {
      plant_specials(Op, checked[i], row, length, Kernel::chunk_length(length, c.splits), c.splits);
      CUDA_CHECK(cudaMemcpy(const_cast<X*>(device_row), row, length * sizeof(X), cudaMemcpyHostToDevice));
    }
  }

  RowArgs args;
  args.x = x.as<X>();
  args.y = y.as<Out>();
  args.weight = affine ? weight.as<X>() : nullptr;
  args.bias = affine ? bias.as<X>() : nullptr;
  args.rows = c.rows;
  args.length = length;
  args.groups = c.groups;
  args.channel_span = c.channel_span;
  args.splits = c.splits;
  args.workspace = workspace.as<void>();
  const char* why = nullptr;
  if (Kernel::can_implement(args, &why) != cudaSuccess) {
    printf("FAIL %s: can_implement refused: %s\n", label, why);
    return false;
  }
  // Poison y so that an output the kernel never writes cannot pass by accident: 0x7b bytes are a
  // huge finite number in f32, f16 and bf16 (not a NaN that a NaN row would accept), and no index.
  CUDA_CHECK(cudaMemset(y.as<void>(), 0x7b, size_t(c.rows * outputs_per_row) * sizeof(Out)));
  CUDA_CHECK(Kernel::run(args, nullptr));
  CUDA_CHECK(cudaDeviceSynchronize());

  ErrorTally tally;
  std::vector<Out> y_row(outputs_per_row);
  std::vector<double> x_row(length);
  const double rtol = output_rtol<Out>();
  for (size_t i = 0; i < checked.size(); ++i) {
    for (int64_t k = 0; k < length; ++k) x_row[k] = host_value(x_host[i * length + k]);
    CUDA_CHECK(cudaMemcpy(y_row.data(), y.as<Out>() + checked[i] * outputs_per_row, outputs_per_row * sizeof(Out),
                          cudaMemcpyDeviceToHost));
    const ExpectedRow expected = expected_row(Op, x_row, weight_host, bias_host, checked[i], c);
    for (int64_t k = 0; k < outputs_per_row; ++k) {
      const double want = expected.values[k];
      tally.add(host_value(y_row[k]), want, rtol * (std::fabs(want) + expected.scale));
    }
  }
  const bool pass = tally.mismatches == 0;

  char timing[120] = "";
  if (c.flags & kTimed) {
    const float ms = median_milliseconds<Kernel>(args);
    const double bytes = double(c.rows * length) * sizeof(X) + double(c.rows * outputs_per_row) * sizeof(Out) +
                         (affine ? 2.0 * double(affine_count) * sizeof(X) : 0.0);
    const double gbps = bytes / (double(ms) * 1e-3) / 1e9;
    snprintf(timing, sizeof(timing), "  %.3f ms  %.0f GB/s (%.0f%% of 4.8 TB/s)", ms, gbps, gbps / 48.0);
  }
  printf("%s %s maxerr=%.3g (%.3g of tolerance, %lld mismatches)%s\n", pass ? "PASS" : "FAIL", label, tally.max_error,
         tally.worst_ratio, (long long)tally.mismatches, timing);
  fflush(stdout);
  return pass;
}

// can_implement must refuse what does not fit an instantiation, and say why.
bool check_refusals() {
  using Kernel = RowKernel<RowOp::softmax, float, float, 256, 4, 8>;
  DeviceBuffer x(size_t(4) * 20000 * sizeof(float));
  DeviceBuffer y(size_t(4) * 20000 * sizeof(float));
  struct Refusal {
    const char* what;
    int64_t length;
    int offset_elements;  // of x from its aligned allocation
    const char* expected_words;
  };
  const Refusal refusals[] = {
      {"a chunk larger than Threads x Access x Items", 20000, 0, "exceeds"},
      {"a length that is not a multiple of Access", 1001, 0, "not a multiple"},
      {"x not aligned to one vectorized load", 4096, 1, "not aligned"},
  };
  bool all_pass = true;
  for (const Refusal& r : refusals) {
    RowArgs args;
    args.x = x.as<float>() + r.offset_elements;
    args.y = y.as<float>();
    args.rows = 4;
    args.length = r.length;
    const char* why = nullptr;
    const cudaError_t status = Kernel::can_implement(args, &why);
    const bool pass = status == cudaErrorInvalidValue && why != nullptr && strstr(why, r.expected_words) != nullptr &&
                      Kernel::run(args, nullptr) == cudaErrorInvalidValue;
    printf("%s can_implement refuses %s: %s\n", pass ? "PASS" : "FAIL", r.what, why ? why : "(no reason)");
    all_pass = all_pass && pass;
  }
  RowArgs fits;
  fits.x = x.as<float>();
  fits.y = y.as<float>();
  fits.rows = 4;
  fits.length = 8192;
  const bool accepted = Kernel::can_implement(fits) == cudaSuccess;
  printf("%s can_implement accepts a chunk of exactly Threads x Access x Items\n", accepted ? "PASS" : "FAIL");
  // A split row's workspace is sized after can_implement, so only run asks for it.
  RowArgs split = fits;
  split.splits = 2;
  const bool needs_workspace =
      Kernel::can_implement(split) == cudaSuccess && Kernel::run(split, nullptr) == cudaErrorInvalidValue;
  printf("%s run refuses a split row without a workspace\n", needs_workspace ? "PASS" : "FAIL");
  return all_pass && accepted && needs_workspace;
}

}  // namespace

int main() {
  int failures = 0;
  auto count = [&](bool pass) { failures += pass ? 0 : 1; };
  using bf16 = __nv_bfloat16;
  using f16 = __half;

  count(check_refusals());

  // softmax
  count(check<RowOp::softmax, float, float, 512, 4, 8>({1031, 5000, 1, kSpecials}));
  count(check<RowOp::softmax, float, float, 512, 4, 8>({1, 16384, 1}));
  count(check<RowOp::softmax, float, float, 512, 4, 8>({5, 40000, 3, kSpecials}));
  count(check<RowOp::softmax, float, float, 512, 4, 8>({7, 100000, 8, kSpecials}));
  count(check<RowOp::softmax, float, float, 128, 4, 8>({1025, 1000, 1}));
  count(check<RowOp::softmax, float, float, 128, 4, 8>({3, 12340, 8, kSpecials}));
  count(check<RowOp::softmax, float, float, 128, 4, 8>({3, 40, 8}));  // chunks 5..7 of each row are empty
  count(check<RowOp::softmax, bf16, float, 256, 8, 4>({1024, 3000, 1, kSpecials}));
  count(check<RowOp::softmax, bf16, float, 256, 8, 4>({5, 30000, 8, kSpecials}));
  count(check<RowOp::softmax, bf16, bf16, 256, 8, 4>({1000, 8192, 1}));

  // log_softmax
  count(check<RowOp::log_softmax, float, float, 512, 4, 4>({1000, 7000, 1, kSpecials}));
  count(check<RowOp::log_softmax, float, float, 512, 4, 4>({4, 7000, 3, kSpecials}));
  count(check<RowOp::log_softmax, float, float, 512, 4, 4>({2, 60000, 8}));
  count(check<RowOp::log_softmax, f16, f16, 128, 2, 16>({333, 4094, 1}));

  // logsumexp
  count(check<RowOp::logsumexp, float, float, 512, 4, 8>({1031, 5000, 1, kSpecials}));
  count(check<RowOp::logsumexp, float, float, 512, 4, 8>({9, 50000, 8, kSpecials}));
  count(check<RowOp::logsumexp, float, float, 512, 4, 8>({1, 300, 3}));
  count(check<RowOp::logsumexp, bf16, float, 256, 8, 4>({1000, 2048, 1, kSpecials}));
  count(check<RowOp::logsumexp, bf16, float, 256, 8, 4>({5, 40, 8, kSpecials}));

  // layernorm
  count(check<RowOp::layernorm, float, float, 256, 4, 8>({1031, 4100, 1, kAffine | kSpecials}));
  count(check<RowOp::layernorm, float, float, 256, 4, 8>({1031, 4100, 1, kSpecials}));
  count(check<RowOp::layernorm, float, float, 256, 4, 8>({6, 20000, 3, kAffine | kSpecials}));
  count(check<RowOp::layernorm, float, float, 256, 4, 8>({1, 8192, 1, kAffine}));
  count(check<RowOp::layernorm, float, float, 256, 4, 8>({3, 40, 8, kAffine}));
  count(check<RowOp::layernorm, bf16, float, 256, 8, 4>({1000, 3072, 1, kAffine}));
  count(check<RowOp::layernorm, bf16, float, 256, 8, 4>({4, 50000, 8, kAffine | kSpecials}));
  count(check<RowOp::layernorm, bf16, bf16, 256, 8, 4>({1000, 4096, 1, kAffine}));

  // groupnorm: channel spans that are and are not multiples of Access
  count(check<RowOp::groupnorm, float, float, 256, 4, 8>(groupnorm_case(128, 64, 8, 64, 1, kAffine | kSpecials)));
  count(check<RowOp::groupnorm, float, float, 256, 4, 8>(groupnorm_case(4, 64, 8, 100, 3, kAffine | kSpecials)));
  count(check<RowOp::groupnorm, float, float, 256, 4, 8>(groupnorm_case(3, 32, 4, 49, 1, kAffine)));
  count(check<RowOp::groupnorm, float, float, 256, 4, 8>(groupnorm_case(2, 32, 4, 49, 8, kAffine)));
  count(check<RowOp::groupnorm, float, float, 256, 4, 8>(groupnorm_case(2, 32, 4, 49, 1, kSpecials)));
  count(check<RowOp::groupnorm, bf16, bf16, 256, 8, 4>(groupnorm_case(16, 64, 8, 196, 1, kAffine | kSpecials)));
  count(check<RowOp::groupnorm, bf16, bf16, 256, 8, 4>(groupnorm_case(16, 64, 8, 196, 3, kAffine)));

  // sum, mean, amax
  count(check<RowOp::sum, float, float, 512, 4, 8>({1031, 5000, 1}));
  count(check<RowOp::sum, float, float, 512, 4, 8>({7, 100000, 8}));
  count(check<RowOp::sum, bf16, float, 256, 8, 4>({1000, 8000, 3}));
  count(check<RowOp::mean, float, float, 256, 4, 4>({1000, 4000, 1}));
  count(check<RowOp::mean, float, float, 256, 4, 4>({3, 33332, 16}));
  count(check<RowOp::amax, float, float, 256, 4, 4>({1000, 4000, 1, kSpecials}));
  count(check<RowOp::amax, float, float, 256, 4, 4>({5, 40000, 16, kSpecials}));

  // argmax
  count(check<RowOp::argmax, float, float, 512, 4, 8>({1031, 5000, 1, kSpecials}));
  count(check<RowOp::argmax, float, float, 512, 4, 8>({6, 30000, 3, kSpecials}));
  count(check<RowOp::argmax, float, float, 512, 4, 8>({5, 100000, 8, kSpecials}));
  count(check<RowOp::argmax, float, float, 512, 4, 8>({1, 123456, 8}));
  count(check<RowOp::argmax, float, float, 512, 4, 8>({5, 40, 8, kSpecials}));
  count(check<RowOp::argmax, bf16, float, 256, 8, 4>({1000, 3000, 1, kSpecials}));
  count(check<RowOp::argmax, bf16, float, 256, 8, 4>({6, 50000, 8, kSpecials}));

  // The large cases of the ucutlass suite, checked on a few rows, then timed.
  count(check<RowOp::softmax, float, float, 512, 4, 8>({16384, 16384, 1, kTimed}));
  count(check<RowOp::softmax, float, float, 512, 4, 8>({64, 1048576, 64, kTimed}));
  count(check<RowOp::logsumexp, float, float, 512, 4, 8>({16384, 16384, 1, kTimed}));
  count(check<RowOp::layernorm, float, float, 256, 4, 8>({16384, 8192, 1, kAffine | kTimed}));
  count(check<RowOp::sum, float, float, 512, 4, 8>({16384, 16384, 1, kTimed}));
  count(check<RowOp::argmax, float, float, 512, 4, 8>({16384, 16384, 1, kTimed}));
  count(check<RowOp::groupnorm, float, float, 1024, 4, 8>(groupnorm_case(32, 256, 32, 4096, 1, kAffine | kTimed)));

  printf("%s: %d failing case(s)\n", failures == 0 ? "ALL PASS" : "FAILURES", failures);
  return failures == 0 ? 0 : 1;
}

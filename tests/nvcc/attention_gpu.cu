// GPU check and benchmark of src/codegen/runtime/attention_kernels.hpp. Every instantiation of
// both head dims runs over shapes with tails (77, 1000, 333 are no multiple of any block),
// seq_q != seq_k both ways, one batch entry and several, causal, explicit masks (random bytes;
// large masked blocks so that whole tiles, and past 2048 keys whole 32-tile chunks, are skipped; a
// causal mask given as bytes; whole query blocks and single rows masked for every key, which must
// give NaN as torch does; rows that meet only masked keys in their first tiles; a mask whose rows
// are not 16-byte aligned), a negative scale, and a batch beyond the grid's 65535 rows. Each
// output is compared with a reference in double computed from the bf16-rounded q, k and v the
// kernel multiplies, so that only the accumulation order and P's rounding differ. Then the two
// attention shapes of the ucutlass suite report their time (median of 10 after 2 warm-ups).
//
// Split scores (SplitScores = true) run every case too, on q and k NOT rounded to bf16 (v still is:
// the P V product rounds it), including the harness's shifted redraw 4 N(0, 1) - 1, whose scores
// reach tens. Their scores carry about 2^-17 of sum_d |q_d k_d| of error; a score error e moves O by
// at most e times sum_j w_j |v[j] - O|, so their tolerance adds 2^-15 scale max_j sum_d |q_d k_d| times
// that spread (4x the bound). An INFO line shows what bf16 scores do on the same unrounded shifted
// inputs, against the harness's 1e-2: why the split exists.
//
// Tolerance: |o - ref| <= 2e-3 + 2e-3 |ref| + 2^-9 sum_j w_j |v[j] - ref|, w the softmax weights
// (plus the split-score term above).
// The last term is P's rounding to bf16 for the P V product: each weight moves by up to 2^-9 of
// itself, and since the kernel normalizes by the sum of the rounded weights, O moves by at most
// that times the weighted mean distance of V's rows from O. Without it, rows dominated by a few
// keys (the first rows of a causal mask on randn inputs) exceed the first two terms by up to 20%
// whatever the accumulation order; with it the margin is about 2x. A row of flat weights over
// randn V gets about 1.7x the first two terms.
//
// Build: nvcc -std=c++17 -O3 -arch=sm_90a tests/nvcc/attention_gpu.cu -o /tmp/attention_gpu
// Prints one line per case, PASS or FAIL, and exits with 1 if any case failed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "../../src/codegen/runtime/attention_kernels.hpp"

namespace {

using ucutlass_attn::AttentionArgs;
using ucutlass_attn::AttentionKernel;

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

// splitmix64: deterministic across platforms, unlike std's distributions.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // [0, 1), like torch.rand.
  float uniform() { return float(next() >> 40) * (1.f / 16777216.f); }
  // Standard normal (Box-Muller), like torch.randn.
  float normal() {
    const double u1 = (double(next() >> 11) + 1.0) * (1.0 / 9007199254740992.0);
    const double u2 = double(next() >> 11) * (1.0 / 9007199254740992.0);
    return float(std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2));
  }

 private:
  uint64_t state_;
};

// The value the kernel multiplies: round to nearest even at bf16's 8 significant bits.
float round_to_bf16(float x) {
  uint32_t bits;
  memcpy(&bits, &x, 4);
  bits = (bits + 0x7FFFu + ((bits >> 16) & 1u)) & 0xFFFF0000u;
  float y;
  memcpy(&y, &bits, 4);
  return y;
}

enum class Values { uniform, normal, shifted };  // shifted: 4 N(0, 1) - 1, the harness's redraw
enum class Mask {
  none,
  random,             // 30% of the bytes set
  blocks,             // column bands, keys 1000-2299 and a row block masked (whole tiles and, past 2048
                      // keys, whole 32-tile chunks skipped); row 5 all masked
  causal_bytes,       // torch.triu(ones, diagonal=1) as bytes
  leading_rows,       // the first 150 rows all masked (whole query blocks without a live tile), random below
  sparse_misaligned,  // 10% random, and the mask pointer one byte past 16-byte alignment
  ragged_prefix,      // row i masks its first (i % 6) * 45 keys: rows that meet only masked keys in
                      // their first tiles, whose running max stays -inf until a later tile
};

const char* mask_name(Mask m) {
  static const char* const names[] = {
      "none", "random", "blocks", "causal_bytes", "leading_rows", "sparse_misaligned", "ragged_prefix"};
  return names[int(m)];
}

struct Case {
  int64_t batch;
  int seq_q, seq_k;
  bool causal;
  Mask mask;
  Values values;
  float scale_factor;  // scale = scale_factor / sqrt(head_dim)
};

std::vector<unsigned char> make_mask(Mask kind, int seq_q, int seq_k, Random& random) {
  std::vector<unsigned char> mask(size_t(seq_q) * seq_k, 0);
  for (int i = 0; i < seq_q; ++i)
    for (int j = 0; j < seq_k; ++j) {
      bool masked = false;
      switch (kind) {
        case Mask::none:
          break;
        case Mask::random:
          masked = random.uniform() < 0.3f;
          break;
        case Mask::blocks:
          masked = (j / 96) % 2 == 1 || (j >= 1000 && j < 2300) || (i >= 130 && i < 260 && j >= 40) || i == 5;
          break;
        case Mask::causal_bytes:
          masked = j > i;
          break;
        case Mask::leading_rows:
          masked = i < 150 || random.uniform() < 0.2f;
          break;
        case Mask::sparse_misaligned:
          masked = random.uniform() < 0.1f;
          break;
        case Mask::ragged_prefix:
          masked = j < (i % 6) * 45;
          break;
      }
      mask[size_t(i) * seq_k + j] = masked ? 1 : 0;
    }
  return mask;
}

// A problem's inputs as the kernel sees them after rounding, and its reference output.
struct Problem {
  int64_t batch;
  int seq_q, seq_k, head_dim;
  bool causal;
  float scale;
  bool exact_qk;                    // q and k left unrounded (for split scores)
  std::vector<float> q, k, v;       // as uploaded: v bf16-rounded, q and k too unless exact_qk
  std::vector<unsigned char> mask;  // empty when none
};

bool is_masked(const Problem& p, int i, int j) {
  return (p.causal && j > i) || (!p.mask.empty() && p.mask[size_t(i) * p.seq_k + j] != 0);
}

// out[d] for row i of entry b, in double; NaN when every key is masked, as torch gives. spread[d]
// is sum_j w_j |v[j][d] - out[d]|, which bounds the effect of rounding the weights. magnitude is
// max_j |scale| sum_d |q_d k_d|, the size the split scores' error is relative to.
void reference_row(const Problem& p, int64_t b, int i, std::vector<double>& out, std::vector<double>& spread,
                   double& magnitude) {
  const int D = p.head_dim;
  const float* q = p.q.data() + (size_t(b) * p.seq_q + i) * D;
  std::vector<double> scores(p.seq_k);
  double max = -INFINITY;
  magnitude = 0;
  for (int j = 0; j < p.seq_k; ++j) {
    if (is_masked(p, i, j)) {
      scores[j] = -INFINITY;
      continue;
    }
    const float* k = p.k.data() + (size_t(b) * p.seq_k + j) * D;
    double dot = 0, absolute = 0;
    for (int d = 0; d < D; ++d) {
      dot += double(q[d]) * double(k[d]);
      absolute += std::fabs(double(q[d]) * double(k[d]));
    }
    scores[j] = double(p.scale) * dot;
    magnitude = std::max(magnitude, std::fabs(double(p.scale)) * absolute);
    max = std::max(max, scores[j]);
  }
  out.assign(D, 0.0);
  spread.assign(D, 0.0);
  if (max == -INFINITY) {
    out.assign(D, std::numeric_limits<double>::quiet_NaN());
    return;
  }
  double sum = 0;
  for (int j = 0; j < p.seq_k; ++j) {
    if (scores[j] == -INFINITY) continue;
    scores[j] = std::exp(scores[j] - max);
    sum += scores[j];
    const float* v = p.v.data() + (size_t(b) * p.seq_k + j) * D;
    for (int d = 0; d < D; ++d) out[d] += scores[j] * double(v[d]);
  }
  for (int d = 0; d < D; ++d) out[d] /= sum;
  for (int j = 0; j < p.seq_k; ++j) {
    if (scores[j] == -INFINITY) continue;
    const float* v = p.v.data() + (size_t(b) * p.seq_k + j) * D;
    for (int d = 0; d < D; ++d) spread[d] += scores[j] / sum * std::fabs(double(v[d]) - out[d]);
  }
}

constexpr double kAbsoluteTolerance = 2e-3, kRelativeTolerance = 2e-3;
constexpr double kWeightRounding = 1.0 / 512;     // bf16's 2^-9
constexpr double kSplitScoreError = 1.0 / 32768;  // 2^-15: 4x the split scores' 2^-17

struct Tally {
  double max_error = 0;
  double max_fraction = 0;  // of the tolerance
  int64_t mismatches = 0;
  // score_error: the largest error the kernel's scores may carry (0 where they are exact products).
  void add(double got, double want, double spread, double score_error = 0) {
    if (std::isnan(want)) {
      if (!std::isnan(got)) ++mismatches;
      return;
    }
    const double error = std::fabs(got - want);
    const double tolerance = kAbsoluteTolerance + kRelativeTolerance * std::fabs(want) +
                             (kWeightRounding + score_error) * spread;
    if (!(error <= tolerance)) ++mismatches;
    if (!std::isnan(error)) {
      max_error = std::max(max_error, error);
      max_fraction = std::max(max_fraction, error / tolerance);
    }
  }
};

using RunFunction = cudaError_t (*)(const AttentionArgs&, cudaStream_t);
using CanImplementFunction = cudaError_t (*)(const AttentionArgs&, const char**);

struct Instantiation {
  const char* name;
  int head_dim;
  bool split;
  RunFunction run;
  CanImplementFunction can_implement;
};

template <int D, int BQ, int BK, bool Split>
Instantiation instantiation(const char* name) {
  return {name, D, Split, &AttentionKernel<D, BQ, BK, Split>::run, &AttentionKernel<D, BQ, BK, Split>::can_implement};
}

// The device copies of a problem, with o's sentinel and a guard past its end that no launch may touch.
struct DeviceProblem {
  static constexpr size_t kGuardFloats = 16384;
  static constexpr unsigned char kSentinelByte = 0x7E;  // floats of 8.4e37: an unwritten output fails
  DeviceBuffer q, k, v, o, mask;
  size_t o_floats;
  bool misaligned_mask;

  DeviceProblem(const Problem& p, bool misaligned)
      : q(p.q.size() * 4),
        k(p.k.size() * 4),
        v(p.v.size() * 4),
        o((p.q.size() + kGuardFloats) * 4),
        mask(p.mask.empty() ? 0 : p.mask.size() + 16),
        o_floats(p.q.size()),
        misaligned_mask(misaligned) {
    CUDA_CHECK(cudaMemcpy(q.as<float>(), p.q.data(), p.q.size() * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(k.as<float>(), p.k.data(), p.k.size() * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(v.as<float>(), p.v.data(), p.v.size() * 4, cudaMemcpyHostToDevice));
    if (!p.mask.empty()) CUDA_CHECK(cudaMemcpy(mask_pointer(), p.mask.data(), p.mask.size(), cudaMemcpyHostToDevice));
  }
  unsigned char* mask_pointer() const {
    return mask.as<unsigned char>() == nullptr ? nullptr : mask.as<unsigned char>() + (misaligned_mask ? 1 : 0);
  }

  AttentionArgs args(const Problem& p) const {
    AttentionArgs a;
    a.q = q.as<float>();
    a.k = k.as<float>();
    a.v = v.as<float>();
    a.o = o.as<float>();
    a.mask = p.mask.empty() ? nullptr : mask_pointer();
    a.causal = p.causal;
    a.batch = p.batch;
    a.seq_q = p.seq_q;
    a.seq_k = p.seq_k;
    a.scale = p.scale;
    return a;
  }

  void fill_sentinel() const { CUDA_CHECK(cudaMemset(o.as<float>(), kSentinelByte, (o_floats + kGuardFloats) * 4)); }

  bool guard_intact() const {
    std::vector<unsigned char> guard(kGuardFloats * 4);
    CUDA_CHECK(cudaMemcpy(guard.data(), o.as<float>() + o_floats, guard.size(), cudaMemcpyDeviceToHost));
    return std::all_of(guard.begin(), guard.end(), [](unsigned char c) { return c == kSentinelByte; });
  }
};

Problem make_problem(const Case& c, int head_dim, uint64_t seed, bool exact_qk = false) {
  Random random(seed);
  Problem p;
  p.batch = c.batch;
  p.seq_q = c.seq_q;
  p.seq_k = c.seq_k;
  p.head_dim = head_dim;
  p.causal = c.causal;
  p.scale = c.scale_factor / std::sqrt(float(head_dim));
  p.exact_qk = exact_qk;
  auto fill = [&](std::vector<float>& x, size_t n, bool round) {
    x.resize(n);
    for (float& value : x) {
      const float drawn = c.values == Values::uniform  ? random.uniform()
                          : c.values == Values::normal ? random.normal()
                                                       : 4.f * random.normal() - 1.f;
      value = round ? round_to_bf16(drawn) : drawn;
    }
  };
  fill(p.q, size_t(c.batch) * c.seq_q * head_dim, !exact_qk);
  fill(p.k, size_t(c.batch) * c.seq_k * head_dim, !exact_qk);
  fill(p.v, size_t(c.batch) * c.seq_k * head_dim, true);
  if (c.mask != Mask::none) p.mask = make_mask(c.mask, c.seq_q, c.seq_k, random);
  return p;
}

// Compares the listed rows (entry, query) of a launch's output with the reference, for the timed
// shapes, whose whole reference would take minutes.
Tally compare_rows(const Problem& p, const std::vector<float>& got, const std::vector<std::pair<int64_t, int>>& rows) {
  Tally tally;
  std::vector<double> want, spread;
  double magnitude = 0;
  for (const auto& [b, i] : rows) {
    reference_row(p, b, i, want, spread, magnitude);
    const float* row = got.data() + (size_t(b) * p.seq_q + i) * p.head_dim;
    const double score_error = p.exact_qk ? kSplitScoreError * magnitude : 0.0;
    for (int d = 0; d < p.head_dim; ++d) tally.add(row[d], want[d], spread[d], score_error);
  }
  return tally;
}

// The reference of a whole problem, computed once and shared by every instantiation of its head dim
// and score precision; score_error per row (0 for rounded q and k).
struct Reference {
  std::vector<double> out, spread, score_error;
};

Reference reference_output(const Problem& p) {
  Reference r{std::vector<double>(p.q.size()), std::vector<double>(p.q.size()),
              std::vector<double>(size_t(p.batch) * p.seq_q)};
  std::vector<double> out, spread;
  double magnitude = 0;
  for (int64_t b = 0; b < p.batch; ++b)
    for (int i = 0; i < p.seq_q; ++i) {
      reference_row(p, b, i, out, spread, magnitude);
      const size_t row = size_t(b) * p.seq_q + i, at = row * p.head_dim;
      std::copy(out.begin(), out.end(), r.out.begin() + at);
      std::copy(spread.begin(), spread.end(), r.spread.begin() + at);
      r.score_error[row] = p.exact_qk ? kSplitScoreError * magnitude : 0.0;
    }
  return r;
}

bool run_case(const Instantiation& inst, const Problem& p, const DeviceProblem& device, const Reference& reference,
              const char* label) {
  const AttentionArgs args = device.args(p);
  const char* why = nullptr;
  if (inst.can_implement(args, &why) != cudaSuccess) {
    printf("FAIL %s %s: can_implement refused: %s\n", inst.name, label, why);
    return false;
  }
  device.fill_sentinel();
  CUDA_CHECK(inst.run(args, nullptr));
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> got(p.q.size());
  CUDA_CHECK(cudaMemcpy(got.data(), args.o, got.size() * 4, cudaMemcpyDeviceToHost));
  Tally tally;
  for (size_t e = 0; e < got.size(); ++e)
    tally.add(got[e], reference.out[e], reference.spread[e], reference.score_error[e / size_t(p.head_dim)]);
  const bool guard = device.guard_intact();
  const bool pass = tally.mismatches == 0 && guard;
  printf("%s %s %s maxerr=%.3g (%.2f of tolerance, %lld mismatches)%s\n", pass ? "PASS" : "FAIL", inst.name, label,
         tally.max_error, tally.max_fraction, (long long)tally.mismatches, guard ? "" : " WROTE PAST THE OUTPUT");
  return pass;
}

// What bf16 scores give on q and k that are not bf16 values (the shifted draw): the largest error and
// how many outputs miss the harness's kernelbench-v0.1 tolerance 1e-2 + 1e-2 |ref|. Informational:
// the reason split scores exist, not a pass/fail check.
void report_bf16_scores(const std::vector<Instantiation>& instantiations, const Problem& p, const DeviceProblem& device,
                        const Reference& reference, const char* label) {
  for (const Instantiation& inst : instantiations) {
    if (inst.head_dim != p.head_dim || inst.split) continue;
    const AttentionArgs args = device.args(p);
    CUDA_CHECK(inst.run(args, nullptr));
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> got(p.q.size());
    CUDA_CHECK(cudaMemcpy(got.data(), args.o, got.size() * 4, cudaMemcpyDeviceToHost));
    double max_error = 0;
    int64_t outside = 0;
    for (size_t e = 0; e < got.size(); ++e) {
      const double want = reference.out[e];
      if (std::isnan(want)) continue;
      const double error = std::fabs(double(got[e]) - want);
      max_error = std::max(max_error, error);
      if (!(error <= 1e-2 + 1e-2 * std::fabs(want))) ++outside;
    }
    printf("INFO bf16 scores %s %s: maxerr=%.3g, %lld of %zu outside 1e-2\n", inst.name, label, max_error,
           (long long)outside, got.size());
    return;  // one instantiation tells it
  }
}

int check_can_implement() {
  using Kernel = AttentionKernel<64, 64, 64>;
  DeviceBuffer buffer(4096);
  float* base = buffer.as<float>();
  AttentionArgs good;
  good.q = good.k = good.v = base;
  good.o = base;
  good.batch = 1;
  good.seq_q = good.seq_k = 4;
  struct Refusal {
    const char* what;
    AttentionArgs args;
  };
  std::vector<Refusal> refusals;
  auto refuse = [&](const char* what, auto edit) {
    AttentionArgs a = good;
    edit(a);
    refusals.push_back({what, a});
  };
  refuse("seq_q = 0", [](AttentionArgs& a) { a.seq_q = 0; });
  refuse("seq_q = -3", [](AttentionArgs& a) { a.seq_q = -3; });
  refuse("seq_k = 0", [](AttentionArgs& a) { a.seq_k = 0; });
  refuse("a null q", [](AttentionArgs& a) { a.q = nullptr; });
  refuse("a null o", [](AttentionArgs& a) { a.o = nullptr; });
  refuse("k 4 bytes past alignment", [&](AttentionArgs& a) { a.k = base + 1; });
  refuse("o 8 bytes past alignment", [&](AttentionArgs& a) { a.o = base + 2; });
  refuse("batch = 0", [](AttentionArgs& a) { a.batch = 0; });
  refuse("batch = -1", [](AttentionArgs& a) { a.batch = -1; });
  refuse("scale = NaN", [](AttentionArgs& a) { a.scale = std::numeric_limits<float>::quiet_NaN(); });
  refuse("scale = 0", [](AttentionArgs& a) { a.scale = 0.f; });
  int failures = 0;
  for (const Refusal& r : refusals) {
    const char* why = nullptr;
    const bool refused = Kernel::can_implement(r.args, &why) == cudaErrorInvalidValue && why != nullptr && why[0] != 0;
    const bool run_refused = Kernel::run(r.args, nullptr) == cudaErrorInvalidValue;
    const bool pass = refused && run_refused;
    printf("%s can_implement refuses %s: %s\n", pass ? "PASS" : "FAIL", r.what, why ? why : "(no reason)");
    failures += pass ? 0 : 1;
  }
  const bool accepted = Kernel::can_implement(good, nullptr) == cudaSuccess;
  printf("%s can_implement accepts a valid problem\n", accepted ? "PASS" : "FAIL");
  return failures + (accepted ? 0 : 1);
}

struct TimedShape {
  const char* name;
  int64_t batch;
  int seq, head_dim;
  bool causal_mask;  // given as bytes through mask, not as causal
};

// Median milliseconds of 10 launches after 2 warm-ups, and a check of sampled rows.
int time_shape(const TimedShape& shape, const std::vector<Instantiation>& instantiations) {
  Case c{shape.batch,     shape.seq, shape.seq, false, shape.causal_mask ? Mask::causal_bytes : Mask::none,
         Values::uniform, 1.f};
  const Problem p = make_problem(c, shape.head_dim, 1234);
  const DeviceProblem device(p, false);
  std::vector<std::pair<int64_t, int>> sample;
  Random pick(99);
  for (int s = 0; s < 24; ++s)
    sample.push_back({int64_t(pick.next() % uint64_t(p.batch)), int(pick.next() % uint64_t(p.seq_q))});
  sample.push_back({p.batch - 1, p.seq_q - 1});
  sample.push_back({0, 0});
  const double flops = 4.0 * double(p.batch) * p.seq_q * p.seq_k * p.head_dim * (shape.causal_mask ? 0.5 : 1.0);
  int failures = 0;
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  for (const Instantiation& inst : instantiations) {
    if (inst.head_dim != shape.head_dim) continue;
    const AttentionArgs args = device.args(p);
    std::vector<float> times;
    for (int launch = 0; launch < 12; ++launch) {
      CUDA_CHECK(cudaEventRecord(start));
      CUDA_CHECK(inst.run(args, nullptr));
      CUDA_CHECK(cudaEventRecord(stop));
      CUDA_CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      if (launch >= 2) times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    const double ms = 0.5 * (times[4] + times[5]);
    std::vector<float> got(p.q.size());
    CUDA_CHECK(cudaMemcpy(got.data(), args.o, got.size() * 4, cudaMemcpyDeviceToHost));
    const Tally tally = compare_rows(p, got, sample);
    const bool pass = tally.mismatches == 0;
    failures += pass ? 0 : 1;
    printf("%s %s %s: %.3f ms, %.1f TFLOPS (sampled rows maxerr=%.3g)\n", pass ? "TIME" : "FAIL", inst.name, shape.name,
           ms, flops / (ms * 1e-3) / 1e12, tally.max_error);
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return failures;
}

}  // namespace

int main() {
  const std::vector<Instantiation> instantiations = {
      instantiation<64, 64, 32, false>("<64,64,32>"),           instantiation<64, 64, 64, false>("<64,64,64>"),
      instantiation<64, 128, 32, false>("<64,128,32>"),         instantiation<64, 128, 64, false>("<64,128,64>"),
      instantiation<128, 64, 32, false>("<128,64,32>"),         instantiation<128, 64, 64, false>("<128,64,64>"),
      instantiation<128, 128, 32, false>("<128,128,32>"),       instantiation<128, 128, 64, false>("<128,128,64>"),
      instantiation<64, 64, 32, true>("<64,64,32,split>"),      instantiation<64, 64, 64, true>("<64,64,64,split>"),
      instantiation<64, 128, 32, true>("<64,128,32,split>"),    instantiation<64, 128, 64, true>("<64,128,64,split>"),
      instantiation<128, 64, 32, true>("<128,64,32,split>"),    instantiation<128, 64, 64, true>("<128,64,64,split>"),
      instantiation<128, 128, 32, true>("<128,128,32,split>"),  instantiation<128, 128, 64, true>("<128,128,64,split>"),
  };
  const std::vector<Case> cases = {
      {1, 77, 77, false, Mask::none, Values::uniform, 1.f},
      {1, 64, 64, false, Mask::none, Values::normal, 1.f},
      {3, 1000, 1000, true, Mask::none, Values::normal, 1.f},
      {3, 130, 1000, false, Mask::none, Values::normal, 1.f},
      {2, 100, 200, false, Mask::none, Values::normal, -1.f},
      {2, 1000, 77, true, Mask::none, Values::uniform, 1.f},
      {2, 77, 1000, true, Mask::none, Values::normal, 1.f},
      {3, 200, 333, false, Mask::random, Values::normal, 1.f},
      {3, 300, 384, false, Mask::blocks, Values::normal, 1.f},
      {2, 140, 2500, false, Mask::blocks, Values::normal, 1.f},
      {1, 200, 2210, true, Mask::random, Values::normal, 1.f},
      {2, 300, 300, false, Mask::causal_bytes, Values::normal, 1.f},
      {3, 1024, 1024, false, Mask::causal_bytes, Values::uniform, 1.f},
      {2, 257, 256, true, Mask::leading_rows, Values::normal, 1.f},
      {2, 160, 256, false, Mask::sparse_misaligned, Values::normal, 1.f},
      {2, 150, 400, true, Mask::ragged_prefix, Values::normal, 1.f},
      {2, 300, 333, false, Mask::none, Values::shifted, 1.f},
      {2, 257, 1000, true, Mask::random, Values::shifted, 1.f},
      {2, 140, 2500, false, Mask::blocks, Values::shifted, -1.f},
  };
  static const char* const value_names[] = {"rand", "randn", "shifted"};
  int failures = check_can_implement();
  uint64_t seed = 1;
  for (const int head_dim : {64, 128}) {
    for (const Case& c : cases) {
      const uint64_t case_seed = seed++;
      for (const bool split : {false, true}) {
        // The same draw; split-score kernels get q and k unrounded.
        const Problem p = make_problem(c, head_dim, case_seed, split);
        const DeviceProblem device(p, c.mask == Mask::sparse_misaligned);
        const Reference reference = reference_output(p);
        char label[160];
        snprintf(label, sizeof(label), "D=%d batch=%lld seq_q=%d seq_k=%d causal=%d mask=%s %s scale=%g%s", head_dim,
                 (long long)c.batch, c.seq_q, c.seq_k, int(c.causal), mask_name(c.mask), value_names[int(c.values)],
                 double(p.scale), split ? " exact q,k" : "");
        for (const Instantiation& inst : instantiations)
          if (inst.head_dim == head_dim && inst.split == split) failures += run_case(inst, p, device, reference, label) ? 0 : 1;
        if (split && c.values == Values::shifted) report_bf16_scores(instantiations, p, device, reference, label);
      }
    }
  }
  for (const bool split : {false, true}) {
    // More batch entries than grid rows: CTAs loop over entries.
    const Case c{70000, 8, 8, true, Mask::none, Values::normal, 1.f};
    const Problem p = make_problem(c, 64, seed, split);
    const DeviceProblem device(p, false);
    const Reference reference = reference_output(p);
    failures += run_case(instantiations[split ? 8 : 0], p, device, reference, "D=64 batch=70000 seq_q=8 seq_k=8 causal=1")
                    ? 0
                    : 1;
  }
  failures += time_shape({"batch=512 seq=1024 D=128 no mask", 512, 1024, 128, false}, instantiations);
  failures += time_shape({"batch=128 seq=2048 D=64 causal byte mask", 128, 2048, 64, true}, instantiations);
  printf("%s: %d failing case(s)\n", failures == 0 ? "ALL PASS" : "FAILURES", failures);
  return failures == 0 ? 0 : 1;
}

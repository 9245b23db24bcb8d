// Memory-bound row-wise kernels for SM90: softmax, log_softmax, logsumexp, layernorm, groupnorm,
// sum, mean, amax and argmax over the rows of a contiguous [rows, length] tensor.
//
// Why this exists: a program that ucutlass compiles is mostly GEMMs and convolutions, but between
// them sit row-wise operators that CUTLASS has no kernels for. They do a handful of flops per byte,
// so their cost is their DRAM traffic: the best kernel reads x once and writes y once, at HBM speed
// (~4.8 TB/s on the H200). That rules out the textbook structure of one pass for statistics and
// another over x for the output. Here each CTA loads its piece of a row into registers with
// vectorized, coalesced loads, computes the statistics from the registers in two exact passes
// (max, then the sum of exp(x - max); mean, then the sum of squared deviations), as PyTorch does,
// and writes the output from the same registers. No online-softmax rescaling, no Welford updates:
// the accuracy of the two-pass formulas at the price of one read.
//
// A row longer than one CTA's registers is cut into `splits` chunks. Kernel 1 writes each chunk's
// partial statistics to a caller-given workspace; kernel 2 either combines a row's partials into
// its reduction result, or, for ops with a [rows, length] output, reloads each chunk (partly from
// L2), combines the row's partials and writes the chunk. The emitter picks Threads, Access, Items
// and splits so that a chunk fits the registers; can_implement says why a choice does not.
//
// Special values follow torch: softmax and log_softmax give NaN for a row of all -inf or holding
// +inf; logsumexp gives -inf for a row of all -inf and +inf for a row holding +inf; amax propagates
// NaN; argmax ranks NaN above everything and picks the first index among equals.
//
// ucutlass emits this file into generated headers that use a row-wise operator, so a header stays
// self-contained; the guard lets several such headers share a unit. It needs the CUDA runtime only.
#ifndef UCUTLASS_ROW_KERNELS_HPP
#define UCUTLASS_ROW_KERNELS_HPP

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

namespace ucutlass_rows {

enum class RowOp : int { softmax, log_softmax, logsumexp, layernorm, groupnorm, sum, mean, amax, argmax };

struct RowArgs {
  const void* x = nullptr;       // ElementX [rows, length]
  void* y = nullptr;             // ElementY [rows, length] (softmax, log_softmax, layernorm, groupnorm) or
                                 // [rows] (logsumexp, sum, mean, amax); int64_t [rows] for argmax
  const void* weight = nullptr;  // ElementX, optional affine scale (layernorm: [length], groupnorm: [C])
  const void* bias = nullptr;    // ElementX, optional affine shift
  int64_t rows = 0, length = 0;
  int64_t groups = 1, channel_span = 1;  // groupnorm only
  float eps = 1e-5f;
  int splits = 1;             // CTAs per row
  void* workspace = nullptr;  // splits > 1: workspace_bytes(rows, splits) bytes
};

namespace detail {

__host__ __device__ constexpr bool is_softmax_family(RowOp op) {
  return op == RowOp::softmax || op == RowOp::log_softmax || op == RowOp::logsumexp;
}
__host__ __device__ constexpr bool is_norm(RowOp op) { return op == RowOp::layernorm || op == RowOp::groupnorm; }
// Ops whose output has the shape of x, as opposed to one value per row.
__host__ __device__ constexpr bool writes_rows(RowOp op) {
  return op == RowOp::softmax || op == RowOp::log_softmax || is_norm(op);
}

// Partial statistics of one chunk of a row: what kernel 1 leaves in the workspace when a row spans
// several CTAs, and, for a whole row, what the output is computed from.
struct MaxAndExpSum {
  float max;
  float exp_sum;  // sum of exp(x - exp_shift(max)) over the chunk
};
struct Moments {
  float count;
  float mean;
  float m2;  // sum of (x - mean)^2 over the chunk
};
struct MaxAndIndex {
  float value;
  int64_t index;  // within the row
};

// The sum of a chunk for sum and mean, its max for amax.
template <RowOp Op>
using Partial = std::conditional_t<
    is_softmax_family(Op), MaxAndExpSum,
    std::conditional_t<is_norm(Op), Moments, std::conditional_t<Op == RowOp::argmax, MaxAndIndex, float>>>;

// Named conversions rather than the element types' conversion operators: builds that define
// __CUDA_NO_BFLOAT16_CONVERSIONS__ (PyTorch's do) remove those operators. float and bf16 are here;
// f16's specialization is in row_kernels_f16.hpp, which the emitter adds only to programs whose row
// kernels read or write f16, so an f32 solution carries no half-precision code (KernelBench's static
// checker rejects fp16 text in an fp32 problem's solution). Other element types, such as CUTLASS's
// numeric types, fall back to their own conversions.
template <class Element>
struct ElementConvert {
  __device__ static float to_float(Element v) { return static_cast<float>(v); }
  __device__ static Element from_float(float v) { return static_cast<Element>(v); }
};
template <>
struct ElementConvert<float> {
  __device__ static float to_float(float v) { return v; }
  __device__ static float from_float(float v) { return v; }
};
template <>
struct ElementConvert<__nv_bfloat16> {
  __device__ static float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
  __device__ static __nv_bfloat16 from_float(float v) { return __float2bfloat16_rn(v); }
};

template <class Element>
__device__ __forceinline__ float to_float(Element v) {
  return ElementConvert<Element>::to_float(v);
}

template <class Element>
__device__ __forceinline__ Element from_float(float v) {
  return ElementConvert<Element>::from_float(v);
}

// The register type of one aligned global access of Bytes bytes, so that a vector of any element
// type moves with a single ld/st instruction.
template <int Bytes>
struct AccessWord;
template <>
struct AccessWord<2> {
  using type = unsigned short;
};
template <>
struct AccessWord<4> {
  using type = unsigned int;
};
template <>
struct AccessWord<8> {
  using type = uint2;
};
template <>
struct AccessWord<16> {
  using type = uint4;
};

// Streaming loads are marked evict-first: x is read once, and keeping it out of L2 leaves L2 to the
// output, which the next kernel of the program reads. Kernel 1 of a split row loads without the
// hint because kernel 2 reads the same chunks again.
template <class Element, int Access, bool Streaming>
__device__ __forceinline__ void load_vector(const Element* source, float (&out)[Access]) {
  constexpr int kBytes = Access * int(sizeof(Element));
  using Word = typename AccessWord<kBytes>::type;
  const Word* word_source = reinterpret_cast<const Word*>(source);
  const Word word = Streaming ? __ldcs(word_source) : __ldg(word_source);
  Element elements[Access];
  memcpy(elements, &word, kBytes);
#pragma unroll
  for (int k = 0; k < Access; ++k) out[k] = to_float(elements[k]);
}

// A float output from a narrow input can be wider than 16 bytes per vector (8 bf16 in, 8 floats
// out), which takes several stores.
template <class Element, int Access>
__host__ __device__ constexpr int store_piece_bytes() {
  return Access * int(sizeof(Element)) < 16 ? Access * int(sizeof(Element)) : 16;
}

template <class Element, int Access>
__device__ __forceinline__ void store_vector(Element* destination, const float (&in)[Access]) {
  constexpr int kBytes = Access * int(sizeof(Element));
  constexpr int kPieceBytes = store_piece_bytes<Element, Access>();
  using Word = typename AccessWord<kPieceBytes>::type;
  Element elements[Access];
#pragma unroll
  for (int k = 0; k < Access; ++k) elements[k] = from_float<Element>(in[k]);
  Word* word_destination = reinterpret_cast<Word*>(destination);
#pragma unroll
  for (int piece = 0; piece < kBytes / kPieceBytes; ++piece) {
    Word word;
    memcpy(&word, reinterpret_cast<const char*>(elements) + piece * kPieceBytes, kPieceBytes);
    word_destination[piece] = word;
  }
}

// A value of any trivially copyable type moves between lanes as 32-bit words.
template <class T>
__device__ __forceinline__ T shuffle_xor(T value, int lane_mask) {
  static_assert(sizeof(T) % 4 == 0, "a shuffled value is made of 32-bit words");
  int words[sizeof(T) / 4];
  memcpy(words, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < int(sizeof(T) / 4); ++w) words[w] = __shfl_xor_sync(0xffffffffu, words[w], lane_mask);
  memcpy(&value, words, sizeof(T));
  return value;
}

// Every lane ends with the combination of all 32 lanes' values. The combines below are commutative
// bit for bit, so the butterfly gives all lanes the same result.
template <class T, class Combine>
__device__ __forceinline__ T warp_reduce(T value, Combine combine) {
#pragma unroll
  for (int lane_mask = 16; lane_mask > 0; lane_mask /= 2) value = combine(value, shuffle_xor(value, lane_mask));
  return value;
}

// Every thread ends with the combination of all Threads threads' values, combined in the same order
// in every thread, so that all threads of a CTA, and all CTAs of a split row, agree bit for bit.
template <int Threads, class T, class Combine>
__device__ __forceinline__ T cta_reduce(T value, Combine combine) {
  constexpr int kWarps = Threads / 32;
  __shared__ T warp_values[kWarps];
  value = warp_reduce(value, combine);
  // The previous reduction over the same type may still be reading warp_values.
  __syncthreads();
  if (threadIdx.x % 32 == 0) warp_values[threadIdx.x / 32] = value;
  __syncthreads();
  T result = warp_values[0];
#pragma unroll
  for (int w = 1; w < kWarps; ++w) result = combine(result, warp_values[w]);
  return result;
}

// The threads that combine one row's partials: the CTA of a chunk that writes outputs, or one warp
// per row for the reductions.
template <int Threads>
struct CtaGroup {
  static constexpr int kSize = Threads;
  __device__ static int rank() { return int(threadIdx.x); }
  template <class T, class Combine>
  __device__ static T reduce(T value, Combine combine) {
    return cta_reduce<Threads>(value, combine);
  }
};

struct WarpGroup {
  static constexpr int kSize = 32;
  __device__ static int rank() { return int(threadIdx.x % 32); }
  template <class T, class Combine>
  __device__ static T reduce(T value, Combine combine) {
    return warp_reduce(value, combine);
  }
};

struct Sum {
  __device__ static float identity() { return 0.f; }
  __device__ static float lift(float v, int) { return v; }
  __device__ float operator()(float a, float b) const { return a + b; }
};

// The softmax family's max ignores NaN (fmaxf): a NaN still reaches the output through exp.
struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

struct MaxPropagatingNan {
  __device__ static float identity() { return -INFINITY; }
  __device__ static float lift(float v, int) { return v; }
  __device__ float operator()(float a, float b) const { return (isnan(a) || a > b) ? a : b; }
};

// torch.argmax's order: NaN above every number, then the first index among equal values.
struct FirstLargest {
  __device__ static MaxAndIndex identity() { return {-INFINITY, INT64_MAX}; }
  __device__ static MaxAndIndex lift(float v, int index) { return {v, index}; }
  __device__ static bool ranks_above(const MaxAndIndex& a, const MaxAndIndex& b) {
    if (isnan(a.value)) return !isnan(b.value) || a.index < b.index;
    if (isnan(b.value)) return false;
    return a.value > b.value || (a.value == b.value && a.index < b.index);
  }
  __device__ MaxAndIndex operator()(const MaxAndIndex& a, const MaxAndIndex& b) const {
    return ranks_above(b, a) ? b : a;
  }
};

// Partials of sum, mean, amax and argmax combine with one associative operator.
template <RowOp Op>
using PlainCombine = std::conditional_t<Op == RowOp::argmax, FirstLargest,
                                        std::conditional_t<Op == RowOp::amax, MaxPropagatingNan, Sum>>;

// What exp's argument is shifted by, given the max. An all -inf chunk shifts by 0 so that it sums to
// 0 instead of NaN (-inf - -inf). logsumexp also shifts a +inf max by 0, as torch.logsumexp does, so
// that a row holding +inf gives +inf; softmax keeps the NaN torch gives for it.
template <RowOp Op>
__device__ __forceinline__ float exp_shift(float max) {
  if constexpr (Op == RowOp::logsumexp) {
    return isinf(max) ? 0.f : max;
  } else {
    return max == -INFINITY ? 0.f : max;
  }
}

// A chunk's exp_sum re-expressed relative to the row's shift. An empty or all -inf chunk has a zero
// exp_sum whose shift is 0; exp(0 - shift) can overflow for a row max below about -88, and 0 * inf
// would be NaN, so such a chunk contributes 0 without the exp.
template <RowOp Op>
__device__ __forceinline__ float exp_sum_at(const MaxAndExpSum& chunk, float row_shift) {
  return chunk.exp_sum == 0.f ? 0.f : chunk.exp_sum * expf(exp_shift<Op>(chunk.max) - row_shift);
}

struct RowParams {
  const void* x;
  void* y;
  const void* weight;
  const void* bias;
  void* workspace;
  int64_t rows;
  int length;  // can_implement bounds it by splits x chunk capacity <= 2^28
  int splits;
  int chunk_length;  // a multiple of Access
  int groups;
  int channel_span;
  int channels_per_group;
  float eps;
};

// The part [begin, end) of a row that one CTA owns, held in registers as floats: thread t holds
// the Access-vectors t, t + Threads, t + 2 Threads, ..., so that a warp's loads are contiguous.
template <class ElementX, int Threads, int Access, int Items>
class ChunkInRegisters {
 public:
  __device__ ChunkInRegisters(int begin, int end) : begin_(begin), end_(end) {}

  __device__ bool empty() const { return begin_ >= end_; }
  __device__ int size() const { return empty() ? 0 : end_ - begin_; }
  __device__ int begin() const { return begin_; }

  // All loads are issued before any value is used, so each thread has Items loads in flight.
  template <bool Streaming>
  __device__ void load(const ElementX* x_row) {
#pragma unroll
    for (int item = 0; item < Items; ++item) {
      const int offset = offset_of(item);
      if (offset < end_) load_vector<ElementX, Access, Streaming>(x_row + offset, values_[item]);
    }
  }

  // f(float (&values)[Access], int offset_in_row) for each of this thread's vectors inside the chunk;
  // a chunk's length is a multiple of Access, so vectors are whole or absent.
  template <class F>
  __device__ void for_each_vector(F&& f) {
#pragma unroll
    for (int item = 0; item < Items; ++item) {
      const int offset = offset_of(item);
      if (offset < end_) f(values_[item], offset);
    }
  }

  // f(float& value, int index_in_row) for each of this thread's elements, in increasing index order.
  template <class F>
  __device__ void for_each(F&& f) {
    for_each_vector([&](float(&vector)[Access], int offset) {
#pragma unroll
      for (int k = 0; k < Access; ++k) f(vector[k], offset + k);
    });
  }

 private:
  __device__ int offset_of(int item) const { return begin_ + (item * Threads + int(threadIdx.x)) * Access; }

  float values_[Items][Access];
  int begin_;
  int end_;
};

template <RowOp Op, class ElementX, class ElementY, int Threads, int Access, int Items>
struct RowImpl {
  static constexpr int kThreads = Threads;
  using PartialType = Partial<Op>;
  using Chunk = ChunkInRegisters<ElementX, Threads, Access, Items>;
  using Cta = CtaGroup<Threads>;

  // Statistics of the CTA's chunk, the same in every thread. softmax leaves exp(x - shift) in the
  // registers, so that the single-pass kernel only scales them.
  __device__ static PartialType chunk_partial(Chunk& chunk, const ElementX* x_row) {
    if constexpr (is_softmax_family(Op)) {
      float max = -INFINITY;
      chunk.for_each([&](float& v, int) { max = fmaxf(max, v); });
      max = Cta::reduce(max, Max{});
      const float shift = exp_shift<Op>(max);
      float exp_sum = 0.f;
      chunk.for_each([&](float& v, int) {
        const float e = expf(v - shift);
        exp_sum += e;
        if constexpr (Op == RowOp::softmax) v = e;
      });
      return {max, Cta::reduce(exp_sum, Sum{})};
    } else if constexpr (is_norm(Op)) {
      // The mean is summed as offsets from one element of the chunk: when the mean is large next to
      // the spread (x = 100 + noise), a float sum of x itself would lose the mean's low bits, and
      // the output's error is the mean's error times rstd.
      float reference[1] = {0.f};
      if (!chunk.empty()) load_vector<ElementX, 1, false>(x_row + chunk.begin(), reference);
      const float count = float(chunk.size());
      float offset_sum = 0.f;
      chunk.for_each([&](float& v, int) { offset_sum += v - reference[0]; });
      offset_sum = Cta::reduce(offset_sum, Sum{});
      const float mean = count > 0.f ? reference[0] + offset_sum / count : 0.f;
      float m2 = 0.f;
      chunk.for_each([&](float& v, int) {
        const float deviation = v - mean;
        m2 += deviation * deviation;
      });
      return {count, mean, Cta::reduce(m2, Sum{})};
    } else if constexpr (Op == RowOp::argmax) {
      // A thread meets its elements in increasing index order, so "strictly greater" keeps the first
      // of equal values and the first NaN stops the scan: two float compares per element with a
      // 32-bit index, where FirstLargest's general combine (NaN tests on both sides, 64-bit index
      // ties) made the kernel issue-bound at 61% of DRAM bandwidth on the H200 (2026-12-01).
      float best = -INFINITY;
      int best_index = -1;  // none yet: an all -inf chunk still reports its first index
      bool found_nan = false;
      chunk.for_each([&](float& v, int index) {
        const bool take = !found_nan && (v > best || best_index < 0 || v != v);
        best = take ? v : best;
        best_index = take ? index : best_index;
        found_nan = found_nan || v != v;
      });
      const MaxAndIndex mine = best_index < 0 ? FirstLargest::identity() : MaxAndIndex{best, best_index};
      return Cta::reduce(mine, FirstLargest{});
    } else {
      using Combine = PlainCombine<Op>;
      PartialType partial = Combine::identity();
      chunk.for_each([&](float& v, int index) { partial = Combine{}(partial, Combine::lift(v, index)); });
      return Cta::reduce(partial, Combine{});
    }
  }

  // The statistics of a whole row from its `splits` chunk partials, the same in every thread of the
  // group. Moments combine as Chan et al.'s parallel formula does, over all chunks at once: the
  // row's mean first (averaging the chunk means as offsets from chunk 0's, which is never empty, for
  // the reason chunk_partial sums offsets), then M2 = sum of (M2_j + n_j (mean_j - mean)^2).
  template <class Group>
  __device__ static PartialType combine_row_partials(const PartialType* parts, int splits, int length) {
    if constexpr (is_softmax_family(Op)) {
      float max = -INFINITY;
      for (int j = Group::rank(); j < splits; j += Group::kSize) max = fmaxf(max, parts[j].max);
      max = Group::reduce(max, Max{});
      const float shift = exp_shift<Op>(max);
      float exp_sum = 0.f;
      for (int j = Group::rank(); j < splits; j += Group::kSize) exp_sum += exp_sum_at<Op>(parts[j], shift);
      return {max, Group::reduce(exp_sum, Sum{})};
    } else if constexpr (is_norm(Op)) {
      const float reference = parts[0].mean;
      float offset_sum = 0.f;
      for (int j = Group::rank(); j < splits; j += Group::kSize)
        offset_sum += parts[j].count * (parts[j].mean - reference);
      const float mean = reference + Group::reduce(offset_sum, Sum{}) / float(length);
      float m2 = 0.f;
      for (int j = Group::rank(); j < splits; j += Group::kSize) {
        const float deviation = parts[j].mean - mean;
        m2 += parts[j].m2 + parts[j].count * deviation * deviation;
      }
      return {float(length), mean, Group::reduce(m2, Sum{})};
    } else {
      using Combine = PlainCombine<Op>;
      PartialType partial = Combine::identity();
      for (int j = Group::rank(); j < splits; j += Group::kSize) partial = Combine{}(partial, parts[j]);
      return Group::reduce(partial, Combine{});
    }
  }

  // Writes y for the chunk from the row's statistics. ValuesHoldExp: the registers hold softmax's
  // exp(x - shift) already (single pass), rather than x (kernel 2 of a split row).
  template <bool ValuesHoldExp>
  __device__ static void write_row_chunk(Chunk& chunk, const PartialType& row_stats, const RowParams& p, int64_t row) {
    ElementY* y_row = static_cast<ElementY*>(p.y) + row * p.length;
    if constexpr (Op == RowOp::softmax) {
      const float shift = exp_shift<Op>(row_stats.max);
      const float inverse_sum = __frcp_rn(row_stats.exp_sum);
      chunk.for_each_vector([&](float(&v)[Access], int offset) {
#pragma unroll
        for (int k = 0; k < Access; ++k) v[k] = (ValuesHoldExp ? v[k] : expf(v[k] - shift)) * inverse_sum;
        store_vector<ElementY, Access>(y_row + offset, v);
      });
    } else if constexpr (Op == RowOp::log_softmax) {
      const float shift = exp_shift<Op>(row_stats.max);
      const float log_sum = logf(row_stats.exp_sum);
      // x - shift is exact for x near the max, so subtracting log_sum last keeps the small outputs precise.
      chunk.for_each_vector([&](float(&v)[Access], int offset) {
#pragma unroll
        for (int k = 0; k < Access; ++k) v[k] = (v[k] - shift) - log_sum;
        store_vector<ElementY, Access>(y_row + offset, v);
      });
    } else {
      static_assert(is_norm(Op), "only softmax, log_softmax and the norms write rows");
      const float mean = row_stats.mean;
      const float rstd = rsqrtf(row_stats.m2 / row_stats.count + p.eps);
      const ElementX* weight = static_cast<const ElementX*>(p.weight);
      const ElementX* bias = static_cast<const ElementX*>(p.bias);
      if (Op == RowOp::layernorm || (weight == nullptr && bias == nullptr)) {
        // An affine per element of the row; groupnorm without an affine is layernorm without one.
        chunk.for_each_vector([&](float(&v)[Access], int offset) {
          float scale[Access], shift[Access];
          if (weight != nullptr) {
            load_vector<ElementX, Access, false>(weight + offset, scale);
          } else {
#pragma unroll
            for (int k = 0; k < Access; ++k) scale[k] = 1.f;
          }
          if (bias != nullptr) {
            load_vector<ElementX, Access, false>(bias + offset, shift);
          } else {
#pragma unroll
            for (int k = 0; k < Access; ++k) shift[k] = 0.f;
          }
#pragma unroll
          for (int k = 0; k < Access; ++k) v[k] = (v[k] - mean) * rstd * scale[k] + shift[k];
          store_vector<ElementY, Access>(y_row + offset, v);
        });
      } else {
        // An affine per channel: the row is channels_per_group runs of channel_span elements, and
        // one division per vector finds the first element's channel; a run may end inside a vector
        // when channel_span is not a multiple of Access.
        const int first_channel = int(row % p.groups) * p.channels_per_group;
        const unsigned span = unsigned(p.channel_span);
        auto load_affine = [&](unsigned channel, float& scale, float& shift) {
          float value[1];
          scale = 1.f;
          shift = 0.f;
          if (weight != nullptr) {
            load_vector<ElementX, 1, false>(weight + first_channel + channel, value);
            scale = value[0];
          }
          if (bias != nullptr) {
            load_vector<ElementX, 1, false>(bias + first_channel + channel, value);
            shift = value[0];
          }
        };
        chunk.for_each_vector([&](float(&v)[Access], int offset) {
          unsigned channel = unsigned(offset) / span;
          unsigned within_channel = unsigned(offset) - channel * span;
          float scale, shift;
          load_affine(channel, scale, shift);
#pragma unroll
          for (int k = 0; k < Access; ++k) {
            if (within_channel == span) {
              within_channel = 0;
              ++channel;
              load_affine(channel, scale, shift);
            }
            v[k] = (v[k] - mean) * rstd * scale + shift;
            ++within_channel;
          }
          store_vector<ElementY, Access>(y_row + offset, v);
        });
      }
    }
  }

  // y[row] of a reduction op from the row's statistics.
  __device__ static void store_reduction(const PartialType& row_stats, const RowParams& p, int64_t row) {
    if constexpr (Op == RowOp::argmax) {
      static_cast<int64_t*>(p.y)[row] = row_stats.index;
    } else {
      float value;
      if constexpr (Op == RowOp::logsumexp) {
        value = exp_shift<Op>(row_stats.max) + logf(row_stats.exp_sum);
      } else if constexpr (Op == RowOp::mean) {
        value = row_stats / float(p.length);
      } else {
        static_assert(Op == RowOp::sum || Op == RowOp::amax, "the remaining reductions store their partial");
        value = row_stats;
      }
      static_cast<ElementY*>(p.y)[row] = from_float<ElementY>(value);
    }
  }

  // splits == 1: a CTA per row, one read of x, one write of y.
  __device__ static void single_pass(const RowParams& p) {
    const int64_t row = blockIdx.x;
    const ElementX* x_row = static_cast<const ElementX*>(p.x) + row * p.length;
    Chunk chunk(0, p.length);
    chunk.template load<true>(x_row);
    const PartialType row_stats = chunk_partial(chunk, x_row);
    if constexpr (writes_rows(Op)) {
      write_row_chunk<true>(chunk, row_stats, p, row);
    } else if (threadIdx.x == 0) {
      store_reduction(row_stats, p, row);
    }
  }

  __device__ static Chunk chunk_of(const RowParams& p, int split) {
    const int begin = split * p.chunk_length;
    return Chunk(begin, min(begin + p.chunk_length, p.length));
  }

  // splits > 1, kernel 1: a CTA per chunk writes the chunk's partial. An empty chunk (more splits
  // than the row needs) still writes its identity partial, since kernel 2 reads them all.
  __device__ static void chunk_partials(const RowParams& p) {
    const int64_t linear = blockIdx.x;
    const int64_t row = linear / p.splits;
    const ElementX* x_row = static_cast<const ElementX*>(p.x) + row * p.length;
    Chunk chunk = chunk_of(p, int(linear % p.splits));
    chunk.template load<false>(x_row);
    const PartialType partial = chunk_partial(chunk, x_row);
    if (threadIdx.x == 0) static_cast<PartialType*>(p.workspace)[linear] = partial;
  }

  // splits > 1, kernel 2 of the ops that write rows: a CTA per chunk. Kernel 1 walked the chunks in
  // increasing order, so the last ones it read are still in L2; walking them backwards turns the
  // first of these re-reads into L2 hits.
  __device__ static void finish_chunks(const RowParams& p) {
    const int64_t linear = int64_t(gridDim.x) - 1 - blockIdx.x;
    const int64_t row = linear / p.splits;
    Chunk chunk = chunk_of(p, int(linear % p.splits));
    if (chunk.empty()) return;
    // The partials are combined before the chunk is loaded, not while its loads are in flight: that
    // overlap costs about 12 registers per thread, enough to halve the CTAs per SM of a 512-thread
    // CTA, and the other resident CTAs hide the combine's latency anyway.
    const PartialType* row_parts = static_cast<const PartialType*>(p.workspace) + row * p.splits;
    const PartialType row_stats = combine_row_partials<Cta>(row_parts, p.splits, p.length);
    chunk.template load<true>(static_cast<const ElementX*>(p.x) + row * p.length);
    write_row_chunk<false>(chunk, row_stats, p, row);
  }

  static constexpr int kFinishRowsThreads = 256;

  // splits > 1, kernel 2 of the reductions: a warp per row combines the row's partials.
  __device__ static void finish_rows(const RowParams& p) {
    const int64_t row = int64_t(blockIdx.x) * (kFinishRowsThreads / 32) + threadIdx.x / 32;
    if (row >= p.rows) return;
    const PartialType* row_parts = static_cast<const PartialType*>(p.workspace) + row * p.splits;
    const PartialType row_stats = combine_row_partials<WarpGroup>(row_parts, p.splits, p.length);
    if (threadIdx.x % 32 == 0) store_reduction(row_stats, p, row);
  }
};

template <class Impl>
__global__ void __launch_bounds__(Impl::kThreads) row_single_pass_kernel(RowParams p) {
  Impl::single_pass(p);
}

template <class Impl>
__global__ void __launch_bounds__(Impl::kThreads) row_chunk_partials_kernel(RowParams p) {
  Impl::chunk_partials(p);
}

template <class Impl>
__global__ void __launch_bounds__(Impl::kThreads) row_finish_chunks_kernel(RowParams p) {
  Impl::finish_chunks(p);
}

template <class Impl>
__global__ void __launch_bounds__(Impl::kFinishRowsThreads) row_finish_rows_kernel(RowParams p) {
  Impl::finish_rows(p);
}

inline bool is_aligned(const void* pointer, int64_t bytes) {
  return reinterpret_cast<uintptr_t>(pointer) % uint64_t(bytes) == 0;
}

// Formats can_implement's reason into a per-thread buffer, valid until the thread's next call.
template <class... Args>
inline cudaError_t reject(const char** why, const char* format, Args... args) {
  static thread_local char reason[256];
  snprintf(reason, sizeof(reason), format, args...);
  if (why != nullptr) *why = reason;
  return cudaErrorInvalidValue;
}

}  // namespace detail

template <RowOp Op, class ElementX, class ElementY, int Threads, int Access, int Items>
struct RowKernel {
  static_assert(Threads == 128 || Threads == 256 || Threads == 512 || Threads == 1024,
                "Threads is one of 128, 256, 512, 1024");
  static_assert(Access == 1 || Access == 2 || Access == 4 || Access == 8, "Access is one of 1, 2, 4, 8");
  static_assert(Access * sizeof(ElementX) <= 16, "a vectorized load reads at most 16 bytes");
  static_assert(Access * sizeof(ElementX) >= 2, "a vectorized load reads at least 2 bytes");
  static_assert(Items >= 1 && Items <= 32, "Items is in 1..32");

  using Impl = detail::RowImpl<Op, ElementX, ElementY, Threads, Access, Items>;
  using Partial = typename Impl::PartialType;
  using ElementOut = std::conditional_t<Op == RowOp::argmax, int64_t, ElementY>;

  static constexpr int64_t kChunkCapacity = int64_t(Threads) * Access * Items;
  // Kernel 2 reads all of a row's partials in each of its CTAs or warps.
  static constexpr int kMaxSplits = 1024;

  static size_t workspace_bytes(int64_t rows, int splits) {
    return splits > 1 && rows > 0 ? size_t(rows) * size_t(splits) * sizeof(Partial) : 0;
  }

  // ceil(length / splits) rounded up to whole vectors.
  static int64_t chunk_length(int64_t length, int splits) {
    const int64_t elements = (length + splits - 1) / splits;
    return (elements + Access - 1) / Access * Access;
  }

  static cudaError_t can_implement(const RowArgs& a, const char** why = nullptr) {
    using detail::reject;
    constexpr int64_t kLoadBytes = Access * int64_t(sizeof(ElementX));
    if (a.x == nullptr || a.y == nullptr)
      return reject(why, "x and y must be device pointers; %s is null", a.x ? "y" : "x");
    if (a.rows < 0) return reject(why, "rows is %lld; it must not be negative", (long long)a.rows);
    if (a.length < 1) return reject(why, "length is %lld; a row needs at least one element", (long long)a.length);
    if (a.splits < 1 || a.splits > kMaxSplits)
      return reject(why, "splits is %d; it must be in 1..%d", a.splits, kMaxSplits);
    if (a.length % Access != 0)
      return reject(why, "length %lld is not a multiple of Access = %d, the elements of one vectorized load",
                    (long long)a.length, Access);
    if (!detail::is_aligned(a.x, kLoadBytes))
      return reject(why, "x is not aligned to %lld bytes, the width of one vectorized load", (long long)kLoadBytes);
    const int64_t y_alignment =
        detail::writes_rows(Op) ? detail::store_piece_bytes<ElementY, Access>() : int64_t(sizeof(ElementOut));
    if (!detail::is_aligned(a.y, y_alignment))
      return reject(why, "y is not aligned to %lld bytes, the width of one store", (long long)y_alignment);
    const int64_t affine_alignment = Op == RowOp::layernorm ? kLoadBytes : int64_t(sizeof(ElementX));
    if (!detail::is_aligned(a.weight, affine_alignment) || !detail::is_aligned(a.bias, affine_alignment))
      return reject(why, "weight and bias must be aligned to %lld bytes", (long long)affine_alignment);
    if (Op == RowOp::groupnorm) {
      if (a.groups < 1 || a.groups > INT_MAX)
        return reject(why, "groups is %lld; it must be in 1..2^31-1", (long long)a.groups);
      if (a.channel_span < 1 || a.length % a.channel_span != 0)
        return reject(why, "channel_span %lld does not divide length %lld: a groupnorm row holds whole channels",
                      (long long)a.channel_span, (long long)a.length);
    }
    const int64_t chunk = chunk_length(a.length, a.splits);
    if (chunk > kChunkCapacity)
      return reject(why,
                    "a chunk of %lld elements exceeds the Threads x Access x Items = %lld the CTA holds in "
                    "registers; use splits >= %lld or more Items",
                    (long long)chunk, (long long)kChunkCapacity,
                    (long long)((a.length + kChunkCapacity - 1) / kChunkCapacity));
    if (a.rows > INT_MAX / a.splits)
      return reject(why, "rows x splits = %lld x %d CTAs exceeds the grid's 2^31-1", (long long)a.rows, a.splits);
    if (!detail::is_aligned(a.workspace, alignof(Partial)))
      return reject(why, "workspace is not aligned to %zu bytes", alignof(Partial));
    if (why != nullptr) *why = "";
    return cudaSuccess;
  }

  // A split row also needs the workspace, which can_implement does not ask for: callers validate
  // the problem first and size the workspace from workspace_bytes afterwards.
  static cudaError_t run(const RowArgs& a, cudaStream_t stream) {
    if (const cudaError_t status = can_implement(a); status != cudaSuccess) return status;
    if (a.rows == 0) return cudaSuccess;
    if (a.splits > 1 && a.workspace == nullptr) return cudaErrorInvalidValue;
    detail::RowParams p;
    p.x = a.x;
    p.y = a.y;
    p.weight = a.weight;
    p.bias = a.bias;
    p.workspace = a.workspace;
    p.rows = a.rows;
    p.length = int(a.length);
    p.splits = a.splits;
    p.chunk_length = int(chunk_length(a.length, a.splits));
    // Only groupnorm's channel fields were validated; the other ops never read them.
    const bool per_channel = Op == RowOp::groupnorm;
    p.groups = per_channel ? int(a.groups) : 1;
    p.channel_span = per_channel ? int(a.channel_span) : 1;
    p.channels_per_group = per_channel ? int(a.length / a.channel_span) : 1;
    p.eps = a.eps;
    const unsigned ctas = unsigned(a.rows * a.splits);
    if (a.splits == 1) {
      detail::row_single_pass_kernel<Impl><<<ctas, Threads, 0, stream>>>(p);
    } else {
      detail::row_chunk_partials_kernel<Impl><<<ctas, Threads, 0, stream>>>(p);
      if constexpr (detail::writes_rows(Op)) {
        detail::row_finish_chunks_kernel<Impl><<<ctas, Threads, 0, stream>>>(p);
      } else {
        constexpr int kRowsPerCta = Impl::kFinishRowsThreads / 32;
        const unsigned finish_ctas = unsigned((a.rows + kRowsPerCta - 1) / kRowsPerCta);
        detail::row_finish_rows_kernel<Impl><<<finish_ctas, Impl::kFinishRowsThreads, 0, stream>>>(p);
      }
    }
    return cudaGetLastError();
  }
};

}  // namespace ucutlass_rows

#endif  // UCUTLASS_ROW_KERNELS_HPP

// Fused attention forward for SM90 on fp32 tensors, FlashAttention-2 style:
//   O[b, i, :] = sum_j softmax_j(scale * Q[b, i, :] . K[b, j, :], masked entries = -inf) V[b, j, :]
// for Q [batch, seq_q, D], K and V [batch, seq_k, D], O [batch, seq_q, D], all contiguous fp32.
//
// Why this exists: scaled dot-product attention written as two GEMMs around a softmax writes and
// reads the [seq_q, seq_k] scores of every batch entry, 4 GB for 512 heads of 1024 x 1024, which
// costs more than the GEMMs themselves. Here a CTA owns BlockQ query rows of one batch entry and
// walks the keys in tiles of BlockK: S = Q K^T for the tile, an online softmax (a running row max
// m and row sum l; the output so far is rescaled by exp(m_old - m_new) whenever the max grows),
// then O += P V. The scores live only in registers.
//
// Precision: Q, K and V are rounded to bf16 and multiplied with mma.sync m16n8k16 (bf16 in, fp32
// accumulate); P is rounded to bf16 for the second product. The softmax statistics and O stay
// fp32. With SplitScores, S = Q K^T is computed to about fp32 accuracy instead, in three bf16
// products: each of Q and K is split into a bf16 high part and the bf16 rounding of the remainder
// (x = hi + lo to about 2^-17 relative), and S = Qhi Khi + Qhi Klo + Qlo Khi (the dropped Qlo Klo is
// 2^-18 of |Q||K|). Why: an error in a score is an error in an exponent. Rounding Q and K to bf16 moves
// a score by up to about 2^-8 of sum_d |q_d k_d|, which for unnormalized inputs (the harness's
// 4 x - 1 redraw of the problems' q and k, or N(0, 1) ones scaled by 4: |s| of tens) moves the
// softmax weights by percents; on level3/004 that missed 1e-2 on 19 of 16.8M outputs. The split
// costs twice the Q registers, twice the K shared memory and three times the S products; P V is
// unchanged. The row sum adds the rounded weights the product used, so O is an exact convex combination
// of V's rows and P's rounding (2^-9 relative per weight) moves O by at most about 2^-9 times the
// weighted mean of |V[j] - O|: up to 3e-3 on a row dominated by a few keys of randn V. Callers
// use this under a 1e-2 tolerance, not as an fp32-exact kernel.
//
// Data flow: each warp owns 16 query rows, whose Q fragments it loads straight from global memory
// once and keeps in registers. K and V tiles go global fp32 -> registers -> bf16 in shared memory,
// double buffered, so that the loads of the next live tile are in flight while the current one is
// computed: the K loads across the S product, the V loads across the softmax and the P V product.
// The inputs being fp32 rules out cp.async into the tiles the MMAs read (it cannot convert), and a
// converting pass through an fp32 staging copy would cost as much shared memory again. One
// __syncthreads per tile. The B fragments come from ldmatrix (.trans for V); P's A fragments are
// the S accumulators repacked, since the C layout of two adjacent m16n8 tiles is the A layout of
// one m16n8k16. exp is exp2 with |scale| log2(e) folded into one FMA per score; a negative scale
// negates Q instead, which is exact in bf16, so the scores' scale stays positive.
//
// Masking: an optional [seq_q, seq_k] byte mask (nonzero = masked, torch's masked_fill(mask, -inf)
// on a bool mask) shared by every batch entry, and/or causal (key j masked for query i when j > i,
// torch.triu(ones, diagonal=1), top-left aligned when seq_q != seq_k). Keys past seq_k are masked.
// A tile that is masked for every query of the CTA is skipped: causal tiles past the block's last
// query are never visited, and the explicit mask is classified 32 tiles at a time by the whole
// CTA (each thread reads half a row of each tile with 16-byte loads, one warp reduction and one
// __syncthreads per 32 tiles). The same pass finds the tiles that the mask leaves entirely
// unmasked, which need no per-score masking at all; only the tiles on a mask's edges read mask
// bytes per score. A query row whose keys are all masked gets 0/0 = NaN in every column, as
// torch's softmax of all -inf gives.
//
// CTAs are launched heaviest first (the last query blocks, which a causal mask leaves the most
// keys) so that the tail of the grid is short, and consecutive CTAs share a batch entry, so that
// its K and V stay in L2. A grid row per batch entry up to 65535; beyond, CTAs loop over entries.
//
// ucutlass emits this file into generated headers that run attention, so a header stays
// self-contained; the guard lets several such headers share a unit. It needs the CUDA runtime only.
#ifndef UCUTLASS_ATTENTION_KERNELS_HPP
#define UCUTLASS_ATTENTION_KERNELS_HPP

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace ucutlass_attn {

struct AttentionArgs {
  const float* q = nullptr;             // [batch, seq_q, head_dim]
  const float* k = nullptr;             // [batch, seq_k, head_dim]
  const float* v = nullptr;             // [batch, seq_k, head_dim]
  float* o = nullptr;                   // [batch, seq_q, head_dim]
  const unsigned char* mask = nullptr;  // optional [seq_q, seq_k], nonzero = masked, shared by every batch
  bool causal = false;
  int64_t batch = 0;
  int seq_q = 0, seq_k = 0;
  float scale = 1.f;
};

namespace detail {

// Tile and row indices are 32-bit; a sequence up to 2^30 keeps every sum of them below 2^31.
constexpr int kMaxSequence = 1 << 30;
// gridDim.y's limit; batch entries beyond it are looped over.
constexpr int64_t kMaxGridRows = 65535;

struct AttentionParams {
  const float* q;
  const float* k;
  const float* v;
  float* o;
  const unsigned char* mask;
  int64_t batch;
  int seq_q, seq_k;
  float exp2_scale;  // |scale| log2(e): exp(scale s) = exp2(exp2_scale s) once Q carries scale's sign
  float q_sign;      // +1 or -1
  bool causal;
  bool mask_rows_aligned;  // every mask row starts on 16 bytes (mask aligned and seq_k % 16 == 0)
};

// ---- Warp-level instructions (PTX ISA, sm_80 and up) ----

// Two floats rounded to bf16 (to nearest even), lo in the low half as the MMA fragments order them.
__device__ __forceinline__ uint32_t pack_bf16x2(float lo, float hi) {
  const __nv_bfloat162 pair = __floats2bfloat162_rn(lo, hi);
  uint32_t word;
  memcpy(&word, &pair, sizeof(word));
  return word;
}

// The two bf16 of a packed pair, widened exactly and added.
__device__ __forceinline__ float bf16_pair_sum(uint32_t pair) {
  return __uint_as_float(pair << 16) + __uint_as_float(pair & 0xFFFF0000u);
}

// The bf16 roundings of what pack_bf16x2(x, y) leaves out: x - bf16(x), exact in fp32, rounded again.
__device__ __forceinline__ uint32_t pack_bf16x2_remainder(float x, float y, uint32_t high) {
  return pack_bf16x2(x - __uint_as_float(high << 16), y - __uint_as_float(high & 0xFFFF0000u));
}

__device__ __forceinline__ uint32_t shared_address(const void* pointer) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(pointer));
}

// Four 8x8 b16 matrices; lane l gives the address of row l % 8 of matrix l / 8, and register r of
// lane l receives row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1 of matrix r.
__device__ __forceinline__ void load_matrices(uint32_t (&r)[4], uint32_t address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

// The same addressing; register r of lane l receives column l / 4, rows 2 (l % 4) and
// 2 (l % 4) + 1 of matrix r: the transpose.
__device__ __forceinline__ void load_matrices_transposed(uint32_t (&r)[4], uint32_t address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

// d += a b for a 16x16 bf16 A (row-major fragment), a 16x8 bf16 B (column-major fragment) and a
// 16x8 fp32 accumulator.
__device__ __forceinline__ void mma_bf16_16x8x16(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// 2^x; ex2.approx gives +0 for -inf, which is how masked scores vanish.
__device__ __forceinline__ float exp2_approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
  return y;
}

// Max over the four threads of a quad, which hold one row of an MMA accumulator between them.
__device__ __forceinline__ float quad_max(float value) {
  value = fmaxf(value, __shfl_xor_sync(0xffffffffu, value, 1));
  return fmaxf(value, __shfl_xor_sync(0xffffffffu, value, 2));
}

__device__ __forceinline__ float quad_sum(float value) {
  value += __shfl_xor_sync(0xffffffffu, value, 1);
  return value + __shfl_xor_sync(0xffffffffu, value, 2);
}

// A key tile the CTA computes: its index, and whether no score in it is masked.
struct LiveTile {
  int index;
  bool unmasked;
};

// Walks the key tiles of one query block in increasing order, passing over the tiles that are
// masked for every query of the block. Tiles are classified 32 at a time: causality and the
// seq_k tail from indices alone, the explicit mask by reading all of it for the block's rows.
// Every thread of the CTA holds the same state and must make the same calls: classifying a chunk
// of the explicit mask synchronizes the CTA.
template <int BlockQ, int BlockK, int Threads>
class TileWalker {
 public:
  static constexpr int kWarps = Threads / 32;
  // Per warp, its "all masked" and "none masked" words, twice: consecutive chunks alternate, so a
  // chunk's words are never overwritten before every thread has read them (see classify_mask).
  static constexpr int kSharedWords = 2 * kWarps * 2;

  __device__ TileWalker(const AttentionParams& p, int q0, uint32_t* shared_words)
      : mask_(p.mask),
        seq_q_(p.seq_q),
        seq_k_(p.seq_k),
        q0_(q0),
        causal_(p.causal),
        mask_rows_aligned_(p.mask_rows_aligned),
        shared_words_(shared_words) {
    const int tiles = (p.seq_k + BlockK - 1) / BlockK;
    // With causality, tiles starting after the block's last query hold no unmasked key.
    const int last_query = min(q0 + BlockQ, p.seq_q) - 1;
    end_ = p.causal ? min(tiles, last_query / BlockK + 1) : tiles;
  }

  // Tiles at or past end() are never live.
  __device__ int end() const { return end_; }

  // The first live tile at or after `from`, or one with index end() when there is none.
  __device__ LiveTile next(int from) {
    while (from < end_) {
      const int chunk = from / 32;
      if (chunk != chunk_) classify(chunk);
      const uint32_t live_ahead = live_ >> (from % 32);
      if (live_ahead != 0) {
        const int index = from + __ffs(int(live_ahead)) - 1;
        return {index, ((unmasked_ >> (index % 32)) & 1u) != 0};
      }
      from = (chunk + 1) * 32;
    }
    return {end_, false};
  }

 private:
  __device__ void classify(int chunk) {
    chunk_ = chunk;
    const int first = chunk * 32;
    const int count = min(32, end_ - first);
    const uint32_t in_range = count == 32 ? ~0u : (1u << count) - 1u;
    uint32_t live = in_range, unmasked = in_range;
    for (int i = 0; i < count; ++i) {
      const int key_begin = (first + i) * BlockK;
      const bool has_tail = key_begin + BlockK > seq_k_;
      const bool crosses_diagonal = causal_ && key_begin + BlockK - 1 > q0_;
      if (has_tail || crosses_diagonal) unmasked &= ~(1u << i);
    }
    if (mask_ != nullptr) {
      uint32_t all_masked, none_masked;
      classify_mask(first, count, all_masked, none_masked);
      live &= ~all_masked;
      unmasked &= none_masked;
    }
    live_ = live;
    unmasked_ = unmasked;
  }

  // Bit i of all_masked: every mask byte of tile first + i is set for the block's rows; of
  // none_masked: none is. Thread t reads half of row t / 2 of each tile. Rows past seq_q count as
  // both (they are never written); keys past seq_k count as masked.
  __device__ void classify_mask(int first, int count, uint32_t& all_masked, uint32_t& none_masked) {
    static_assert(Threads == 2 * BlockQ, "two threads per query row");
    uint32_t masked = ~0u, clear = ~0u;
    const int row = q0_ + int(threadIdx.x) / 2;
    if (row < seq_q_) {
      const unsigned char* mask_row = mask_ + int64_t(row) * seq_k_;
      const int half_begin = (int(threadIdx.x) % 2) * (BlockK / 2);
      if (mask_rows_aligned_) {
        // seq_k % 16 == 0, so a 16-byte piece lies wholly inside the row or wholly past it; a piece
        // past it reads as all set, which is masked and not clear. The loads go in rounds of 8 per
        // thread, all issued before any is tested: this pass reads BlockQ x BlockK bytes per tile,
        // as much as a K tile, with nothing else to overlap it.
        constexpr int kPiecesPerTile = BlockK / 32;
        constexpr int kTilesPerRound = 8 / kPiecesPerTile;
        for (int round = 0; round < count; round += kTilesPerRound) {
          uint4 pieces[kTilesPerRound][kPiecesPerTile];
#pragma unroll
          for (int r = 0; r < kTilesPerRound; ++r)
#pragma unroll
            for (int piece = 0; piece < kPiecesPerTile; ++piece) {
              const int column = (first + round + r) * BlockK + half_begin + 16 * piece;
              pieces[r][piece] = round + r < count && column < seq_k_
                                     ? __ldg(reinterpret_cast<const uint4*>(mask_row + column))
                                     : make_uint4(~0u, ~0u, ~0u, ~0u);
            }
#pragma unroll
          for (int r = 0; r < kTilesPerRound; ++r) {
            uint32_t zero_bytes = 0, set_bits = 0;
#pragma unroll
            for (int piece = 0; piece < kPiecesPerTile; ++piece) {
              const uint4 w = pieces[r][piece];
              zero_bytes |= __vcmpeq4(w.x, 0u) | __vcmpeq4(w.y, 0u) | __vcmpeq4(w.z, 0u) | __vcmpeq4(w.w, 0u);
              set_bits |= w.x | w.y | w.z | w.w;
            }
            // Tiles past count keep their bits; the caller masks them off.
            if (round + r < count) {
              if (zero_bytes != 0) masked &= ~(1u << (round + r));
              if (set_bits != 0) clear &= ~(1u << (round + r));
            }
          }
        }
      } else {
        for (int i = 0; i < count; ++i) {
          bool every_set = true, none_set = true;
#pragma unroll
          for (int c = 0; c < BlockK / 2; ++c) {
            const int column = (first + i) * BlockK + half_begin + c;
            const bool is_masked = column >= seq_k_ || __ldg(mask_row + column) != 0;
            every_set = every_set && is_masked;
            none_set = none_set && !is_masked;
          }
          if (!every_set) masked &= ~(1u << i);
          if (!none_set) clear &= ~(1u << i);
        }
      }
    }
    masked = __reduce_and_sync(0xffffffffu, masked);
    clear = __reduce_and_sync(0xffffffffu, clear);
    // A thread writing these words for chunk n + 2 has passed the __syncthreads of chunk n + 1,
    // which every thread reaches only after reading chunk n's words.
    uint32_t* words = shared_words_ + (classified_ % 2) * kWarps * 2;
    ++classified_;
    const int warp = int(threadIdx.x) / 32;
    if (threadIdx.x % 32 == 0) {
      words[2 * warp] = masked;
      words[2 * warp + 1] = clear;
    }
    __syncthreads();
    all_masked = ~0u;
    none_masked = ~0u;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      all_masked &= words[2 * w];
      none_masked &= words[2 * w + 1];
    }
  }

  const unsigned char* mask_;
  int seq_q_, seq_k_, q0_;
  bool causal_, mask_rows_aligned_;
  uint32_t* shared_words_;
  int end_;
  int chunk_ = -1;  // the chunk live_ and unmasked_ describe
  uint32_t live_ = 0, unmasked_ = 0;
  int classified_ = 0;  // chunks of the explicit mask read so far
};

// One CTA's work on BlockQ query rows of one batch entry: 16 rows per warp. SplitScores: S in
// three bf16 products (see Precision above).
template <int HeadDim, int BlockQ, int BlockK, bool SplitScores>
struct AttentionCta {
  static constexpr int kWarps = BlockQ / 16;
  static constexpr int kThreads = 32 * kWarps;
  // A bf16 tile row padded by 16 bytes: the eight 16-byte rows one ldmatrix phase reads then start
  // 4 banks apart and cover all 32 banks.
  static constexpr int kRowStride = HeadDim + 8;
  static constexpr int kTileBytes = BlockK * kRowStride * 2;
  static constexpr int kHeadSteps = HeadDim / 16;   // k-steps of S = Q K^T
  static constexpr int kKeySteps = BlockK / 16;     // k-steps of O += P V
  static constexpr int kScoreTiles = BlockK / 8;    // m16n8 tiles of S per warp
  static constexpr int kOutputTiles = HeadDim / 8;  // m16n8 tiles of O per warp
  static constexpr int kVectorsPerRow = HeadDim / 4;
  static constexpr int kVectorsPerThread = BlockK * HeadDim / 4 / kThreads;
  // A tile crosses the registers in pieces of at most 8 float4 per thread, so that the staging
  // costs at most 32 registers; each piece is in flight across its share of the tile's MMAs.
  static constexpr int kPieces = kVectorsPerThread > 8 ? kVectorsPerThread / 8 : 1;
  static constexpr int kVectorsPerPiece = kVectorsPerThread / kPieces;
  static constexpr int kHeadStepsPerPiece = kHeadSteps / kPieces;
  static constexpr int kKeyStepsPerPiece = kKeySteps / kPieces;
  // Q's parts in registers: its bf16 rounding, and with SplitScores the rounding of the remainder.
  static constexpr int kQParts = SplitScores ? 2 : 1;
  using Walker = TileWalker<BlockQ, BlockK, kThreads>;
  // K and V, two buffers each, with SplitScores two more for K's remainders, then the walker's words.
  static constexpr int kTiles = SplitScores ? 6 : 4;
  static constexpr size_t kSharedBytes = kTiles * size_t(kTileBytes) + Walker::kSharedWords * sizeof(uint32_t);
  // Two CTAs of 256 threads per SM cap a thread at 128 registers: D = 64 with BlockK = 32 fits
  // without spilling, the rest spill (D = 64, BlockK = 64: 176 bytes) or cannot fit (D = 128: O
  // and Q alone take 96). A CTA of 128 threads gets two per SM at any register count.
  static constexpr int kMinCtasPerSm = HeadDim == 64 && BlockK == 32 ? 2 : 1;

  static_assert(kVectorsPerThread * kThreads * 4 == BlockK * HeadDim, "a tile divides evenly among the threads");
  static_assert(kHeadSteps % kPieces == 0 && kKeySteps % kPieces == 0, "the pieces split both products evenly");

  // One thread's share of a K or V tile on its way from fp32 in global memory to bf16 in shared
  // memory. A tile is BlockK contiguous rows of HeadDim floats; the thread moves float4 number
  // i * kThreads + threadIdx.x, so that a warp's loads are contiguous and, for HeadDim >= 64,
  // its 8-byte stores fill whole 128-byte rows of banks.
  struct TileStaging {
    float4 vectors[kVectorsPerPiece];

    // Rows at or past valid_rows (keys past seq_k) are zeros: their P is 0, and 0 times a
    // garbage V could be NaN.
    __device__ void load(const float* tile, int valid_rows, int piece) {
#pragma unroll
      for (int i = 0; i < kVectorsPerPiece; ++i) {
        const int vector = (piece * kVectorsPerPiece + i) * kThreads + int(threadIdx.x);
        vectors[i] = vector / kVectorsPerRow < valid_rows ? __ldg(reinterpret_cast<const float4*>(tile) + vector)
                                                          : make_float4(0.f, 0.f, 0.f, 0.f);
      }
    }

    __device__ void store(__nv_bfloat16* tile, int piece) const {
#pragma unroll
      for (int i = 0; i < kVectorsPerPiece; ++i) {
        const int vector = (piece * kVectorsPerPiece + i) * kThreads + int(threadIdx.x);
        const int row = vector / kVectorsPerRow, column = vector % kVectorsPerRow * 4;
        const float4 v = vectors[i];
        *reinterpret_cast<uint2*>(tile + row * kRowStride + column) =
            make_uint2(pack_bf16x2(v.x, v.y), pack_bf16x2(v.z, v.w));
      }
    }

    // The bf16 rounding into `high` and, with SplitScores, the rounding of the remainder into `low`.
    __device__ void store_parts(__nv_bfloat16* high, __nv_bfloat16* low, int piece) const {
      if constexpr (!SplitScores) {
        store(high, piece);
      } else {
#pragma unroll
        for (int i = 0; i < kVectorsPerPiece; ++i) {
          const int vector = (piece * kVectorsPerPiece + i) * kThreads + int(threadIdx.x);
          const int offset = vector / kVectorsPerRow * kRowStride + vector % kVectorsPerRow * 4;
          const float4 v = vectors[i];
          const uint32_t hi0 = pack_bf16x2(v.x, v.y), hi1 = pack_bf16x2(v.z, v.w);
          *reinterpret_cast<uint2*>(high + offset) = make_uint2(hi0, hi1);
          *reinterpret_cast<uint2*>(low + offset) =
              make_uint2(pack_bf16x2_remainder(v.x, v.y, hi0), pack_bf16x2_remainder(v.z, v.w, hi1));
        }
      }
    }
  };

  // The running state of a warp's 16 rows. A thread holds rows group and group + 8 of the warp
  // (index 0 and 1 below), in the accumulator layout: c0, c1 in row group, c2, c3 in row group + 8.
  struct RowState {
    float output[kOutputTiles][4];
    float max[2];  // raw scores, before exp2_scale
    float sum[2];  // this thread's share of the row's sum of exp; the quad's shares add up at the end
  };

  __device__ static void run(const AttentionParams& p, int q_block, int64_t entry, unsigned char* shared) {
    const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
    const int group = lane / 4, thread_in_group = lane % 4;
    const int q0 = q_block * BlockQ;
    const int rows[2] = {q0 + warp * 16 + group, q0 + warp * 16 + group + 8};

    __nv_bfloat16* keys = reinterpret_cast<__nv_bfloat16*>(shared);
    __nv_bfloat16* values = reinterpret_cast<__nv_bfloat16*>(shared + 2 * kTileBytes);
    // K's remainders (SplitScores only; otherwise never touched).
    __nv_bfloat16* key_remainders = reinterpret_cast<__nv_bfloat16*>(shared + 4 * kTileBytes);
    uint32_t* walker_words = reinterpret_cast<uint32_t*>(shared + kTiles * kTileBytes);
    const float* k_entry = p.k + entry * p.seq_k * HeadDim;
    const float* v_entry = p.v + entry * p.seq_k * HeadDim;

    // ldmatrix row addresses, in bytes from a tile's start. K (rows = keys, non-transposed):
    // matrices 0, 1 are keys 0-7 at head columns 0-7 and 8-15 (b0b1, b2b3 of key tile 0),
    // matrices 2, 3 the same for keys 8-15. V (transposed): matrices 0, 1 are keys 0-7 and 8-15 at
    // head columns 0-7 (b0b1, b2b3 of output tile 0), matrices 2, 3 the same at columns 8-15.
    const int matrix = lane / 8, matrix_row = lane % 8;
    const uint32_t key_lane_offset = uint32_t(((matrix / 2) * 8 + matrix_row) * kRowStride + (matrix % 2) * 8) * 2;
    const uint32_t value_lane_offset = uint32_t(((matrix % 2) * 8 + matrix_row) * kRowStride + (matrix / 2) * 8) * 2;

    RowState state;
#pragma unroll
    for (int t = 0; t < kOutputTiles; ++t)
#pragma unroll
      for (int e = 0; e < 4; ++e) state.output[t][e] = 0.f;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      state.max[h] = -INFINITY;
      state.sum[h] = 0.f;
    }

    // Each pass computes `tile` from buffer `buffer` while it moves `next` into the other one. The
    // first pass has no tile: it fills buffer 0 and loads the Q fragments, their loads in flight
    // together (a CTA without a live tile needs neither). The other buffers were last read before
    // the __syncthreads that ended the previous pass.
    Walker walker(p, q0, walker_words);
    TileStaging staging;
    uint32_t q_fragments[kQParts][kHeadSteps][4];
    LiveTile tile{-1, false};
    int buffer = 1;
    for (;;) {
      const LiveTile next = walker.next(tile.index + 1);
      const bool has_next = next.index < walker.end();
      const int next_begin = next.index * BlockK;
      const int next_valid_rows = has_next ? min(BlockK, p.seq_k - next_begin) : 0;
      const float* next_keys = k_entry + int64_t(next_begin) * HeadDim;
      const float* next_values = v_entry + int64_t(next_begin) * HeadDim;
      __nv_bfloat16* next_key_tile = keys + (buffer ^ 1) * (kTileBytes / 2);
      __nv_bfloat16* next_key_remainder_tile = key_remainders + (buffer ^ 1) * (kTileBytes / 2);
      __nv_bfloat16* next_value_tile = values + (buffer ^ 1) * (kTileBytes / 2);
      if (tile.index < 0) {
        if (has_next) {
#pragma unroll
          for (int piece = 0; piece < kPieces; ++piece) {
            TileStaging value_staging;
            staging.load(next_keys, next_valid_rows, piece);
            value_staging.load(next_values, next_valid_rows, piece);
            if (piece == 0) load_q_fragments(p, entry, rows, thread_in_group, q_fragments);
            staging.store_parts(next_key_tile, next_key_remainder_tile, piece);
            value_staging.store(next_value_tile, piece);
          }
        }
      } else {
        const uint32_t key_tile = shared_address(keys) + buffer * kTileBytes + key_lane_offset;
        const uint32_t key_remainder_tile = shared_address(key_remainders) + buffer * kTileBytes + key_lane_offset;
        const uint32_t value_tile = shared_address(values) + buffer * kTileBytes + value_lane_offset;
        float scores[kScoreTiles][4];
#pragma unroll
        for (int t = 0; t < kScoreTiles; ++t)
#pragma unroll
          for (int e = 0; e < 4; ++e) scores[t][e] = 0.f;
#pragma unroll
        for (int piece = 0; piece < kPieces; ++piece) {
          if (has_next) staging.load(next_keys, next_valid_rows, piece);
          multiply_keys(q_fragments, key_tile, key_remainder_tile, piece, scores);
          if (has_next) staging.store_parts(next_key_tile, next_key_remainder_tile, piece);
        }
        uint32_t probabilities[kKeySteps][4];
#pragma unroll
        for (int piece = 0; piece < kPieces; ++piece) {
          if (has_next) staging.load(next_values, next_valid_rows, piece);
          if (piece == 0) {
            if (!tile.unmasked) mask_scores(p, tile.index * BlockK, rows, thread_in_group, scores);
            update_softmax(p.exp2_scale, scores, state, probabilities);
          }
          multiply_values(probabilities, value_tile, piece, state);
          if (has_next) staging.store(next_value_tile, piece);
        }
      }
      __syncthreads();
      if (!has_next) break;
      buffer ^= 1;
      tile = next;
    }

    store_output(p, entry, rows, thread_in_group, state);
  }

  // A fragments of the warp's 16 Q rows for every head step: register 0 holds row group, columns
  // 2 t and 2 t + 1 (t = thread_in_group); register 1 row group + 8; registers 2, 3 the same 8
  // columns on. A warp's 8-byte loads cover 8 rows x 32 bytes: whole sectors. Part 1 (SplitScores)
  // holds the remainders.
  __device__ static void load_q_fragments(const AttentionParams& p, int64_t entry, const int (&rows)[2],
                                          int thread_in_group, uint32_t (&fragments)[kQParts][kHeadSteps][4]) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const bool valid = rows[h] < p.seq_q;
      const float* q_row = p.q + (entry * p.seq_q + (valid ? rows[h] : 0)) * HeadDim + 2 * thread_in_group;
#pragma unroll
      for (int step = 0; step < kHeadSteps; ++step)
#pragma unroll
        for (int half = 0; half < 2; ++half) {
          const float2 pair =
              valid ? __ldg(reinterpret_cast<const float2*>(q_row + step * 16 + half * 8)) : make_float2(0.f, 0.f);
          const float x = p.q_sign * pair.x, y = p.q_sign * pair.y;
          const uint32_t high = pack_bf16x2(x, y);
          fragments[0][step][2 * half + h] = high;
          if constexpr (SplitScores) fragments[1][step][2 * half + h] = pack_bf16x2_remainder(x, y, high);
        }
    }
  }

  // scores += Q K^T over this piece's head steps. One ldmatrix.x4 gives the B fragments of two
  // key tiles (16 keys) for one head step. With SplitScores the two cross terms (2^-8 of the main
  // one) go into the same fp32 accumulators: what that rounds away is fp32's own accumulation error.
  __device__ static void multiply_keys(const uint32_t (&q_fragments)[kQParts][kHeadSteps][4], uint32_t key_tile,
                                       uint32_t key_remainder_tile, int piece, float (&scores)[kScoreTiles][4]) {
#pragma unroll
    for (int s = 0; s < kHeadStepsPerPiece; ++s) {
      const int step = piece * kHeadStepsPerPiece + s;
#pragma unroll
      for (int pair = 0; pair < kScoreTiles / 2; ++pair) {
        const uint32_t offset = uint32_t(pair * 16 * kRowStride + step * 16) * 2;
        uint32_t b[4];
        load_matrices(b, key_tile + offset);
        if constexpr (SplitScores) {
          uint32_t remainder[4];
          load_matrices(remainder, key_remainder_tile + offset);
          mma_bf16_16x8x16(scores[2 * pair], q_fragments[1][step], b[0], b[1]);
          mma_bf16_16x8x16(scores[2 * pair + 1], q_fragments[1][step], b[2], b[3]);
          mma_bf16_16x8x16(scores[2 * pair], q_fragments[0][step], remainder[0], remainder[1]);
          mma_bf16_16x8x16(scores[2 * pair + 1], q_fragments[0][step], remainder[2], remainder[3]);
        }
        mma_bf16_16x8x16(scores[2 * pair], q_fragments[0][step], b[0], b[1]);
        mma_bf16_16x8x16(scores[2 * pair + 1], q_fragments[0][step], b[2], b[3]);
      }
    }
  }

  // output += P V over this piece's key steps. One ldmatrix.x4.trans gives the B fragments of two
  // output tiles (16 head columns) for one key step.
  __device__ static void multiply_values(const uint32_t (&probabilities)[kKeySteps][4], uint32_t value_tile, int piece,
                                         RowState& state) {
#pragma unroll
    for (int s = 0; s < kKeyStepsPerPiece; ++s) {
      const int step = piece * kKeyStepsPerPiece + s;
#pragma unroll
      for (int pair = 0; pair < kOutputTiles / 2; ++pair) {
        uint32_t b[4];
        load_matrices_transposed(b, value_tile + uint32_t(step * 16 * kRowStride + pair * 16) * 2);
        mma_bf16_16x8x16(state.output[2 * pair], probabilities[step], b[0], b[1]);
        mma_bf16_16x8x16(state.output[2 * pair + 1], probabilities[step], b[2], b[3]);
      }
    }
  }

  // -inf for the masked scores of a tile on an edge of the masks. Score e of key tile t sits at
  // row rows[e / 2], key key_begin + 8 t + 2 thread_in_group + e % 2. The mask bytes of a row come
  // in pairs (a 2-byte load where rows are aligned), all loaded before any is used: a tile's loads
  // then cost one memory latency, not one each.
  __device__ static void mask_scores(const AttentionParams& p, int key_begin, const int (&rows)[2], int thread_in_group,
                                     float (&scores)[kScoreTiles][4]) {
    // Rows past seq_q read no mask (they are never written).
    const unsigned char* mask_rows[2];
#pragma unroll
    for (int h = 0; h < 2; ++h)
      mask_rows[h] = p.mask != nullptr && rows[h] < p.seq_q ? p.mask + int64_t(rows[h]) * p.seq_k : nullptr;
    uint32_t byte_pairs[2][kScoreTiles];  // the byte of key + 1 in bits 8-15
    const int first_key = key_begin + 2 * thread_in_group;
    if (p.mask_rows_aligned) {
      // seq_k is even, so key + 1 < seq_k whenever key < seq_k.
#pragma unroll
      for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int t = 0; t < kScoreTiles; ++t) {
          const int key = first_key + 8 * t;
          byte_pairs[h][t] = mask_rows[h] != nullptr && key < p.seq_k
                                 ? __ldg(reinterpret_cast<const unsigned short*>(mask_rows[h] + key))
                                 : 0u;
        }
    } else {
#pragma unroll
      for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int t = 0; t < kScoreTiles; ++t) {
          const int key = first_key + 8 * t;
          const uint32_t first = mask_rows[h] != nullptr && key < p.seq_k ? __ldg(mask_rows[h] + key) : 0u;
          const uint32_t second = mask_rows[h] != nullptr && key + 1 < p.seq_k ? __ldg(mask_rows[h] + key + 1) : 0u;
          byte_pairs[h][t] = first | second << 8;
        }
    }
#pragma unroll
    for (int t = 0; t < kScoreTiles; ++t)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int key = key_begin + 8 * t + 2 * thread_in_group + e % 2;
        const int h = e / 2;
        const bool masked_byte = ((byte_pairs[h][t] >> (8 * (e % 2))) & 0xFFu) != 0;
        if (key >= p.seq_k || (p.causal && key > rows[h]) || masked_byte) scores[t][e] = -INFINITY;
      }
  }

  // Folds a tile's scores into the running max and sum, rescales the output so far, and leaves
  // exp of the scores, rounded to bf16, as the A fragments of P V: A's registers 0-3 for key step
  // k are (row group, keys 2t..) and (row group + 8, keys 2t..) of score tile 2k, then the same
  // of score tile 2k + 1, which is c0c1, c2c3 of tile 2k and c0c1, c2c3 of tile 2k + 1. The sum
  // adds the rounded weights, those the product multiplies V by.
  __device__ static void update_softmax(float exp2_scale, float (&scores)[kScoreTiles][4], RowState& state,
                                        uint32_t (&probabilities)[kKeySteps][4]) {
    float tile_max[2] = {-INFINITY, -INFINITY};
#pragma unroll
    for (int t = 0; t < kScoreTiles; ++t)
#pragma unroll
      for (int e = 0; e < 4; ++e) tile_max[e / 2] = fmaxf(tile_max[e / 2], scores[t][e]);
    float negative_shift[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const float new_max = fmaxf(state.max[h], quad_max(tile_max[h]));
      // While a row has seen only masked keys its max is -inf; shifting by 0 then keeps
      // exp2(-inf - shift) at 0 where -inf - -inf would be NaN.
      const float shift = new_max == -INFINITY ? 0.f : new_max * exp2_scale;
      const float rescale = exp2_approx(fmaf(state.max[h], exp2_scale, -shift));
      state.max[h] = new_max;
      state.sum[h] *= rescale;
#pragma unroll
      for (int t = 0; t < kOutputTiles; ++t) {
        state.output[t][2 * h] *= rescale;
        state.output[t][2 * h + 1] *= rescale;
      }
      negative_shift[h] = -shift;
    }
#pragma unroll
    for (int t = 0; t < kScoreTiles; ++t)
#pragma unroll
      for (int e = 0; e < 4; ++e) scores[t][e] = exp2_approx(fmaf(scores[t][e], exp2_scale, negative_shift[e / 2]));
#pragma unroll
    for (int step = 0; step < kKeySteps; ++step) {
      probabilities[step][0] = pack_bf16x2(scores[2 * step][0], scores[2 * step][1]);
      probabilities[step][1] = pack_bf16x2(scores[2 * step][2], scores[2 * step][3]);
      probabilities[step][2] = pack_bf16x2(scores[2 * step + 1][0], scores[2 * step + 1][1]);
      probabilities[step][3] = pack_bf16x2(scores[2 * step + 1][2], scores[2 * step + 1][3]);
      // Registers 0 and 2 hold row group, 1 and 3 row group + 8.
#pragma unroll
      for (int r = 0; r < 4; ++r) state.sum[r % 2] += bf16_pair_sum(probabilities[step][r]);
    }
  }

  // O = output / sum. A row that saw no unmasked key has output 0 and sum 0: 0 x (1/0) = NaN,
  // torch's answer for a softmax over all -inf.
  __device__ static void store_output(const AttentionParams& p, int64_t entry, const int (&rows)[2],
                                      int thread_in_group, const RowState& state) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const float inverse_sum = __frcp_rn(quad_sum(state.sum[h]));
      if (rows[h] >= p.seq_q) continue;
      float* o_row = p.o + (entry * p.seq_q + rows[h]) * HeadDim + 2 * thread_in_group;
#pragma unroll
      for (int t = 0; t < kOutputTiles; ++t)
        *reinterpret_cast<float2*>(o_row + 8 * t) =
            make_float2(state.output[t][2 * h] * inverse_sum, state.output[t][2 * h + 1] * inverse_sum);
    }
  }
};

template <class Cta>
__global__ void __launch_bounds__(Cta::kThreads, Cta::kMinCtasPerSm) attention_forward_kernel(AttentionParams p) {
  extern __shared__ __align__(16) unsigned char attention_shared[];
  const int q_block = int(gridDim.x - 1 - blockIdx.x);
  for (int64_t entry = blockIdx.y; entry < p.batch; entry += gridDim.y) {
    Cta::run(p, q_block, entry, attention_shared);
    // The next entry refills the tiles and the walker's words.
    __syncthreads();
  }
}

inline bool is_aligned(const void* pointer, uintptr_t bytes) {
  return reinterpret_cast<uintptr_t>(pointer) % bytes == 0;
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

// SplitScores: S = Q K^T in three bf16 products, to about fp32 accuracy (see Precision above).
template <int HeadDim, int BlockQ, int BlockK, bool SplitScores = false>
struct AttentionKernel {
  static_assert(HeadDim == 64 || HeadDim == 128, "HeadDim is 64 or 128");
  static_assert(BlockQ == 64 || BlockQ == 128, "BlockQ is 64 or 128 (16 query rows per warp)");
  static_assert(BlockK == 32 || BlockK == 64, "BlockK is 32 or 64");

  using Cta = detail::AttentionCta<HeadDim, BlockQ, BlockK, SplitScores>;
  static constexpr int kThreads = Cta::kThreads;
  static constexpr size_t kSharedBytes = Cta::kSharedBytes;

  // cudaSuccess, or cudaErrorInvalidValue with a one-line English reason in *why (why may be null).
  static cudaError_t can_implement(const AttentionArgs& a, const char** why = nullptr) {
    using detail::reject;
    const char* null_name = a.q == nullptr   ? "q"
                            : a.k == nullptr ? "k"
                            : a.v == nullptr ? "v"
                            : a.o == nullptr ? "o"
                                             : nullptr;
    if (null_name != nullptr) return reject(why, "q, k, v and o must be device pointers; %s is null", null_name);
    const char* misaligned_name = !detail::is_aligned(a.q, 16)   ? "q"
                                  : !detail::is_aligned(a.k, 16) ? "k"
                                  : !detail::is_aligned(a.v, 16) ? "v"
                                  : !detail::is_aligned(a.o, 16) ? "o"
                                                                 : nullptr;
    if (misaligned_name != nullptr)
      return reject(why, "%s is not aligned to 16 bytes, the width of the kernel's vector loads", misaligned_name);
    if (a.batch < 1) return reject(why, "batch is %lld; it must be at least 1", (long long)a.batch);
    if (a.seq_q < 1 || a.seq_q > detail::kMaxSequence)
      return reject(why, "seq_q is %d; it must be in 1..2^30", a.seq_q);
    if (a.seq_k < 1 || a.seq_k > detail::kMaxSequence)
      return reject(why, "seq_k is %d; it must be in 1..2^30", a.seq_k);
    if (!std::isfinite(a.scale) || a.scale == 0.f)
      return reject(why, "scale is %g; it must be finite and nonzero", double(a.scale));
    if (why != nullptr) *why = "";
    return cudaSuccess;
  }

  // Raises the kernel's dynamic shared memory limit on first use, for the device current then.
  static cudaError_t run(const AttentionArgs& a, cudaStream_t stream) {
    if (const cudaError_t status = can_implement(a); status != cudaSuccess) return status;
    auto* kernel = detail::attention_forward_kernel<Cta>;
    static const cudaError_t attribute_status =
        kSharedBytes > 48 * 1024
            ? cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSharedBytes))
            : cudaSuccess;
    if (attribute_status != cudaSuccess) return attribute_status;
    detail::AttentionParams p;
    p.q = a.q;
    p.k = a.k;
    p.v = a.v;
    p.o = a.o;
    p.mask = a.mask;
    p.batch = a.batch;
    p.seq_q = a.seq_q;
    p.seq_k = a.seq_k;
    p.exp2_scale = std::fabs(a.scale) * 1.4426950408889634f;
    p.q_sign = a.scale < 0.f ? -1.f : 1.f;
    p.causal = a.causal;
    p.mask_rows_aligned = a.mask != nullptr && detail::is_aligned(a.mask, 16) && a.seq_k % 16 == 0;
    const dim3 grid(unsigned((a.seq_q + BlockQ - 1) / BlockQ),
                    unsigned(a.batch < detail::kMaxGridRows ? a.batch : detail::kMaxGridRows));
    kernel<<<grid, kThreads, kSharedBytes, stream>>>(p);
    return cudaGetLastError();
  }
};

}  // namespace ucutlass_attn

#endif  // UCUTLASS_ATTENTION_KERNELS_HPP

// Persistent SM90 implicit-GEMM convolution (fprop) for CUTLASS 4.2: cooperative and ping-pong.
//
// Why this exists: CUTLASS 4.2 runs SM90 convolutions only through its non-persistent kernel with
// one consumer warp group (conv::kernel::ConvUniversal is GemmUniversal's basic TMA warp-specialized
// kernel; conv/dispatch_policy.hpp rejects the cooperative and ping-pong schedules). For a conv
// whose GEMM K is short (a 3x3 filter over 64 channels is 9 k-blocks) every CTA then pays its
// pipeline fill and its epilogue without overlap. Here one CTA per SM walks the output tiles and a
// producer warp streams the next tile's im2col loads during the current tile's epilogue. Two
// consumer warp groups either share each tile (cooperative: each takes half of tile M) or take
// alternate tiles (ping-pong: one group's epilogue runs while the other's MMAs do, an ordered
// barrier passing the tensor cores and then the epilogue buffers from one group to the other).
//
// It reuses CUTLASS's conv mainloop collective (TMA im2col loads, GMMA) and its TMA epilogue
// collective unchanged; only the kernel layer, the tiled MMA (two warp groups) and the tile loop
// are ours. ucutlass emits this file into generated headers that pick the cooperative or
// ping-pong conv schedule, so a header stays self-contained; the guard lets several such headers share a unit.
#ifndef UCUTLASS_PERSISTENT_CONV_SM90_HPP
#define UCUTLASS_PERSISTENT_CONV_SM90_HPP

#include "cute/tensor.hpp"
#include "cutlass/arch/reg_reconfig.h"
#include "cutlass/conv/collective/collective_conv.hpp"
#include "cutlass/conv/convolution.h"
#include "cutlass/conv/detail.hpp"
#include "cutlass/gemm/gemm.h"
#include "cutlass/kernel_hardware_info.hpp"
#include "cutlass/pipeline/sm90_pipeline.hpp"

namespace ucutlass_conv {

// The conv collective the CUTLASS builder made for the one-warp-group schedule, with its tiled MMA
// widened to two consumer warp groups stacked along M (the cooperative layout). The collective
// partitions by thread index, so it serves 256 consumer threads unchanged.
template <class Collective>
struct TwoConsumerGroups;

template <class Policy, class TileShape, class ElementA, class ElementB, class TiledMma, class TraitsA,
          class TraitsB>
struct TwoConsumerGroups<
    cutlass::conv::collective::CollectiveConv<Policy, TileShape, ElementA, ElementB, TiledMma, TraitsA, TraitsB>> {
  using WideMma = decltype(cute::make_tiled_mma(typename TiledMma::Atom{},
                                                cute::Layout<cute::Shape<cute::_2, cute::_1, cute::_1>>{}));
  using type = cutlass::conv::collective::CollectiveConv<Policy, TileShape, ElementA, ElementB, WideMma, TraitsA,
                                                         TraitsB>;
};

template <class ProblemShape_, class CollectiveMainloop_, class CollectiveEpilogue_, bool PingPong = false>
class PersistentConvSm90 {
 public:
  using ProblemShape = ProblemShape_;
  using CollectiveMainloop = CollectiveMainloop_;
  using CollectiveEpilogue = CollectiveEpilogue_;
  using TileShape = typename CollectiveMainloop::TileShape;
  using TiledMma = typename CollectiveMainloop::TiledMma;
  using ArchTag = typename CollectiveMainloop::ArchTag;
  using ElementA = typename CollectiveMainloop::ElementA;
  using StrideA = typename CollectiveMainloop::StrideA;
  using ElementB = typename CollectiveMainloop::ElementB;
  using StrideB = typename CollectiveMainloop::StrideB;
  using DispatchPolicy = typename CollectiveMainloop::DispatchPolicy;
  using ElementAccumulator = typename CollectiveMainloop::ElementAccumulator;
  using ClusterShape = typename DispatchPolicy::ClusterShape;
  using MainloopArguments = typename CollectiveMainloop::Arguments;
  using MainloopParams = typename CollectiveMainloop::Params;
  using ElementC = typename CollectiveEpilogue::ElementC;
  using StrideC = typename CollectiveEpilogue::StrideC;
  using ElementD = typename CollectiveEpilogue::ElementD;
  using StrideD = typename CollectiveEpilogue::StrideD;
  using EpilogueArguments = typename CollectiveEpilogue::Arguments;
  using EpilogueParams = typename CollectiveEpilogue::Params;

  static_assert(ArchTag::kMinComputeCapability >= 90);
  static_assert(DispatchPolicy::ConvOp == cutlass::conv::Operator::kFprop,
                "the persistent conv kernel runs fprop (dgrad and wgrad keep CUTLASS's kernel)");
  static_assert(cute::size(ClusterShape{}) == 1, "the persistent conv kernel runs 1x1x1 clusters");

  static constexpr uint32_t NumLoadWarpGroups = 1;
  static constexpr uint32_t NumMmaWarpGroups = 2;
  // The threads that share one tile's MMAs, epilogue and pipeline stages.
  static constexpr uint32_t NumTileThreads = (PingPong ? 1 : NumMmaWarpGroups) * cutlass::NumThreadsPerWarpGroup;
  static_assert(cute::size(TiledMma{}) == NumTileThreads,
                "the tiled MMA spans one warp group (ping-pong) or both (cooperative)");
  static_assert(PingPong || cute::size<0>(TileShape{}) % 128 == 0,
                "each cooperative consumer warp group takes 64 rows or more of tile M");
  static constexpr uint32_t MaxThreadsPerBlock =
      (NumMmaWarpGroups + NumLoadWarpGroups) * cutlass::NumThreadsPerWarpGroup;
  static constexpr uint32_t MinBlocksPerMultiprocessor = 1;
  // The producer warp group only issues TMA; the consumers hold the accumulators.
  static constexpr uint32_t LoadRegisterRequirement = 40;
  static constexpr uint32_t MmaRegisterRequirement = 232;

  // Ping-pong: two turns per tile (its MMAs, then its epilogue) passed between the two groups.
  using MathOrderBarrier = cutlass::OrderedSequenceBarrier<2, NumMmaWarpGroups>;

  // Mainloop and epilogue buffers are separate, not a union: the producer refills the mainloop
  // stages for the next tile while the consumers still use the epilogue's.
  struct SharedStorage {
    struct TensorStorage : cute::aligned_struct<128, cute::_1> {
      typename CollectiveMainloop::TensorStorage mainloop;
      typename CollectiveEpilogue::TensorStorage epilogue;
    } tensors;
    struct PipelineStorage : cute::aligned_struct<16, cute::_1> {
      alignas(16) typename CollectiveMainloop::PipelineStorage mainloop;
      alignas(16) typename CollectiveEpilogue::PipelineStorage epi_load;
      alignas(16) typename MathOrderBarrier::SharedStorage math_order;
    } pipelines;
  };
  static constexpr int SharedStorageSize = sizeof(SharedStorage);

  // Field order of GemmUniversal's Arguments, so code that fills a ConvUniversal fills this.
  struct Arguments {
    cutlass::gemm::GemmUniversalMode mode{};
    ProblemShape problem_shape{};
    MainloopArguments mainloop{};
    EpilogueArguments epilogue{};
    cutlass::KernelHardwareInfo hw_info{};
  };

  using ProblemShapeMNKL = decltype(CollectiveMainloop::get_problem_shape_MNKL(ProblemShape{}));
  struct Params {
    ProblemShapeMNKL problem_shape{};
    MainloopParams mainloop{};
    EpilogueParams epilogue{};
    int ctas = 0;  // the persistent grid: min(output tiles, SMs)
  };

  static int tile_count(ProblemShapeMNKL const& mnkl) {
    const int m = static_cast<int>(cute::ceil_div(cute::size<0>(mnkl), cute::size<0>(TileShape{})));
    const int n = static_cast<int>(cute::ceil_div(cute::size<1>(mnkl), cute::size<1>(TileShape{})));
    return m * n;
  }

  static Params to_underlying_arguments(Arguments const& args, void* workspace) {
    auto mnkl = CollectiveMainloop::get_problem_shape_MNKL(args.problem_shape);
    auto flat = cutlass::conv::detail::get_transformed_problem_shape_MNKL(args.problem_shape);
    int sms = args.hw_info.sm_count;
    if (sms <= 0) sms = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(args.hw_info.device_id);
    const int tiles = tile_count(mnkl);
    return {mnkl, CollectiveMainloop::to_underlying_arguments(args.problem_shape, args.mainloop, workspace),
            CollectiveEpilogue::to_underlying_arguments(flat, args.epilogue, workspace),
            tiles < sms ? tiles : sms};
  }

  static bool can_implement(Arguments const& args) {
    auto flat = cutlass::conv::detail::get_transformed_problem_shape_MNKL(args.problem_shape);
    return CollectiveMainloop::can_implement(args.problem_shape, args.mainloop) &&
           CollectiveEpilogue::can_implement(flat, args.epilogue);
  }

  static size_t get_workspace_size(Arguments const&) { return 0; }

  static cutlass::Status initialize_workspace(Arguments const&, void* = nullptr, cudaStream_t = nullptr,
                                              cutlass::CudaHostAdapter* = nullptr) {
    return cutlass::Status::kSuccess;
  }

  static dim3 get_grid_shape(Params const& params) { return dim3(params.ctas > 0 ? params.ctas : 1, 1, 1); }

  static dim3 get_block_shape() { return dim3(MaxThreadsPerBlock, 1, 1); }

  CUTLASS_DEVICE
  void operator()(Params const& params, char* smem_buf) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    using namespace cute;
    SharedStorage& storage = *reinterpret_cast<SharedStorage*>(smem_buf);
    const int thread_idx = int(threadIdx.x);
    const int lane_idx = cutlass::canonical_lane_idx();
    const int warp_idx = cutlass::canonical_warp_idx_sync();
    const int warp_in_group = warp_idx % cutlass::NumWarpsPerWarpGroup;
    const int group_thread_idx = thread_idx % cutlass::NumThreadsPerWarpGroup;
    const bool producer_group = cutlass::canonical_warp_group_idx() == 0;
    const bool mainloop_warp = producer_group && warp_in_group == 0;
    const bool epilogue_load_warp = producer_group && warp_in_group == 1;
    const int consumer_group = cutlass::canonical_warp_group_idx() - int(NumLoadWarpGroups);
    // Index among the threads of one tile: both groups (cooperative) or this group (ping-pong).
    const int mma_thread_idx = PingPong ? group_thread_idx
                                        : thread_idx - int(NumLoadWarpGroups * cutlass::NumThreadsPerWarpGroup);

    if (warp_idx == 0 && cute::elect_one_sync()) {
      CollectiveMainloop::prefetch_tma_descriptors(params.mainloop);
      CollectiveEpilogue::prefetch_tma_descriptors(params.epilogue);
    }

    using MainloopPipeline = typename CollectiveMainloop::MainloopPipeline;
    typename MainloopPipeline::Params mainloop_pipe_params;
    if (mainloop_warp) mainloop_pipe_params.role = MainloopPipeline::ThreadCategory::Producer;
    if (!producer_group) mainloop_pipe_params.role = MainloopPipeline::ThreadCategory::Consumer;
    mainloop_pipe_params.is_leader = group_thread_idx == 0;
    mainloop_pipe_params.num_consumers = NumTileThreads;
    mainloop_pipe_params.transaction_bytes = params.mainloop.tma_transaction_bytes;
    MainloopPipeline mainloop_pipeline(storage.pipelines.mainloop, mainloop_pipe_params, ClusterShape{});

    using EpiLoadPipeline = typename CollectiveEpilogue::LoadPipeline;
    typename EpiLoadPipeline::Params epi_load_params;
    if (epilogue_load_warp) epi_load_params.role = EpiLoadPipeline::ThreadCategory::Producer;
    if (!producer_group) epi_load_params.role = EpiLoadPipeline::ThreadCategory::Consumer;
    epi_load_params.dst_blockid = cute::block_rank_in_cluster();
    epi_load_params.producer_arv_count = cutlass::NumThreadsPerWarp;
    epi_load_params.consumer_arv_count = NumTileThreads;
    if constexpr (CollectiveEpilogue::RequiresTransactionBytes) {
      epi_load_params.transaction_bytes = params.epilogue.tma_transaction_bytes;
    }
    EpiLoadPipeline epi_load_pipeline(storage.pipelines.epi_load, epi_load_params);

    using EpiStorePipeline = typename CollectiveEpilogue::StorePipeline;
    typename EpiStorePipeline::Params epi_store_params;
    epi_store_params.always_wait = true;
    EpiStorePipeline epi_store_pipeline(epi_store_params);

    // Producers start one phase ahead: every stage is empty.
    typename CollectiveMainloop::PipelineState mainloop_consume;
    typename CollectiveEpilogue::LoadPipelineState epi_load_consume;
    auto mainloop_produce = cutlass::make_producer_start_state<MainloopPipeline>();
    auto epi_load_produce = cutlass::make_producer_start_state<EpiLoadPipeline>();
    auto epi_store_produce = cutlass::make_producer_start_state<EpiStorePipeline>();

    typename MathOrderBarrier::Params order_params;
    order_params.group_id = producer_group ? 0 : consumer_group;
    order_params.group_size = cutlass::NumThreadsPerWarpGroup;
    MathOrderBarrier math_order(storage.pipelines.math_order, order_params);

    __syncthreads();  // barrier initialization visible to every warp before first use

    auto problem_shape_MNKL = append<4>(params.problem_shape, Int<1>{});
    auto blk_shape = TileShape{};
    TiledMma tiled_mma;
    CollectiveMainloop collective_mainloop;
    auto load_inputs = collective_mainloop.load_init(problem_shape_MNKL, params.mainloop);
    Tensor gA_mkl = get<0>(load_inputs);
    Tensor gB_nkl = get<1>(load_inputs);
    const int tiles_n = int(size<2>(gB_nkl));
    const int tiles = int(size<2>(gA_mkl)) * tiles_n;
    const int k_tiles = int(size<3>(gA_mkl));
    // Output tiles round-robin over the CTAs; N fastest, so the CTAs working at one time share
    // the activation rows they read (the filter is small and stays in L2).
    auto tile_coord = [&](int t) {
      return make_coord(idx2crd(t / tiles_n, shape<2>(gA_mkl)), idx2crd(t % tiles_n, shape<2>(gB_nkl)), _, Int<0>{});
    };

    if (producer_group) {
      cutlass::arch::warpgroup_reg_dealloc<LoadRegisterRequirement>();
      if (mainloop_warp) {
        for (int t = int(blockIdx.x); t < tiles; t += int(gridDim.x)) {
          collective_mainloop.load(params.mainloop, mainloop_pipeline, mainloop_produce, load_inputs, tile_coord(t),
                                   cute::make_coord_iterator(shape<3>(gA_mkl)), k_tiles, lane_idx,
                                   cute::block_rank_in_cluster(), storage.tensors.mainloop);
          mainloop_produce.advance(k_tiles);
        }
        collective_mainloop.load_tail(mainloop_pipeline, mainloop_produce);
      } else if (epilogue_load_warp) {
        CollectiveEpilogue collective_epilogue(params.epilogue, storage.tensors.epilogue);
        if (collective_epilogue.is_producer_load_needed()) {
          for (int t = int(blockIdx.x); t < tiles; t += int(gridDim.x)) {
            epi_load_produce = collective_epilogue.load(epi_load_pipeline, epi_load_produce, problem_shape_MNKL,
                                                        blk_shape, tile_coord(t), tiled_mma, lane_idx,
                                                        storage.tensors.epilogue);
          }
          collective_epilogue.load_tail(epi_load_pipeline, epi_load_produce);
        }
      }
    } else if constexpr (!PingPong) {
      cutlass::arch::warpgroup_reg_alloc<MmaRegisterRequirement>();
      CollectiveEpilogue collective_epilogue(params.epilogue, storage.tensors.epilogue);
      bool stored = false;
      for (int t = int(blockIdx.x); t < tiles; t += int(gridDim.x)) {
        Tensor accumulators = partition_fragment_C(tiled_mma, take<0, 2>(blk_shape));
        collective_mainloop.mma(mainloop_pipeline, mainloop_consume, accumulators, k_tiles, mma_thread_idx,
                                storage.tensors.mainloop, params.mainloop);
        collective_mainloop.mma_tail(mainloop_pipeline, mainloop_consume, k_tiles);
        mainloop_consume.advance(k_tiles);
        auto [load_next, store_next] = collective_epilogue.store(
            epi_load_pipeline, epi_load_consume, epi_store_pipeline, epi_store_produce, problem_shape_MNKL,
            blk_shape, tile_coord(t), accumulators, tiled_mma, mma_thread_idx, storage.tensors.epilogue);
        epi_load_consume = load_next;
        epi_store_produce = store_next;
        stored = true;
      }
      if (stored) {
        collective_epilogue.store_tail(epi_load_pipeline, epi_load_consume, epi_store_pipeline, epi_store_produce);
      }
    } else {
      // Ping-pong: this group takes every other tile of the CTA's sequence, so its pipeline states
      // skip the other group's tile each time (and start one tile in for the second group).
      cutlass::arch::warpgroup_reg_alloc<MmaRegisterRequirement>();
      CollectiveEpilogue collective_epilogue(params.epilogue, storage.tensors.epilogue);
      const int c_tiles = CollectiveEpilogue::get_load_pipe_increment(blk_shape);
      const int d_tiles = CollectiveEpilogue::get_store_pipe_increment(blk_shape);
      if (consumer_group == 1) {
        mainloop_consume.advance(k_tiles);
        epi_load_consume.advance(c_tiles);
        epi_store_produce.advance(d_tiles);
      }
      const int stride = int(gridDim.x);
      for (int t = int(blockIdx.x) + consumer_group * stride; t < tiles; t += NumMmaWarpGroups * stride) {
        Tensor accumulators = partition_fragment_C(tiled_mma, take<0, 2>(blk_shape));
        math_order.wait();  // the tensor cores: the other group's MMAs for the tile before are issued
        collective_mainloop.mma(mainloop_pipeline, mainloop_consume, accumulators, k_tiles, mma_thread_idx,
                                storage.tensors.mainloop, params.mainloop);
        math_order.arrive();
        collective_mainloop.mma_tail(mainloop_pipeline, mainloop_consume, k_tiles);
        mainloop_consume.advance(k_tiles * NumMmaWarpGroups);
        math_order.wait();  // the epilogue buffers: the other group's epilogue is done with them
        auto [load_next, store_next] = collective_epilogue.store(
            epi_load_pipeline, epi_load_consume, epi_store_pipeline, epi_store_produce, problem_shape_MNKL,
            blk_shape, tile_coord(t), accumulators, tiled_mma, mma_thread_idx, storage.tensors.epilogue);
        // Each group drains its own TMA stores before handing the buffers over.
        auto [load_done, store_done] =
            collective_epilogue.store_tail(epi_load_pipeline, load_next, epi_store_pipeline, store_next);
        epi_load_consume = load_done;
        epi_store_produce = store_done;
        epi_load_consume.advance(c_tiles);
        epi_store_produce.advance(d_tiles);
        math_order.arrive();
      }
    }
#else
    printf("ucutlass: the persistent conv kernel needs sm_90a\n");
#endif
  }
};

}  // namespace ucutlass_conv

#endif  // UCUTLASS_PERSISTENT_CONV_SM90_HPP

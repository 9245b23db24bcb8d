#!/usr/bin/env python3
"""Convolution kernels on the GPU: numerics against a float64 PyTorch reference, and a benchmark beside cuDNN.

Usage (GPU machine, from the repository root, after scripts/build):
    python3 tests/nvcc/check_conv_gpu.py [--jobs 16] [--only CASE...] [--no-bench | --bench-only]
                                         [--torch-binding] [--out FILE]
    python3 tests/nvcc/check_conv_gpu.py --dry-run      # CPU machine: no nvcc, no GPU (see below)

Numerics: each case of CASES is one DSL program with one conv kernel (sm90a and sm80; fprop, dgrad, wgrad;
1D, 2D, 3D; stride, padding, dilation; groups and depthwise (sm80); tf32; fused bias and activations; C read as a residual; a transposed
convolution through dgrad; a dynamic batch). All programs are built by one `ucutlass build --json -j JOBS`;
a program that fails to build is recorded and the others still run. Each kernel runs through its C API
(ctypes, `ucutlass_conv_params`) on channels-last tensors converted from PyTorch's NCHW ones, exactly as the
torch binding does, and its result is compared with F.conv{1,2,3}d / torch.nn.grad.conv*_input /
conv*_weight (and F.conv_transpose2d for the transposed case) in float64 on the same rounded inputs,
followed by the manifest's epilogue. Error = max |out - ref| / (1 + |ref|), thresholds per output type.

Benchmark (skipped by --no-bench): conv2d fprop 3x3, N = 8, C 64 -> 128, 512 x 1024, pad 1:
  * bf16: ucutlass (sm90a) against F.conv2d (cuDNN), both on channels_last tensors, in one run, the ratio
    reported (> 1: ucutlass faster); also with the fused bias + ReLU against conv2d + bias + relu, and the
    cost of the NCHW -> channels_last copy the torch binding makes for an NCHW input;
  * f32 inputs: the ucutlass TF32 kernel against PyTorch's default f32 conv (cuDNN with
    torch.backends.cudnn.allow_tf32 as PyTorch sets it, True by default) and against exact f32
    (allow_tf32 = False); accuracy of each against float64 on one image.
And problems/level1/022 (depthwise 3x3, groups = C = 512, N = 32, 64 x 64, pad 1, f32): the sm80 direct
convolution against F.conv2d(groups = 512) on channels_last tensors, and against the NCHW call the
problem's nn.Conv2d makes ("torch_nchw"; every benchmark reports it).
Timing: CUDA events around each call; each side warmed up for --warmup-ms, then --iters calls of each in 10
rounds whose order alternates (time_side_by_side), median and minimum; --bench-filter picks benchmarks.

--torch-binding additionally compiles one emitted torch binding (fprop + bias + ReLU) with
torch.utils.cpp_extension against the built library and checks NCHW and channels_last inputs through it.

--dry-run (any machine with PyTorch): `ucutlass compile` instead of build, the references on the CPU, and
the kernel replaced by float32 PyTorch, so the data paths, the manifest reading and the reference maths
are exercised without a GPU.

Writes bench/results/conv-<date>.json with provenance (command, git commit, nvcc, driver, host, GPU,
torch) and exits 1 when any case fails.
"""
import argparse
import ctypes
import json
import math
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time
import traceback

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
import provenance  # noqa: E402
import ucutlass_cli  # noqa: E402

# Output type -> largest accepted max |out - ref| / (1 + |ref|). Inputs are scaled so the accumulator is
# O(1); bf16 keeps 8 mantissa bits, f16 11; f32 outputs come from TF32 products (10-bit mantissa inputs).
THRESHOLDS = {"bf16": 2e-2, "f16": 4e-3, "f32": 4e-3}
# Depthwise f32 runs on CUDA cores in exact f32 (no TF32): a tighter bound (the "threshold" option).
EXACT_F32 = 1e-5

# One kernel per case: (name, DSL declaration after `kernel NAME = `, options).
# Options: n = the batch to run a `n = dynamic` kernel with; transpose = also compare with conv_transpose2d;
# threshold = the case's own error bound.
CASES = [
    ("fprop2d_bf16_bias_relu", "conv2d(fprop, n = 4, h = 56, w = 56, c = 64, k = 128, r = 3, s = 3, pad = 1)"
                               ".with_types(bf16).with_epilogue(bias(col), relu)", {}),
    ("fprop2d_f16_strided_dilated", "conv2d(fprop, n = 2, h = 64, w = 48, c = 32, k = 64, r = 3, s = 3, "
                                    "pad = (2, 1), stride = 2, dilation = (2, 1)).with_types(f16)", {}),
    ("fprop2d_tf32", "conv2d(fprop, n = 2, h = 32, w = 32, c = 32, k = 64, r = 3, s = 3, pad = 1).with_types(f32)", {}),
    ("fprop2d_residual_silu", "conv2d(fprop, n = 2, h = 28, w = 28, c = 64, k = 64, r = 1, s = 1)"
                              ".with_types(bf16).with_epilogue(beta(1.0), silu)", {}),
    ("fprop2d_channel_scale", "conv2d(fprop, n = 2, h = 28, w = 28, c = 64, k = 64, r = 3, s = 3, pad = 1)"
                              ".with_types(bf16).with_epilogue(per_channel_scale(f32), bias(col), gelu)", {}),
    ("fprop2d_dynamic_batch", "conv2d(fprop, n = dynamic, h = 32, w = 32, c = 64, k = 64, r = 3, s = 3, pad = 1)"
                              ".with_types(bf16)", {"n": 3}),
    ("fprop1d_bf16_gelu", "conv1d(fprop, n = 4, w = 1000, c = 64, k = 64, s = 5, pad = 2)"
                          ".with_types(bf16).with_epilogue(gelu)", {}),
    ("fprop3d_bf16", "conv3d(fprop, n = 2, d = 8, h = 16, w = 16, c = 32, k = 64, t = 3, r = 3, s = 3, pad = 1)"
                     ".with_types(bf16)", {}),
    ("dgrad2d_bf16", "conv2d(dgrad, n = 4, h = 28, w = 28, c = 64, k = 64, r = 3, s = 3, pad = 1).with_types(bf16)", {}),
    ("dgrad3d_bf16", "conv3d(dgrad, n = 2, d = 8, h = 16, w = 16, c = 32, k = 64, t = 3, r = 3, s = 3, pad = 1)"
                     ".with_types(bf16)", {}),
    ("dgrad2d_transpose_stride1", "conv2d(dgrad, n = 2, h = 32, w = 32, c = 32, k = 64, r = 3, s = 3, pad = 1)"
                                  ".with_types(f16)", {"transpose": True}),
    ("wgrad2d_bf16", "conv2d(wgrad, n = 4, h = 28, w = 28, c = 64, k = 64, r = 3, s = 3, pad = 1).with_types(bf16)", {}),
    ("wgrad1d_f16_scale", "conv1d(wgrad, n = 8, w = 1000, c = 64, k = 128, s = 5, pad = 2)"
                          ".with_types(f16).with_epilogue(scale(0.5))", {}),
    # The persistent cooperative schedule (codegen/runtime/persistent_conv_sm90.hpp): CTAs walking several
    # tiles with two N tiles per M row and a partial last M tile; 256-row tiles with C read through the
    # epilogue's load warp; TF32; stride and dilation; a batch given at run time (the grid follows it).
    ("coop_bf16_multi_tile_bias_relu", "conv2d(fprop, n = 4, h = 57, w = 55, c = 64, k = 256, r = 3, s = 3, pad = 1)"
                                       ".with_types(bf16).with_schedule(cooperative).with_tile(128, 128, 64)"
                                       ".with_epilogue(bias(col), relu)", {}),
    ("coop_bf16_256_residual_silu", "conv2d(fprop, n = 3, h = 40, w = 40, c = 64, k = 128, r = 1, s = 1)"
                                    ".with_types(bf16).with_schedule(cooperative).with_tile(256, 128, 64)"
                                    ".with_epilogue(beta(1.0), silu)", {}),
    ("coop_tf32", "conv2d(fprop, n = 2, h = 45, w = 33, c = 32, k = 64, r = 3, s = 3, pad = 1).with_types(f32)"
                  ".with_schedule(cooperative)", {}),
    ("coop_f16_strided_dilated", "conv2d(fprop, n = 8, h = 64, w = 48, c = 32, k = 64, r = 3, s = 3, "
                                 "pad = (2, 1), stride = 2, dilation = (2, 1)).with_types(f16).with_schedule(cooperative)",
     {}),
    ("coop_conv1d_bf16_gelu", "conv1d(fprop, n = 4, w = 1000, c = 64, k = 64, s = 5, pad = 2).with_types(bf16)"
                              ".with_schedule(cooperative).with_epilogue(gelu)", {}),
    ("coop_conv3d_bf16", "conv3d(fprop, n = 2, d = 8, h = 16, w = 16, c = 32, k = 64, t = 3, r = 3, s = 3, pad = 1)"
                         ".with_types(bf16).with_schedule(cooperative).with_tile(256, 64, 64)", {}),
    # The persistent ping-pong schedule: alternate tiles per consumer warp group (an odd tile count per CTA
    # leaves the second group one tile short), C read through the epilogue's load warp, TF32, 64-row tiles.
    ("pingpong_bf16_residual_relu", "conv2d(fprop, n = 4, h = 57, w = 55, c = 64, k = 256, r = 3, s = 3, pad = 1)"
                                    ".with_types(bf16).with_schedule(pingpong).with_tile(128, 128, 64)"
                                    ".with_epilogue(beta(1.0), relu)", {}),
    ("pingpong_tf32_bias", "conv2d(fprop, n = 2, h = 45, w = 33, c = 32, k = 64, r = 3, s = 3, pad = 1).with_types(f32)"
                           ".with_schedule(pingpong).with_epilogue(bias(col))", {}),
    ("pingpong_f16_64_rows_dynamic", "conv2d(fprop, n = dynamic, h = 31, w = 29, c = 32, k = 128, r = 3, s = 3, "
                                     "pad = 1).with_types(f16).with_schedule(pingpong).with_tile(64, 128, 64)",
     {"n": 7}),
    # `auto` on sm90a fprop: 1D, 3D with bias + GELU, and a strided conv with ~7 tiles per SM (several per
    # consumer group should `auto` pick the persistent ping-pong kernel: branch auto-pingpong-conv).
    ("auto_conv1d_bf16_silu", "conv1d(fprop, n = dynamic, w = 4096, c = 64, k = 128, s = 5, pad = 2).with_types(bf16)"
                              ".with_epilogue(silu)", {"n": 3}),
    ("auto_conv3d_tf32_bias_gelu", "conv3d(fprop, n = 2, d = 8, h = 16, w = 16, c = 32, k = 64, t = 3, r = 3, s = 3, "
                                   "pad = 1).with_types(f32).with_epilogue(bias(col), gelu)", {}),
    ("auto_bf16_strided_many_tiles", "conv2d(fprop, n = 16, h = 160, w = 96, c = 64, k = 192, r = 3, s = 3, pad = 1, "
                                     "stride = 2).with_types(bf16)", {}),
    ("coop_bf16_dynamic_batch", "conv2d(fprop, n = dynamic, h = 32, w = 32, c = 64, k = 64, r = 3, s = 3, pad = 1)"
                                ".with_types(bf16).with_schedule(cooperative)", {"n": 5}),
    ("sm80_fprop2d_c4_stride2", "conv2d(fprop, n = 8, h = 224, w = 224, c = 4, k = 64, r = 3, s = 3, pad = 1, "
                                "stride = 2).with_arch(sm80).with_types(f16).with_epilogue(relu)", {}),
    ("sm80_fprop1d_bf16", "conv1d(fprop, n = 4, w = 512, c = 32, k = 64, s = 3, pad = 1)"
                          ".with_arch(sm80).with_types(bf16)", {}),
    ("sm80_transpose_stride2", "conv2d(dgrad, n = 8, h = 64, w = 64, c = 32, k = 64, r = 4, s = 4, pad = 1, "
                               "stride = 2).with_arch(sm80).with_types(f16)", {"transpose": True}),
    ("sm80_dgrad3d_strided", "conv3d(dgrad, n = 2, d = 16, h = 32, w = 32, c = 32, k = 64, t = 3, r = 3, s = 3, "
                             "pad = 1, stride = 2).with_arch(sm80).with_types(f16)", {}),
    ("sm80_conv_transpose_output_padding", "conv_transpose2d(n = 4, h = 28, w = 28, c = 64, k = 32, r = 3, s = 3, "
                                           "pad = 1, stride = 2, output_padding = 1).with_arch(sm80).with_types(bf16)",
     {"transpose": True}),
    ("sm80_wgrad2d_tf32", "conv2d(wgrad, n = 8, h = 56, w = 56, c = 64, k = 64, r = 3, s = 3, pad = 1)"
                          ".with_arch(sm80).with_types(f32).with_math(tf32)", {}),
    ("sm80_grouped_single", "conv2d(fprop, n = 4, h = 56, w = 56, c = 128, k = 128, r = 3, s = 3, pad = 1, "
                            "groups = 2).with_arch(sm80).with_types(bf16)", {}),
    ("sm80_grouped_multiple", "conv2d(fprop, n = 4, h = 56, w = 56, c = 64, k = 64, r = 3, s = 3, pad = 1, "
                              "groups = 16).with_arch(sm80).with_types(f32).with_epilogue(relu)", {}),
    # sm80 bias through C with every stride 0 but the channel's (beta = 1): 2D f32 3xTF32, 3D f16.
    ("sm80_fprop2d_tf32x3_bias_relu", "conv2d(fprop, n = 4, h = 56, w = 56, c = 64, k = 128, r = 3, s = 3, pad = 1)"
                                      ".with_arch(sm80).with_types(f32).with_math(tf32x3).with_epilogue(bias(col), relu)",
     {}),
    ("sm80_fprop3d_f16_bias", "conv3d(fprop, n = 2, d = 8, h = 16, w = 16, c = 32, k = 64, t = 3, r = 3, s = 3, "
                              "pad = 1).with_arch(sm80).with_types(f16).with_epilogue(bias(col), silu)", {}),
    ("sm80_fprop3d_bf16_silu", "conv3d(fprop, n = 2, d = 8, h = 32, w = 32, c = 32, k = 64, t = 3, r = 3, s = 3, "
                               "pad = 1).with_arch(sm80).with_types(bf16).with_epilogue(silu)", {}),
    # Depthwise (groups = c = k): the sm80 direct convolution. level1/022's kernel at batch 4, then partial
    # output tiles (odd extents, stride 2, a dynamic batch), a 5x5 dilated filter with C read, a partial
    # channel tile, and f16 accumulation.
    ("sm80_depthwise_f32_022", "conv2d(fprop, n = 4, h = 64, w = 64, c = 512, k = 512, r = 3, s = 3, pad = 1, "
                               "groups = 512).with_arch(sm80).with_types(f32)", {"threshold": EXACT_F32}),
    # A per-channel bias read as C with every stride 0 but the channel's (beta = 1), as problems/level1/022
    # fuses its nn.Conv2d bias.
    ("sm80_depthwise_f32_bias", "conv2d(fprop, n = 4, h = 64, w = 64, c = 512, k = 512, r = 3, s = 3, pad = 1, "
                                "groups = 512).with_arch(sm80).with_types(f32).with_epilogue(bias(col))",
     {"threshold": EXACT_F32}),
    ("sm80_depthwise_f16_strided_bias_relu", "conv2d(fprop, n = 3, h = 57, w = 45, c = 96, k = 96, r = 3, s = 3, "
                                             "pad = 1, stride = 2, groups = 96).with_arch(sm80).with_types(f16)"
                                             ".with_tile(32, 32, 9).with_warps(2, 1, 1).with_epilogue(bias(col), relu)",
     {}),
    ("sm80_depthwise_f16_strided_relu", "conv2d(fprop, n = dynamic, h = 57, w = 45, c = 96, k = 96, r = 3, s = 3, "
                                        "pad = 1, stride = 2, groups = 96).with_arch(sm80).with_types(f16)"
                                        ".with_tile(32, 32, 9).with_warps(2, 1, 1).with_epilogue(relu)", {"n": 3}),
    ("sm80_depthwise_bf16_5x5_dilated_residual", "conv2d(fprop, n = 2, h = 40, w = 40, c = 64, k = 64, r = 5, s = 5, "
                                                 "pad = 4, dilation = 2, groups = 64).with_arch(sm80)"
                                                 ".with_types(bf16).with_epilogue(beta(1.0), silu)", {}),
    # 40 channels: auto tile N 16, so the last channel tile is half full.
    ("sm80_depthwise_f32_partial_channel_tile", "conv2d(fprop, n = 2, h = 20, w = 20, c = 40, k = 40, r = 3, s = 3, "
                                                "pad = 1, groups = 40).with_arch(sm80).with_types(f32)",
     {"threshold": EXACT_F32}),
    # The widest channel tile (128, 8x16 pixels, 2 stages) and the most warps (16 warps, 512 threads). The
    # epilogue stages a tile's accumulators in the activation stage just read (validate_depthwise.h), so
    # f16 with f32 accumulators cannot take a 16x16 tile (64 KiB of accumulators, 48 KiB stages: NaN on
    # the H200, 2026-11-30); 16 warps of 2x2 thread tiles on 8x8 pixels fill their stage exactly (16 KiB).
    ("sm80_depthwise_f32_tile128", "conv2d(fprop, n = 4, h = 30, w = 50, c = 256, k = 256, r = 3, s = 3, pad = 1, "
                                   "groups = 256).with_arch(sm80).with_types(f32).with_tile(128, 128, 9)"
                                   ".with_warps(4, 1, 1).with_stages(2)", {"threshold": EXACT_F32}),
    ("sm80_depthwise_f16_16_warps", "conv2d(fprop, n = 4, h = 30, w = 50, c = 64, k = 64, r = 3, s = 3, pad = 1, "
                                    "groups = 64).with_arch(sm80).with_types(f16).with_tile(64, 64, 9)"
                                    ".with_warps(16, 1, 1)", {}),
    # f16 auto at stride 1 with 64 channels: 8x8 pixels on 8 warps (4 would overflow the stage).
    ("sm80_depthwise_f16_auto", "conv2d(fprop, n = 4, h = 30, w = 50, c = 64, k = 64, r = 3, s = 3, pad = 1, "
                                "groups = 64).with_arch(sm80).with_types(f16)", {}),
    ("sm80_depthwise_f16_acc16_tile16", "conv2d(fprop, n = 2, h = 33, w = 31, c = 48, k = 48, r = 3, s = 3, pad = 1, "
                                        "groups = 48).with_arch(sm80).with_types(a = f16, acc = f16)"
                                        ".with_tile(16, 16, 9).with_warps(1, 1, 1)",
     {"threshold": 1e-2}),  # 9 taps summed in f16: up to ~9 half-ulps of an O(1) value
]

# The benchmark problem: conv2d fprop 3x3, N = 8, C 64 -> 128, 512 x 1024, pad 1 (batch dynamic, so the
# float64 accuracy check can run one image through the same kernel).
BENCH_PROBLEM = "conv2d(fprop, n = dynamic, h = 512, w = 1024, c = 64, k = 128, r = 3, s = 3, pad = 1)"
# problems/level1/022: nn.Conv2d(512, 512, 3, padding=1, groups=512) on [32, 512, 64, 64], f32 (without
# its bias: the timing is of the convolution alone on both sides).
DEPTHWISE_PROBLEM = ("conv2d(fprop, n = dynamic, h = 64, w = 64, c = 512, k = 512, r = 3, s = 3, pad = 1, "
                     "groups = 512).with_arch(sm80)")
# (name, program, batch of the timed run)
BENCH = [
    ("bench_bf16", BENCH_PROBLEM + ".with_types(bf16)", 8),
    # The tiles and clusters an optimizer would try (conv_space.h's sm90a knobs); the family's best is
    # what the acceptance ratio reads (summary "best"), every variant's time is kept.
    ("bench_bf16_tile_128x128_c1x1", BENCH_PROBLEM + ".with_types(bf16).with_tile(128, 128, 64).with_cluster(1, 1, 1)", 8),
    ("bench_bf16_tile_128x128_c1x2", BENCH_PROBLEM + ".with_types(bf16).with_tile(128, 128, 64).with_cluster(1, 2, 1)", 8),
    ("bench_bf16_tile_64x128_c1x1", BENCH_PROBLEM + ".with_types(bf16).with_tile(64, 128, 64).with_cluster(1, 1, 1)", 8),
    ("bench_bf16_tile_128x64_c2x1", BENCH_PROBLEM + ".with_types(bf16).with_tile(128, 64, 64).with_cluster(2, 1, 1)", 8),
    # SM90 convolutions run CUTLASS's non-persistent warp-specialized kernel (one consumer warp group,
    # no cooperative or ping-pong variant), so a tile's epilogue overlaps another tile's main loop only
    # when two CTAs share an SM. The automatic stage count fills shared memory (9 stages of 24 KB for
    # 128x64x64 bf16): one CTA per SM, and the 2026-11-30 run reached 0.72x cuDNN. A 128x64 or 64x128
    # tile needs 90 registers per thread (ptxas), so with <= 4 stages two CTAs fit by registers and by
    # shared memory; 128x128 needs ~170 registers, one CTA whatever the stages.
    ("bench_bf16_tile_128x64_s4", BENCH_PROBLEM + ".with_types(bf16).with_tile(128, 64, 64).with_cluster(1, 1, 1)"
                                  ".with_stages(4)", 8),
    ("bench_bf16_tile_128x64_s3", BENCH_PROBLEM + ".with_types(bf16).with_tile(128, 64, 64).with_cluster(1, 1, 1)"
                                  ".with_stages(3)", 8),
    ("bench_bf16_tile_64x128_s4", BENCH_PROBLEM + ".with_types(bf16).with_tile(64, 128, 64).with_cluster(1, 1, 1)"
                                  ".with_stages(4)", 8),
    ("bench_bf16_tile_128x128_s4", BENCH_PROBLEM + ".with_types(bf16).with_tile(128, 128, 64).with_cluster(1, 1, 1)"
                                   ".with_stages(4)", 8),
    # 2026-11-30 (conv-2026-11-30-052728.json): 64x128 with 4 stages was the best (1.369 ms, 0.69x cuDNN),
    # 128x64 with 4 stages the worst of the new ones (1.71 ms): a tile spanning all 128 output channels
    # reads each activation tile once. Around that best: its stage count, and a 2x1 cluster that
    # multicasts the filter tile to two M neighbours.
    ("bench_bf16_tile_64x128_s3", BENCH_PROBLEM + ".with_types(bf16).with_tile(64, 128, 64).with_cluster(1, 1, 1)"
                                  ".with_stages(3)", 8),
    ("bench_bf16_tile_64x128_s6", BENCH_PROBLEM + ".with_types(bf16).with_tile(64, 128, 64).with_cluster(1, 1, 1)"
                                  ".with_stages(6)", 8),
    ("bench_bf16_tile_64x128_c2x1_s4", BENCH_PROBLEM + ".with_types(bf16).with_tile(64, 128, 64).with_cluster(2, 1, 1)"
                                       ".with_stages(4)", 8),
    # 2026-11-30: the non-persistent kernel tops out at 0.69-0.77x cuDNN whatever the tile, stages or
    # cluster; the persistent cooperative kernel overlaps each tile's epilogue and the next tile's loads.
    ("bench_bf16_tile_coop_128x128", BENCH_PROBLEM + ".with_types(bf16).with_schedule(cooperative)"
                                     ".with_tile(128, 128, 64)", 8),
    ("bench_bf16_tile_coop_256x128", BENCH_PROBLEM + ".with_types(bf16).with_schedule(cooperative)"
                                     ".with_tile(256, 128, 64)", 8),
    ("bench_bf16_tile_coop_256x128_s4", BENCH_PROBLEM + ".with_types(bf16).with_schedule(cooperative)"
                                        ".with_tile(256, 128, 64).with_stages(4)", 8),
    ("bench_bf16_tile_coop_128x128_k32", BENCH_PROBLEM + ".with_types(bf16).with_schedule(cooperative)"
                                         ".with_tile(128, 128, 32)", 8),
    ("bench_bf16_tile_pingpong_128x128", BENCH_PROBLEM + ".with_types(bf16).with_schedule(pingpong)"
                                         ".with_tile(128, 128, 64)", 8),
    ("bench_bf16_tile_pingpong_64x128", BENCH_PROBLEM + ".with_types(bf16).with_schedule(pingpong)"
                                        ".with_tile(64, 128, 64)", 8),
    ("bench_bf16_tile_pingpong_64x256", BENCH_PROBLEM + ".with_types(bf16).with_schedule(pingpong)"
                                        ".with_tile(64, 256, 64)", 8),
    ("bench_tf32_tile_pingpong_128x128", BENCH_PROBLEM + ".with_types(f32).with_schedule(pingpong)"
                                         ".with_tile(128, 128, 32)", 8),
    ("bench_tf32_tile_pingpong_64x128", BENCH_PROBLEM + ".with_types(f32).with_schedule(pingpong)"
                                        ".with_tile(64, 128, 32)", 8),
    ("bench_bf16_bias_relu_tile_coop_256x128", BENCH_PROBLEM + ".with_types(bf16).with_schedule(cooperative)"
                                               ".with_tile(256, 128, 64).with_epilogue(bias(col), relu)", 8),
    ("bench_tf32_tile_coop_128x128", BENCH_PROBLEM + ".with_types(f32).with_schedule(cooperative)"
                                     ".with_tile(128, 128, 32)", 8),
    ("bench_tf32_tile_coop_256x128", BENCH_PROBLEM + ".with_types(f32).with_schedule(cooperative)"
                                     ".with_tile(256, 128, 32)", 8),
    ("bench_tf32_tile_coop_128x64", BENCH_PROBLEM + ".with_types(f32).with_schedule(cooperative)"
                                    ".with_tile(128, 64, 32)", 8),
    ("bench_bf16_bias_relu", BENCH_PROBLEM + ".with_types(bf16).with_epilogue(bias(col), relu)", 8),
    ("bench_tf32", BENCH_PROBLEM + ".with_types(f32)", 8),
    ("bench_tf32_tile_128x64_s4", BENCH_PROBLEM + ".with_types(f32).with_tile(128, 64, 32).with_cluster(1, 1, 1)"
                                  ".with_stages(4)", 8),
    ("bench_tf32_tile_128x64_s3", BENCH_PROBLEM + ".with_types(f32).with_tile(128, 64, 32).with_cluster(1, 1, 1)"
                                  ".with_stages(3)", 8),
    ("bench_tf32_tile_64x128_s4", BENCH_PROBLEM + ".with_types(f32).with_tile(64, 128, 32).with_cluster(1, 1, 1)"
                                  ".with_stages(4)", 8),
    ("bench_tf32_tile_128x128_s4", BENCH_PROBLEM + ".with_types(f32).with_tile(128, 128, 32).with_cluster(1, 1, 1)"
                                   ".with_stages(4)", 8),
    ("bench_tf32_tile_64x128_s6", BENCH_PROBLEM + ".with_types(f32).with_tile(64, 128, 32).with_cluster(1, 1, 1)"
                                  ".with_stages(6)", 8),
    ("bench_depthwise_f32_022", DEPTHWISE_PROBLEM + ".with_types(f32)", 32),
]
DEVICE = "cuda"
DTYPES = {}


class ConvParams(ctypes.Structure):
    """ucutlass_conv_params of the emitted C API (docs/codegen.md)."""
    _fields_ = ([(n, ctypes.c_void_p) for n in ("a", "b", "c", "d", "bias")] +
                [(n, ctypes.c_int) for n in ("n", "in_d", "in_h", "in_w", "in_c", "out_c", "t", "r", "s")] +
                [("pad", ctypes.c_int * 3), ("stride", ctypes.c_int * 3), ("dilation", ctypes.c_int * 3),
                 ("groups", ctypes.c_int), ("alpha", ctypes.c_float), ("beta", ctypes.c_float),
                 ("extra", ctypes.c_void_p * 8)])


def program(name, decl):
    return f"# generated by check_conv_gpu.py\nkernel {name} = {decl}\n"


def channels_last(t, torch):
    """The memory order the kernels read (NWC, NHWC, NDHWC; KRSC), keeping PyTorch's shape."""
    if t.dim() == 4:
        return t.contiguous(memory_format=torch.channels_last)
    if t.dim() == 5:
        return t.contiguous(memory_format=torch.channels_last_3d)
    return t.transpose(1, 2).contiguous().transpose(1, 2)


def empty_channels_last(shape, dtype, torch):
    if len(shape) == 4:
        return torch.empty(shape, dtype=dtype, device=DEVICE, memory_format=torch.channels_last)
    if len(shape) == 5:
        return torch.empty(shape, dtype=dtype, device=DEVICE, memory_format=torch.channels_last_3d)
    return torch.empty((shape[0], shape[2], shape[1]), dtype=dtype, device=DEVICE).transpose(1, 2)


class Problem:
    """The conv of a signature in PyTorch's terms, with the extents a run uses (dynamic ones filled in)."""

    def __init__(self, sig, n=None):
        conv = sig["conv"]
        self.mode, self.dims, self.groups = conv["mode"], conv["dims"], conv["groups"]
        self.first = 3 - self.dims
        self.n = conv["N"] or n or 2
        self.c, self.k = conv["C"], conv["K"]
        self.input3 = [v or 16 for v in conv["input"]]
        self.filter3 = conv["filter"]
        self.pad3, self.stride3, self.dilation3 = conv["pad"], conv["stride"], conv["dilation"]
        self.output3 = [(i + 2 * p - d * (f - 1) - 1) // s + 1 for i, p, f, s, d in
                        zip(self.input3, self.pad3, self.filter3, self.stride3, self.dilation3)]

    def spatial(self, v):
        return list(v[self.first:])

    @property
    def x_shape(self):
        return [self.n, self.c] + self.spatial(self.input3)

    @property
    def y_shape(self):
        return [self.n, self.k] + self.spatial(self.output3)

    @property
    def w_shape(self):
        return [self.k, self.c // self.groups] + self.spatial(self.filter3)

    def window(self):
        return dict(stride=self.spatial(self.stride3), padding=self.spatial(self.pad3),
                    dilation=self.spatial(self.dilation3), groups=self.groups)

    def gemm_k(self):
        taps = math.prod(self.spatial(self.filter3))
        if self.mode == "fprop":
            return taps * self.c // self.groups
        if self.mode == "dgrad":
            return taps * self.k // self.groups
        return self.n * math.prod(self.spatial(self.output3))


def reference_conv(problem, a, b, torch):
    """The pass in float64 on the (rounded) operands a, b in PyTorch's shapes."""
    F = torch.nn.functional
    conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[problem.dims]
    grad = torch.nn.grad
    w = problem.window()
    if problem.mode == "fprop":
        return conv(a.double(), b.double(), None, **w)
    if problem.mode == "dgrad":
        fn = {1: grad.conv1d_input, 2: grad.conv2d_input, 3: grad.conv3d_input}[problem.dims]
        return fn(problem.x_shape, b.double(), a.double(), **w)
    fn = {1: grad.conv1d_weight, 2: grad.conv2d_weight, 3: grad.conv3d_weight}[problem.dims]
    return fn(b.double(), problem.w_shape, a.double(), **w)


def apply_epilogue(sig, acc, c, bias, extras, torch):
    """The manifest's epilogue on the float64 accumulator; per-channel vectors broadcast along dim 1."""
    sys.path.insert(0, str(REPO / "tests" / "nvcc"))
    import check_epilogue_gpu as epi  # the expression evaluator and reference functions
    epi.DEVICE = DEVICE
    fns = epi.reference_functions(torch)

    def per_channel(v):
        return v.double().reshape([1, -1] + [1] * (acc.dim() - 2))

    x = sig["alpha"] * acc
    if c is not None:
        x = x + sig["beta"] * c.double()
    values = [per_channel(t) if e["kind"] == "col" else t.double()[0] for e, t in zip(sig["extras"], extras)]
    for step in sig["epilogue"]:
        op = step["op"]
        if op == "bias":
            x = x + per_channel(bias)
        elif op == "expr":
            x = epi.evaluate(step["expr"], {"x": x, "acc": acc, "c": None if c is None else c.double(),
                                            "extras": values}, fns, torch)
        else:
            args = [step[k] for k in ("slope", "lower", "upper", "alpha", "beta", "threshold") if k in step]
            x = fns[op](x, *args)
    return x


def make_operands(problem, sig, torch, seed=1234):
    """A and B of the pass in PyTorch's shapes, scaled so the accumulator is O(1); the output's shape."""
    dt = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}
    gen = torch.Generator(device=DEVICE).manual_seed(seed)
    scale = 1.0 / math.sqrt(math.sqrt(problem.gemm_k()))

    def rand(shape, dtype, s=scale):
        return ((torch.rand(shape, generator=gen, device=DEVICE, dtype=torch.float64) * 2 - 1) * s).to(dt[dtype])

    shapes = {"fprop": (problem.x_shape, problem.w_shape, problem.y_shape),
              "dgrad": (problem.y_shape, problem.w_shape, problem.x_shape),
              "wgrad": (problem.y_shape, problem.x_shape, problem.w_shape)}[problem.mode]
    a = rand(shapes[0], sig["types"]["a"])
    b = rand(shapes[1], sig["types"]["b"])
    return a, b, shapes[2], rand, dt


def fill_params(problem, sig, ptrs):
    p = ConvParams(**ptrs)
    p.n, p.in_c, p.out_c, p.groups = problem.n, problem.c, problem.k, problem.groups
    p.in_d, p.in_h, p.in_w = problem.input3
    p.t, p.r, p.s = problem.filter3
    for i in range(3):
        p.pad[i], p.stride[i], p.dilation[i] = problem.pad3[i], problem.stride3[i], problem.dilation3[i]
    p.alpha, p.beta = sig["alpha"], sig["beta"]
    return p


def run_kernel(lib, sig, params, torch):
    """The C entry on the current stream; returns (rc, message)."""
    fn = getattr(lib, sig["symbols"]["run"])
    fn.argtypes = [ctypes.POINTER(ConvParams), ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    msg = ctypes.create_string_buffer(512)
    rc = fn(ctypes.byref(params), ctypes.c_void_p(torch.cuda.current_stream().cuda_stream), msg, 512)
    return rc, msg.value.decode()


def simulate_kernel(problem, sig, a, b, c, bias, extras, out, torch):
    """--dry-run: what the kernel computes, in float32 PyTorch, written into `out` like the kernel would."""
    acc = reference_conv(problem, a.float(), b.float(), torch).float()
    out.copy_(apply_epilogue(sig, acc.double(), c, bias, extras, torch).to(out.dtype))
    return 0, "simulated"


def check_case(lib, sig, options, torch, dry_run):
    problem = Problem(sig, options.get("n"))
    a, b, out_shape, rand, dt = make_operands(problem, sig, torch)
    out = empty_channels_last(out_shape, dt[sig["types"]["d"]], torch)
    out.zero_()
    ins = {i["name"]: i for i in sig["inputs"]}
    c = rand(out_shape, ins["c"]["dtype"], 1.0) if "c" in ins else None
    bias = rand((out_shape[1],), ins["bias"]["dtype"], 1.0) if "bias" in ins else None
    extras = []
    for e in sig["extras"]:
        if e["kind"] == "scalar":
            extras.append(torch.tensor([0.75], dtype=torch.float32, device=DEVICE))
        else:
            extras.append(rand((out_shape[1],), e["dtype"], 1.0) + 1.5)
    a_cl, b_cl = channels_last(a, torch), channels_last(b, torch)
    c_cl = channels_last(c, torch) if c is not None else None
    ptrs = dict(a=a_cl.data_ptr(), b=b_cl.data_ptr(), d=out.data_ptr())
    if c_cl is not None:
        ptrs["c"] = c_cl.data_ptr()
    if bias is not None:
        ptrs["bias"] = bias.data_ptr()
    params = fill_params(problem, sig, ptrs)
    for i, t in enumerate(extras):
        params.extra[i] = t.data_ptr()
    if dry_run:
        rc, message = simulate_kernel(problem, sig, a, b, c, bias, extras, out, torch)
    else:
        rc, message = run_kernel(lib, sig, params, torch)
        torch.cuda.synchronize()
    result = {"kernel": sig["kernel"], "arch": sig["arch"], "op": sig["op"], "conv": sig["conv"], "n": problem.n,
              "dtype": sig["types"]["d"], "rc": rc, "message": message}
    if rc != 0:
        result["pass"] = False
        return result
    ref = apply_epilogue(sig, reference_conv(problem, a, b, torch), c, bias, extras, torch)

    def error(got, want):
        return float(((got.double() - want).abs() / (1 + want.abs())).max())

    errors = {"out": error(out, ref)}
    if options.get("transpose"):
        # nn.ConvTranspose: its input is dy, its weight w [Cin = K, Cout = C, ...]; output_padding 0.
        F = torch.nn.functional
        tconv = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[problem.dims]
        w = problem.window()
        # output_padding: what the forward input has beyond the smallest input that maps onto dy.
        extra = [x - ((y - 1) * st - 2 * p + d * (f - 1) + 1) for x, y, st, p, d, f in
                 zip(problem.spatial(problem.input3), problem.spatial(problem.output3), w["stride"], w["padding"],
                     w["dilation"], problem.spatial(problem.filter3))]
        transposed = tconv(a.double(), b.double(), None, stride=w["stride"], padding=w["padding"],
                           output_padding=extra, dilation=w["dilation"], groups=w["groups"])
        errors["conv_transpose_vs_out"] = error(out, transposed)
        errors["conv_transpose_vs_reference"] = error(ref, transposed)
    threshold = options.get("threshold", THRESHOLDS[sig["types"]["d"]])
    worst = max(errors.values())
    result.update(errors=errors, threshold=threshold, **{"pass": worst <= threshold and not math.isnan(worst)})
    return result


# ---- benchmark -----------------------------------------------------------------------------------


def time_ms(fn, torch, warmup, iters):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return {"median_ms": statistics.median(times), "min_ms": min(times), "iters": iters}


def time_side_by_side(fns, torch, warmup_ms, iters, rounds=10):
    """Times several callables against each other: after a time-based warm-up of each, `rounds` rounds
    of iters/rounds calls of each, the order reversed every other round, so clock and power drift
    during the run reach every side alike. (2026-11-30: timed one after another in 20-call blocks,
    cuDNN's TF32 time for one problem ranged 1.85-2.12 ms across the rows of one run.)"""
    for fn in fns.values():
        t0 = time.perf_counter()
        while (time.perf_counter() - t0) * 1e3 < warmup_ms:
            fn()
            torch.cuda.synchronize()
    times = {name: [] for name in fns}
    order = list(fns)
    per_round = max(1, iters // rounds)
    for r in range(rounds):
        for name in (order if r % 2 == 0 else order[::-1]):
            for _ in range(per_round):
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                fns[name]()
                end.record()
                end.synchronize()
                times[name].append(start.elapsed_time(end))
    return {name: {"median_ms": statistics.median(v), "min_ms": min(v), "iters": len(v), "rounds": rounds}
            for name, v in times.items()}


def bench(built, torch, warmup, iters, warmup_ms=300, rounds=10):
    """The benchmark problem through ucutlass and cuDNN, one run, channels_last tensors for both."""
    F = torch.nn.functional
    out = {"problems": {name: {"program": decl, "n": n} for name, decl, n in BENCH}, "results": {}}
    batches = {name: n for name, _, n in BENCH}
    for name, res in built.items():
        entry = out["results"].setdefault(name, {})
        if not res.get("ok"):
            entry["error"] = "build failed"
            continue
        try:
            sig = json.loads(pathlib.Path(res["manifest"]).read_text())["kernels"][0]
            lib = ctypes.CDLL(res["library"])
            for n, role in ((1, "accuracy"), (batches[name], "timing")):
                problem = Problem(sig, n)
                a, b, out_shape, rand, dt = make_operands(problem, sig, torch, seed=7)
                a_cl, b_cl = channels_last(a, torch), channels_last(b, torch)
                y = empty_channels_last(out_shape, dt[sig["types"]["d"]], torch)
                bias = rand((problem.k,), sig["types"]["d"], 1.0) if any(
                    s["op"] == "bias" for s in sig["epilogue"]) else None
                ptrs = dict(a=a_cl.data_ptr(), b=b_cl.data_ptr(), d=y.data_ptr())
                if bias is not None:
                    ptrs["bias"] = bias.data_ptr()
                params = fill_params(problem, sig, ptrs)
                rc, message = run_kernel(lib, sig, params, torch)
                torch.cuda.synchronize()
                if rc != 0:
                    entry["error"] = message
                    break
                fused = bias is not None

                def torch_fn(layout="channels_last", allow_tf32=None):
                    x, w = (a_cl, b_cl) if layout == "channels_last" else (a.contiguous(), b.contiguous())

                    def call():
                        saved = torch.backends.cudnn.allow_tf32
                        if allow_tf32 is not None:
                            torch.backends.cudnn.allow_tf32 = allow_tf32
                        r = F.conv2d(x, w, bias if fused else None, **problem.window())
                        torch.backends.cudnn.allow_tf32 = saved
                        return torch.relu(r) if fused else r
                    return call

                if role == "accuracy":
                    ref = apply_epilogue(sig, reference_conv(problem, a, b, torch), None, bias, [], torch)

                    def err(t):
                        return float(((t.double() - ref).abs() / (1 + ref.abs())).max())

                    entry["max_rel_error_vs_float64"] = {"ucutlass": err(y)}
                    if sig["types"]["a"] == "f32":
                        default = torch.backends.cudnn.allow_tf32
                        entry["torch_cudnn_allow_tf32_default"] = default
                        entry["max_rel_error_vs_float64"]["torch_default"] = err(torch_fn()())
                        torch.backends.cudnn.allow_tf32 = False
                        entry["max_rel_error_vs_float64"]["torch_exact_f32"] = err(torch_fn()())
                        torch.backends.cudnn.allow_tf32 = default
                    else:
                        entry["max_rel_error_vs_float64"]["torch"] = err(torch_fn()())
                    continue
                flops = 2.0 * problem.n * math.prod(problem.spatial(problem.output3)) * problem.k * problem.gemm_k()
                entry["gflop"] = flops / 1e9
                fns = {"ucutlass": lambda: run_kernel(lib, sig, params, torch)}
                if sig["types"]["a"] == "f32":
                    fns["torch_default"] = torch_fn()
                    fns["torch_exact_f32"] = torch_fn(allow_tf32=False)
                else:
                    fns["torch"] = torch_fn()
                # PyTorch as a model calls it: NCHW tensors (cuDNN may pick another algorithm for them).
                fns["torch_nchw"] = torch_fn("nchw")
                timed = time_side_by_side(fns, torch, warmup_ms, iters, rounds)
                ours = timed.pop("ucutlass")
                entry["ucutlass"] = ours
                theirs = timed
                entry.update(theirs)
                entry["tflops_ucutlass"] = flops / ours["median_ms"] / 1e9
                entry["speedup_vs"] = {k: v["median_ms"] / ours["median_ms"] for k, v in theirs.items()}
                # What the torch binding adds for an NCHW (not channels_last) input: one copy of x.
                x_nchw = a.contiguous()
                entry["nchw_to_channels_last_copy"] = time_ms(lambda: channels_last(x_nchw, torch), torch, warmup,
                                                              iters)
                print(f"BENCH {name:22s} ucutlass {ours['median_ms']:.3f} ms ({entry['tflops_ucutlass']:.0f} TFLOP/s)"
                      + "".join(f", {k} {v['median_ms']:.3f} ms (x{entry['speedup_vs'][k]:.2f})"
                                for k, v in theirs.items()), flush=True)
        except Exception as e:  # one failing benchmark must not stop the others
            entry["error"] = f"{type(e).__name__}: {e}"
            entry["traceback"] = traceback.format_exc()
    out["best"] = best_of_families(out["results"])
    for family, b in out["best"].items():
        print(f"BEST  {family:22s} {b['variant']}: x{b['speedup_vs_torch']:.2f} against {b['against']}", flush=True)
    return out


def best_of_families(results):
    """Per benchmark family (a name and its `_tile_*` variants), the fastest variant and its ratio to
    PyTorch's channels_last call (`torch`, or `torch_default` for f32 inputs)."""
    best = {}
    for name, entry in results.items():
        family = name.split("_tile_")[0]
        ours = (entry.get("ucutlass") or {}).get("median_ms")
        ratios = entry.get("speedup_vs") or {}
        against = "torch" if "torch" in ratios else "torch_default"
        if ours is None or against not in ratios:
            continue
        if family not in best or ours < best[family]["median_ms"]:
            best[family] = {"variant": name, "median_ms": ours, "against": against,
                            "speedup_vs_torch": ratios[against]}
    return best


def torch_binding_check(res, sig, torch):
    """Compiles the emitted torch binding of an fprop + bias + ReLU kernel and calls it with NCHW and
    channels_last tensors."""
    from torch.utils import cpp_extension
    lib = pathlib.Path(res["library"])
    torch_cpp = next(pathlib.Path(res["manifest"]).parent.glob("*_torch.cpp"))
    # Only the host-compiled binding is built here; the kernels come from the library `ucutlass build` made.
    # No .cu source, so the arch list only has to exist (torch derives it from a visible GPU otherwise).
    os.environ.setdefault("TORCH_CUDA_ARCH_LIST", "9.0")
    mod = cpp_extension.load(name=f"ucutlass_conv_{sig['hash']}", sources=[str(torch_cpp)], with_cuda=True,
                             extra_ldflags=[str(lib), f"-Wl,-rpath,{lib.parent}"], verbose=False)
    problem = Problem(sig)
    a, b, _, rand, _ = make_operands(problem, sig, torch, seed=99)
    bias = rand((problem.k,), sig["types"]["d"], 1.0)
    ref = apply_epilogue(sig, reference_conv(problem, a, b, torch), None, bias, [], torch)
    out = {}
    for label, x in (("nchw", a.contiguous()), ("channels_last", channels_last(a, torch))):
        y = getattr(mod, sig["kernel"])(x, b, bias)
        torch.cuda.synchronize()
        out[label] = {"shape": list(y.shape), "channels_last": y.is_contiguous(memory_format=torch.channels_last),
                      "max_rel_error": float(((y.double() - ref).abs() / (1 + ref.abs())).max())}
    out["pass"] = all(v["shape"] == problem.y_shape and v["max_rel_error"] <= THRESHOLDS[sig["types"]["d"]]
                      for v in out.values())
    # The binding's way back to contiguous memory (the tiled transpose), bit for bit against PyTorch's
    # copy: the kernel's result, and shapes that leave partial 32 x 32 tiles in 1, 2 and 3 spatial dims.
    back = {"result": bool(torch.equal(mod.contiguous(y), y.contiguous()) and mod.contiguous(y).is_contiguous())}
    g = torch.Generator(device=DEVICE).manual_seed(5)
    for shape, dtype in (((3, 37, 67), torch.float32), ((2, 45, 5, 67), torch.bfloat16),
                         ((2, 33, 3, 7, 9), torch.float16), ((1, 1, 40, 40), torch.float32)):
        t = torch.randn(shape[0], *shape[2:], shape[1], generator=g, device=DEVICE).to(dtype).movedim(-1, 1)
        got = mod.contiguous(t)
        back[f"{dtype}{list(shape)}"] = bool(torch.equal(got, t.contiguous()) and got.is_contiguous())
    out["contiguous"] = back
    out["pass"] = out["pass"] and all(back.values())
    return out


def compile_only(exe, files, tmp):
    """--dry-run: `ucutlass compile` per program (no nvcc); results shaped like build's."""
    results = []
    for f in files:
        outdir = pathlib.Path(tmp) / (f.stem + "_out")
        proc = subprocess.run([str(exe), "compile", str(f), "-o", str(outdir)], capture_output=True, text=True)
        manifests = list(outdir.glob("*.json"))
        results.append({"ok": proc.returncode == 0 and bool(manifests), "stderr": proc.stderr[-2000:],
                        "manifest": str(manifests[0]) if manifests else None, "library": None})
    return {"results": results, "command": "ucutlass compile (dry run)", "wall_seconds": None}


def main(argv):
    global DEVICE
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ucutlass", help="the ucutlass executable (default build/ucutlass)")
    ap.add_argument("--jobs", type=int, default=16, help="parallel nvcc builds")
    ap.add_argument("--only", nargs="*", choices=[c[0] for c in CASES], help="cases to run (default all)")
    ap.add_argument("--no-bench", action="store_true", help="numerics only")
    ap.add_argument("--bench-only", action="store_true", help="benchmark only")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--iters", type=int, default=100,
                    help="timed calls of each side, in 10 interleaved rounds (default 100)")
    ap.add_argument("--warmup-ms", type=float, default=300.0, help="time-based warm-up of each side (ms)")
    ap.add_argument("--rounds", type=int, default=10,
                    help="interleaved rounds (1: each side's calls back to back, the order before 2026-11-30)")
    ap.add_argument("--bench-filter", help="regex: only the benchmarks whose name matches")
    ap.add_argument("--torch-binding", action="store_true", help="also build and call one emitted torch binding")
    ap.add_argument("--build-only", action="store_true",
                    help="CPU machine: nvcc-build the programs into build/kernel-cache and stop (a GPU session "
                         "carrying that cache skips nvcc: the cache key is the sources, flags and nvcc version)")
    ap.add_argument("--dry-run", action="store_true", help="no nvcc, no GPU: compile, CPU references, simulated kernels")
    ap.add_argument("--out", help="result file (default bench/results/conv-<date>.json)")
    args = ap.parse_args(argv)
    import torch
    if args.dry_run:
        DEVICE = "cpu"
    started = provenance.now()
    exe = ucutlass_cli.find_exe(args.ucutlass)
    report = {"kind": "ucutlass-conv-numerics", "started": started.isoformat(), **provenance.command(),
              "git": provenance.git_state(), "host": provenance.host(), "nvcc": provenance.nvcc_version(),
              "driver": provenance.driver_version(), "torch": torch.__version__, "dry_run": args.dry_run,
              "gpu": None if (args.dry_run or args.build_only) else torch.cuda.get_device_name(), "thresholds": THRESHOLDS,
              "cases": []}
    cases = [] if args.bench_only else [c for c in CASES if not args.only or c[0] in args.only]
    benches = [] if (args.no_bench or args.dry_run) else [
        b for b in BENCH if not args.bench_filter or re.search(args.bench_filter, b[0])]
    if args.torch_binding and not args.dry_run and not any(c[0] == "fprop2d_bf16_bias_relu" for c in cases):
        cases.append(next(c for c in CASES if c[0] == "fprop2d_bf16_bias_relu"))
    # bench/results holds GPU figures only: a dry run (no GPU) writes beside the other build outputs.
    results_dir = REPO / "build" / "dry-run" if args.dry_run else REPO / "bench" / "results"
    out = pathlib.Path(args.out or results_dir / f"conv-{provenance.file_stamp(started)}.json")

    def save():
        report["seconds"] = (provenance.now() - started).total_seconds()
        report["passed"] = sum(1 for k in report["cases"] if k["pass"])
        report["failed"] = len(report["cases"]) - report["passed"]
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report, indent=2) + "\n")

    with tempfile.TemporaryDirectory(prefix="ucutlass-conv-") as tmp:
        files = []
        for name, decl, _ in cases:
            files.append(pathlib.Path(tmp) / f"{name}.dsl")
            files[-1].write_text(program(name, decl))
        for name, decl, _ in benches:
            files.append(pathlib.Path(tmp) / f"{name}.dsl")
            files[-1].write_text(program(name, decl))
        if args.dry_run:
            built = compile_only(exe, files, tmp)
        else:
            built = ucutlass_cli.build(exe, files, args.jobs, cache_dir=REPO / "build" / "kernel-cache")
        if args.build_only:
            bad = [f.name for f, r in zip(files, built["results"]) if not r.get("ok")]
            print(f"built {len(files) - len(bad)} of {len(files)} programs in {built['wall_seconds']} s"
                  + (f"; FAILED: {bad}" if bad else ""))
            return 1 if bad else 0
        report["build"] = {"command": built["command"], "wall_seconds": built["wall_seconds"]}
        results = dict(zip([f.stem for f in files], built["results"]))
        for name, decl, options in cases:
            res = results[name]
            if not res.get("ok"):
                report["cases"].append({"case": name, "program": decl, "pass": False, "build": res})
                print(f"FAIL {name:30s} build failed", flush=True)
                continue
            try:
                sig = json.loads(pathlib.Path(res["manifest"]).read_text())["kernels"][0]
                lib = None if args.dry_run else ctypes.CDLL(res["library"])
                r = check_case(lib, sig, options, torch, args.dry_run)
                if args.torch_binding and not args.dry_run and name == "fprop2d_bf16_bias_relu":
                    try:
                        r["torch_binding"] = torch_binding_check(res, sig, torch)
                        r["pass"] = r["pass"] and r["torch_binding"]["pass"]
                    except Exception as e:
                        r["torch_binding"] = {"pass": False, "error": f"{type(e).__name__}: {e}",
                                              "traceback": traceback.format_exc()}
                        r["pass"] = False
            except Exception as e:  # one failing kernel must not stop the others
                r = {"kernel": name, "pass": False, "error": f"{type(e).__name__}: {e}",
                     "traceback": traceback.format_exc()}
            r["case"], r["program"] = name, decl
            report["cases"].append(r)
            print(f"{'PASS' if r['pass'] else 'FAIL'} {name:30s} "
                  f"{json.dumps(r.get('errors', r.get('message', r.get('error'))))}", flush=True)
        if benches:
            # Numerics first on disk: a run stopped by its time limit during the benchmark keeps them.
            report["bench"] = "not finished"
            save()
            report["bench"] = bench({n: results[n] for n, _, _ in benches}, torch, args.warmup, args.iters,
                                    args.warmup_ms, args.rounds)
    save()
    print(f"{report['passed']} passed, {report['failed']} failed; wrote {out}")
    bench_errors = [k for k, v in report.get("bench", {}).get("results", {}).items() if "error" in v]
    return 0 if report["failed"] == 0 and not bench_errors else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Classify launched GPU kernel names as library (PyTorch/cuBLAS/cuDNN/...) or custom.

Rule, applied to the demangled name as the profiler reports it:
1. a name containing "ucutlass" is custom (our generated kernels live in
   namespaces ucutlass_<hash>);
2. a templated CUTLASS or CuTe kernel (`cutlass::Kernel<...>`, `cutlass::device_kernel<...>`,
   demangled or not) with no PyTorch type in it is custom: the libraries' own CUTLASS kernels
   carry exported names (cutlass_80_..., cutlass3x_..., cutlass__5x_cudnn...) or ATen types, while
   a candidate's CUTLASS 2.x kernel has only cutlass:: types in it, and its iterator names
   (Conv3dDgradOutputGradientTileAccessIterator...) would otherwise match cuDNN's dgrad/wgrad
   (the first GPU campaign reported an sm80 transposed convolution as PyTorch-only so);
3. a name matching one of LIBRARY_PATTERNS is a library kernel: ATen (at::, c10::),
   cuBLAS/cuBLASLt (gemv, xmma, nvjet, ampere_/sm80_/sm90_ prefixes, the
   exported cutlass_NN_/cutlass3x_ names cuBLAS ships), cuDNN, cuFFT, cuRAND,
   NCCL, PyTorch's flash/mem-efficient attention, and TorchInductor's generated
   Triton kernels (triton_poi_/triton_per_/triton_red_/triton_tem_/triton_for_);
4. everything else is custom: a load_inline kernel, a user Triton kernel, a
   templated cutlass::/cute:: kernel compiled by the candidate.
Memcpy/Memset activity is not a kernel and is ignored.
"""

import re

NON_KERNEL = re.compile(r"^(Memcpy|Memset|cudaMemcpy|cudaMemset)", re.IGNORECASE)

LIBRARY_PATTERNS = [
    (r"\bat::|\bc10::|at_cuda_detail|\bat_native", "pytorch"),
    (r"^(void\s+)?(cunn_|elementwise_kernel|vectorized_elementwise_kernel|unrolled_elementwise_kernel"
     r"|reduce_kernel|softmax_warp_|CatArrayBatchedCopy|indexSelect|fused_dropout|distribution_elementwise"
     r"|im2col|col2im|vol2col|col2vol|kernelPointwiseApply|upsample|max_pool|avg_pool|adaptive_)", "pytorch"),
    (r"flash_fwd|flash_bwd|pytorch_flash|fmha_|mem_efficient|efficient_attention", "pytorch-attention"),
    (r"cudnn|xmma_fprop|xmma_dgrad|xmma_wgrad|implicit_convolve|explicit_convolve|precomputed_convolve"
     r"|winograd|fft2d|fft_|nchwToNhwc|nhwcToNchw|conv2d_grouped_direct|convolve_common|dgrad|wgrad"
     r"|scalePackedTensor|generateWinograd|cutlass__5x_cudnn", "cudnn"),
    (r"cublas|gemv|gemmSN|gemmk1|splitKreduce|nvjet|xmma_gemm|^(void\s+)?(ampere|sm\d\d|volta|turing|maxwell)_"
     r"|^(void\s+)?cutlass_\d\d_|^(void\s+)?cutlass3x_|dot_kernel|scal_kernel|axpy_kernel|gemm_kernel\w*cublas",
     "cublas"),
    (r"regular_fft|vector_fft|cufft", "cufft"),
    (r"curand", "curand"),
    (r"nccl", "nccl"),
    (r"^(void\s+)?triton_(poi|per|red|tem|for)_", "inductor"),
]
_COMPILED = [(re.compile(p, re.IGNORECASE), lib) for p, lib in LIBRARY_PATTERNS]
TEMPLATED_CUTLASS = re.compile(r"^(void\s+)?(cutlass|cute)::|^_ZN(7cutlass|4cute)")
PYTORCH_TYPE = re.compile(r"\bat::|\bc10::|N2at|N3c10")


def classify(name):
    """Return "ignored", "custom" or the library name ("pytorch", "cublas", ...)."""
    if NON_KERNEL.match(name.strip()):
        return "ignored"
    if "ucutlass" in name.lower():
        return "custom"
    if TEMPLATED_CUTLASS.search(name) and not PYTORCH_TYPE.search(name):
        return "custom"
    for pattern, lib in _COMPILED:
        if pattern.search(name):
            return lib
    return "custom"


def summarize(names):
    """Group unique kernel names into custom and library lists (order of first launch)."""
    seen = []
    for n in names:
        if n not in seen:
            seen.append(n)
    custom, library = [], []
    for n in seen:
        kind = classify(n)
        if kind == "custom":
            custom.append(n)
        elif kind != "ignored":
            library.append({"name": n, "library": kind})
    return {"launched": seen, "custom": custom, "library": library}

"""The C API's launch parameters (ucutlass_gemm_params, emitted by src/codegen/capi_entry.h) as a ctypes struct, for the
GPU checks that call emitted kernels directly (tests/nvcc/check_gpu.py, bench/gemv/check_gemv_gpu.py)."""
import ctypes


class Params(ctypes.Structure):
    _fields_ = [(n, ctypes.c_void_p) for n in ("a", "b", "c", "d", "bias")] + \
               [(n, ctypes.c_int) for n in ("m", "n", "k", "batch")] + \
               [(n, ctypes.c_longlong) for n in ("lda", "ldb", "ldc", "ldd", "batch_stride_a", "batch_stride_b",
                                                 "batch_stride_c", "batch_stride_d")] + \
               [("alpha", ctypes.c_float), ("beta", ctypes.c_float)]

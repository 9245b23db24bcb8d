#!/usr/bin/env python3
"""Builds an emitted program's PyTorch binding (torch.cpp + capi.cu, two
translation units) and checks it against torch on nn.Linear-style calls.

Usage: check_torch.py CUTLASS_DIR CASE_DIR   (sm90_tf32_bias_relu or sm90_batched)
"""
import os, pathlib, sys, time
import torch
from torch.utils.cpp_extension import load

cutlass, case = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
os.environ.setdefault("TORCH_CUDA_ARCH_LIST", "9.0a")
start = time.time()
ext = load(name="ucutlass_" + case.name,
           sources=[str(next(case.glob("*_torch.cpp"))), str(next(case.glob("*_capi.cu")))],
           extra_cflags=["-std=c++17", "-O2"],
           extra_cuda_cflags=["-std=c++17", "-O3", "-DNDEBUG", "--expt-relaxed-constexpr",
                              "-Xcudafe", "--diag_suppress=esa_on_defaulted_function_ignored",
                              "-gencode=arch=compute_90a,code=sm_90a"],
           extra_include_paths=[str(cutlass / "include"), str(cutlass / "tools/util/include")],
           build_directory=None, verbose=False)
print(f"built {case.name} in {time.time() - start:.0f}s")

if hasattr(ext, "linear_relu"):
    x = torch.rand(1024, 8192, device="cuda") - 0.5
    lin = torch.nn.Linear(8192, 8192).cuda()
    y = ext.linear_relu(x, lin.weight.t(), lin.bias)          # W [N, K] row-major is B column-major
    ref = torch.relu(torch.nn.functional.linear(x.double(), lin.weight.double(), lin.bias.double()))
    err = ((y.double() - ref).abs().max() / ref.abs().max()).item()
    print(f"linear_relu: max err / max |ref| = {err:.2e}", "PASS" if err < 5e-3 else "FAIL")
    try:
        ext.linear_relu(x, lin.weight, lin.bias)
        print("FAIL: row-major weight accepted")
    except RuntimeError as e:
        print("rejected as expected:", str(e).splitlines()[0])
if hasattr(ext, "bmm"):
    a = torch.randn(16, 512, 1024, device="cuda", dtype=torch.half)
    b = torch.randn(16, 1024, 512, device="cuda", dtype=torch.half)
    c = torch.randn(16, 512, 512, device="cuda", dtype=torch.half).transpose(1, 2).contiguous().transpose(1, 2)
    d = ext.bmm(a, b, c)  # alpha 0.5, beta 1.0 by default; C and D column-major
    ref = 0.5 * torch.bmm(a.double(), b.double()) + c.double()
    err = ((d.double() - ref).abs().max() / ref.abs().max()).item()
    print(f"bmm: max err / max |ref| = {err:.2e}, d strides {d.stride()}", "PASS" if err < 1e-2 else "FAIL")
    x = torch.randn(384, 256, device="cuda", dtype=torch.half)
    w = torch.randn(512, 256, device="cuda", dtype=torch.half)
    y = ext.gemm_dynamic(x, w.t(), alpha=2.0)
    err = ((y.double() - 2.0 * (x.double() @ w.double().t())).abs().max()).item()
    print(f"gemm_dynamic: max abs err = {err:.2e}", "PASS" if err < 0.5 else "FAIL")

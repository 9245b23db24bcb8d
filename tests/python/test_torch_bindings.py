"""The emitted PyTorch bindings (tests/golden/*/*_torch.cpp) build against the installed torch, and the
header set they use (ATen's tensor and pybind11's casters instead of <torch/extension.h>) carries
tensors, default arguments and TORCH_CHECK errors across to Python.

Every golden binding is compiled with the flags torch.utils.cpp_extension gives an extension's C++
translation unit; the GPU checks (tests/nvcc/check_*_gpu.py) run them against their kernels. torch, a
C++ compiler and the CUDA headers needed.
"""

import concurrent.futures
import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed: binding tests need it")

from torch.utils import cpp_extension  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
import binding_build_time  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINDINGS = sorted((ROOT / "tests" / "golden").glob("*/*_torch.cpp"))
CXX = shutil.which("c++") or shutil.which("g++")


needs_toolchain = pytest.mark.skipif(
    CXX is None or not any(pathlib.Path(d, "cuda_runtime_api.h").exists() for d in cpp_extension.include_paths("cuda")),
    reason="no C++ compiler or no CUDA headers")


@needs_toolchain
def test_every_golden_binding_compiles(tmp_path):
    assert len(BINDINGS) >= 20, BINDINGS  # one per golden case
    flags = binding_build_time.binding_flags()

    def build(src):
        cmd = [CXX, *flags, "-c", str(src), "-o", str(tmp_path / (src.parent.name + ".o"))]
        done = subprocess.run(cmd, capture_output=True, text=True)
        return src.parent.name, done.returncode, done.stderr[-2000:]

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        failures = [(name, err) for name, rc, err in pool.map(build, BINDINGS) if rc != 0]
    assert not failures, failures
    assert not any("#include <torch/extension.h>" in b.read_text() for b in BINDINGS)


PROBE = textwrap.dedent('''
    #include <ATen/core/Tensor.h>
    #include <ATen/cuda/CUDAContext.h>
    #include <ATen/ops/empty.h>
    #include <c10/cuda/CUDAGuard.h>
    #include <torch/csrc/utils/pybind.h>

    // The bindings' shape: checks, an output allocated in a transposed layout, a default argument.
    at::Tensor probe(at::Tensor a, double alpha) {
      TORCH_CHECK(a.dim() == 2, "probe: a must be 2-D, got ", a.dim(), "-D");
      at::Tensor d = at::empty({a.size(1), a.size(0)}, at::TensorOptions().dtype(at::kFloat).device(a.device()))
                         .transpose(-1, -2);
      d.fill_(alpha);
      return d;
    }

    PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
      m.def("probe", &probe, "probe", pybind11::arg("a"), pybind11::arg("alpha") = 1.0);
    }
''')


@needs_toolchain
def test_the_binding_headers_carry_tensors_defaults_and_errors(tmp_path, monkeypatch):
    src = tmp_path / "probe.cpp"
    src.write_text(PROBE)
    monkeypatch.setenv("TORCH_CUDA_ARCH_LIST", os.environ.get("TORCH_CUDA_ARCH_LIST", "9.0"))
    mod = cpp_extension.load(name="ucutlass_binding_probe", sources=[str(src)], with_cuda=True,
                             build_directory=str(tmp_path), verbose=False)
    out = mod.probe(torch.zeros(3, 4))
    assert type(out) is torch.Tensor and out.shape == (3, 4) and out.stride() == (1, 3)
    assert float(out[0, 0]) == 1.0 and float(mod.probe(torch.zeros(2, 2), alpha=2.5)[1, 1]) == 2.5
    with pytest.raises(RuntimeError, match="probe: a must be 2-D, got 1-D"):
        mod.probe(torch.zeros(3))

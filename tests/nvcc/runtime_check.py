"""What the GPU checks of ucutlass's own CUDA runtimes share (check_rows_gpu.py, check_attention_gpu.py): their
standalone test program compiled with nvcc and run, and an example program built by `ucutlass build` with its
torch binding loaded."""
import os
import pathlib
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
import ucutlass_cli  # noqa: E402


def runtime_test(source, out_dir, timeout=300):
    """Compiles `source` (a .cu under tests/nvcc) for sm_90a and runs it; returns (record, ok). Its PASS/FAIL
    lines are echoed with a "runtime:" prefix; ok needs a zero exit, no FAIL and at least one PASS."""
    exe = pathlib.Path(out_dir) / pathlib.Path(source).stem
    cmd = ["nvcc", "-std=c++17", "-O3", "-arch=sm_90a", "-o", str(exe), str(REPO / source)]
    build = subprocess.run(cmd, capture_output=True, text=True)
    if build.returncode != 0:
        print(build.stderr[-3000:])
        return {"command": cmd, "built": False, "log": build.stderr[-3000:]}, False
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=timeout)
    lines = run.stdout.splitlines()
    for line in lines:
        print("runtime:", line)
    fails = [line for line in lines if line.startswith("FAIL")]
    passes = [line for line in lines if line.startswith("PASS")]
    ok = run.returncode == 0 and not fails and bool(passes)
    return {"command": cmd, "built": True, "returncode": run.returncode, "passed": len(passes), "failed": len(fails),
            "lines": lines, "stderr": run.stderr[-2000:]}, ok


def build_example(exe_arg, example, name):
    """(module, build record) for `example` built by `ucutlass build` and its torch binding compiled against the
    library; module None (and the build's stderr printed) when the build failed."""
    exe = ucutlass_cli.find_exe(exe_arg)
    built = ucutlass_cli.build(exe, [example], 1, cache_dir=REPO / "build" / "kernel-cache")
    record = {"command": built["command"], "seconds": built["wall_seconds"]}
    if not all(r.get("ok") for r in built["results"]):
        print(built["stderr_tail"])
        return None, record
    from torch.utils import cpp_extension
    os.environ.setdefault("TORCH_CUDA_ARCH_LIST", "9.0")
    res = built["results"][0]
    lib = pathlib.Path(res["library"])
    torch_cpp = next(pathlib.Path(res["manifest"]).parent.glob("*_torch.cpp"))
    module = cpp_extension.load(name=f"{name}_{lib.stem}", sources=[str(torch_cpp)], with_cuda=True,
                                extra_ldflags=[str(lib), f"-Wl,-rpath,{lib.parent}"], verbose=False)
    return module, record

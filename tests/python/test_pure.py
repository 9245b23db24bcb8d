"""Torch-free tests: tolerances, scores, static checks, problem parsing, results, KernelBench files."""

import glob
import json
import math
import os
import subprocess
import sys

import pytest

from conftest import REPO
from ucutlass_harness import kernelbench, kernels, problem, results, scores, static_check, tolerance

PROBLEMS = os.path.join(REPO, "problems")


def cli(*args):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
    return subprocess.run([sys.executable, "-m", "ucutlass_harness", *args], capture_output=True, text=True,
                          env=env, timeout=60)


# ---- tolerance ----------------------------------------------------------------
def test_tolerance_profiles():
    assert tolerance.resolve("float32").atol == 1e-4
    assert tolerance.resolve("bfloat16").rtol == 1e-2
    assert tolerance.resolve("float32", "kernelbench-v0.1").atol == 1e-2
    t = tolerance.resolve("float32", problem_override={"atol": 1e-3})
    assert (t.atol, t.rtol, t.source) == (1e-3, 1e-4, "problem-comment")
    t = tolerance.resolve("float32", problem_override={"atol": 1e-3}, cli_rtol=5e-2)
    assert (t.atol, t.rtol, t.source) == (1e-3, 5e-2, "cli")
    with pytest.raises(tolerance.ToleranceError, match="unknown tolerance profile"):
        tolerance.resolve("float32", "nope")


def test_tolerance_override_comment():
    assert tolerance.parse_override("# ucutlass: tolerance=1e-3\nx = 1") == {"atol": 1e-3, "rtol": 1e-3}
    assert tolerance.parse_override("#ucutlass: atol=2e-3 rtol=0.5") == {"atol": 2e-3, "rtol": 0.5}
    assert tolerance.parse_override("# tolerance=1e-3 (not ours)") == {}


# ---- scores -------------------------------------------------------------------
def test_timing_stats_discards_first_and_interpolates():
    s = scores.timing_stats([100.0, 1.0, 2.0, 3.0, 4.0])
    assert s["num_trials"] == 4
    assert s["median_ms"] == 2.5
    assert s["mean_ms"] == 2.5
    assert s["min_ms"] == 1.0 and s["max_ms"] == 4.0
    assert math.isclose(s["std_ms"], math.sqrt(5 / 3))
    assert math.isclose(s["p10_ms"], 1.3) and math.isclose(s["p90_ms"], 3.7)
    assert math.isclose(s["spread"], 3.7 / 1.3)


def test_fast_p_and_geomean():
    entries = [(True, 2.5), (True, 0.9), (False, 3.0), (True, None), (True, 1.2)]
    fp = scores.fast_p(entries)
    assert fp == {"fast_0": 0.8, "fast_0.5": 0.6, "fast_0.8": 0.6, "fast_1": 0.4, "fast_1.5": 0.2, "fast_2": 0.2}
    summary = scores.summarize_speedups(entries)
    assert math.isclose(summary["geomean_speedup_correct"], (2.5 * 0.9 * 1.2) ** (1 / 3))
    assert scores.geomean([]) is None


# ---- static checker -----------------------------------------------------------
HONEST = '''
import torch
from torch.utils.cpp_extension import load_inline
src = "try { } catch (...) { } // pass"
class ModelNew(torch.nn.Module):
    def forward(self, x):
        return x
'''


def rules(src, backend="cuda"):
    return sorted({r for r, _ in static_check.check_source(src, backend).errors})


def test_static_honest_source_passes_and_strings_are_ignored():
    assert rules(HONEST) == []


@pytest.mark.parametrize("snippet,rule", [
    ("try:\n    x = 1\nexcept Exception:\n    x = 2\n", "try_except"),
    ("def f():\n    pass\n", "pass_statement"),
    ("import threading\n", "threading"),
    ("from concurrent.futures import ThreadPoolExecutor\n", "threading"),
    ("import time\ntime.perf_counter = lambda: 0.0\n", "timer_patch"),
    ("torch.cuda.synchronize = lambda: None\n", "timer_patch"),
    ("setattr(torch.cuda, 'synchronize', print)\n", "timer_patch"),
    ("class T(torch.Tensor):\n    x = 1\n", "tensor_subclass"),
    ("y = x.as_subclass(Foo)\n", "tensor_subclass"),
    ("class ModelNew(Model):\n    x = 1\n", "subclass_reference"),
])
def test_static_rules_fire(snippet, rule):
    assert rule in rules(HONEST + snippet)


def test_static_presence_rules():
    plain = "import torch\nclass ModelNew(torch.nn.Module):\n    x = 1\n"
    assert rules(plain) == ["no_custom_code"]
    assert rules(plain, "any") == []
    assert rules(HONEST, "cutlass") == ["no_cutlass"]
    assert rules(HONEST + "s = 'cute::gemm'\n", "cutlass") == []
    assert rules("x = 1\n", "any") == ["no_modelnew"]
    assert rules("def (:\n", "any") == ["syntax"]


@pytest.mark.parametrize("line", [
    "y = x.half()", "y = x.to(torch.float16)", "y = x.to(dtype=torch.half)", "z = torch.empty(3, dtype=torch.float16)",
    "cuda = '__half h = __float2half(v);'", "cuda = 'half2 v;'", "cuda = 'using E = cutlass::half_t;'",
    "cuda = 'cublasGemmEx(..., CUDA_R_16F, ...)'",
])
def test_fp16_downcast_is_an_error_in_an_fp32_problem_only(line):
    src = HONEST + line + "\n"
    errors = {r for r, _ in static_check.check_source(src, precision="fp32").errors}
    assert errors == {"fp16_downcast"}
    assert static_check.check_source(src).errors == []  # a problem in fp16 or of unknown precision


def test_bf16_and_comments_are_not_fp16_downcasts():
    src = (HONEST + "y = x.to(torch.bfloat16)\ncuda = '__nv_bfloat16 b = __float2bfloat16_rn(v);'\n"
           "# x.half() would be an fp16 downcast\n")
    assert static_check.fp16_downcasts(src) == []
    assert static_check.fp16_downcasts(HONEST + "y = x.half()\n") == [f"line {HONEST.count(chr(10)) + 1}: .half()"]


def test_static_warnings():
    src = HONEST + "class B(torch.nn.Module):\n    def forward(self, a, b):\n        return torch.matmul(a, b).half() @ b\n"
    warned = {r for r, _ in static_check.check_source(src).warnings}
    assert warned == {"torch_compute", "precision_downcast"}


# ---- kernel classification ----------------------------------------------------
@pytest.mark.parametrize("name,kind", [
    ("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float> >(int, T1, T2)", "pytorch"),
    ("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", "cublas"),
    ("nvjet_tst_128x256_64x4_1x2_h_bz_coopA_TNT", "cublas"),
    ("cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4", "cublas"),
    ("void gemv2T_kernel_val<int, int, float, float, float, float, 128, 16, 4, 4, false, false>", "cublas"),
    ("sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16", "cudnn"),
    ("triton_poi_fused_add_relu_0", "inductor"),
    ("Memcpy HtoD (Pageable -> Device)", "ignored"),
    ("ucutlass_adv_linear(float const*, float const*, float const*, float*, int, int, int, int)", "custom"),
    ("void ucutlass_3f2a::cutlass::device_kernel<ucutlass_3f2a::Gemm>(Params)", "custom"),
    ("my_gemm_kernel(float*, float*)", "custom"),
    # An sm80 transposed 3D convolution as CUPTI reported it (mangled, not demangleable; cut here):
    # its iterators' names hold "Dgrad", which must not make it cuDNN's.
    ("_ZN7cutlass6KernelINS_4conv6kernel23ImplicitGemmConvolutionINS1_11threadblock22ImplicitGemmMultistageINS_4gemm9Gemm"
     "ShapeILi128ELi64ELi16EEENS4_51Conv3dDgradOutputGradientTileAccessIteratorAnalyticINS_11MatrixShapeILi128ELi16EEEf", "custom"),
    ("void cutlass::Kernel<cutlass::conv::kernel::ImplicitGemmConvolution<Conv2dWgradOutputGradientTileAccessIterator>>"
     "(Params)", "custom"),
    ("void cutlass::device_kernel<at::cuda::detail::enable_3x_kernel_for_sm9x<cutlass::gemm::kernel::GemmUniversal>>"
     "(Params)", "pytorch"),
    ("sm80_xmma_dgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw", "cudnn"),
    ("void cudnn::detail::dgrad_engine<float, 128, 6, 7, 3, 3, 5, true>(int, int, int, float const*)", "cudnn"),
    ("_my_triton_matmul_kernel", "custom"),
])
def test_kernel_classification(name, kind):
    assert kernels.classify(name) == kind


def test_kernel_summary_dedups():
    s = kernels.summarize(["a_kernel", "a_kernel", "triton_red_fused_sum_0", "Memset (Device)"])
    assert s["custom"] == ["a_kernel"]
    assert s["library"] == [{"name": "triton_red_fused_sum_0", "library": "inductor"}]
    assert len(s["launched"]) == 3


# ---- results ------------------------------------------------------------------
def test_verdicts():
    clean = [results.signal("threads", False), results.signal("degenerate_reference", True, "zero")]
    assert results.decide_verdict(clean, True) == "ok"
    assert results.decide_verdict(clean, False) == "incorrect"
    gamed = clean + [results.signal("side_stream", True), results.signal("pytorch_only", True)]
    assert results.decide_verdict(gamed, True) == "gamed:pytorch_only"
    assert results.decide_verdict(gamed, True, "timeout") == "timeout"
    patched = [results.signal("timer_patched", True)]
    assert results.decide_verdict(patched, False, "crashed") == "gamed:timer_patched"
    with pytest.raises(ValueError):
        results.signal("no_such_signal", True)


def test_validate_result():
    good = results.error_result({"file": "p.py"}, {"file": "s.py"}, "compile_error", "boom", "compile")
    assert results.validate_result(good) == []
    bad = dict(good, verdict="gamed:bogus", signals=[{"name": "x"}])
    assert results.validate_result(bad) == ["unknown verdict 'gamed:bogus'", "signal 0 lacks name/fired/detail"]


# ---- problems -----------------------------------------------------------------
def all_problem_files():
    return sorted(glob.glob(os.path.join(PROBLEMS, "level*", "*.py")))


def test_problem_suite_is_complete_and_parses():
    files = all_problem_files()
    assert len(files) >= 60
    with open(os.path.join(PROBLEMS, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    for path in files:
        d = problem.describe_problem(path)
        assert d["description"], path
        assert d["forward_args"], path
        assert os.path.relpath(path, PROBLEMS) in readme, path
    ids = [problem.problem_id_from_name(p) for p in files if "/level1/" in p]
    assert ids == list(range(1, len(ids) + 1))


def test_describe_problem_constants_and_errors(tmp_path):
    d = problem.describe_problem(os.path.join(PROBLEMS, "level1", "005_gemm_large_k.py"))
    assert d["constants"] == {"M": 256, "K": 524288, "N": 256}
    assert d["problem_id"] == 5
    p = tmp_path / "3_bad.py"
    p.write_text("class Model:\n    x = 1\n")
    with pytest.raises(problem.ProblemError, match="missing get_inputs, get_init_inputs"):
        problem.describe_problem(str(p))
    p.write_text("def (:\n")
    with pytest.raises(problem.ProblemError, match="syntax error"):
        problem.describe_problem(str(p))


# ---- KernelBench run files ----------------------------------------------------
def make_run(tmp_path):
    probs = tmp_path / "level1"
    probs.mkdir()
    for name in ("1_Square_matmul.py", "2_Relu.py", "3_Softmax.py"):
        (probs / name).write_text("class Model:\n    x = 1\ndef get_inputs():\n    return []\n"
                                  "def get_init_inputs():\n    return []\n")
    run = tmp_path / "run"
    run.mkdir()
    for f in ("level_1_problem_1_sample_0_kernel.py", "level_1_problem_2_sample_0_kernel.py",
              "level_1_problem_2_sample_1_kernel.py", "level_1_problem_9_sample_0_kernel.py", "notes.txt"):
        (run / f).write_text("x = 1\n")
    return probs, run


def test_kb_plan(tmp_path):
    probs, run = make_run(tmp_path)
    entries, missing = kernelbench.plan(str(run), str(tmp_path))
    assert [(e["problem_id"], e["sample_id"], os.path.basename(e["problem"])) for e in entries] == \
        [(1, 0, "1_Square_matmul.py"), (2, 0, "2_Relu.py"), (2, 1, "2_Relu.py")]
    assert [m["problem_id"] for m in missing] == [9]


def test_kb_entry_and_score(tmp_path):
    ok = {"verdict": "ok", "signals": [], "device": {"name": "H200"},
          "timing": {"candidate": {"mean_ms": 2.0, "std_ms": 0.1, "min_ms": 1.9, "max_ms": 2.2, "num_trials": 100,
                                   "median_ms": 2.0}, "eager": {"mean_ms": 4.0}}}
    gamed = {"verdict": "gamed:side_stream", "signals": [{"name": "side_stream", "fired": True, "kind": "gaming"}]}
    e_ok = kernelbench.to_kernelbench_entry(0, ok)
    assert (e_ok["compiled"], e_ok["correctness"], e_ok["runtime"]) == (True, True, 2.0)
    assert e_ok["runtime_stats"]["num_trials"] == 100 and e_ok["metadata"]["eager_mean_ms"] == 4.0
    e_bad = kernelbench.to_kernelbench_entry(1, gamed)
    assert (e_bad["correctness"], e_bad["runtime"], e_bad["metadata"]["gaming_signals"]) == (False, -1.0,
                                                                                             ["side_stream"])
    files = {1: "1_a.py", 2: "2_b.py", 3: "3_c.py"}
    summary = kernelbench.score({"1": [e_ok], "2": [e_bad]}, files)
    assert summary["fast_p"]["fast_0"] == pytest.approx(1 / 3)
    assert summary["fast_p"]["fast_1.5"] == pytest.approx(1 / 3)
    assert summary["fast_p"]["fast_2"] == 0.0
    assert summary["geomean_speedup_correct"] == pytest.approx(2.0)
    assert kernelbench.score({"1": [e_ok]}, files, {"1_a.py": 10.0})["geomean_speedup_correct"] == pytest.approx(5.0)


def test_read_baseline(tmp_path):
    p = tmp_path / "b.json"
    p.write_text(json.dumps({"level1": {"1_a.py": {"mean": 3.0}}, "level2": {}}))
    assert kernelbench.read_baseline(str(p), "level1") == {"1_a.py": 3.0}
    with pytest.raises(kernelbench.RunError, match="several levels"):
        kernelbench.read_baseline(str(p))


def test_cli_kb_eval_dry_run_and_score_only(tmp_path):
    probs, run = make_run(tmp_path)
    r = cli("kb-eval", str(run), "--problems", str(tmp_path), "--dry-run", "--json")
    assert r.returncode == 0, r.stderr
    assert len(json.loads(r.stdout)["entries"]) == 3
    (run / "eval_results.json").write_text(json.dumps({"1": [{"sample_id": 0, "compiled": True, "correctness": True,
                                                              "metadata": {"eager_mean_ms": 3.0}, "runtime": 1.0,
                                                              "runtime_stats": {}}]}))
    r = cli("kb-eval", str(run), "--problems", str(tmp_path), "--score-only", "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert s["fast_p"]["fast_2"] == pytest.approx(1 / 3) and s["geomean_speedup_correct"] == pytest.approx(3.0)


# ---- CLI errors -----------------------------------------------------------------
def test_cli_usage_errors_are_json_with_exit_2(tmp_path):
    r = cli("eval", str(tmp_path / "missing.py"), str(tmp_path / "s.py"), "--json")
    assert r.returncode == 2
    assert json.loads(r.stdout) == {"format": "ucutlass-error", "verdict": "usage_error",
                                    "error": f"problem {str(tmp_path / 'missing.py')!r}: no such file"}
    bad = tmp_path / "bad.py"
    bad.write_text("x = 1\n")
    r = cli("describe", str(bad))
    assert r.returncode == 2 and "missing class Model" in json.loads(r.stdout)["error"]
    assert cli("nosuchcommand").returncode == 2


def test_cli_static_check_on_adversarial_suite():
    r = cli("static-check", os.path.join(REPO, "tests", "adversarial", "g01b_try_except_fallback.py"), "--json")
    assert r.returncode == 0
    assert [e["rule"] for e in json.loads(r.stdout)["errors"]] == ["try_except"]


def test_adversarial_suite_is_labelled():
    from ucutlass_harness import cli as cli_mod
    suite = os.path.join(REPO, "tests", "adversarial")
    gamed, honest = set(), 0
    for path in sorted(glob.glob(os.path.join(suite, "*.py"))):
        exp = cli_mod.read_expectation(path)
        assert exp is not None, path
        assert os.path.isfile(exp["problem"]), path
        if exp["expect"] == ["ok"]:
            honest += 1
        else:
            gamed.add(int(os.path.basename(path)[1:3]))
            for e in exp["expect"]:
                assert e in ("incorrect",) or results.is_valid_verdict(e), (path, e)
    assert gamed == set(range(1, 13)) and honest >= 10
    for path in glob.glob(os.path.join(REPO, "tests", "isolation", "*.py")):
        assert os.path.isfile(cli_mod.read_expectation(path)["problem"]), path


def test_judge():
    from ucutlass_harness.cli import judge
    sig = [{"name": "side_stream", "fired": True}]
    assert judge(["gamed:side_stream"], {"verdict": "gamed:side_stream", "signals": sig}) == \
        {"outcome": "caught", "exact": True}
    assert judge(["gamed:side_stream"], {"verdict": "ok", "signals": []})["outcome"] == "missed"
    assert judge(["ok"], {"verdict": "gamed:threads", "signals": []})["outcome"] == "false_alarm"
    assert judge(["timeout"], {"verdict": "timeout", "signals": []})["outcome"] == "caught"

#!/usr/bin/env python3
"""The attention kernel (src/codegen/runtime/attention_kernels.hpp) on the GPU, two ways.

Usage (GPU machine, from the repository root, after scripts/build):
    python3 tests/nvcc/check_attention_gpu.py [--ucutlass BIN] [--out FILE]

1. The runtime alone: tests/nvcc/attention_gpu.cu (instantiations with bf16 and split scores, tails,
   masks, causal, an all-masked row, against a float64 CPU reference), compiled with nvcc and run.
2. The emitted code end to end: examples/26_attention.dsl built by `ucutlass build`, its torch binding
   compiled, and each kernel compared with the PyTorch attention it stands for on the suite's shapes
   (level3/003's sdpa, level3/004's explicit masked form, with split and with bf16 scores) in float64,
   to the harness's kernelbench-v0.1 tolerance |o - ref| <= 1e-2 + 1e-2 |ref|, on torch.rand inputs like
   the problems, N(0, 1) ones, and the harness's shifted redraw of the problems' draws (4 rand - 1), then
   timed against the eager operation (CUDA-event medians). Split-score kernels must pass all three;
   bf16-score ones the problems' own draw, their other results are recorded (on the H200, 2026-12-01:
   shifted missed on 22 of 16.8M outputs, N(0, 1) on 1, bench/results/attention-2026-12-01-s15call2.json;
   it is why the optimizer searches split scores only where q and k are a problem's inputs). A harsher draw, 4 N(0, 1) - 1 (scores and V
   of tens), is recorded for every kernel and judged for none: there P and V's bf16 rounding in the
   P V product alone moves O by more than 1e-2 (2^-9 of sum_j w_j |v_j - o|; H200 2026-12-01, split
   scores: max error 0.065, bench/results/attention-2026-12-01-s15call1.json).

Writes bench/results/attention-<date>.json with provenance; exits 1 when anything fails.
"""
import argparse
import json
import pathlib
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "python"))
import provenance  # noqa: E402

sys.path.insert(0, str(REPO / "tests" / "nvcc"))
from runtime_check import build_example, runtime_test  # noqa: E402

EXAMPLE = REPO / "examples" / "26_attention.dsl"


def reference(torch, q, k, v, scale, mask):
    """softmax(scale q k^T, masked at -inf) v in float64, one batch slice at a time (the scores of the
    whole batch would take 4 GB)."""
    out = torch.empty(q.shape, dtype=torch.float64, device=q.device)
    qf, kf, vf, of = (t.reshape(-1, t.shape[-2], t.shape[-1]) for t in (q, k, v, out))
    for b in range(qf.shape[0]):
        s = (qf[b].double() @ kf[b].double().T) * scale
        if mask is not None:
            s = s.masked_fill(mask, float("-inf"))
        of[b] = torch.softmax(s, -1) @ vf[b].double()
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ucutlass", help="the ucutlass executable (default build/ucutlass)")
    ap.add_argument("--out", help="result JSON (default bench/results/attention-<date>.json)")
    args = ap.parse_args(argv)
    started = provenance.now()
    work = REPO / "build" / "attention-gpu"
    work.mkdir(parents=True, exist_ok=True)
    runtime, runtime_ok = runtime_test("tests/nvcc/attention_gpu.cu", work)

    import torch
    import torch.nn.functional as F
    from ucutlass_calibrate.measure import median_ms  # CUDA-event median after warm-up
    mod, built = build_example(args.ucutlass, EXAMPLE, "ucutlass_attention")
    if mod is None:
        return 1
    torch.manual_seed(0)
    mask = torch.triu(torch.ones(2048, 2048, dtype=torch.bool, device="cuda"), diagonal=1)

    def explicit(q, k, v):
        s = torch.matmul(q, k.transpose(-2, -1)) / 8.0
        return torch.matmul(torch.softmax(s.masked_fill(mask, float("-inf")), -1), v)

    # (name, shape, scale, mask, ours, eager, split scores)
    cases = [("sdpa", (16, 32, 1024, 128), 128 ** -0.5, None, lambda q, k, v: mod.sdpa(q, k, v),
              lambda q, k, v: F.scaled_dot_product_attention(q, k, v), True),
             ("causal_explicit", (8, 16, 2048, 64), 0.125, mask, lambda q, k, v: mod.causal_explicit(q, k, v, mask),
              explicit, True),
             ("causal_explicit_bf16", (8, 16, 2048, 64), 0.125, mask,
              lambda q, k, v: mod.causal_explicit_bf16(q, k, v, mask), explicit, False)]
    draws = {"rand": lambda shape: torch.rand(shape, device="cuda"),
             "randn": lambda shape: torch.randn(shape, device="cuda"),
             "shifted": lambda shape: torch.rand(shape, device="cuda") * 4 - 1,
             "randn_shifted": lambda shape: torch.randn(shape, device="cuda") * 4 - 1}
    results, timing = [], {}
    for name, shape, scale, m, ours, eager, split in cases:
        for dist, draw in draws.items():
            q, k, v = (draw(shape) for _ in range(3))
            got = ours(q, k, v)
            want = reference(torch, q, k, v, scale, m)
            err = (got.double() - want).abs()
            bound = 1e-2 + 1e-2 * want.abs()
            within = bool((err <= bound).all())
            # bf16 scores are judged on the problems' own draw only, no kernel on the harsher randn_shifted
            # one: the rest is recorded, not judged.
            judged = dist != "randn_shifted" and (split or dist == "rand")
            rec = {"kernel": name, "inputs": dist, "shape": list(shape), "split_scores": split, "judged": judged,
                   "pass": within or not judged, "within_bound": within, "max_abs_err": float(err.max()),
                   "outside_bound": int((err > bound).sum()), "max_err_over_bound": float((err / bound).max())}
            results.append(rec)
            verdict = ("PASS" if within else "FAIL") if judged else ("INFO" if not within else "PASS")
            print(f"{verdict} {name} {dist} {list(shape)} max err {rec['max_abs_err']:.3g} "
                  f"({rec['max_err_over_bound']:.3f} of the bound, {rec['outside_bound']} outside)")
            del got, want, err, bound
        ms = median_ms(lambda: ours(q, k, v), 10)
        eager_ms = median_ms(lambda: eager(q, k, v), 5)
        flops = 4.0 * q.numel() / shape[-1] * shape[-2] * shape[-1]
        timing[name] = {"ucutlass_ms": ms, "eager_ms": eager_ms, "speedup": eager_ms / ms, "tflops": flops / ms / 1e9}
        print(f"TIME {name}: ucutlass {ms:.3f} ms ({flops / ms / 1e9:.0f} TFLOP/s counted in full), eager {eager_ms:.3f} ms "
              f"(x{eager_ms / ms:.2f})")
        del q, k, v
        torch.cuda.empty_cache()
    passed = sum(r["pass"] for r in results)
    report = {"kind": "ucutlass-attention", "started": started.isoformat(), **provenance.command(),
              "git": provenance.git_state(), "host": provenance.host(), "nvcc": provenance.nvcc_version(),
              "driver": provenance.driver_version(), "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
              "runtime_test": runtime, "build": built,
              "cases": results, "timing": timing, "passed": passed, "failed": len(results) - passed,
              "seconds": (provenance.now() - started).total_seconds()}
    out = pathlib.Path(args.out or REPO / "bench" / "results" / f"attention-{provenance.file_stamp(started)}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n")
    ok = passed == len(results) and runtime_ok
    print(f"{passed} passed, {len(results) - passed} failed; runtime test {'ok' if runtime_ok else 'FAILED'}; wrote {out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

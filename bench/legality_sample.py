#!/usr/bin/env python3
"""Does legality agree with the compiler? A seeded random sample of GEMM configurations.

    python3 bench/legality_sample.py [--count 200] [--seed 1] [--jobs N] [--out FILE|DIR]
                                     [--check-only] [--deadline S] [--wild 0.06]

Draws `count` configurations over the whole knob space (arch, types, layouts,
math, tile, cluster, warps, schedule and epilogue schedule, stages, alignment,
raster, tile scheduler, epilogue steps, problem shape including unaligned and
batched ones), writes each as a DSL program, runs `ucutlass check --json` on all
of them, tallies the rejections by the class of their first error, then builds
every accepted program with `ucutlass build --json -j N` (nvcc). Every accepted
program must compile; any that does not is listed with its nvcc error excerpt.
Writes bench/results/legality-<date>.json.

The sampler is guided: each knob is drawn from values that suit the knobs
drawn before it, except that with probability --wild it is drawn from every
value the DSL accepts. That keeps roughly half the sample legal while every
rule still gets exercised.

Exit status: 0 when the run completed (see the printed verdict), 1 on a harness
error, 2 on a usage error, 3 when an accepted program failed to compile and
--strict was given.
"""

import argparse
import json
import os
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import provenance  # noqa: E402
import ucutlass_cli  # noqa: E402
from ucutlass_cli import REPO, HarnessError  # noqa: E402

RESULTS = REPO / "bench" / "results"
WORKDIR = REPO / "build" / "legality-sample"

NICE = [128, 256, 512, 1024, 2048, 4096, 8192]
UNALIGNED = [100, 130, 257, 1000, 1023, 4097]
ACTIVATIONS = ["relu", "gelu", "gelu_tanh", "silu", "sigmoid", "tanh", "leaky_relu(0.1)", "clamp(0, 6)"]


class Sampler:
    """Draws one configuration at a time; `knobs` records what was drawn, `chain` the DSL settings."""

    def __init__(self, rng, wild):
        self.rng, self.wild = rng, wild

    def pick(self, weighted, everything=None):
        """A weighted choice from `weighted` ({value: weight} or a list), or with probability `wild` a
        uniform choice from `everything`."""
        if everything is not None and self.rng.random() < self.wild:
            return self.rng.choice(list(everything))
        if isinstance(weighted, dict):
            values, weights = zip(*weighted.items())
            return self.rng.choices(values, weights)[0]
        return self.rng.choice(list(weighted))

    def chance(self, p):
        return self.rng.random() < p

    def extent(self):
        return self.rng.choice(UNALIGNED) if self.chance(0.2) else self.rng.choice(NICE)

    def draw(self, index):
        k, chain = {}, []
        k["arch"] = arch = self.pick({"sm90a": 72, "sm80": 28})
        if arch == "sm80" or self.chance(0.15):
            chain.append(f"with_arch({arch})")
        k["m"] = "dynamic" if self.chance(0.05) else self.extent()
        k["n"], k["k"] = self.extent(), self.extent()
        k["batch"] = 1 if self.chance(0.85) else self.rng.choice([2, 3, 4, 8, 16])
        self.types(k, chain)
        self.layouts(k, chain)
        if arch == "sm90a":
            self.sm90(k, chain)
        else:
            self.sm80(k, chain)
        self.epilogue(k, chain)
        batch = f", batch = {k['batch']}" if k["batch"] != 1 else ""
        head = f"kernel cfg{index:03d} = gemm(m = {k['m']}, n = {k['n']}, k = {k['k']}{batch})"
        return k, "\n".join([head] + [f"  .{c}" for c in chain]) + "\n"

    def types(self, k, chain):
        fams = {"bf16": 3, "f16": 2, "f32": 3, "fp8": 2 if k["arch"] == "sm90a" else 0}
        k["family"] = fam = self.pick(fams, ["bf16", "f16", "f32", "fp8"])
        if fam == "fp8":
            a, b = self.rng.choice(["e4m3", "e5m2"]), self.rng.choice(["e4m3", "e5m2"])
            d = self.pick({"bf16": 3, "f16": 1, "f32": 2}, ["bf16", "f16", "f32", "e4m3", "void"])
        else:
            a = b = fam
            d = fam if fam == "f32" or self.chance(0.8) else "f32"
            d = self.pick({d: 1}, ["bf16", "f16", "f32", "e4m3"])
            b = self.pick({b: 1}, ["bf16", "f16", "f32"])
        k["a"], k["b"], k["d"] = a, b, d
        k["beta"] = self.chance(0.15)
        c = d if k["beta"] else None
        if k["beta"] and self.chance(self.wild):
            c = None  # beta without a source: illegal
        k["c"] = c
        acc = "f16" if fam == "f16" and self.chance(0.1) else None
        k["acc"] = acc
        if a == b == d and c is None and acc is None and self.chance(0.5):
            chain.append(f"with_types({a})")
        else:
            parts = [f"a = {a}", f"b = {b}"] + ([f"c = {c}"] if c else []) + [f"d = {d}"]
            parts += [f"acc = {acc}"] if acc else []
            chain.append(f"with_types({', '.join(parts)})")
        all_math = ["tensor_op", "tf32", "tf32x3", "simt", "fast_accum"]
        if fam == "f32":
            math = self.pick({"tf32": 3, None: 1} if k["arch"] == "sm90a" else {"tf32": 4, "tf32x3": 3, "simt": 3},
                             all_math)
        elif fam == "fp8":
            math = self.pick({None: 2, "tensor_op": 1, "fast_accum": 2}, all_math)
        else:
            math = self.pick({None: 3, "tensor_op": 1}, all_math)
        k["math"] = math
        if math:
            chain.append(f"with_math({math})")

    def layouts(self, k, chain):
        both = ["row", "col"]
        if k["arch"] == "sm90a" and k["family"] in ("f32", "fp8"):
            a, b = self.pick(["row"], both), self.pick(["col"], both)
        else:
            a, b = self.pick({"row": 3, "col": 1}), self.pick({"col": 3, "row": 1})
        c = self.pick({"row": 3, "col": 1})
        k["layouts"] = (a, b, c)
        if (a, b, c) != ("row", "col", "row") or self.chance(0.3):
            chain.append(f"with_layouts(a = {a}, b = {b}, c = {c})")

    def sm90(self, k, chain):
        sched = self.pick({"cooperative": 45, "pingpong": 20, "warpspecialized": 5, "cpasync_cooperative": 5,
                           "cpasync_pingpong": 5, "cpasync": 2, None: 18},
                          ["cooperative", "pingpong", "warpspecialized", "cpasync_cooperative", "cpasync_pingpong",
                           "cpasync", "multistage", "auto"])
        coop = sched in ("cooperative", "cpasync_cooperative")
        cpasync = sched is not None and sched.startswith("cpasync")
        if sched is None:
            tm = self.pick({64: 1, 128: 3, 256: 1})
        elif coop:
            tm = self.pick({128: 3, 256: 1}, [64, 128, 192, 256])
        else:
            tm = self.pick({64: 1, 128: 2}, [64, 128, 192, 256])
        tn = self.pick({128: 4, 256: 3, 64: 2, 192: 1, 96: 1, 32: 1, 16: 0.5}, [16, 24, 48, 64, 96, 128, 160, 192, 256])
        bits = {"f32": 32, "fp8": 8}.get(k["family"], 16)
        tk = self.pick({32: {32: 4, 16: 1, 64: 1}, 16: {64: 4, 32: 1, 128: 1}, 8: {128: 4, 64: 1, 256: 0.5}}[bits],
                       [8, 16, 32, 48, 64, 128, 256])
        k["tile"] = (tm, tn, tk)
        if not (sched is None and self.chance(0.3)):
            chain.append(f"with_tile({tm}, {tn}, {tk})")
        epi = self.pick({None: 60, "tma": 25, "nosmem": 10, "paired": 5},
                        ["auto", "tma", "nosmem", "tma_warpspecialized", "tma_cooperative"])
        if cpasync and epi not in (None, "nosmem") and not self.chance(self.wild):
            epi = self.rng.choice([None, "nosmem"])
        if epi == "paired":
            epi = "tma_cooperative" if coop else "tma_warpspecialized"
        k["schedule"], k["epilogue_schedule"] = sched, epi
        if sched or epi:
            parts = [sched or "auto"] + ([f"epilogue = {epi}"] if epi else [])
            chain.append(f"with_schedule({', '.join(parts)})")
        if cpasync:
            cluster = self.pick({None: 1, (1, 1, 1): 1}, [(2, 1, 1), (1, 2, 1)])
        else:
            cluster = self.pick({None: 25, (1, 1, 1): 15, (2, 1, 1): 30, (1, 2, 1): 15, (2, 2, 1): 8, (4, 1, 1): 4,
                                 (1, 4, 1): 3},
                                [(1, 1, 1), (2, 1, 1), (1, 2, 1), (2, 2, 1), (4, 2, 1), (8, 1, 1), (3, 1, 1),
                                 (4, 4, 1), (1, 1, 2)])
        k["cluster"] = cluster
        if cluster:
            chain.append("with_cluster({}, {}, {})".format(*cluster))
        stages = self.pick({None: 75, 2: 5, 3: 8, 4: 8, 5: 3, 6: 1}, [1, 2, 3, 4, 5, 6, 8, 12])
        k["stages"] = stages
        if stages:
            chain.append(f"with_stages({stages})")
        if coop or sched is None:
            sk = self.pick({None: 55, "persistent": 10, "stream_k": 17, "split_k": 18})
        else:
            sk = self.pick({None: 80, "persistent": 20}, ["stream_k", "split_k", None])
        self.scheduler(k, chain, sk)
        if self.chance(0.2):
            order = self.rng.choice(["along_m", "along_n", "heuristic"])
            swz = self.rng.choice([1, 2, 4, 8])
            k["raster"] = (order, swz)
            chain.append(f"with_raster({order}, swizzle = {swz})")
        self.alignment(k, chain, bits)

    def sm80(self, k, chain):
        bits = {"f32": 32, "fp8": 8}.get(k["family"], 16)
        k["schedule"] = sched = self.pick({None: 4, "multistage": 1}, ["multistage", "cooperative"])
        if sched:
            chain.append(f"with_schedule({sched})")
        if self.chance(self.wild):
            chain.append("with_cluster(2, 1, 1)")
        if k["math"] == "simt":
            tile = self.rng.choice([(128, 128, 8), (128, 64, 8), (64, 128, 8), (64, 64, 8), (256, 128, 8),
                                    (128, 256, 8)])
            warp_tiles = [(32, 64), (64, 32), (32, 32), (64, 64)]
            stages_pick = {None: 3, 2: 1, 3: 1, 4: 1, 5: 1}
        else:
            tile = (self.rng.choice([64, 128, 128, 256]), self.rng.choice([64, 128, 128, 256]),
                    self.rng.choice([32, 64] if bits == 16 else [16, 32]))
            if tile[0] == tile[1] == 256:
                tile = (256, 128, tile[2])
            warp_tiles = [(32, 32), (32, 64), (64, 32), (64, 64)]
            if self.chance(self.wild):
                warp_tiles = [(64, 128), (128, 64), (16, 8)]
            stages_pick = {None: 3, 3: 2, 4: 1, 5: 1}
        if self.chance(self.wild):
            tile = (self.rng.choice([48, 64, 96, 128]), self.rng.choice([32, 64, 128]), self.rng.choice([8, 16, 32, 64]))
        options = [(tile[0] // wm, tile[1] // wn) for wm, wn in warp_tiles
                   if tile[0] % wm == 0 and tile[1] % wn == 0 and (tile[0] // wm) * (tile[1] // wn) in (1, 2, 4, 8)]
        warps = self.rng.choice(options) if options else (2, 2)
        if self.chance(self.wild):
            warps = self.rng.choice([(4, 4), (3, 1), (1, 1), (2, 2)])
        k["tile"], k["warps"] = tile, warps
        chain.append("with_tile({}, {}, {})".format(*tile))
        chain.append(f"with_warps({warps[0]}, {warps[1]}, 1)")
        stage_bytes = (tile[0] + tile[1]) * tile[2] * bits // 8
        stages = self.pick(stages_pick, [1, 2, 3, 6, 10])
        if stages and stages * stage_bytes > 232448 and not self.chance(self.wild):
            stages = 3
        k["stages"] = stages
        if stages:
            chain.append(f"with_stages({stages})")
        sk = self.pick({None: 75, "split_k": 15, "stream_k": 10} if k["batch"] == 1 else {None: 1},
                       ["split_k", "stream_k", None])
        self.scheduler(k, chain, sk)
        self.alignment(k, chain, bits)

    def scheduler(self, k, chain, sk):
        if sk == "split_k":
            tk = k["tile"][2]
            kk = k["k"] if isinstance(k["k"], int) else 4096
            slices = self.rng.choice([2, 3, 4, 8])
            if kk // max(tk, 1) < slices and not self.chance(self.wild):
                slices = 2
            k["scheduler"] = f"split_k({slices})"
        else:
            k["scheduler"] = sk
        if k["scheduler"]:
            chain.append(f"with_scheduler({k['scheduler']})")

    def alignment(self, k, chain, bits):
        if not self.chance(0.15):
            return
        d_bits = {"f32": 32, "e4m3": 8, "e5m2": 8}.get(k["d"], 16)
        al = []
        for b in (bits, bits, d_bits):
            widest = 128 // b
            al.append(self.rng.choice([widest, max(1, widest // 2), max(1, widest // 4)])
                      if self.chance(self.wild) else widest)
        k["alignment"] = tuple(al)
        chain.append("with_alignment(a = {}, b = {}, c = {})".format(*al))

    def epilogue(self, k, chain):
        steps = []
        plain_only = k.get("epilogue_schedule") == "nosmem" or (k.get("schedule") or "").startswith("cpasync")
        if k["arch"] == "sm90a" and not (plain_only and not self.chance(self.wild)):
            kind = self.pick({"none": 40, "act": 25, "bias_act": 15, "bias": 5, "chain": 8, "alpha": 7})
            if kind == "act":
                steps = [self.rng.choice(ACTIVATIONS)]
            elif kind == "bias_act":
                steps = ["bias(col)", self.rng.choice(ACTIVATIONS)]
            elif kind == "bias":
                steps = [self.rng.choice(["bias(col)", "bias(row)", "bias(col, f32)"])]
            elif kind == "chain":
                steps = ["bias(col)", self.rng.choice(ACTIVATIONS), "clamp(-4, 4)"]
            elif kind == "alpha":
                steps = ["alpha(0.5)"]
        elif k["arch"] == "sm80":
            kind = self.pick({"none": 55, "act": 30, "alpha": 15}, ["none", "act", "bias", "two"])
            steps = {"none": [], "act": [self.rng.choice(ACTIVATIONS)], "alpha": ["alpha(2.0)"],
                     "bias": ["bias(col)"], "two": ["relu", "tanh"]}[kind]
        elif plain_only and self.chance(0.2):
            steps = ["alpha(0.5)"]
        if k["beta"]:
            steps.append("beta(0.5)")
        k["epilogue"] = steps
        if steps:
            chain.append(f"with_epilogue({', '.join(steps)})")


def message_class(message):
    """A rejection's class: its message with numbers, quoted names and type names abstracted."""
    s = re.sub(r"'[^']*'", "'X'", message)
    s = re.sub(r"\b(bf16|f16|f32|e4m3|e5m2|void)\b", "T", s)
    s = re.sub(r"\b\d+(x\d+)+\b", lambda m: "x".join("N" * (m.group(0).count("x") + 1)), s)
    s = re.sub(r"(?<![A-Za-z0-9.])\d+(\.\d+)?", "N", s)
    return s


def nvcc_excerpt(log, lines=12):
    """The error lines of an nvcc log (or its tail when none says 'error')."""
    text = (log or "").splitlines()
    errors = [line for line in text if "error" in line.lower()]
    return "\n".join((errors or text[-lines:])[:lines])


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--count", type=int, default=200, help="configurations to draw (default 200)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--wild", type=float, default=0.06,
                   help="chance that a knob is drawn from every value rather than the suitable ones")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, help="parallel nvcc processes")
    p.add_argument("--check-only", action="store_true", help="stop after check (no nvcc)")
    p.add_argument("--deadline", type=float,
                   help="stop starting builds after this many seconds (builds go in rounds of --jobs; "
                        "with a --cache-dir a rerun resumes where this one stopped)")
    p.add_argument("--cache-dir", help="kernel cache for ucutlass build (default: its own)")
    p.add_argument("--workdir", help=f"where the programs are written (default {WORKDIR.relative_to(REPO)}/...)")
    p.add_argument("--out", help="result file, or a folder for legality-<date>.json (default bench/results/)")
    p.add_argument("--ucutlass", help="the ucutlass executable (default build/ucutlass)")
    p.add_argument("--strict", action="store_true", help="exit 3 when an accepted program failed to compile")
    args = p.parse_args(argv)
    if args.count < 1 or args.jobs < 1 or not 0 <= args.wild <= 1:
        p.error("--count and --jobs must be >= 1, --wild in [0, 1]")
    return args


def build_accepted(exe, configs, args, report):
    """Builds the accepted programs; sets each one's `build` record."""
    todo = [c for c in configs if c["check"]["ok"]]
    # SM80 builds are several times quicker; grouping by arch keeps each round's members alike.
    todo.sort(key=lambda c: (c["knobs"]["arch"], c["index"]))
    rounds = [todo] if not args.deadline else [todo[i:i + args.jobs] for i in range(0, len(todo), args.jobs)]
    start = time.monotonic()
    report["build"] = {"rounds": [], "jobs": args.jobs, "deadline_s": args.deadline}
    for group in rounds:
        if args.deadline and time.monotonic() - start > args.deadline:
            for c in group:
                c["build"] = {"ok": None, "stage": "not attempted (deadline)"}
            continue
        doc = ucutlass_cli.build(exe, [c["path"] for c in group], args.jobs, args.cache_dir)
        report["build"]["rounds"].append({"command": doc["command"], "wall_seconds": doc["wall_seconds"],
                                          "files": len(group)})
        report["build"].update({"nvcc": doc.get("nvcc"), "cutlass_dir": doc.get("cutlass_dir"),
                                "cache_dir": doc.get("cache_dir")})
        for c, r in zip(group, doc["results"]):
            c["build"] = {k: r.get(k) for k in ("ok", "stage", "cached", "seconds", "hash")}
            if not r.get("ok"):
                c["build"]["nvcc_excerpt"] = nvcc_excerpt(r.get("log"))
                c["build"]["log_tail"] = (r.get("log") or "")[-6000:]
    report["build"]["wall_seconds"] = time.monotonic() - start


def summarize(configs, report):
    accepted = [c for c in configs if c["check"]["ok"]]
    classes = Counter(c["check"]["class"] for c in configs if not c["check"]["ok"])
    built = [c for c in accepted if "build" in c]
    compiled = [c for c in built if c["build"].get("ok")]
    failed = [c for c in built if c["build"].get("ok") is False]
    skipped = [c for c in built if c["build"].get("ok") is None]
    by_arch = Counter((c["knobs"]["arch"], c["check"]["ok"]) for c in configs)
    report["counts"] = {
        "sampled": len(configs), "accepted": len(accepted), "rejected": len(configs) - len(accepted),
        "accepted_share": len(accepted) / len(configs),
        "accepted_by_arch": {a: by_arch[(a, True)] for a in ("sm90a", "sm80")},
        "rejected_by_arch": {a: by_arch[(a, False)] for a in ("sm90a", "sm80")},
        "build_attempted": len(built) - len(skipped), "compiled": len(compiled), "compile_failed": len(failed),
        "not_attempted": len(skipped) + (len(accepted) - len(built)),
    }
    attempted = len(built) - len(skipped)
    report["counts"]["compile_rate"] = len(compiled) / attempted if attempted else None
    report["rejection_classes"] = [{"class": k, "count": n,
                                    "example": next(c["check"]["first_error"] for c in configs
                                                    if not c["check"]["ok"] and c["check"]["class"] == k)}
                                   for k, n in classes.most_common()]
    report["compile_failures"] = [{"index": c["index"], "file": c["file"], "stage": c["build"].get("stage"),
                                   "nvcc_excerpt": c["build"].get("nvcc_excerpt")} for c in failed]


def print_summary(report):
    n = report["counts"]
    print(f"\nrejections by first-error class ({n['rejected']} of {n['sampled']}):")
    for r in report["rejection_classes"]:
        print(f"  {r['count']:4d}  {r['class']}")
    for f in report["compile_failures"]:
        print(f"\nFAILED TO COMPILE: {f['file']} ({f['stage']})\n{f['nvcc_excerpt']}")
    print(f"\n{'sampled':>8} {'accepted':>9} {'share':>6} {'built':>6} {'compiled':>9} {'failed':>7} {'skipped':>8}")
    rate = n["compile_rate"]
    print(f"{n['sampled']:>8} {n['accepted']:>9} {n['accepted_share']:>6.0%} {n['build_attempted']:>6} "
          f"{n['compiled']:>9} {n['compile_failed']:>7} {n['not_attempted']:>8}")
    if rate is None:
        print("legality vs compiler: no build attempted")
    else:
        verdict = "AGREE" if n["compile_failed"] == 0 else "DISAGREE"
        print(f"legality vs compiler: {rate:.1%} of attempted accepted programs compiled -> {verdict}"
              + (f" ({n['not_attempted']} not attempted)" if n["not_attempted"] else ""))


def main(argv):
    args = parse_args(argv)
    started = provenance.now()
    report = {"format": "ucutlass-legality-sample", "version": 1, "date": started.isoformat(),
              **provenance.command(), "git": provenance.git_state(), "host": provenance.host(),
              "nvcc": provenance.nvcc_version(),
              "settings": {"count": args.count, "seed": args.seed, "wild": args.wild, "jobs": args.jobs,
                           "check_only": args.check_only, "deadline_s": args.deadline},
              "harness_errors": []}
    configs = []
    try:
        exe = ucutlass_cli.find_exe(args.ucutlass)
        workdir = Path(args.workdir) if args.workdir else WORKDIR / f"seed{args.seed}-n{args.count}"
        workdir.mkdir(parents=True, exist_ok=True)
        sampler = Sampler(random.Random(args.seed), args.wild)
        for i in range(args.count):
            knobs, text = sampler.draw(i)
            path = workdir / f"cfg{i:03d}.dsl"
            path.write_text(text)
            configs.append({"index": i, "file": str(path), "path": path, "knobs": knobs, "dsl": text})
        for c, r in zip(configs, ucutlass_cli.check(exe, [c["path"] for c in configs])):
            errors = [d["message"] for d in r.get("diagnostics", []) if d.get("severity") == "error"]
            c["check"] = {"ok": bool(r["ok"]), "errors": errors, "hash": r.get("hash")}
            if not r["ok"]:
                first = errors[0] if errors else r.get("io_error", "rejected without an error message")
                c["check"].update({"first_error": first, "class": message_class(first)})
        if not args.check_only:
            build_accepted(exe, configs, args, report)
        summarize(configs, report)
    except HarnessError as e:
        report["harness_errors"].append(str(e))
        print(f"legality_sample: {e}", file=sys.stderr)
    for c in configs:
        c.pop("path", None)
    report["configs"] = configs
    report["seconds"] = (provenance.now() - started).total_seconds()
    if "counts" in report:
        print_summary(report)
    name = f"legality-{provenance.file_stamp(started)}.json"
    out = Path(args.out) if args.out else RESULTS / name
    out = out / name if out.is_dir() else out
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1, default=str) + "\n")
    print(f"wrote {out}")
    if report["harness_errors"]:
        return 1
    if args.strict and report.get("counts", {}).get("compile_failed"):
        return 3
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)

#!/usr/bin/env python3
"""Records what the stopping policy would have saved over a recorded fixed-budget campaign (no GPU).

    python3 bench/run_replay.py STORE [STORE ...] --budget 4 [--policy EPS:WINDOW ...] [--out DIR|FILE]

Runs `ucutlass replay` over STORE three ways and writes one JSON (bench/results/replay-<date>.json):
  - the sweep (epsilon x window) and the policy it names best at --keep of the fixed-budget geomean;
  - the default policy (ucutlass's own --epsilon/--window defaults);
  - with --cross and several stores (a campaign's parts, the suite's halves): each part's sweep best scored
    on every other part, a pick judged on attempts it was not chosen from;
  - each --policy given, e.g. one chosen on another campaign's store, so the figure is not a policy
    tuned on the very attempts it is scored on.
Several stores are one campaign's parts (a suite run in halves), replayed as one suite. Each store's
SHA-256 names exactly which recorded attempts were replayed.
"""

import argparse
import hashlib
import json
import pathlib
import subprocess
import sys

import provenance
import ucutlass_cli


def replay(exe, stores, budget, extra):
    cmd = [str(exe), "replay", *map(str, stores), "--budget", str(budget), "--json", *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise SystemExit(f"run_replay: {' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.strip()}")
    return {"command": cmd, "result": json.loads(proc.stdout)}


def summary(result):
    keys = ("attempts_fixed", "attempts_policy", "attempts_saved", "geomean_fixed", "geomean_policy", "geomean_kept")
    return {k: result[k] for k in keys}


def parse_policy(text):
    try:
        eps, window = text.split(":")
        return float(eps), int(window)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}': a policy is EPSILON:WINDOW, e.g. 10:1 (epsilon 1000 %, window 1)")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("stores", nargs="+", type=pathlib.Path, help="the campaign's SQLite run stores (its parts)")
    ap.add_argument("--budget", type=int, required=True, help="the campaign's fixed attempts per problem")
    ap.add_argument("--keep", type=float, default=0.95, help="share of the fixed-budget geomean a policy keeps")
    ap.add_argument("--policy", type=parse_policy, action="append", default=[],
                    help="EPSILON:WINDOW, a policy chosen elsewhere to score here (repeatable)")
    ap.add_argument("--cross", action="store_true",
                    help="with several stores: each one's sweep best scored on the others (held-out picks)")
    ap.add_argument("--ucutlass", help="the ucutlass executable (default build/ucutlass)")
    ap.add_argument("--out", default=str(ucutlass_cli.REPO / "bench" / "results"))
    args = ap.parse_args(argv)
    for store in args.stores:
        if not store.is_file():
            raise SystemExit(f"run_replay: no store at {store}")
    if args.cross and len(args.stores) < 2:
        raise SystemExit("run_replay: --cross scores each store's pick on the others: give two stores or more")
    exe = ucutlass_cli.find_exe(args.ucutlass)
    started = provenance.now()
    sweep = replay(exe, args.stores, args.budget, ["--sweep", "--keep", str(args.keep)])
    rows = sweep["result"]["rows"]
    best_index = sweep["result"].get("best")
    best = rows[best_index] if best_index is not None else None
    default = replay(exe, args.stores, args.budget, [])
    given = []
    for eps, window in args.policy:
        r = replay(exe, args.stores, args.budget, ["--epsilon", str(eps), "--window", str(window)])
        given.append({"epsilon": eps, "window": window, "command": r["command"], **summary(r["result"])})
    cross = []
    if args.cross:
        picks = {}
        for store in args.stores:
            own = replay(exe, [store], args.budget, ["--sweep", "--keep", str(args.keep)])["result"]
            picks[store] = own["rows"][own["best"]] if own.get("best", -1) >= 0 else None
        for chosen_on, pick in picks.items():
            for scored_on in args.stores:
                if scored_on == chosen_on or pick is None:
                    continue
                r = replay(exe, [scored_on], args.budget, ["--epsilon", str(pick["epsilon"]), "--window", str(pick["window"])])
                cross.append({"chosen_on": str(chosen_on), "scored_on": str(scored_on), "epsilon": pick["epsilon"],
                              "window": pick["window"], "command": r["command"], **summary(r["result"])})
    report = {
        "kind": "ucutlass-replay", "started": started.isoformat(), **provenance.command(),
        "git": provenance.git_state(), "host": provenance.host(),
        "stores": [{"path": str(s), "sha256": hashlib.sha256(s.read_bytes()).hexdigest()} for s in args.stores],
        "budget": args.budget, "keep": args.keep,
        # Runs of a config after its first, folded into that attempt with the latest program's result
        # (ucutlass replay's default; report::Reruns::folded).
        "reruns_folded": default["result"]["reruns_folded"],
        "sweep": {"command": sweep["command"], "best": best, "rows": rows},
        "default_policy": {"command": default["command"], **summary(default["result"])},
        "given_policies": given,
        "cross": cross,
        "problems_recorded": {p["name"]: p["recorded"] for p in default["result"]["problems"]},
        # The fixed budget's share of each problem's recorded attempts (its first --budget).
        "problems_fixed": {p["name"]: p["fixed"] for p in default["result"]["problems"]},
    }
    out = provenance.result_path(args.out, "replay", started)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"{'policy':28s} {'attempts':>9s} {'saved':>7s} {'geomean':>8s} {'kept':>7s}")

    def line(label, r):
        print(f"{label:28s} {r['attempts_policy']:4d}/{r['attempts_fixed']:<4d} {100 * r['attempts_saved']:6.1f}% "
              f"{r['geomean_policy']:7.3f}x {100 * r['geomean_kept']:6.1f}%")

    line("default", report["default_policy"])
    if best:
        line(f"sweep best: eps {best['epsilon']:g} w {best['window']}", best)
    for g in given:
        line(f"given: eps {g['epsilon']:g} w {g['window']}", g)
    for c in cross:
        print(f"eps {c['epsilon']:g} w {c['window']}, picked on {pathlib.Path(c['chosen_on']).name}, "
              f"scored on {pathlib.Path(c['scored_on']).name}:")
        line("  held out", c)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

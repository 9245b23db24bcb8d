#!/usr/bin/env python3
"""The suite as the latest measurement of each problem, across several campaign stores.

    python3 bench/suite_latest.py STORE.sqlite [STORE.sqlite ...] [--out FILE] [--profile-atol ATOL]
                                  [--verify VERIFY.json ...]

Stores are given oldest first. Each problem takes its figures from the last store that made an attempt
on it (not the store where it did best: that would pick the luckiest draw), its speedup being that
store's eager time over its fastest verified attempt, 1x when none verified; a problem no store
attempted counts 1x. A subset campaign after a change thus replaces exactly the problems it re-measured.

This is a progress figure, not the issue's acceptance measurement (one campaign over the whole suite
with the default budget): the stores ran at different commits, with different budgets, on different
machines of one kind (each store's campaign-state JSON under bench/results/ names its commit). The JSON
names the store (with its SHA-256) and the attempt count behind every problem.
Without --out it prints the table only.

--profile-atol ATOL counts a verified attempt only if, in every correctness trial where the harness widened
atol beyond ATOL to PyTorch's own fp32 error (evaluate.Evaluation.trial_atols), its largest error stayed
within ATOL: a floor for what the suite would be without that rule (an attempt it drops may still have
passed through rtol).

A store's own re-measurements (`ucutlass optimize` evaluates each written solution again in the harness's
window and records it beside the attempts, the store's confirmations table) of a problem's fastest attempt
put its re-measured speedup (store eager over the re-measured time) in the re-measured figure. A program
that failed its re-measurement is no solution in either figure, nor one of the same math path that passed on
other inputs than a re-measurement that missed the tolerance (store/discredited.h): the problem's best is its fastest other
verified attempt (what optimize then writes), as in the store's own suite line. Nor is an attempt whose
config ran again later as another program (a resume measures a stale best's configs again as today's
program and writes that), or whose kernels ran again later with more after them (the problem's mapping
gained a kernel since): no written solution holds the earlier program.

--verify takes bench/verify_written.py results (given in order, the last one covering a problem speaks for
it): a problem they re-measured takes the re-measured speedup (the written solution, eager timed beside it)
instead of the store's fastest attempt, and counts 1x if its written solution failed there. A store's
fastest of many single measurements is biased low (bench/measurement_drift.py); the figure with --verify
says what the written solutions do when measured again. Both figures are reported.

--written takes `ucutlass optimize` output folders holding the solutions written now (`campaign_call.py
prepare`'s, made with today's code on the CPU): a third figure in which each problem counts at the
measurement of the very program its modelnew.py holds (the store's re-measurement of it, else a --verify
run's, else its attempt's own time), 1x where that program was never measured, failed, or nothing is
written. Where today's code writes another program than the store's best (an older mapping's attempt,
v0.1 level2/010's GEMM with softmax in PyTorch; an attention config whose text has changed), the first two
figures still count the best and this one does not.
"""
import argparse
import hashlib
import json
import math
import pathlib
import re
import sqlite3
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import provenance  # noqa: E402


def within_profile_atol(result_json, atol):
    """Every trial whose atol the harness widened past `atol` kept its largest error within `atol`."""
    trials = json.loads(result_json or "{}").get("correctness", {}).get("trials", [])
    return all((t.get("max_abs_err") or 0.0) <= atol for t in trials if max(t.get("atol") or [atol]) > atol)


def extends_config(longer, shorter):
    """`longer` runs the kernels of `shorter` with more after them (store/config_kernels.h)."""
    return bool(shorter) and longer.startswith(shorter + "; ") and len(longer) > len(shorter) + 2


def read_store(path, profile_atol=None):
    """{problem: {eager_ms, best_ms or None, attempts}} for the problems the store attempted, the store's
    campaign table (its settings) and the names of every problem it holds."""
    db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    failed = failed_remeasures(db)
    rows = db.execute(
        "select p.name, p.eager_ms, count(a.id) from problems p join attempts a on a.problem = p.name "
        "group by p.name").fetchall()
    attempts = db.execute("select problem, hash, config, verdict, time_ms, result_json from attempts order by id").fetchall()
    # The program each config last ran as: an earlier program of the same config is one today's code no
    # longer writes (optimize measures a stale best's configs again as today's program, and writes that).
    latest = {(name, config): h for name, h, config, *_ in attempts}
    best = {}
    for k, (name, h, config, verdict, ms, result) in enumerate(attempts):
        if verdict != "ok":
            continue
        if config and latest[(name, config)] != h:
            continue  # no written solution holds this program, so its time stands for none
        if config and any(o[0] == name and extends_config(o[2], config) for o in attempts[k + 1:]):
            continue  # an older mapping's row whose configs ran again as today's (store/superseded.h)
        if (name, h) in failed:
            continue  # its program failed when evaluated again: not a solution (optimize writes the next one)
        if profile_atol is not None and not within_profile_atol(result, profile_atol):
            continue
        if name not in best or ms < best[name]:
            best[name] = ms
    rows = [(r[0], r[1], best.get(r[0]), r[2]) for r in rows]
    campaign = dict(db.execute("select key, value from campaign").fetchall())
    names = [r[0] for r in db.execute("select name from problems")]
    again = read_remeasurements(db)
    db.close()
    out = {r[0]: {"eager_ms": r[1], "best_ms": r[2], "attempts": r[3]} for r in rows}
    for name, figures in out.items():
        own = again.get(name, {}).get(figures["best_ms"])
        if own:
            figures["remeasured_in_store"] = {"verdict": own["verdict"], "time_ms": own["time_ms"],
                                          "speedup_eager_beside": own.get("speedup_eager_beside")}
    return out, campaign, names


def math_path(config):
    """A config text's math path, as store/discredited.h reads it: each kernel's summary up to its layouts,
    tile or launch parameters, an attention kernel's scores type kept."""
    def kernel(summary):
        tokens = summary.split()
        out, k = [], 0
        while k < len(tokens) and not (tokens[k].startswith("a=") or tokens[k] in ("access", "block_q")
                                       or re.fullmatch(r"\d+x\d+x\d+", tokens[k])):
            out.append(tokens[k])
            k += 1
        out += [w for i in range(k, len(tokens) - 1) if tokens[i] == "scores" for w in ("scores", tokens[i + 1])]
        return " ".join(out)
    return "; ".join(kernel(part) for part in (config or "").split("; "))


def trial_inputs_key(result_json):
    """What the correctness trials ran on (seed, distribution, PyTorch's own error per trial), None if unsaid."""
    try:
        trials = json.loads(result_json or "{}").get("correctness", {}).get("trials", [])
    except json.JSONDecodeError:
        return None
    if not trials or any("native_max_abs_err" not in t for t in trials):
        return None
    return json.dumps([[t.get("seed", -1), t.get("distribution", ""), t["native_max_abs_err"]] for t in trials])


def correctness_rules(result):
    """The rules that judged a result (exec/correctness_rules.h): its field, else 2 if a trial records atol."""
    if "correctness_rules" in result:
        return result["correctness_rules"]
    return 2 if any("atol" in t for t in result.get("correctness", {}).get("trials", [])) else 1


def failed_remeasures(db):
    """{(problem, hash)} of the programs no verified result by a re-measurement (store/discredited.h): each
    whose re-measurement as the written solution failed and, where that was a tolerance miss under today's
    rules (2 and later), each of the same math path that passed on other inputs and has not passed one itself."""
    try:
        confirmations = db.execute("select problem, hash, verdict, result_json from confirmations").fetchall()
    except sqlite3.OperationalError:  # a store from before re-measurements
        return set()
    attempts = db.execute("select problem, hash, config, verdict, result_json from attempts").fetchall()
    passed = {(p, h) for p, h, verdict, _ in confirmations if verdict == "ok"}
    config_of = {}
    for p, h, config, *_ in attempts:
        config_of.setdefault((p, h), config)
    out = set()
    for p, h, verdict, result_json in confirmations:
        if verdict == "ok":
            continue
        out.add((p, h))
        try:
            result = json.loads(result_json or "{}")
        except json.JSONDecodeError:
            result = {}
        if verdict != "incorrect" or correctness_rules(result) < 2 or not config_of.get((p, h)):
            continue
        path, inputs = math_path(config_of[(p, h)]), trial_inputs_key(result_json)
        for q, other, config, v, own in attempts:
            if q != p or v != "ok" or other == h or (q, other) in passed or not config or math_path(config) != path:
                continue
            key = trial_inputs_key(own)
            if key is None or key != inputs:
                out.add((q, other))
    return out


def read_remeasurements(db):
    """{problem: {best_ms, verdict, time_ms}}: the re-measurement of each verified attempt's program, keyed
    by the attempt's time (read_store takes the one of the problem's best), where the store has one (a store
    from before re-measurements has none)."""
    try:
        rows = db.execute(
            "select a.problem, a.time_ms, c.verdict, c.time_ms, "
            "case when json_valid(c.result_json) then json_extract(c.result_json, '$.speedup.vs_eager') end "
            "from attempts a join confirmations c "
            "on c.problem = a.problem and c.hash = a.hash where a.verdict = 'ok'").fetchall()
    except sqlite3.OperationalError:
        return {}
    out = {}
    for problem, best_ms, verdict, ms, beside in rows:
        out.setdefault(problem, {})[best_ms] = {"best_ms": best_ms, "verdict": verdict, "time_ms": ms,
                                                "speedup_eager_beside": beside}
    return out


def read_verify(paths, by_program=False):
    """{problem: {verdict, speedup, file}} from bench/verify_written.py results, the last one per problem;
    by_program: keyed by (problem, written program hash) instead, the last one per pair."""
    out = {}
    for path in paths:
        for row in json.loads(pathlib.Path(path).read_text())["rows"]:
            if by_program and not row.get("written_hash"):
                continue
            if row.get("verdict") == "not_run":  # a budgeted run's unevaluated solution: no measurement
                continue
            key = (row["problem"], row["written_hash"]) if by_program else row["problem"]
            out[key] = {"verdict": row.get("verdict"), "speedup": row.get("speedup_vs_eager"), "file": str(path)}
    return out


def read_written(dirs):
    """{problem: program hash} of the solutions written under `ucutlass optimize` output folders, read from
    each modelnew.py's first lines ("ucutlass solution for NAME: program HASH")."""
    out = {}
    for d in dirs:
        for m in sorted(pathlib.Path(d).glob("*/modelnew.py")):
            found = re.search(r"program ([0-9a-f]{16})", m.read_text()[:400])
            if found:
                out[m.parent.name] = found.group(1)
    return out


def written_measurement(store, problem, program, eager_ms, verified):
    """(source, speedup) of `program`, the solution written for `problem`: the store's re-measurement of it
    (eager timed beside it where it was), else a verify run's evaluation of it, else its attempt's own time
    (one draw in a shorter window, the fastest of many biased low), else "unmeasured" at 1x. A program that
    failed there counts 1x ("failed")."""
    db = sqlite3.connect(f"file:{store}?immutable=1", uri=True)
    try:
        again = db.execute("select verdict, time_ms, result_json from confirmations where problem = ? and hash = ? "
                           "order by id desc limit 1", (problem, program)).fetchone()
    except sqlite3.OperationalError:  # a store from before re-measurements
        again = None
    attempt = db.execute("select min(time_ms) from attempts where problem = ? and hash = ? and verdict = 'ok' "
                         "and time_ms > 0", (problem, program)).fetchone()[0]
    db.close()
    if again:
        verdict, ms, result = again
        if verdict != "ok" or not ms:
            return "failed", 1.0
        try:
            beside = (json.loads(result or "{}").get("speedup") or {}).get("vs_eager")
        except json.JSONDecodeError:
            beside = None
        return "store re-measurement", beside or eager_ms / ms
    row = verified.get((problem, program))
    if row:
        ok = row["verdict"] == "ok" and row["speedup"]
        return ("verify run", row["speedup"]) if ok else ("failed", 1.0)
    if attempt and eager_ms > 0:
        return "attempt", eager_ms / attempt
    return "unmeasured", 1.0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stores", nargs="+", help="campaign stores, oldest first")
    ap.add_argument("--out", help="write the JSON here")
    ap.add_argument("--profile-atol", type=float, help="only attempts within this atol where the harness widened it")
    ap.add_argument("--verify", nargs="+", default=[], help="bench/verify_written.py results: re-measured speedups")
    ap.add_argument("--written", nargs="+", default=[],
                    help="ucutlass optimize output folders (e.g. campaign_call.py prepare's): the figure of the solutions written there")
    args = ap.parse_args(argv)
    latest, suite, sources = {}, set(), []
    for path in args.stores:
        problems, campaign, names = read_store(path, args.profile_atol)
        suite.update(names)
        sources.append({"store": str(path), "sha256": hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest(),
                        "problems_attempted": len(problems), "campaign": campaign})
        for name, figures in problems.items():
            latest[name] = {**figures, "store": str(path)}
    table, logs = [], []
    for name in sorted(suite):
        row = latest.get(name)
        speedup = 1.0
        if row and row["best_ms"] and row["eager_ms"] > 0:
            speedup = row["eager_ms"] / row["best_ms"]
        table.append({"problem": name, "speedup": speedup, **(row or {"store": None})})
        logs.append(math.log(speedup))
    verified = [r["speedup"] for r in table if r.get("best_ms")]
    geomean = math.exp(sum(logs) / len(logs)) if logs else float("nan")
    remeasured = read_verify(args.verify)
    beside = 0
    for r in table:  # the store's own re-measurement of the fastest attempt speaks before a verify run
        own = r.get("remeasured_in_store")
        if own:
            ok = own["verdict"] == "ok" and own["time_ms"] and r["eager_ms"] > 0
            # Eager timed beside the re-measurement, in the same worker on the same inputs, where it was:
            # a ratio of one run, free of the host and GPU drift between the campaign's first day and now.
            speedup = own.get("speedup_eager_beside") or (r["eager_ms"] / own["time_ms"] if ok else None)
            beside += bool(ok and own.get("speedup_eager_beside"))
            remeasured[r["problem"]] = {"verdict": own["verdict"], "speedup": speedup if ok else None,
                                        "eager": "beside" if ok and own.get("speedup_eager_beside") else "store",
                                        "file": r["store"]}
    remeasured_logs, wins_remeasured = [], 0
    for r in table:
        if r["problem"] in remeasured:
            r["remeasured"] = remeasured[r["problem"]]
        again = r.get("remeasured")
        if again and again["verdict"] != "no_solution_written":
            speedup = again["speedup"] if again["verdict"] == "ok" and again["speedup"] else 1.0
        else:
            speedup = r["speedup"]
        remeasured_logs.append(math.log(speedup))
        # A win only where the user re-running the written solution sees one: a best whose re-measurement
        # was no faster than eager (kernelbench level2/025, 1.35x as an attempt, 0.99x) is none.
        wins_remeasured += bool(r.get("best_ms")) and speedup > 1.0
    remeasured_geomean = math.exp(sum(remeasured_logs) / len(remeasured_logs)) if remeasured_logs else float("nan")
    verified_geomean = math.exp(sum(map(math.log, verified)) / len(verified)) if verified else float("nan")
    for r in sorted(table, key=lambda r: r["speedup"]):
        where = pathlib.Path(r["store"]).name if r["store"] else "-"
        print(f"{r['problem']:52s} {r['speedup']:6.2f}x  {where}")
    wins = sum(s > 1.0 for s in verified)
    print(f"suite: {len(table)} problems, {len(verified)} verified, wins {wins}; geomean vs eager {geomean:.3f}x "
          f"(unverified as 1x), {verified_geomean:.3f}x over the verified")
    if remeasured:
        print(f"with the {len(remeasured)} problem(s) re-measured (stores, verify runs) taking their re-measured speedup "
              f"({beside} of them against eager timed beside the re-measurement, the rest the store's eager): "
              f"geomean vs eager {remeasured_geomean:.3f}x, wins {wins_remeasured}")
    written_logs, written_sources, wins_written, written_geomean = [], {}, 0, None
    if args.written:
        written = read_written(args.written)
        verified_programs = read_verify(args.verify, by_program=True)
        for r in table:
            program = written.get(r["problem"])
            if not program:
                source, speedup = "none written", 1.0
            elif not r["store"]:
                source, speedup = "unmeasured", 1.0
            else:
                source, speedup = written_measurement(r["store"], r["problem"], program, r["eager_ms"], verified_programs)
            r["written"] = {"program": program, "source": source, "speedup": speedup}
            written_sources[source] = written_sources.get(source, 0) + 1
            written_logs.append(math.log(speedup))
            wins_written += source not in ("none written", "unmeasured", "failed") and speedup > 1.0
        written_geomean = math.exp(sum(written_logs) / len(written_logs))
        print(f"written solutions ({len(written)} under {len(args.written)} folder(s)), each at its own program's "
              f"measurement ({', '.join(f'{n} {k}' for k, n in sorted(written_sources.items()))}; unmeasured, "
              f"failed and none written as 1x): geomean vs eager {written_geomean:.3f}x, wins {wins_written}")
    if args.out:
        report = {"kind": "ucutlass-suite-latest", "date": provenance.now().isoformat(), **provenance.command(),
                  "git": provenance.git_state(), "sources": sources, "problems": table,
                  "suite_geomean": geomean, "verified_geomean": verified_geomean, "verified": len(verified),
                  "wins": wins, "profile_atol": args.profile_atol,
                  "verify": [str(v) for v in args.verify], "remeasured_problems": len(remeasured),
                  "remeasured_eager_beside": beside, "wins_remeasured": wins_remeasured,
                  "written_dirs": [str(d) for d in args.written],
                  "suite_geomean_written": written_geomean,
                  "written_sources": written_sources, "wins_written": wins_written if args.written else None,
                  "suite_geomean_remeasured": remeasured_geomean if remeasured else None, "note": "latest measurement per problem across the stores (bench/suite_latest.py); "
                                        "not one campaign"}
        pathlib.Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

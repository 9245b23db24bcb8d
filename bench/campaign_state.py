#!/usr/bin/env python3
"""What a campaign's run store holds, checked against the evaluations that ran: the kill/resume evidence.

    python3 bench/campaign_state.py OPTIMIZE_OUT [--label NAME] [--out DIR_OR_FILE]

Reads OPTIMIZE_OUT/campaign.sqlite (read-only) and every evaluation result under OPTIMIZE_OUT/evals/
(one JSON per evaluated solution, named <index>_attempt_<hash>.json). "Every attempt counted once" holds when
  * no (problem, hash) appears twice in the store and no (problem, seq) either (the schema's UNIQUE
    constraints, counted here rather than trusted),
  * every evaluation that finished (its result file parses) is in the store exactly once, under its hash:
    an evaluation a killed run never recorded is recorded by the resumed one, not run again,
  * every store attempt has the result file it came from (those a prepared folder inherited apart:
    bench/campaign_call.py marks them in inherited_attempts.json, their files stayed with earlier calls).
Writes bench/results/campaign-state-<date>.json (or --out) with provenance; exits 1 when any check fails.
"""

import argparse
import collections
import glob
import json
import os
import pathlib
import re
import sqlite3
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import provenance  # noqa: E402


def read_store(path):
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = con.execute("SELECT id, problem, seq, hash, verdict, time_ms FROM attempts ORDER BY id").fetchall()
    con.close()
    return [dict(zip(("id", "problem", "seq", "hash", "verdict", "time_ms"), r)) for r in rows]


def inherited_max_id(out_dir):
    """The last attempt id the folder's store held when bench/campaign_call.py prepared it (those attempts'
    result files stayed with the calls that made them), or 0 for a folder a campaign made itself."""
    try:
        with open(os.path.join(out_dir, "inherited_attempts.json"), encoding="utf-8") as f:
            return int(json.load(f)["max_attempt_id"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0


def read_remeasurements(path):
    """The store's re-measured written solutions (none in a store from before they existed). They are not
    attempts: a killed run's unrecorded one is evaluated again by the resume, so no check counts them."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT verdict FROM confirmations").fetchall()
    except sqlite3.OperationalError:
        rows = []
    con.close()
    return dict(collections.Counter(v for (v,) in rows))


def finished_evaluations(out_dir):
    """(problem, hash) -> [result files that parse], from each round's pairs.json; files a kill cut short apart.

    A solution file is <out>/<problem>/attempt_<hash>.py and its result <round>/<index>_attempt_<hash>.json.
    """
    done, cut = collections.defaultdict(list), []
    for pairs_file in sorted(glob.glob(os.path.join(out_dir, "evals", "*", "pairs.json"))):
        round_dir = os.path.dirname(pairs_file)
        with open(pairs_file, encoding="utf-8") as fh:
            pairs = json.load(fh)
        for i, pair in enumerate(pairs):
            sol = pathlib.Path(pair["solution"])
            m = re.fullmatch(r"attempt_([0-9a-f]+)", sol.stem)
            if not m:
                continue
            f = os.path.join(round_dir, f"{i:03d}_{sol.stem}.json")
            if not os.path.exists(f):
                continue  # never finished: the kill came first
            try:
                with open(f, encoding="utf-8") as fh:
                    doc = json.load(fh)
                if isinstance(doc, dict) and "verdict" in doc:
                    done[(sol.parent.name, m.group(1))].append(os.path.relpath(f, out_dir))
                    continue
            except (OSError, ValueError):
                pass
            cut.append(os.path.relpath(f, out_dir))
    return done, cut


def check(out_dir):
    rows = read_store(os.path.join(out_dir, "campaign.sqlite"))
    by_hash = collections.Counter((r["problem"], r["hash"]) for r in rows)
    by_seq = collections.Counter((r["problem"], r["seq"]) for r in rows)
    done, cut = finished_evaluations(out_dir)
    rounds = sorted({p.split(os.sep)[1] for files in done.values() for p in files})
    evaluated_twice = {"/".join(k): files for k, files in done.items() if len(files) > 1}
    unrecorded = sorted("/".join(k) for k in done if by_hash[k] == 0)
    base = inherited_max_id(out_dir)
    without_result = sorted(f"{r['problem']}/{r['hash']}" for r in rows
                            if r["id"] > base and (r["problem"], r["hash"]) not in done)
    checks = {
        "no (problem, hash) twice in the store": not [k for k, n in by_hash.items() if n > 1],
        "no (problem, seq) twice in the store": not [k for k, n in by_seq.items() if n > 1],
        "every finished evaluation recorded": not unrecorded,
        "no solution evaluated twice": not evaluated_twice,
        "every attempt has its result file": not without_result,
    }
    return {"attempts": len(rows), "attempts_inherited": sum(r["id"] <= base for r in rows),
            "problems_with_attempts": len({r["problem"] for r in rows}),
            "verdicts": dict(collections.Counter(r["verdict"] for r in rows)),
            "evaluations_finished": sum(len(v) for v in done.values()), "evaluation_rounds": rounds,
            "result_files_cut_short": cut, "unrecorded_evaluations": unrecorded,
            "evaluated_twice": evaluated_twice, "attempts_without_result": without_result,
            "remeasurements": read_remeasurements(os.path.join(out_dir, "campaign.sqlite")),
            "checks": checks, "ok": all(checks.values())}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir", help="the campaign's -o folder (campaign.sqlite and evals/)")
    ap.add_argument("--label", default="", help="what this state is (e.g. 'after kill', 'after resume')")
    ap.add_argument("--out", default=str(pathlib.Path(__file__).resolve().parent / "results"))
    args = ap.parse_args(argv)
    started = provenance.now()
    state = check(args.out_dir)
    doc = {"format": "ucutlass-bench-campaign-state", "version": 1, "date": started.isoformat(), "label": args.label,
           **provenance.command(), "git": provenance.git_state(), "host": provenance.host(), **state}
    path = provenance.result_path(args.out, "campaign-state", started)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
    print(f"{args.label or args.out_dir}: {state['attempts']} attempts over {state['problems_with_attempts']} problems, "
          f"{state['evaluations_finished']} evaluations finished in {len(state['evaluation_rounds'])} rounds; "
          + ", ".join(f"{k}: {'yes' if v else 'NO'}" for k, v in state["checks"].items()) + f" -> {path}")
    return 0 if state["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The ranking model's predicted time of each written solution against the best time a campaign measured.

    build/ucutlass optimize tests/optimize/graphs --no-gpu --no-compile --profile P \\
        --baselines bench/results/baselines-h200.json -o PRED
    python3 bench/predicted_vs_measured.py STORE PRED

STORE: a campaign's campaign.sqlite (e.g. bench/results/campaigns/v01-2026-11-30-022529.sqlite);
PRED: the -o folder of a --no-gpu run, whose report.txt files give "estimated X ms". Prints, per problem
with a verified attempt, measured / predicted, and their geomean: how far the cost model is off, and where.
"""

import math
import os
import re
import sqlite3
import sys


def best_measured(store):
    con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    best = {}
    for problem, ms in con.execute("SELECT problem, time_ms FROM attempts WHERE verdict = 'ok' AND time_ms > 0"):
        best[problem] = min(ms, best.get(problem, math.inf))
    con.close()
    return best


def predicted(pred_dir, problem):
    path = os.path.join(pred_dir, problem, "report.txt")
    if not os.path.isfile(path):
        return None
    m = re.search(r"estimated ([0-9.eE+-]+) ms", open(path, encoding="utf-8").read())
    return float(m.group(1)) if m else None


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    store, pred_dir = argv
    ratios = []
    for problem, ms in sorted(best_measured(store).items()):
        est = predicted(pred_dir, problem)
        if est is None:
            print(f"{problem:50s} measured {ms:8.4f} ms  no prediction in {pred_dir}")
            continue
        ratios.append(ms / est)
        print(f"{problem:50s} measured {ms:8.4f} ms  predicted {est:8.4f} ms  ratio {ms / est:5.2f}")
    if ratios:
        print(f"geomean measured/predicted {math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f} over {len(ratios)} problems")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

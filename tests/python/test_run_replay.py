"""bench/run_replay.py: the recorded replay of a fixed-budget campaign (runs build/ucutlass, no GPU)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
STORE = REPO / "bench" / "results" / "campaigns" / "fixed4-v01-2026-11-30-111933.sqlite"
EXE = REPO / "build" / "ucutlass"


def run(*args):
    return subprocess.run([sys.executable, str(REPO / "bench" / "run_replay.py"), *map(str, args)],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(not EXE.exists(), reason="needs build/ucutlass")
def test_records_the_sweep_the_default_and_a_given_policy_over_one_store(tmp_path):
    out = tmp_path / "replay.json"
    r = run(STORE, "--budget", 4, "--policy", "10:1", "--out", out)
    assert r.returncode == 0, r.stderr
    d = json.loads(out.read_text())
    assert d["kind"] == "ucutlass-replay" and d["budget"] == 4 and len(d["stores"][0]["sha256"]) == 64
    # The given policy is scored by its own replay, which must agree with the sweep's row for it.
    given = d["given_policies"][0]
    row = next(x for x in d["sweep"]["rows"] if x["epsilon"] == 10 and x["window"] == 1)
    assert given["attempts_policy"] == row["attempts_policy"]
    assert given["geomean_policy"] == pytest.approx(row["geomean_policy"])
    # Every attempt of the store is in the fixed-budget side, and a policy never spends more.
    assert given["attempts_fixed"] == sum(d["problems_fixed"].values()) == sum(d["problems_recorded"].values())
    assert all(x["attempts_policy"] <= x["attempts_fixed"] for x in d["sweep"]["rows"])
    assert d["sweep"]["best"]["geomean_kept"] >= d["keep"]
    assert "default" in r.stdout and "given: eps 10 w 1" in r.stdout


def test_a_malformed_policy_is_named():
    r = run(STORE, "--budget", 4, "--policy", "10")
    assert r.returncode == 2
    assert "'10': a policy is EPSILON:WINDOW" in r.stderr


V01_A = REPO / "bench" / "results" / "campaigns" / "v01suite-a-2026-11-30.sqlite"
V01_B = REPO / "bench" / "results" / "campaigns" / "v01suite-b-2026-11-30.sqlite"


@pytest.mark.skipif(not EXE.exists(), reason="needs build/ucutlass")
def test_two_halves_replay_as_one_suite_and_the_fixed_side_stops_at_the_budget(tmp_path):
    out = tmp_path / "replay.json"
    r = run(V01_A, V01_B, "--budget", 16, "--out", out)
    assert r.returncode == 0, r.stderr
    d = json.loads(out.read_text())
    assert [s["path"] for s in d["stores"]] == [str(V01_A), str(V01_B)]
    recorded, fixed = d["problems_recorded"], d["problems_fixed"]
    assert len(recorded) > 60  # both halves' problems in one replay
    # level1/015 ran 40 attempts under the policy campaign; a budget of 16 replays its first 16 only.
    assert recorded["level1_015_gemm_fp16_inputs"] > 16 and fixed["level1_015_gemm_fp16_inputs"] == 16
    assert all(fixed[n] == min(recorded[n], 16) for n in recorded)
    assert d["default_policy"]["attempts_fixed"] == sum(fixed.values())
    # 7 + 5 configs of the halves ran again in a later session: each is one attempt of the replay.
    assert d["reruns_folded"] == 12


@pytest.mark.skipif(not EXE.exists(), reason="needs build/ucutlass")
def test_a_problem_in_two_stores_is_refused():
    r = subprocess.run([str(EXE), "replay", str(V01_A), str(V01_A)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert "problem level1_001_gemm_square_4096 is in" in r.stderr and "each problem in one of them" in r.stderr


@pytest.mark.skipif(not EXE.exists(), reason="needs build/ucutlass")
def test_cross_scores_each_halfs_own_pick_on_the_other_half(tmp_path):
    out = tmp_path / "replay.json"
    r = run(V01_A, V01_B, "--budget", 16, "--cross", "--out", out)
    assert r.returncode == 0, r.stderr
    cross = json.loads(out.read_text())["cross"]
    assert sorted((c["chosen_on"], c["scored_on"]) for c in cross) == sorted([(str(V01_A), str(V01_B)), (str(V01_B), str(V01_A))])
    for c in cross:
        own = json.loads(subprocess.run([str(EXE), "replay", c["chosen_on"], "--budget", "16", "--sweep", "--json"],
                                        capture_output=True, text=True, timeout=120).stdout)
        best = own["rows"][own["best"]]
        assert (c["epsilon"], c["window"]) == (best["epsilon"], best["window"])
        # Scored on the other half alone: its fixed side is that half's attempts only.
        other = json.loads(subprocess.run([str(EXE), "replay", c["scored_on"], "--budget", "16", "--json"],
                                          capture_output=True, text=True, timeout=120).stdout)
        assert c["attempts_fixed"] == other["attempts_fixed"]
    assert "held out" in r.stdout


def test_cross_needs_two_stores():
    r = run(V01_A, "--budget", 16, "--cross")
    assert r.returncode == 1 and "give two stores or more" in r.stderr

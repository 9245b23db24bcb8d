"""bench/campaign_state.py: a campaign folder's store checked against its evaluations (no GPU)."""
import json
import sqlite3
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
import campaign_state  # noqa: E402


def folder(tmp_path, attempts, evaluated, inherited=None):
    """attempts: (problem, hash) in id order; evaluated: the (problem, hash) this folder's one round ran."""
    out = tmp_path / "opt"
    (out / "evals" / "round_1").mkdir(parents=True)
    db = sqlite3.connect(out / "campaign.sqlite")
    db.execute("CREATE TABLE attempts (id INTEGER PRIMARY KEY, problem TEXT, seq INTEGER, hash TEXT, verdict TEXT, "
               "time_ms REAL)")
    for i, (p, h) in enumerate(attempts):
        db.execute("INSERT INTO attempts (problem, seq, hash, verdict, time_ms) VALUES (?, ?, ?, 'ok', 1.0)", (p, i, h))
    db.commit()
    db.close()
    pairs = []
    for i, (p, h) in enumerate(evaluated):
        sol = out / p / f"attempt_{h}.py"
        pairs.append({"problem": "x.py", "solution": str(sol)})
        (out / "evals" / "round_1" / f"{i:03d}_attempt_{h}.json").write_text(json.dumps({"verdict": "ok"}))
    (out / "evals" / "round_1" / "pairs.json").write_text(json.dumps(pairs))
    if inherited is not None:
        (out / "inherited_attempts.json").write_text(json.dumps({"max_attempt_id": inherited}))
    return out


def test_a_prepared_folders_inherited_attempts_need_no_result_file(tmp_path):
    rows = [("p", "aaaa"), ("p", "bbbb"), ("p", "cccc")]
    plain = campaign_state.check(folder(tmp_path / "1", rows, [("p", "cccc")]))
    assert plain["checks"]["every attempt has its result file"] is False  # a campaign's own folder: all count
    assert plain["attempts_without_result"] == ["p/aaaa", "p/bbbb"]
    prepared = campaign_state.check(folder(tmp_path / "2", rows, [("p", "cccc")], inherited=2))
    assert prepared["checks"]["every attempt has its result file"] is True and prepared["attempts_inherited"] == 2
    assert prepared["ok"] is True
    # One of the folder's own attempts without its file still fails the check.
    missing = campaign_state.check(folder(tmp_path / "3", rows + [("p", "dddd")], [("p", "cccc")], inherited=2))
    assert missing["attempts_without_result"] == ["p/dddd"]

"""`baselines` orchestration with a fake runner (no torch, no GPU)."""

import json
import threading
import time

from ucutlass_harness import baselines, cli, kernelbench


def _stats(ms):
    return {"mean_ms": ms, "std_ms": 0.0, "min_ms": ms, "max_ms": ms, "num_trials": 3, "median_ms": ms}


class FakeRunner:
    """Records calls; warm tasks sleep a little so concurrency can be observed."""

    def __init__(self, fail_warm=(), warm_sleep=0.05, cost=None, clock=None):
        self.calls, self.lock = [], threading.Lock()
        self.active = self.max_active = 0
        self.fail_warm, self.warm_sleep, self.cost, self.clock = set(fail_warm), warm_sleep, cost, clock

    def __call__(self, task, timeout, env):
        name = task["problem"].rsplit("/", 1)[-1]
        with self.lock:
            self.calls.append((task["kind"], name, dict(env)))
            self.active += 1
            self.max_active = max(self.max_active, self.active)
        try:
            if self.cost:
                self.clock.advance(self.cost)
            if task["kind"] == "baseline_warm":
                time.sleep(self.warm_sleep)
                if name in self.fail_warm:
                    return {"verdict": "crashed", "error": {"kind": "crashed", "message": "worker died by SIGSEGV"},
                            "worker": {"wall_s": 0.1}}
                return {"verdict": "ok", "compile_first_call_s": 30.0, "compile_cache": {"fxgraph_cache_miss": 1}}
            return {"verdict": "ok", "device": {"name": "FakeGPU"}, "torch_version": "x",
                    "compile_first_call_s": 1.5, "compile_cache": {"fxgraph_cache_hit": 1},
                    **{m: _stats(2.0 if m == "eager" else 1.0) for m in task["modes"]}}
        finally:
            with self.lock:
                self.active -= 1


class FakeClock:
    def __init__(self):
        self.t, self.lock = 0.0, threading.Lock()

    def advance(self, s):
        with self.lock:
            self.t += s

    def __call__(self):
        return self.t


def _files(tmp_path, n, level="level1"):
    d = tmp_path / level
    d.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        p = d / f"{i + 1:03d}_p.py"
        p.write_text("x = 1\n")
        out.append(str(p))
    return out


def test_phases_in_order_with_concurrency_limit(tmp_path):
    files = _files(tmp_path, 7)
    fake = FakeRunner(warm_sleep=0.3)  # long enough that all 3 slots overlap even on a loaded machine
    table, failures, report = baselines.run_baselines(files, str(tmp_path), ["eager", "compile"], compile_jobs=3,
                                                      runner=fake, cache_dir=str(tmp_path / "cache"))
    kinds = [k for k, _, _ in fake.calls]
    assert kinds == ["baseline_warm"] * 7 + ["baseline"] * 7
    assert fake.max_active == 3  # phase 1 filled its 3 slots; phase 2 is serial after it
    assert [n for k, n, _ in fake.calls if k == "baseline"] == [f"{i + 1:03d}_p.py" for i in range(7)]
    for _, _, env in fake.calls:
        assert env["TORCHINDUCTOR_CACHE_DIR"] == str(tmp_path / "cache")
        assert env["TORCHINDUCTOR_FX_GRAPH_CACHE"] == "1" and env["TORCHINDUCTOR_AUTOGRAD_CACHE"] == "1"
    assert all("TORCHINDUCTOR_COMPILE_THREADS" in e for k, _, e in fake.calls if k == "baseline_warm")
    assert not failures and report["complete"] and not report["skipped"]
    p = report["problems"]["level1/001_p.py"]
    assert p["warm"]["compile_first_call_s"] == 30.0 and p["time"]["compile_first_call_s"] == 1.5
    assert p["time"]["compile_cache"] == {"fxgraph_cache_hit": 1}
    doc = baselines.kernelbench_doc(table, ["level1"], ["eager", "compile"], kernelbench.baseline_entry)
    assert sorted(doc) == ["level1", "level1_compile"] and len(doc["level1"]) == 7
    assert doc["level1"]["001_p.py"]["mean"] == 2.0 and doc["level1_compile"]["001_p.py"]["mean"] == 1.0


def test_phase1_crash_does_not_stop_phase2(tmp_path):
    files = _files(tmp_path, 3)
    fake = FakeRunner(fail_warm={"002_p.py"})
    table, failures, report = baselines.run_baselines(files, str(tmp_path), ["eager", "compile"], compile_jobs=2,
                                                      runner=fake)
    assert [n for k, n, _ in fake.calls if k == "baseline"] == ["001_p.py", "002_p.py", "003_p.py"]
    warm = report["problems"]["level1/002_p.py"]["warm"]
    assert warm["status"] == "failed" and warm["verdict"] == "crashed" and "SIGSEGV" in warm["error"]
    assert report["problems"]["level1/002_p.py"]["time"]["status"] == "ok"
    assert len(table["level1_compile"]) == 3


def test_time_budget_skips_are_recorded(tmp_path):
    files = _files(tmp_path, 6)
    clock = FakeClock()
    fake = FakeRunner(cost=10.0, clock=clock, warm_sleep=0)
    table, failures, report = baselines.run_baselines(files, str(tmp_path), ["eager", "compile"], compile_jobs=1,
                                                      time_budget=75, runner=fake, clock=clock)
    # phase 1 starts 6 (t = 0..50), phase 2 starts 2 (t = 60, 70), then t = 80 >= 75
    assert len([c for c in fake.calls if c[0] == "baseline"]) == 2
    assert not report["complete"]
    skipped = [(s["problem"], s["phase"]) for s in report["skipped"]]
    assert skipped == [(f"level1/{i:03d}_p.py", "time") for i in range(3, 7)]
    assert all("time budget 75 s exceeded" in s["reason"] for s in report["skipped"])
    assert report["problems"]["level1/003_p.py"]["time"] == {"status": "skipped"}
    assert len(table["level1"]) == 2


def test_budget_cut_in_phase1(tmp_path):
    files = _files(tmp_path, 4)
    clock = FakeClock()
    fake = FakeRunner(cost=10.0, clock=clock, warm_sleep=0)
    _, _, report = baselines.run_baselines(files, str(tmp_path), ["eager", "compile"], compile_jobs=1,
                                           time_budget=15, runner=fake, clock=clock)
    phases = [(s["problem"][-8:], s["phase"]) for s in report["skipped"]]
    assert phases == [("003_p.py", "warm"), ("004_p.py", "warm")] + \
        [(f"{i:03d}_p.py", "time") for i in range(1, 5)]


def test_only_eager_has_no_phase1(tmp_path):
    files = _files(tmp_path, 2)
    fake = FakeRunner()
    table, _, report = baselines.run_baselines(files, str(tmp_path), ["eager"], runner=fake)
    assert [k for k, _, _ in fake.calls] == ["baseline", "baseline"]
    assert "phase1" not in report and sorted(table) == ["level1"]


def test_level_keys():
    assert baselines.level_and_name("problems/level2/001_a.py", "problems") == ("level2", "001_a.py")
    assert baselines.level_and_name("problems/level2/001_a.py", "problems/level2") == ("level2", "001_a.py")


def test_cli_wiring(tmp_path, monkeypatch):
    files = _files(tmp_path / "probs", 2, "level1") + _files(tmp_path / "probs", 1, "level3")
    fake = FakeRunner()
    real = baselines.run_baselines
    monkeypatch.setattr(baselines, "run_baselines", lambda *a, **k: real(*a, **dict(k, runner=fake)))
    out = tmp_path / "res" / "b.json"
    rc = cli.main(["baselines", str(tmp_path / "probs"), "--out", str(out), "--compile-jobs", "2",
                   "--time-budget", "1000", "--compile-cache", str(tmp_path / "c")])
    assert rc == 0 and len(files) == 3
    doc = json.loads(out.read_text())
    assert sorted(doc) == ["level1", "level1_compile", "level3", "level3_compile"]
    report = json.loads((tmp_path / "res" / "b.report.json").read_text())
    assert report["format"] == "ucutlass-baselines-report" and report["compile_jobs"] == 2
    assert report["time_budget_s"] == 1000 and report["complete"]
    assert cli.main(["baselines", str(tmp_path / "probs"), "--out", str(out), "--only-eager"]) == 0
    assert sorted(json.loads(out.read_text())) == ["level1", "level3"]
    assert cli.main(["baselines", str(tmp_path / "probs"), "--out", str(out), "--compile-jobs", "0"]) == 2


def test_cli_resume_runs_only_missing(tmp_path, monkeypatch):
    files = _files(tmp_path / "probs", 3, "level1")
    fake = FakeRunner()
    real = baselines.run_baselines
    monkeypatch.setattr(baselines, "run_baselines", lambda *a, **k: real(*a, **dict(k, runner=fake)))
    out = tmp_path / "b.json"
    # Entries timed with today's event window (timing_window): a resume keeps them; 002 lacks its compile entry.
    w = {"timing_window": "stream_only"}
    prior = {"level1": {"001_p.py": {"mean": 9.0, **w}, "002_p.py": {"mean": 9.0, **w}},
             "level1_compile": {"001_p.py": {"mean": 8.0, **w}}, "level7": {"x.py": {"mean": 1.0}}}
    out.write_text(json.dumps(prior))
    assert cli.main(["baselines", str(tmp_path / "probs"), "--out", str(out), "--resume"]) == 0
    assert sorted(n for k, n, _ in fake.calls if k == "baseline") == ["002_p.py", "003_p.py"]
    doc = json.loads(out.read_text())
    assert doc["level1"]["001_p.py"]["mean"] == 9.0 and doc["level1"]["003_p.py"]["mean"] == 2.0
    assert doc["level1"]["002_p.py"]["mean"] == 2.0 and doc["level7"] == {"x.py": {"mean": 1.0}}
    assert sorted(doc["level1_compile"]) == ["001_p.py", "002_p.py", "003_p.py"]
    assert json.loads((tmp_path / "b.report.json").read_text())["resumed_already_timed"] == 1
    assert files


def test_cli_checkpoints_after_each_timed_problem(tmp_path, monkeypatch):
    _files(tmp_path / "probs", 2, "level1")
    out = tmp_path / "b.json"
    seen = []

    def runner(task, timeout, env):
        if task["kind"] == "baseline" and task["problem"].endswith("002_p.py"):
            seen.append(json.loads(out.read_text()))  # 001 already on disk before 002 runs
        return FakeRunner()(task, timeout, env)

    real = baselines.run_baselines
    monkeypatch.setattr(baselines, "run_baselines", lambda *a, **k: real(*a, **dict(k, runner=runner)))
    assert cli.main(["baselines", str(tmp_path / "probs"), "--out", str(out)]) == 0
    assert sorted(seen[0]["level1"]) == ["001_p.py"]
    assert sorted(json.loads(out.read_text())["level1"]) == ["001_p.py", "002_p.py"]
    assert json.loads((tmp_path / "b.report.json").read_text())["final"] is True


def test_cli_resume_keeps_earlier_runs_problem_records(tmp_path, monkeypatch):
    _files(tmp_path / "probs", 2, "level1")
    real = baselines.run_baselines
    out = tmp_path / "b.json"
    # First run: budget 0 after the first problem, so 002 is skipped and a second run resumes it.
    clock = FakeClock()
    fake = FakeRunner(cost=10.0, clock=clock)
    monkeypatch.setattr(baselines, "run_baselines",
                        lambda *a, **k: real(*a, **dict(k, runner=fake, clock=clock)))
    assert cli.main(["baselines", str(tmp_path / "probs"), "--out", str(out), "--only-eager",
                     "--time-budget", "5"]) == 0
    first = json.loads((tmp_path / "b.report.json").read_text())
    assert first["problems"]["level1/002_p.py"]["time"] == {"status": "skipped"}
    monkeypatch.setattr(baselines, "run_baselines", lambda *a, **k: real(*a, **dict(k, runner=FakeRunner())))
    assert cli.main(["baselines", str(tmp_path / "probs"), "--out", str(out), "--only-eager", "--resume"]) == 0
    report = json.loads((tmp_path / "b.report.json").read_text())
    assert report["problems"]["level1/001_p.py"] == first["problems"]["level1/001_p.py"]
    assert report["problems"]["level1/002_p.py"]["time"]["status"] == "ok"
    assert len(report["earlier_runs"]) == 1 and report["earlier_runs"][0]["complete"] is False
    assert report["complete"] is True

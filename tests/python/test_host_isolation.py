"""bench/host_isolation.py: each solution evaluated idle, beside a load, and beside a confined load (CPU mode)."""
import json
import os
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="torch is not installed: evaluation tests need it")

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "python"))


def spinners():
    """Processes running the bench's load loop now, from /proc (a fresh machine may have no ps)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                args = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone meanwhile
        if "while True: pass" in args:
            found.append(args)
    return found


def test_three_modes_per_solution_and_the_load_is_gone_after(tmp_path, monkeypatch):
    import host_isolation
    from ucutlass_harness import cpu_split
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        pytest.skip("needs two CPUs")
    monkeypatch.setattr(cpu_split, "split", lambda devices: ({cpus[-1]}, {cpus[0]}))
    prob = tmp_path / "p.py"
    prob.write_text(textwrap.dedent('''
        import torch
        import torch.nn as nn
        class Model(nn.Module):
            def forward(self, a):
                return a * 2
        def get_inputs():
            return [torch.rand(64, 64)]
        def get_init_inputs():
            return []
    '''))
    sol = tmp_path / "s.py"
    sol.write_text(textwrap.dedent('''
        import torch.nn as nn
        class ModelNew(nn.Module):
            def forward(self, a):
                return a + a
    '''))
    out = tmp_path / "iso.json"
    assert host_isolation.main(["kernelbench", f"{prob}={sol}", "--ext-cache", str(tmp_path / "ext"), "--out", str(out),
                                "--harness-arg=--device-type=cpu", "--harness-arg=--backend=any",
                                "--harness-arg=--timing-trials=3", "--harness-arg=--trials=1"]) == 0
    doc = json.loads(out.read_text())
    assert [e["mode"] for e in doc["evaluations"]] == ["idle", "shared", "split"]
    assert all(e["verdict"] not in (None, "runtime_error", "crashed") for e in doc["evaluations"]), doc["evaluations"]
    assert doc["split"] == {"eval": str(cpus[-1]), "load": str(cpus[0])}
    assert set(doc["summary"]) == {"idle", "shared", "split"}
    assert cpu_split.ENV not in os.environ and spinners() == []


def test_a_bad_pair_is_a_usage_error(tmp_path, capsys):
    import host_isolation
    with pytest.raises(SystemExit) as e:
        host_isolation.main(["kernelbench", str(tmp_path / "nope.py"), "--ext-cache", str(tmp_path)])
    assert e.value.code == 2
    assert "PROBLEM=SOLUTION, both existing files" in capsys.readouterr().err

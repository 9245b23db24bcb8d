"""bench/runtime_knob_twins.py: attempts that would reuse an earlier build if raster/swizzle were runtime."""
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import runtime_knob_twins  # noqa: E402


def test_the_build_key_drops_raster_and_swizzle_only():
    cfg = "sm90a tensor_op bf16-operands a=row b=col 128x256x64 c2x1x1 cooperative persistent along_n swizzle 2"
    assert runtime_knob_twins.build_key(cfg) == "sm90a tensor_op bf16-operands a=row b=col 128x256x64 c2x1x1 cooperative persistent"
    two = "sm90a tf32 64x128x32 c1x1x1 cooperative stream_k along_m; sm80 tf32 128x64x16 multistage stages 4"
    assert runtime_knob_twins.build_key(two) == "sm90a tf32 64x128x32 c1x1x1 cooperative stream_k; sm80 tf32 128x64x16 multistage stages 4"


def test_a_twin_is_a_later_attempt_of_the_same_problem_and_kernel(tmp_path):
    store = tmp_path / "c.sqlite"
    db = sqlite3.connect(store)
    db.execute("CREATE TABLE attempts (problem TEXT, seq INTEGER, config TEXT)")
    base = "sm90a tf32 128x128x32 c2x1x1 cooperative persistent"
    db.executemany("INSERT INTO attempts VALUES (?, ?, ?)", [
        ("p", 1, base), ("p", 2, base + " along_m swizzle 2"), ("p", 3, base + " along_n"),
        ("p", 4, base.replace("persistent", "stream_k")),  # another kernel type: its own build
        ("q", 1, base + " along_n swizzle 4"),            # another problem: its own build
    ])
    db.commit()
    db.close()
    assert runtime_knob_twins.twins(store) == (5, 2)

"""bench/provenance.py: where bench results are written."""
import datetime
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import provenance  # noqa: E402


def test_result_path_names_a_stamped_file_in_a_folder_or_keeps_a_file(tmp_path):
    t = datetime.datetime(2026, 11, 29, 23, 15, 0)
    assert provenance.result_path(tmp_path / "new", "sol-violations", t) == tmp_path / "new" / "sol-violations-2026-11-29-231500.json"
    assert (tmp_path / "new").is_dir()
    assert provenance.result_path(tmp_path / "a" / "x.json", "any", t) == tmp_path / "a" / "x.json"
    assert (tmp_path / "a").is_dir()

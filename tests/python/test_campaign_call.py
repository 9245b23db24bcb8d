"""bench/campaign_call.py: the device streams it prints, and the store folder names (no GPU)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import campaign_call  # noqa: E402


def test_a_stream_is_the_campaign_then_optionally_its_verify_step():
    plain = campaign_call.stream("a", "opt_kbsuite_a_2026_11_30", "kernelbench")
    assert plain == ('"OPTIMIZE_OUT=opt_kbsuite_a_2026_11_30 OPTIMIZE_PROBLEMS=$(cat bench/sets/suite-half-a.txt) '
                     'OPTIMIZE_FLAGS=--profile=kernelbench optimize:570"')
    verified = campaign_call.stream("b", "opt_x", "kernelbench-v0.1", verify_s=240)
    assert verified.endswith('OPTIMIZE_FLAGS=--profile=kernelbench-v0.1 optimize:330 verify:240"')
    assert "suite-half-b.txt" in verified


def test_steps_before_the_campaign_take_their_seconds_from_its_optimize_step():
    first = campaign_call.stream("a", "opt_x", "kernelbench-v0.1", first="overhead_ab:240")
    assert first.startswith('"overhead_ab:240 OPTIMIZE_OUT=opt_x ')
    assert first.endswith("optimize:330\"")
    both = campaign_call.stream("a", "opt_x", "kernelbench-v0.1", verify_s=100, first="overhead:60 overhead_ab:200")
    assert both.endswith("optimize:210 verify:100\"")
    for bad in ("overhead_ab", "overhead_ab:5m", "overhead_ab:540"):
        try:
            campaign_call.stream("a", "opt_x", "kernelbench", first=bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} accepted")


def test_folder_names_follow_the_store():
    assert campaign_call.folder_name("bench/results/campaigns/kbsuite-a-2026-11-30.sqlite") == "opt_kbsuite_a_2026_11_30"


def test_one_gpu_prints_a_call_per_half_the_second_without_the_unpack():
    streams = [campaign_call.stream(h, f"opt_{h}", "kernelbench-v0.1") for h in ("a", "b")]
    two = campaign_call.device_commands(streams, ["A.sqlite", "B.sqlite"])
    assert two[1] == campaign_call.UNPACK + campaign_call.RUN + " ".join(streams)
    assert two[2].endswith("collect RESULTS_TGZ A.sqlite B.sqlite")
    one = campaign_call.device_commands(streams, ["A.sqlite", "B.sqlite"], one_gpu=True)
    assert one[1] == campaign_call.UNPACK + campaign_call.RUN + streams[0]
    assert one[4] == campaign_call.RUN + streams[1] and "device_unpack" not in one[4]
    assert one[2].endswith("collect RESULTS_TGZ A.sqlite --with B.sqlite")
    assert one[5].endswith("collect RESULTS_TGZ B.sqlite --with A.sqlite")


def test_a_campaign_after_the_first_in_one_carry_never_unpacks_again():
    streams = [campaign_call.stream(h, f"opt_kb_{h}", "kernelbench") for h in ("a", "b")]
    later = campaign_call.device_commands(streams, ["C.sqlite", "D.sqlite"], one_gpu=True, unpack=False)
    assert later[1] == campaign_call.RUN + streams[0] and later[4] == campaign_call.RUN + streams[1]
    assert not any("device_unpack" in line for line in later)
    assert later[2].endswith("collect RESULTS_TGZ C.sqlite --with D.sqlite")
    x2 = campaign_call.device_commands(streams, ["C.sqlite", "D.sqlite"], unpack=False)
    assert x2[1] == campaign_call.RUN + " ".join(streams)


def test_and_adds_campaigns_in_order_and_a_store_twice_is_refused(tmp_path, capsys):
    import argparse
    a = argparse.Namespace(profile="kernelbench-v0.1", stores=["v/a.sqlite", "v/b.sqlite"],
                           more=[["kernelbench", "k/a.sqlite", "k/b.sqlite"]], work=str(tmp_path), verify=0, one_gpu=True,
                           fixed_budget=16)
    # --fixed-budget is the positional campaign's; an --and campaign runs under the default policy.
    assert campaign_call.campaigns(a) == [("kernelbench-v0.1", ["v/a.sqlite", "v/b.sqlite"], 16),
                                          ("kernelbench", ["k/a.sqlite", "k/b.sqlite"], 0)]
    a.more = [["kernelbench", "v/a.sqlite", "k/b.sqlite"]]
    assert campaign_call.prepare(a) == 2
    assert "each store may appear once" in capsys.readouterr().err


def test_a_fixed_budget_stream_has_no_stopping_rule_no_remeasures_and_whole_half_rounds():
    fixed = campaign_call.stream("b", "opt_fixed16_v01_b", "kernelbench-v0.1", fixed_budget=16)
    assert fixed == ('"OPTIMIZE_OUT=opt_fixed16_v01_b OPTIMIZE_PROBLEMS=$(cat bench/sets/suite-half-b.txt) '
                     'OPTIMIZE_ROUND=--batch-problems=36,--batch=3 '
                     'OPTIMIZE_FLAGS=--profile=kernelbench-v0.1,--epsilon=0,--window=1000,--budget=16,--no-remeasure '
                     'optimize:570"')
    # The policy campaign's stream names no round and no policy: device_steps.sh's defaults hold.
    assert "OPTIMIZE_ROUND" not in campaign_call.stream("b", "opt_x", "kernelbench-v0.1")
    try:
        campaign_call.fixed_flags(0)
    except ValueError as e:
        assert "at least one attempt" in str(e)
    else:
        raise AssertionError("a fixed budget of 0 accepted")


def test_the_device_steps_split_the_round_variable_on_commas_as_the_flags():
    # OPTIMIZE_ROUND reaches optimize as words, as OPTIMIZE_FLAGS does; a round written with spaces would
    # split the stream itself (bench/device_parallel.sh splits a stream's words on spaces).
    steps = (Path(__file__).resolve().parents[2] / "bench" / "device_steps.sh").read_text()
    assert '$(commas_to_words "${OPTIMIZE_ROUND:---batch-problems=$jobs,--batch=2}")' in steps


def test_a_plan_with_no_round_and_no_remeasurement_has_no_work_left():
    assert campaign_call.work_left("resuming: 460 attempt(s)\nnext round (5 attempt(s) of 3 problem(s), most expected gain first):\n")
    assert campaign_call.work_left("re-measured in the round (1 written solution(s) evaluated again, 1000 ms window):\n")
    # Session 25's v0.1 half a: the plan resumes, prints the suite, and nothing else.
    assert not campaign_call.work_left("resuming: 460 attempt(s) already in x (never repeated)\n36 problem(s), 36 solution(s) "
                                       "written under x\nskipped GPU evaluation: --plan given (the next round printed, "
                                       "nothing built or run)\n")


def test_one_half_left_gets_the_first_call_with_the_unpack_and_the_other_half_as_with():
    streams = [campaign_call.stream("b", "opt_b", "kernelbench-v0.1")]
    lines = campaign_call.device_commands(streams, ["B.sqlite"], pair=["A.sqlite", "B.sqlite"])
    assert lines[0].startswith("device call (kind nvidia-h200") and "half b of B.sqlite" in lines[0]
    assert lines[1] == campaign_call.UNPACK + campaign_call.RUN + streams[0]
    assert lines[2].endswith("collect RESULTS_TGZ B.sqlite --with A.sqlite") and len(lines) == 3


def test_the_plan_is_made_with_the_device_streams_build_slots():
    # The round fill (sched/round_fill.h) depends on the slots: the plan must have the device's.
    assert campaign_call.plan_round(0, one_gpu=True) == ["--batch-problems", "14", "--batch", "2", "-j", "14"]
    assert campaign_call.plan_round(0, one_gpu=False) == ["--batch-problems", "15", "--batch", "2", "-j", "15"]
    fixed = campaign_call.plan_round(16, one_gpu=True)
    assert fixed[:2] == campaign_call.FIXED_ROUND and fixed[-2:] == ["-j", "14"] and "--budget=16" in fixed


def test_the_two_halves_suite_figures_at_the_same_call_number_do_not_overwrite_each_other():
    a = campaign_call.suite_figure("r", "2026-12-04", "s27", "c/kbsuite-a-2026-11-30.sqlite", 13)
    b = campaign_call.suite_figure("r", "2026-12-04", "s27", "c/kbsuite-b-2026-11-30.sqlite", 13)
    assert a != b
    assert str(b) == "r/suite-latest-2026-12-04-s27-kbsuite-b-2026-11-30-call13.json"


def test_prepare_repeats_the_plans_line_on_the_attempts_left():
    plan = ("next round (6 attempt(s) of 2 problem(s), most expected gain first):\n"
            "left: 2 problem(s) open, 19 attempt(s) unless a problem improves, at most 19 by the budgets\n"
            "skipped GPU evaluation: --plan given (the next round printed, nothing built or run)\n")
    assert campaign_call.attempts_left(plan).startswith("left: 2 problem(s) open")
    assert campaign_call.attempts_left("suite: 36 problem(s)\n") is None

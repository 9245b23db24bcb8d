#!/usr/bin/env python3
"""One device call of a whole-suite campaign kept in bench/results/campaigns, both sides of it.

    python3 bench/campaign_call.py prepare PROFILE STORE_A STORE_B [--and PROFILE STORE_A STORE_B ...]
                                           [--work DIR] [--verify SECS] [--one-gpu] [--first STEPS]
                                           [--fixed-budget N]
    (the device call: `bench/device_parallel.sh` with the two OPTIMIZE_OUT folders it prints)
    python3 bench/campaign_call.py collect RESULTS_TGZ STORE [STORE] [--label NAME]

prepare: copies each store (its WAL checkpointed first) into DIR/opt_<name>/campaign.sqlite, where
<name> is the store's file name, and runs `ucutlass optimize --plan` over that half of the suite
(bench/sets/suite-half-{a,b}.txt) with the device call's round options, here on the CPU: the folder
then holds every problem's trace (the device traces nothing, about a minute saved per call) and the
log shows the round the call will start with; the device-built extensions collect kept for written
solutions still owed a re-measurement go into each folder's device_extensions (bench/written_extensions.py).
Then bench/device_pack.sh packs both folders, and the
device command to run is printed; with --verify SECS each GPU's stream ends with the verify step
(every written ModelNew evaluated again) for SECS of its 570. With --one-gpu (an x1 machine) it prints two
device calls, half a then half b on the still-warm machine (the second skips the unpack, which would put
half b's folder back as it was packed), each collected on its own with its half's store alone. Each
--and adds another campaign (a profile and its two stores) to the same carry: its calls follow on the
warm machine, none unpacking again, so a session's device time is not spent starting a second machine.
A half whose plan has neither a next round nor a re-measurement due is at the end of its budget: prepare
says so, packs nothing of it and prints no call for it (the call would start, trace and stop).
--first STEPS puts other bench/device_steps.sh steps (STEP:SECONDS) at the head of the first call, their
seconds taken from its optimize step (the launch cache's A/B: --first overhead_ab:240).
--fixed-budget N makes the positional campaign a fixed-budget one (each --and stays a campaign under the
default policy, so one carry can finish a fixed-budget record and resume policy campaigns), the record
`ucutlass replay` prices stopping policies over: no stopping rule (epsilon 0, window 1000), N attempts per problem, no
re-measurements (a fixed-budget store is not a suite figure), and rounds of every problem of the half
x 3 attempts (FIXED_ROUND). Give it stores of its own (a copy of a policy campaign's store continues its
problems' attempt orders, which the stopping rule does not change, only cuts).

collect: unpacks the call's results.tgz, checkpoints each returned store (gpu0's for the first store
given, gpu1's for the second) and copies it over the store it came from, copies each half's optimize.log beside it as <store>-call<N>.log (N one past the
last) and the stream's result JSONs (campaign-state, and those of --first steps) into bench/results/, and writes the suite figure of both stores
(bench/suite_latest.py) as bench/results/suite-latest-<date>-<label>-<store>-call<N>.json (the store
named, since two halves' call numbers can be equal). A stream's
written_extensions.tar.xz (the written solutions' extensions the call built, still owed a
re-measurement) is kept under build/devcache/<folder> for the next prepare.

Stores are given half a first; the GPU streams of the call are in that order (gpu0 = half a).
"""
import argparse
import datetime
import json
import pathlib
import re
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import tempfile

import written_extensions

REPO = pathlib.Path(__file__).resolve().parents[1]
HALVES = ("a", "b")
ROUND = ["--batch", "2"]  # bench/device_steps.sh's round: --batch-problems and -j are the build slots (below)
# A fixed-budget call's round: every problem of a half (36 at most) x 3 attempts, about 100 builds, as many as
# a call's 16 cores finish before its wall budget (session 21: 70 builds in two rounds of 16 x 2, each
# round's last 72-90 s with the cores idle, waiting on its last evaluations). Without a stopping rule the
# order across problems does not matter, so one round a call loses nothing the scheduler would have won.
FIXED_ROUND = ["--batch-problems=36", "--batch=3"]


def fixed_flags(budget):
    """The optimize flags of a fixed-budget campaign of `budget` attempts per problem (no stopping rule)."""
    if budget < 1:
        raise ValueError(f"--fixed-budget {budget}: a fixed budget is at least one attempt per problem")
    return ["--epsilon=0", "--window=1000", f"--budget={budget}", "--no-remeasure"]


def checkpoint(store):
    con = sqlite3.connect(str(store))
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


INHERITED = "inherited_attempts.json"


def inherited(out):
    """Marks the attempts the copied store already holds (their result files stayed with the calls that
    made them), so bench/campaign_state.py checks result files for this folder's own attempts only."""
    con = sqlite3.connect(str(out / "campaign.sqlite"))
    last = con.execute("SELECT COALESCE(MAX(id), 0) FROM attempts").fetchone()[0]
    con.close()
    (out / INHERITED).write_text(json.dumps({"max_attempt_id": last}) + "\n")


def folder_name(store):
    return "opt_" + re.sub(r"[^A-Za-z0-9]+", "_", pathlib.Path(store).stem)


def devcache(store):
    """Where the device-built extensions of a store's written solutions are kept here (git-ignored)."""
    return REPO / "build" / "devcache" / folder_name(store)


def half_problems(half):
    return (REPO / "bench" / "sets" / f"suite-half-{half}.txt").read_text().strip().split(",")


def step_seconds(steps):
    """The seconds of bench/device_steps.sh steps written STEP:SECONDS, space-separated (each must say them)."""
    total = 0
    for step in steps.split():
        name, sep, secs = step.partition(":")
        if not sep or not secs.isdigit():
            raise ValueError(f"--first {steps!r}: write each step as STEP:SECONDS (bench/device_steps.sh)")
        total += int(secs)
    return total


def stream(half, folder, profile, verify_s=0, total_s=570, first="", fixed_budget=0):
    """One GPU's steps for bench/device_parallel.sh: `first` (steps of bench/device_steps.sh, such as
    overhead_ab:240), the campaign's optimize step, then (verify_s > 0) the verify step over the same
    folder, their seconds adding up to total_s. fixed_budget > 0: a fixed-budget campaign (fixed_flags,
    FIXED_ROUND)."""
    optimize_s = total_s - verify_s - (step_seconds(first) if first else 0)
    if optimize_s < 60:
        raise ValueError(f"{total_s} s leave {optimize_s} s for the optimize step after {first!r} and verify")
    steps = f"optimize:{optimize_s}" + (f" verify:{verify_s}" if verify_s > 0 else "")
    flags = ",".join([f"--profile={profile}", *(fixed_flags(fixed_budget) if fixed_budget else [])])
    round_var = f"OPTIMIZE_ROUND={','.join(FIXED_ROUND)} " if fixed_budget else ""
    return (f'"{first + " " if first else ""}OPTIMIZE_OUT={folder} OPTIMIZE_PROBLEMS=$(cat bench/sets/suite-half-{half}.txt) '
            f'{round_var}OPTIMIZE_FLAGS={flags} {steps}"')


def device_slots(one_gpu):
    """Build slots of one GPU's stream on the device: bench/device_parallel.sh's share, (nproc - 2) / streams,
    of an x1 machine's 16 cores or an x2's 32. The plan is made with as many (-j), since the round it prints
    depends on them: with few problems open each takes a share of the slots (sched/round_fill.h); with the
    default 2 the plan showed v0.1 half b a round of 5 attempts where the device ran 9 (session 26)."""
    return 14 if one_gpu else 15


def plan_round(fixed_budget, one_gpu):
    """The round options of the device call, for the plan made here."""
    slots = str(device_slots(one_gpu))
    if fixed_budget:
        return FIXED_ROUND + fixed_flags(fixed_budget) + ["-j", slots]
    return ["--batch-problems", slots, *ROUND, "-j", slots]


def prepare_half(work, half, store, profile, fixed_budget=0, one_gpu=False):
    """DIR/opt_<name> with the store's copy and its half's problems, planned here; the plan's log, or None."""
    checkpoint(store)
    out = work / folder_name(store)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copy(store, out / "campaign.sqlite")
    inherited(out)
    # The same level/name paths as the device's OPTIMIZE_PROBLEMS copy, so problem names match.
    probs = work / (out.name + ".problems")
    shutil.rmtree(probs, ignore_errors=True)
    for f in half_problems(half):
        dest = probs / pathlib.Path(f).relative_to("problems")
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / f, dest)
    log = work / f"plan-{out.name}.log"
    with open(log, "w") as f:
        rc = subprocess.run([str(REPO / "build" / "ucutlass"), "optimize", str(probs), "-o", str(out),
                             f"--profile={profile}", "--baselines", str(REPO / "bench/results/baselines-h200.json"),
                             *plan_round(fixed_budget, one_gpu), "--plan"],
                            stdout=f, stderr=subprocess.STDOUT).returncode
    if rc != 0:
        print(f"campaign_call: --plan over half {half} of {store} failed, see {log}", file=sys.stderr)
        return None
    staged = written_extensions.stage(devcache(store), out / "campaign.sqlite", out, out / "device_extensions")
    print(f"half {half} of {store}: {out} (its plan in {log}; the device-built extensions of {len(staged)} written "
          "solution(s) owed a re-measurement staged)")
    if (left := attempts_left(log.read_text())) is not None:
        print(f"half {half} of {store}: {left}")
    return log


def attempts_left(plan_text):
    """The plan's line on what the stop rules leave the half (report::remaining_attempts), for sizing its calls."""
    return next((line for line in plan_text.splitlines() if line.startswith("left: ")), None)


def work_left(plan_text):
    """Whether a plan (`optimize --plan`'s output) has anything for a device call: a next round of attempts
    or a written solution's re-measurement. Neither: the half is at the end of its budget."""
    return any(line.startswith(("next round (", "re-measured in the round (")) for line in plan_text.splitlines())


def campaigns(a):
    """[(profile, [store_a, store_b], fixed_budget)]: the positional campaign (--fixed-budget's), then each
    --and (the default policy's)."""
    return [(a.profile, list(a.stores), a.fixed_budget)] + [(more[0], more[1:], 0) for more in (a.more or [])]


def torch_missing():
    """Why the plan cannot trace here, or None: without PyTorch every problem's trace fails, the plan
    shows nothing, and the device traces each problem itself (about a minute of every call)."""
    probe = subprocess.run([sys.executable, "-c", "import torch"], capture_output=True, text=True)
    return None if probe.returncode == 0 else (probe.stderr.strip().splitlines() or ["import torch failed"])[-1]


def prepare(a):
    if (why := torch_missing()) is not None:
        print(f"campaign_call: prepare traces every problem with PyTorch, which this Python lacks ({why}); "
              "install it first: python3 -m pip install torch==2.11.0 (scripts/test's pin)", file=sys.stderr)
        return 2
    work = pathlib.Path(a.work or tempfile.mkdtemp(prefix="campaign-call-"))
    groups = campaigns(a)
    stores = [s for _, pair, _ in groups for s in pair]
    if len({folder_name(s) for s in stores}) != len(stores):
        print("campaign_call: two stores give the same folder name; each store may appear once", file=sys.stderr)
        return 2
    planned = []
    for profile, pair, fixed_budget in groups:
        streams, running = [], []
        for half, store in zip(HALVES, pair):
            log = prepare_half(work, half, store, profile, fixed_budget, a.one_gpu)
            if log is None:
                return 1
            if not work_left(log.read_text()):
                # A call would trace, find nothing to do and stop: a device start spent for nothing.
                print(f"half {half} of {store}: at the end of its budget (its plan has no round and no re-measurement "
                      "left): no call")
                continue
            first = a.first if not any(r for _, r, _ in planned) and not streams else ""  # the first call's stream only
            streams.append(stream(half, folder_name(store), profile, a.verify, first=first, fixed_budget=fixed_budget))
            running.append(store)
        planned.append((streams, running, pair))
    to_carry = [s for _, running, _ in planned for s in running]
    if not to_carry:
        print("campaign_call: every half is at the end of its budget; nothing to carry")
        return 0
    # NO_SRC: the device's copy of the working tree is the source (commit first); the tracked stores and a
    # packed copy of the tree together outgrew the device tool's 64 MiB (2026-12-01).
    subprocess.run([str(REPO / "bench" / "device_pack.sh"), *(str(work / folder_name(s)) for s in to_carry)], check=True,
                   env={**__import__("os").environ, "NO_SRC": "1"})
    unpack = True
    for streams, running, pair in planned:
        if not streams:
            continue
        for line in device_commands(streams, running, a.one_gpu, unpack=unpack, pair=pair):
            print(line)
        unpack = False
    return 0


UNPACK = 'eval "$(bench/device_unpack.sh)" && '
RUN = "cd build/devtree && timeout 585 bench/device_parallel.sh $OUT "


def device_commands(streams, stores, one_gpu=False, unpack=True, pair=None):
    """What to run on the device (carry build/devcarry) and how to collect it: both streams in one call of an
    x2 machine, or (one_gpu, or one half left) one call per half, each after the first on the warm machine
    without the unpack. A campaign after the first in the same carry (unpack False) starts on the warm machine
    too. `stores`: the halves that run, in the streams' order; `pair`: both halves of the campaign (default
    `stores`), the other one named in collect's --with."""
    pair = pair or stores
    first = UNPACK + RUN if unpack else RUN
    warm = "" if unpack else " on the still-warm machine (no unpack: it would reset the folders run before)"
    if not one_gpu and len(streams) == 2:
        return [f"device command{warm} (kind nvidia-h200-x2, carry build/devcarry; one stream per GPU, fewer GPUs fewer streams):",
                first + " ".join(streams),
                f"then: python3 bench/campaign_call.py collect RESULTS_TGZ {stores[0]} {stores[1]}"]
    lines = []
    for i, (one, store) in enumerate(zip(streams, stores)):
        half = HALVES[pair.index(store)]
        others = [s for s in pair if s != store]
        with_other = f" --with {others[0]}" if others else ""
        if i == 0 and unpack:
            lines += [f"device call (kind nvidia-h200, carry build/devcarry), half {half} of {store}:", first + one]
        else:
            lines += [f"device call on the still-warm machine (no unpack: it would reset the folders run before), "
                      f"half {half} of {store}:", RUN + one]
        lines.append(f"then: python3 bench/campaign_call.py collect RESULTS_TGZ {store}{with_other}")
    return lines


def next_call(store):
    calls = [int(m.group(1)) for p in store.parent.glob(store.stem + "-call*.log")
             if (m := re.search(r"-call(\d+)\.log$", p.name))]
    return max(calls, default=0) + 1


def suite_figure(results, date, label, store, call):
    """Where collect writes the suite figure after bringing back one store's call N: the store is in the
    name, since both halves of a campaign reach the same call numbers."""
    return pathlib.Path(results) / f"suite-latest-{date}-{label}-{pathlib.Path(store).stem}-call{call}.json"


def collect(a):
    results = REPO / "bench" / "results"
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        with tarfile.open(a.results) as t:
            t.extractall(tmp, filter="data")
        collected = []
        for i, store in enumerate(map(pathlib.Path, a.stores)):
            gpu = tmp / f"gpu{i}"
            if not (gpu / "optimize_out.tgz").exists():
                print(f"campaign_call: no gpu{i} stream in {a.results}; {store} left as it was")
                continue
            with tarfile.open(gpu / "optimize_out.tgz") as t:
                t.extractall(tmp / f"out{i}", filter="data")
            found = sorted((tmp / f"out{i}").glob("*/campaign.sqlite"))
            if len(found) != 1:
                print(f"campaign_call: gpu{i}'s optimize_out.tgz holds {len(found)} stores; {store} left as it was")
                continue
            returned = found[0]
            checkpoint(returned)
            call = next_call(store)
            collected.append((store, call))
            shutil.copy(returned, store)
            for side in (".sqlite-wal", ".sqlite-shm"):
                store.with_name(store.stem + side).unlink(missing_ok=True)
            shutil.copy(gpu / "optimize.log", store.with_name(f"{store.stem}-call{call}.log"))
            if (gpu / "written_extensions.tar.xz").exists():
                kept = written_extensions.keep(gpu / "written_extensions.tar.xz", devcache(store), store, returned.parent)
                print(f"{store}: {len(kept)} written solution(s)' device-built extensions kept in {devcache(store)}")
            # The stream's result records: campaign-state-*, and those of steps before the campaign
            # (--first), such as launch-overhead-ab-*.
            for record in gpu.glob("*.json"):
                shutil.copy(record, results / record.name)
            print(f"{store}: call {call} recorded")
    if not collected:
        return 1
    figure = suite_figure(results, datetime.date.today().isoformat(), a.label, *collected[0])
    subprocess.run([sys.executable, str(REPO / "bench" / "suite_latest.py"), *a.stores, *a.with_stores, "--out", str(figure)],
                   check=True)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("profile")
    p.add_argument("stores", nargs=2)
    p.add_argument("--and", dest="more", nargs=3, action="append", metavar=("PROFILE", "STORE_A", "STORE_B"),
                   help="another campaign in the same carry, its calls after the first's on the warm machine")
    p.add_argument("--work")
    p.add_argument("--verify", type=int, default=0, metavar="SECS",
                   help="end each GPU's stream with the verify step (bench/verify_written.py) for SECS of its 570")
    p.add_argument("--one-gpu", action="store_true", help="an x1 machine: one device call per half")
    p.add_argument("--first", default="", metavar="STEPS",
                   help="bench/device_steps.sh steps (STEP:SECONDS, space-separated) the first call runs before "
                        "its campaign, their seconds taken from its optimize step (e.g. overhead_ab:240)")
    p.add_argument("--fixed-budget", type=int, default=0, metavar="N",
                   help="the positional campaign a fixed-budget one of N attempts per problem (no stopping rule, "
                        "no re-measurements), for `ucutlass replay`; give it stores of its own (--and ones keep the policy)")
    c = sub.add_parser("collect")
    c.add_argument("results")
    c.add_argument("stores", nargs="+", help="gpu0's store, then gpu1's (one for a one-GPU call)")
    c.add_argument("--label", default="suite")
    c.add_argument("--with", dest="with_stores", nargs="+", default=[],
                   help="stores this call did not run that enter the suite figure (the other half of a one-GPU call)")
    a = ap.parse_args()
    return prepare(a) if a.cmd == "prepare" else collect(a)


if __name__ == "__main__":
    sys.exit(main())

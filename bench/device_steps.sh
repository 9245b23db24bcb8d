#!/usr/bin/env bash
# The GPU acceptance runs of the harness, SOL and optimizer issues as named steps, so one device
# call (10 minutes at most) runs exactly the steps it has time for and copies every result JSON
# to OUT (the device tool's $OUT), ready to commit under bench/results/.
#
#   bench/device_steps.sh OUT [VAR=VALUE] STEP[:SECONDS] ...   (VAR=VALUE: for the steps after it)
#
# Steps (each killed at its SECONDS, default shown; a killed step keeps what it wrote):
#   baselines:480     eager + torch.compile for problems/, resumed from bench/results/baselines-h200.json
#   adversarial:360   tests/adversarial (gamed + honest solutions), bench/run_adversarial.py
#                     (2026-11-29, workers spawned: 77 s of extension builds + 25 cases x 9 s = 250 s)
#   isolation:200     tests/isolation (segfault, illegal address, hang, OOM, then honest)
#   repeatability:450 one ms-scale CUTLASS solution (bf16 8192^3, written by `ucutlass optimize --no-gpu`),
#                     5 separate harness runs (2026-11-30: 120-166 s); REPEAT_FLAGS adds eval flags
#                     (e.g. --l2-flush=read), REPEAT_PROBLEM picks another problem
#   fusion:300        bench/run_gemm_bench.py --only bias_gelu_bf16 (fused bf16 GEMM + bias + GELU vs addmm + gelu)
#   overhead:240      bench/launch_overhead.py on that solution and eager (host launch cost vs GPU time)
#   overhead_ab:420   bench/launch_overhead.py --env-ab UCUTLASS_NO_LAUNCH_CACHE=1 (3 rounds) over short problems
#                     (OVERHEAD_PROBLEMS, comma-separated files under problems/; default four short GEMM and
#                     conv problems), each written by `optimize --no-gpu` and built in parallel first: the host
#                     time and trial time of the same solutions with and without the launch cache
#   optimize:540      `ucutlass optimize problems --devices all` (every visible GPU evaluates), resumed from
#                     OPTIMIZE_OUT (default optimize_out) if it holds a campaign; rounds of nproc problems
#                     x 2 attempts, two waves of builds that the evaluations overlap (OPTIMIZE_ROUND
#                     overrides the round flags, OPTIMIZE_FLAGS adds flags, commas between them since a
#                     stream's words are split on spaces: OPTIMIZE_ROUND=--batch-problems=36,--batch=3,
#                     OPTIMIZE_FLAGS=--budget=4,--window=1000); the store, solutions and
#                     logs are tarred into OUT; OPTIMIZE_PROBLEMS (comma-separated files under problems/)
#                     runs that subset instead, copied to DIR.problems with their level folders
#   optimize_kill:240 the same campaign killed with SIGKILL at SECONDS (no clean-up of any kind), so the
#                     next `optimize` step shows the resume; both steps write bench/campaign_state.py's
#                     check of the store against the evaluations that ran
#   verify:300        bench/verify_written.py over OPTIMIZE_OUT: every written ModelNew evaluated again in one
#                     batch under OPTIMIZE_FLAGS' profile, and matched to the store's best attempt
#   sanitize:300      bench/sanitize_written.py over OPTIMIZE_OUT: every written ModelNew's forward under
#                     compute-sanitizer (SANITIZE_TOOLS, comma-separated, default memcheck), wins first, with
#                     the folder's torch_extensions; those the seconds do not reach are listed not_run
#   epilogue:420      tests/nvcc/check_epilogue_gpu.py (every built-in and the operand-swap group, 3 types)
#   conv:420          tests/nvcc/check_conv_gpu.py --torch-binding (modes, depthwise, benchmarks vs cuDNN)
#   conv_ab:300       the conv benchmark back to back, then interleaved (the timing-method A/B; CONV_FILTER)
#   pipeline:300      tests/nvcc/check_pipeline_gpu.py (pipelines, MLP vs eager)
#   grouped:300       tests/nvcc/check_grouped_gpu.py (grouped GEMM per group vs float64, vs a matmul loop)
#   tf32_split:240    tests/nvcc/check_tf32_split_gpu.py (the program's 3xTF32 split kernel vs PyTorch's, bit for bit)
#   attention:240     tests/nvcc/check_attention_gpu.py (the attention kernel's runtime test, and examples/26's
#                     kernels vs PyTorch's sdpa and explicit masked attention, correctness and time)
#   rows:240          tests/nvcc/check_rows_gpu.py (the row kernels' runtime test, and examples/25's kernels vs
#                     PyTorch's softmax, logsumexp, norms and reductions, correctness and time)
# The four checks build their kernels with nvcc on the device's cores (-j = nproc) and write OUT/NAME.json.
# Needs: build/ucutlass (or build/bench-bin/ucutlass), the CUTLASS headers under
# .deps/nvidia-cutlass/cutlass_library/source (or $UCUTLASS_CUTLASS_DIR), PyTorch with CUDA.
set -u
# A stream's words are split on spaces, so a flag variable separates its flags with commas.
commas_to_words() { echo "${1//,/ }"; }
out=${1:?usage: bench/device_steps.sh OUT STEP[:SECONDS] ...}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck disable=SC1091  # written by bench/device_unpack.sh on the device
[ -z "${UCUTLASS_CUTLASS_DIR:-}" ] && [ -f .device-env ] && . ./.device-env
mkdir -p "$out"
export UCUTLASS_CUTLASS_DIR=${UCUTLASS_CUTLASS_DIR:-$root/.deps/nvidia-cutlass/cutlass_library/source}
bin=build/ucutlass
[ -x "$bin" ] || bin=build/bench-bin/ucutlass
# DEVICE_JOBS caps the parallel builds (bench/device_parallel.sh splits the cores between streams).
jobs=${DEVICE_JOBS:-$(nproc)}

run_step() {
  local name=${1%%:*} secs=${1#*:}
  [ "$secs" = "$1" ] && secs=""
  local t0=$SECONDS rc=0
  case $name in
    baselines)
      timeout "${secs:-480}" python3 bench/run_baselines.py problems --compile-jobs $((jobs - 1)) \
        --time-budget $(( ${secs:-480} - 60 )) --timeout 240 || rc=$?
      cp bench/results/baselines-h200*.json "$out"/ 2>/dev/null ;;
    adversarial|isolation)
      timeout "${secs:-360}" python3 bench/run_adversarial.py "tests/$name" --out "$out" --baselines none \
        --prebuild-jobs "$jobs" --ext-cache /tmp/ucutlass-ext --timeout 60 || rc=$? ;;
    repeatability)
      # REPEAT_PROBLEM picks another problem (default: the power-bound bf16 8192^3 GEMM).
      local prob=${REPEAT_PROBLEM:-problems/level1/014_gemm_bf16_inputs.py}
      local slug
      slug=$(basename "$(dirname "$prob")")_$(basename "$prob" .py)
      "$bin" optimize "$prob" --no-gpu --no-compile -o /tmp/ucutlass-rep >/dev/null 2>&1
      local sol=/tmp/ucutlass-rep/$slug/modelnew.py
      TORCH_EXTENSIONS_DIR=/tmp/ucutlass-ext python3 -m ucutlass_harness.prebuild "$sol" >/dev/null 2>&1
      # shellcheck disable=SC2086  # REPEAT_FLAGS are words
      timeout "${secs:-450}" python3 bench/repeatability.py "$prob" "$sol" --runs 5 \
        --out "$out" --backend cutlass --ext-cache /tmp/ucutlass-ext --timeout 120 $(commas_to_words "${REPEAT_FLAGS:-}") || rc=$? ;;
    overhead)
      # The repeatability solution (bf16 8192^3) beside eager: host launch cost vs GPU time.
      local sol=/tmp/ucutlass-rep/level1_014_gemm_bf16_inputs/modelnew.py
      [ -f "$sol" ] || "$bin" optimize problems/level1/014_gemm_bf16_inputs.py --no-gpu --no-compile -o /tmp/ucutlass-rep >/dev/null 2>&1
      TORCH_EXTENSIONS_DIR=/tmp/ucutlass-ext timeout "${secs:-240}" python3 bench/launch_overhead.py \
        problems/level1/014_gemm_bf16_inputs.py "$sol" --out "$out" || rc=$? ;;
    overhead_ab)
      # The same written solutions with and without the emitted launch cache (detail::run's LaunchCache),
      # in alternating processes, eager beside them in each.
      local probs sols=() prob slug budget=${secs:-420} started
      started=$(date +%s)
      probs=$(commas_to_words "${OVERHEAD_PROBLEMS:-problems/level1/013_gemm_batched_small.py,problems/level1/004_gemm_llm_decode_small_m.py,problems/level2/004_gemm_sigmoid_residual.py,problems/level1/019_conv2d_3x3.py}")
      for prob in $probs; do
        slug=$(basename "$(dirname "$prob")")_$(basename "$prob" .py)
        "$bin" optimize "$prob" --no-gpu --no-compile -o /tmp/ucutlass-ab >/dev/null 2>&1
        sols+=("/tmp/ucutlass-ab/$slug/modelnew.py")
      done
      printf '%s\n' "${sols[@]}" | xargs -P "$jobs" -I{} env TORCH_EXTENSIONS_DIR=/tmp/ucutlass-ext \
        python3 -m ucutlass_harness.prebuild {} >/dev/null 2>&1 || true
      local i=0
      for prob in $probs; do
        local left=$(( budget - ($(date +%s) - started) ))
        [ "$left" -gt 20 ] || { echo "overhead_ab: no time left for $prob" >&2; rc=124; break; }
        TORCH_EXTENSIONS_DIR=/tmp/ucutlass-ext timeout "$left" python3 bench/launch_overhead.py "$prob" "${sols[$i]}" \
          --env-ab UCUTLASS_NO_LAUNCH_CACHE=1 --rounds 3 --out "$out" || rc=$?
        i=$((i + 1))
      done ;;
    fusion)
      # Issue 5's fused bf16 GEMM + bias + GELU against addmm + F.gelu (bench/gemm_acceptance/bias_gelu_bf16.*).
      timeout "${secs:-300}" python3 bench/run_gemm_bench.py --only bias_gelu_bf16 --jobs "$jobs" --out "$out" \
        --cache-dir build/kernel-cache || rc=$? ;;
    optimize|optimize_kill)
      local dir=${OPTIMIZE_OUT:-optimize_out} limit=${secs:-540} sig=TERM suite=problems
      if [ -z "${OPTIMIZE_PROBLEMS:-}" ] && [ -f "$dir/campaign.sqlite" ]; then
        # A half-suite store resumed over the whole suite would start every problem of the other half in
        # it (2026-12-01: half b's problems ran into half a's store). Refused: give the half's list.
        local held total
        held=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM problems").fetchone()[0])' \
          "$dir/campaign.sqlite" 2>/dev/null || echo 0)
        total=$(find problems -name '*.py' -path '*level*' | wc -l)
        if [ "$held" -gt 0 ] && [ "$held" -lt "$total" ]; then
          echo "device_steps: $dir/campaign.sqlite holds $held problems, not the suite's $total; give OPTIMIZE_PROBLEMS" \
            "(bench/sets/suite-half-*.txt; bench/campaign_call.py prepare prints the command)" >&2
          echo "device_steps: $name exit 2 after 0 s" >&2
          return 2
        fi
      fi
      if [ -n "${OPTIMIZE_PROBLEMS:-}" ]; then
        # The same level/name paths as under problems/, so baselines and problem names match.
        suite=$dir.problems
        rm -rf "$suite"
        for f in $(commas_to_words "$OPTIMIZE_PROBLEMS"); do
          mkdir -p "$suite/$(dirname "${f#problems/}")" && cp "$f" "$suite/${f#problems/}" || rc=2
        done
      fi
      [ "$name" = optimize_kill ] && limit=${secs:-240} && sig=KILL
      if [ -d "$dir/device_extensions" ]; then
        # Written solutions' extensions an earlier call's machine built (bench/written_extensions.py),
        # where this run's builds look: their re-measurements here build nothing.
        mkdir -p "$dir/torch_extensions" && cp -a "$dir/device_extensions/." "$dir/torch_extensions/" && rm -rf "$dir/device_extensions"
      fi
      # The fork server imports torch._dynamo once instead of each evaluation's profiler (4.4 s on the CPU
      # machine; the H200's timing phase took 3.8-6.8 s on 2026-11-30); UCUTLASS_FORKSERVER_PRELOAD= turns it off.
      # The wall budget leaves room for what runs outside it: the resume's tracing and ranking before the
      # GPU step, and the last round's builds already started when it ends (a multi-kernel program's build
      # runs past a minute). Session 19's four calls ended 23-44 s past their budget (then 120 s short of
      # the limit). A run cut at the limit loses its last round to any resume that does not find that
      # round's result files (a later session's, prepared from the store alone), so the margin stays wide.
      # shellcheck disable=SC2086  # the round and extra flags are words
      UCUTLASS_FORKSERVER_PRELOAD=${UCUTLASS_FORKSERVER_PRELOAD-torch._dynamo} \
      timeout -s $sig "$limit" "$bin" optimize "$suite" -o "$dir" -j "$jobs" --baselines bench/results/baselines-h200.json \
        --wall-budget $(( limit > 200 ? limit - 90 : limit )) --devices all $(commas_to_words "${OPTIMIZE_ROUND:---batch-problems=$jobs,--batch=2}") \
        $(commas_to_words "${OPTIMIZE_FLAGS:-}") >"$out/$name.log" 2>&1 || rc=$?
      # The store against the evaluations that ran (bench/campaign_state.py): the kill/resume evidence.
      python3 bench/campaign_state.py "$dir" --out "$out" \
        --label "$([ "$name" = optimize_kill ] && echo "killed (SIGKILL) after $limit s" || echo "after optimize ($limit s)")"
      [ "$name" = optimize ] && tar -czf "$out/optimize_out.tgz" --exclude torch_extensions --exclude '*.tmp' "$dir" 2>/dev/null
      # Those still owed a re-measurement come back, for the next call (campaign_call.py collect keeps them).
      [ "$name" = optimize ] && { python3 bench/written_extensions.py pack "$dir" "$out/written_extensions.tar.xz" >&2 || true; } ;;
    verify)
      # Every solution the campaign in OPTIMIZE_OUT wrote, evaluated again in one batch under its profile
      # (OPTIMIZE_FLAGS' --profile=P) and set beside the store's best attempt (bench/verify_written.py).
      local profile
      profile=$(commas_to_words "${OPTIMIZE_FLAGS:-}" | tr ' ' '\n' | sed -n 's/^--profile=//p' | tail -1)
      # Its own budget inside the step's, so the record of what ran is written before the step is killed:
      # builds started before it still finish (up to ~70 s) and an evaluation just started runs its ~30 s.
      local vlimit=${secs:-300}
      timeout "$vlimit" python3 bench/verify_written.py "${OPTIMIZE_OUT:-optimize_out}" \
        --profile "${profile:-kernelbench}" --out "$out" --budget-s $((vlimit > 160 ? vlimit - 80 : vlimit / 2)) \
        --harness-arg=--devices=all --harness-arg=--overlap-builds \
        --harness-arg=--prebuild-jobs="$jobs" --harness-arg=--ext-cache="$PWD/${OPTIMIZE_OUT:-optimize_out}/torch_extensions" || rc=$? ;;
    sanitize)
      local limit=${secs:-300} tools=()
      for t in $(commas_to_words "${SANITIZE_TOOLS:-memcheck}"); do tools+=(--tool "$t"); done
      # Its own budget a little inside the step's, so the record is written before the step is killed.
      timeout "$limit" python3 bench/sanitize_written.py "${OPTIMIZE_OUT:-optimize_out}" "${tools[@]}" \
        --budget-s $((limit > 30 ? limit - 20 : limit)) --out "$out" || rc=$? ;;
    epilogue|conv|pipeline|grouped)
      local extra=""
      [ "$name" = conv ] && extra=--torch-binding
      local limit=${secs:-420}
      [ "$name" = pipeline ] || [ "$name" = grouped ] && limit=${secs:-300}
      timeout "$limit" python3 "tests/nvcc/check_${name}_gpu.py" --ucutlass "$bin" --jobs "$jobs" $extra \
        --out "$out/$name.json" || rc=$? ;;
    tf32_split)
      timeout "${secs:-240}" python3 tests/nvcc/check_tf32_split_gpu.py --ucutlass "$bin" \
        --out "$out/tf32-split.json" || rc=$? ;;
    rows)
      timeout "${secs:-240}" python3 tests/nvcc/check_rows_gpu.py --ucutlass "$bin" --out "$out/row-kernels.json" || rc=$? ;;
    attention)
      timeout "${secs:-240}" python3 tests/nvcc/check_attention_gpu.py --ucutlass "$bin" --out "$out/attention.json" || rc=$? ;;
    conv_ab)
      # The conv benchmark's timing-method A/B on one machine (docs/bench.md): each side's calls back to
      # back (the order before 2026-11-30), then interleaved rounds; CONV_FILTER picks the rows.
      local filter=${CONV_FILTER:-'^bench_(bf16|tf32)(_tile_(coop_256x128|pingpong_128x128|64x128_s4))?$'}
      local half=$(( ${secs:-300} / 2 ))
      timeout "$half" python3 tests/nvcc/check_conv_gpu.py --ucutlass "$bin" --jobs "$jobs" --bench-only \
        --bench-filter "$filter" --rounds 1 --iters 20 --warmup-ms 10 --out "$out/conv-back-to-back.json" || rc=$?
      timeout "$half" python3 tests/nvcc/check_conv_gpu.py --ucutlass "$bin" --jobs "$jobs" --bench-only \
        --bench-filter "$filter" --iters 300 --out "$out/conv-interleaved.json" || rc=$? ;;
    *) echo "device_steps: unknown step '$name'" >&2; return 2 ;;
  esac
  echo "device_steps: $name exit $rc after $((SECONDS - t0)) s" >&2
}

export PYTHONPATH=$root/python${PYTHONPATH:+:$PYTHONPATH}
for step in "$@"; do
  # A VAR=VALUE word sets VAR for the steps after it, e.g. an A/B of eval flags in one stream:
  #   REPEAT_FLAGS=--warmup-ms=0 repeatability:200 REPEAT_FLAGS= repeatability:200
  if [[ $step =~ ^[A-Z_][A-Z0-9_]*= ]]; then export "${step?}"; continue; fi
  run_step "$step"
done

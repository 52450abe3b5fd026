#!/usr/bin/env bash
# Build, test and benchmark warpgemm on a GPU machine in one call, from the source tree.
#
#   scripts/gpu_check.sh [STEP ...]     steps: info tests ceiling bench host hopper hopper_results
#                                       targets cute decode igemm hopper_ncu ncu_pair ncu_sol ncu_source cluster4
#                                       ping_pong stream_k small_m_h200 decode_m64_h200 rules_as bn192 one_wave held
#                                       single_long_k single_long_k_rule llm_variants low_llm bn192_held
#                                       cluster_tail cluster_tail_rule loop_rate loop_rate_ab igemm_ab bn176 clocks
#                                       occupancy pack ncu stalls token_tiles two_small_tiles
#                                       m65_112_rules m33_56_rules m65_112_k_gap h200_gaps h200_gap_rules
#                                       k_past_16383 m193_256 a_edge m193_256_edge
#                                       m257_bn176_edge edge_rules_fp16 h200_small_m_rules share_w
#                                       token_tile16
#                                       (default: info tests ceiling bench)
#   PYTEST_ARGS="-k sgemm" BENCH_ARGS="sgemm --suite square" scripts/gpu_check.sh tests bench
#   SMOKE_TIMEOUT=45 HOPPER_PYTEST_ARGS="-n 8" SANITIZE=0 scripts/gpu_check.sh hopper
#
# Details go to $OUT (default ./gpu_out): pytest.log, bench.log, *.json, *.png.
# A short summary is printed last.
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-gpu_out}
mkdir -p "$OUT"
export PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
export WARPGEMM_CACHE=${WARPGEMM_CACHE:-/tmp/warpgemm-cache}
# Results files name the tree's commit; a tree copied out of its checkout names it with
# WARPGEMM_COMMIT=<commit> (warpgemm.bench.context).
steps=("$@"); [ ${#steps[@]} -eq 0 ] && steps=(info tests ceiling bench)
summary=()

# The GPU's short name for results files: h100, h200.
gpu_tag() { nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | grep -oE 'H[0-9]+' | tr 'A-Z' 'a-z'; }

# decode/02 at M rows on the weights NK... (decode_sweep.py), the candidates CANDS (space separated)
# against cuBLAS, auto (the rules) and, unless BEFORE is empty, what auto chose before the rules
# whose note names BEFORE (--before), into NAME_m<M>_<gpu>.json (steps rule_check's and h200_gaps).
decode_check() {  # NAME M BEFORE CANDS NK...
  local name=$1 m=$2 before=$3 cands=$4; shift 4
  # shellcheck disable=SC2086  # CANDS splits into one argument per candidate
  timeout 100 python3 scripts/decode_sweep.py --kernel decode/02_swap_ab_wgmma --ms "$m" --rounds 9 \
    --replicates 2 --nk "$@" --json "$OUT/${name}_m${m}_$(gpu_tag).json" ${before:+--before "$before"} \
    --cands $cands > "$OUT/${name}_m$m.log" 2>&1
  summary+=("$name M=$m: exit $?")
}

# A decode rule's check on the H200 (steps two_small_tiles, m65_112_rules, m33_56_rules,
# m65_112_k_gap): its GPU tests (pytest -k PYTEST_K in tests/test_decode.py; none if empty), then decode_check at
# each "M BN" of SPECS (comma separated) against the rules before it (BEFORE), with BN and the tiles
# of W in CAND as a candidate.
rule_check() {  # NAME PYTEST_K BEFORE CAND SPECS NK...
  local name=$1 pytest_k=$2 before=$3 cand=$4 specs=$5 m bn; shift 5
  if [ -n "$pytest_k" ]; then  # empty: an earlier call of the step ran them
    timeout 150 python3 -m pytest -p no:cacheprovider -m gpu -n 8 -q tests/test_decode.py \
      -k "$pytest_k" > "$OUT/${name}_pytest.log" 2>&1
    summary+=("$name pytest: $(grep -aE '[0-9]+ (passed|failed)' "$OUT/${name}_pytest.log" | tail -1)")
  fi
  while read -r m bn; do
    decode_check "$name" "$m" "$before" "BN=$bn,$cand" "$@"
  done < <(tr ',' '\n' <<< "$specs")
}

# cuBLAS and a warpgemm kernel on one bf16 Linear problem under ncu (steps ncu_pair, m193_256):
# scripts/ncu_pair.py ARGS (M N K [--kernel NAME:P=V,...]; auto by default), run once outside ncu
# so that it compiles there, then profiled: time, clock, SM throughput, L2 and DRAM traffic,
# instructions and where warps wait, into LOG.
ncu_pair_run() {  # LOG ARGS...
  local log=$1 m r; shift
  m=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg
  m=$m,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
  m=$m,dram__bytes_read.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex.sum,smsp__inst_executed.sum
  for r in long_scoreboard barrier wait math_pipe_throttle mio_throttle sleeping; do
    m=$m,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
  done
  python3 scripts/ncu_pair.py "$@" > /dev/null 2>&1
  timeout 150 ncu --clock-control none --metrics $m -k regex:"nvjet|hopper_" -s 4 -c 2 \
    python3 scripts/ncu_pair.py "$@" > "$log" 2>&1
}

# The A/B steps (igemm_ab, loop_rate_ab): where `before` (the tree in BEFORE) or `this` tree is
# imported from and compiles into (a kernel cache of its own each), as pp and cache.
tree_env() {  # TREE
  if [ "$1" = before ]; then pp=$BEFORE/src; cache=/tmp/warpgemm-cache-before; else pp=src; cache=$WARPGEMM_CACHE; fi
}

# A kernel variant's checks (steps cluster4, stream_k, ping_pong, a_edge): smoke runs of SMOKE (kernel
# specs) under a timeout (a pipeline bug hangs), then, if they pass, the tests that PYTEST_K
# selects in tests/test_hopper.py and compute-sanitizer memcheck and racecheck on the smoke shapes
# of SANITIZE. Fails if the smoke runs do.
variant_check() {  # TAG PYTEST_K SMOKE SANITIZE
  local tag=$1 pytest_k=$2 smoke=$3 sanitize=$4 rc tool
  timeout 150 python3 scripts/hopper_smoke.py $smoke > "$OUT/${tag}_smoke.log" 2>&1
  rc=$?; summary+=("$tag smoke: exit $rc")
  [ $rc -eq 0 ] || return 1
  timeout 300 python3 -m pytest -p no:cacheprovider -m gpu -n 8 -q tests/test_hopper.py -k "$pytest_k" \
    > "$OUT/${tag}_pytest.log" 2>&1
  summary+=("$tag pytest: $(grep -aE '[0-9]+ (passed|failed)' "$OUT/${tag}_pytest.log" | tail -1)")
  for tool in memcheck racecheck; do
    timeout 200 compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 9 \
      python3 scripts/hopper_smoke.py $sanitize > "$OUT/${tag}_$tool.log" 2>&1
    summary+=("$tag $tool: exit $? ($(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/${tag}_$tool.log" | tail -1))")
  done
}

# Its benchmark: `warpgemm bench hopper` in the Linear layout with ARGS, into hopper_TAG_<gpu>.json,
# printing the lines that match PATTERN.
variant_bench() {  # TAG PATTERN ARGS...
  local tag=$1 pattern=$2; shift 2
  timeout 280 python3 -m warpgemm.cli bench hopper --b-layout col --no-progress "$@" \
    --json "$OUT/hopper_${tag}_$(gpu_tag).json" > "$OUT/${tag}_bench.log" 2>&1
  summary+=("$tag bench: exit $?"); grep -E "$pattern" "$OUT/${tag}_bench.log" | tail -32
}

for step in "${steps[@]}"; do
  case $step in
    info)
      nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
      python3 -m warpgemm.cli info ;;
    tests)
      eval "python3 -m pytest -p no:cacheprovider ${PYTEST_ARGS:--m gpu}" 2>&1 | tee "$OUT/pytest.log" | tail -40
      summary+=("pytest: $(grep -aE '[0-9]+ (passed|failed)' "$OUT/pytest.log" | tail -1)") ;;
    ceiling)
      python3 -m warpgemm.cli bench ceiling --json "$OUT/ceiling.json" 2>&1 | tee "$OUT/ceiling.log"
      summary+=("ceiling: $(tail -1 "$OUT/ceiling.log")") ;;
    bench)
      read -r -a bargs <<< "${BENCH_ARGS:-sgemm --suite square}"
      name=$(echo "${bargs[*]}" | tr -c 'A-Za-z0-9\n' '_' | sed 's/__*/_/g; s/_$//')
      python3 -m warpgemm.cli bench "${bargs[@]}" --no-progress --json "$OUT/$name.json" \
        --plot "$OUT/$name.png" 2>&1 | tee "$OUT/bench_$name.log"
      summary+=("bench $name: exit $?") ;;
    host)
      # Host time per matmul call against torch.matmul; with BEFORE=dir, also for the tree in
      # dir/src, alternating, so that both see the same machine state.
      for round in $(seq ${HOST_ROUNDS:-3}); do
        if [ -n "${BEFORE:-}" ]; then
          echo "== $BEFORE, round $round"; PYTHONPATH=$BEFORE/src python3 scripts/host_overhead.py
        fi
        echo "== this tree, round $round"; python3 scripts/host_overhead.py ${HOST_ARGS:-}
      done 2>&1 | tee "$OUT/host.log"
      summary+=("host: $(grep -c 'host time' "$OUT/host.log") lines in $OUT/host.log") ;;
    hopper)
      # The Hopper rungs: a smoke run of each under a timeout (a pipeline bug hangs), then, if all
      # pass, their tests and compute-sanitizer memcheck and racecheck on the smoke shapes. The
      # benchmark is the bench step: BENCH_ARGS="hopper --suite square".
      : > "$OUT/hopper.log"; : > "$OUT/hopper_ok"; smoke_failed=0
      for rung in $(python3 -c "from warpgemm import catalog; print(' '.join(s.name for s in catalog.kernels('hopper')))"); do
        timeout "${SMOKE_TIMEOUT:-120}" python3 scripts/hopper_smoke.py "$rung" >> "$OUT/hopper.log" 2>&1
        rc=$?; [ $rc -ne 0 ] && smoke_failed=1; [ $rc -eq 0 ] && printf '%s ' "$rung" >> "$OUT/hopper_ok"
        echo "smoke $rung: exit $rc" | tee -a "$OUT/hopper.log"
      done
      if [ $smoke_failed -ne 0 ]; then
        summary+=("hopper: a smoke run failed or hung (exit 124): see $OUT/hopper.log; tests, sanitizer and bench not run")
      else
        : > "$OUT/hopper_smoke_passed"
        timeout 540 python3 -m pytest -p no:cacheprovider -m gpu ${HOPPER_PYTEST_ARGS:-} tests/test_hopper.py 2>&1 | tee "$OUT/pytest_hopper.log" | tail -15
        summary+=("pytest hopper: $(grep -aE '[0-9]+ (passed|failed)' "$OUT/pytest_hopper.log" | tail -1)")
        for tool in $( [ "${SANITIZE:-1}" = 1 ] && echo memcheck racecheck); do
          timeout "${SANITIZER_TIMEOUT:-300}" compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 9 python3 scripts/hopper_smoke.py \
            > "$OUT/sanitizer_$tool.log" 2>&1
          summary+=("compute-sanitizer $tool: exit $? ($(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer_$tool.log" | tail -1))")
        done
      fi
      summary+=("$(grep -h 'smoke' "$OUT/hopper.log" | tr '\n' ';')") ;;
    targets)
      # Every benchmark the performance targets name, as kernel="auto" against cuBLAS, each file
      # named for its GPU, then scripts/targets.py's one line a target (also in $OUT/targets.txt).
      gpu=$(gpu_tag)
      run_target() {  # NAME ARGS...: one bench run under a timeout, its exit status in the summary
        local name=$1; shift
        timeout "${BENCH_TIMEOUT:-240}" python3 -m warpgemm.cli bench "$@" --no-progress --json "$OUT/$name.json" \
          > "$OUT/$name.log" 2>&1
        summary+=("$name: exit $?")
      }
      run_target "decode_auto_$gpu" decode --suite decode --kernels auto
      run_target "hopper_square_auto_$gpu" hopper --suite square --kernels auto
      run_target "hopper_square_auto_fp16_$gpu" hopper --suite square --dtype float16 --kernels auto
      run_target "hopper_llm_auto_$gpu" hopper --suite llm --kernels auto
      # The model's bench takes about two minutes on an H100: its own limit, not BENCH_TIMEOUT's.
      [ "${TARGETS_MODEL:-1}" = 1 ] && BENCH_TIMEOUT=${MODEL_TIMEOUT:-300} run_target "model_$gpu" model
      args=()
      for pair in "decode:decode_auto" "square:hopper_square_auto" "square-fp16:hopper_square_auto_fp16" \
                  "llm:hopper_llm_auto" "model:model"; do
        [ -s "$OUT/${pair#*:}_$gpu.json" ] && args+=("--${pair%%:*}" "$OUT/${pair#*:}_$gpu.json")
      done
      python3 scripts/targets.py "${args[@]}" | tee "$OUT/targets.txt"
      summary+=("targets: $OUT/targets.txt") ;;
    hopper_results)
      # The Hopper results that docs/hopper.md and the README tables come from, each file named
      # for its GPU: the ladder at 4096^3 and 8192^3, the square suite in bf16 and fp16 and the
      # llm suite for the last rungs, then the Llama model (dispatch's choice against cuBLAS).
      # Only the rungs whose smoke run passed (step hopper, when run first) are benchmarked.
      gpu=$(gpu_tag)
      ok=$( [ -f "$OUT/hopper_ok" ] && cat "$OUT/hopper_ok" || python3 -c "from warpgemm import catalog; print(' '.join(s.name for s in catalog.kernels('hopper')))")
      last=$(echo "$ok" | tr ' ' '\n' | grep -E '0[456]_' | tr '\n' ' ')
      six=$(echo "$ok" | tr ' ' '\n' | grep -E '06_')
      [ -n "$six" ] && last="$last $six:CLUSTER=2"
      run_bench() {  # NAME ARGS...: one bench run, its exit status in the summary
        local name=$1; shift
        timeout "${BENCH_TIMEOUT:-240}" python3 -m warpgemm.cli bench "$@" --no-progress --json "$OUT/$name.json" \
          > "$OUT/$name.log" 2>&1
        summary+=("$name: exit $?"); tail -${BENCH_TAIL:-12} "$OUT/$name.log"
      }
      want=" ${HOPPER_RESULTS:-ladder square square_fp16 llm prefill model} "  # a subset, to save time
      # The ladder, and rung 06 with one k-tile of wgmma kept in flight (IN_FLIGHT=1).
      [[ $want == *" ladder "* ]] && run_bench "hopper_ladder_$gpu" hopper --shapes 4096^3 8192^3 --b-layout col --kernels $ok ${six:+$six:IN_FLIGHT=1}
      [[ $want == *" square "* ]] && run_bench "hopper_square_$gpu" hopper --suite square --kernels $last
      [[ $want == *" square_fp16 "* ]] && run_bench "hopper_square_fp16_$gpu" hopper --suite square --dtype float16 --kernels $last
      # The llm suite, and rung 06 without the last wave's K split (SPLITS=1) and with BN = 128.
      [[ $want == *" llm "* ]] && run_bench "hopper_llm_$gpu" hopper --suite llm --kernels $last ${six:+$six:BN=128} ${six:+$six:SPLITS=1}
      # The GEMMs of the benchmark model's 4 x 1024 prefill (q and o, k and v, gate and up, down,
      # lm_head), with rung 06's other tile, cluster and order choices.
      [[ $want == *" prefill "* ]] && run_bench "hopper_prefill_$gpu" hopper --b-layout col \
        --shapes 4096x2048x2048 4096x1024x2048 4096x8192x2048 4096x2048x8192 4096x32000x2048 \
        --kernels $six $six:BN=128 $six:CLUSTER=2 $six:GROUP=16 $six:IN_FLIGHT=1
      [[ $want == *" model "* ]] && run_bench "model_$gpu" model
      if [[ $want == *" profile "* ]]; then
        timeout 150 python3 scripts/profile_model.py --prefill > "$OUT/profile_prefill_$gpu.log" 2>&1
        summary+=("profile_prefill: exit $? ($(grep -h '^== ' "$OUT/profile_prefill_$gpu.log" | tr '\n' ';'))")
      fi
      if [[ $want == *" per_gemm "* ]]; then  # each Linear of the prefill alone, model data and randn
        timeout 200 python3 scripts/profile_model.py --per-gemm > "$OUT/per_gemm_$gpu.log" 2>&1
        summary+=("per_gemm: exit $? ($(grep -h '^== ' "$OUT/per_gemm_$gpu.log" | tr '\n' ';'))"); cat "$OUT/per_gemm_$gpu.log" | tail -25
      fi ;;
    cute)
      # The CuTe rung (hgemm/09): the `cute` extra from the wheels carried in .whl/ when it is
      # missing (no index here), its cold compile time, its tests, and its bench: fp32
      # accumulation against rung 06 (bf16, Linear layout), the write-up's fp16-accumulate
      # configuration (A column-major, B row-major) against rung 08.
      python3 -c "from warpgemm.runtime import headers; headers.cute_include_paths()" 2>/dev/null \
        || python3 -m pip install -q --no-deps --no-index .whl/*.whl 2>&1 | tail -2
      WARPGEMM_CACHE=$(mktemp -d) python3 - <<'PY' 2>&1 | tee "$OUT/cute_compile.log"
import time, warpgemm
for arch, layouts, dtype, params in (("sm_90a", ("row", "col"), "bfloat16", {}),
                                     ("sm_80", ("col", "row"), "float16", {"F16_ACCUMULATE": 1})):
    t = time.perf_counter()
    k = warpgemm.compile("hgemm/09_cute_tiled_mma", arch, a_layout=layouts[0], b_layout=layouts[1], in_dtype=dtype, **params)
    print(f"cold compile hgemm/09_cute_tiled_mma {arch} {layouts} {dtype} {params}: {time.perf_counter() - t:.1f} s, "
          f"{k.registers} registers, {k.spill_bytes} spill bytes")
PY
      timeout 540 python3 -m pytest -p no:cacheprovider -m gpu ${CUTE_PYTEST_ARGS:--n 8} tests/test_cute.py tests/test_hgemm.py \
        tests/test_bench.py -k "cute or interleaved" 2>&1 | tee "$OUT/pytest_cute.log" | tail -8
      summary+=("pytest cute: $(grep -aE '[0-9]+ (passed|failed)' "$OUT/pytest_cute.log" | tail -1)")
      summary+=("$(grep -h 'cold compile' "$OUT/cute_compile.log" | tr '\n' ';')")
      gpu=$(gpu_tag)
      timeout 300 python3 -m warpgemm.cli bench hgemm --shapes 4096^3 8192^3 --b-layout col --no-progress \
        --kernels hgemm/06_fragment_double_buffer hgemm/09_cute_tiled_mma hgemm/09_cute_tiled_mma:STAGES=3 --json "$OUT/cute_f32acc_$gpu.json" \
        > "$OUT/cute_f32acc_$gpu.log" 2>&1; summary+=("cute_f32acc: exit $?"); tail -14 "$OUT/cute_f32acc_$gpu.log"
      timeout 300 python3 -m warpgemm.cli bench hgemm --dtype float16 --shapes 4096^3 8192^3 --a-layout col --no-progress \
        --kernels hgemm/08_f16_accumulate hgemm/09_cute_tiled_mma:F16_ACCUMULATE=1 --json "$OUT/cute_f16acc_$gpu.json" \
        > "$OUT/cute_f16acc_$gpu.log" 2>&1; summary+=("cute_f16acc: exit $?"); tail -14 "$OUT/cute_f16acc_$gpu.log" ;;
    decode)
      # The small-M kernels: their tests (decode/02 under a timeout: a pipeline bug hangs), the
      # row sweeps (decode/03, decode/04) and decode/02 in clusters under compute-sanitizer memcheck and racecheck, then
      # decode/02's parameters against cuBLAS and kernel="auto" at decode shapes
      # (scripts/decode_sweep.py), then the decode suite as docs/decode.md shows it.
      gpu=$(gpu_tag)
      timeout 420 python3 -m pytest -p no:cacheprovider -m gpu ${DECODE_PYTEST_ARGS:--n 8} tests/test_decode.py 2>&1 \
        | tee "$OUT/pytest_decode.log" | tail -8
      summary+=("pytest decode: $(grep -aE '[0-9]+ (passed|failed)' "$OUT/pytest_decode.log" | tail -1)")
      python3 scripts/decode_smoke.py > /dev/null 2>&1  # compile outside the sanitizer
      for tool in $( [ "${SANITIZE:-1}" = 1 ] && echo memcheck racecheck); do
        timeout "${SANITIZER_TIMEOUT:-300}" compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 9 \
          python3 scripts/decode_smoke.py > "$OUT/sanitizer_decode_$tool.log" 2>&1
        summary+=("compute-sanitizer $tool (decode/02 clusters, 03, 04): exit $? ($(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer_decode_$tool.log" | tail -1))")
      done
      if [ -n "${DECODE_SPACE:-}" ]; then
        timeout "${SWEEP_TIMEOUT:-400}" python3 scripts/decode_sweep.py --kernel decode/02_swap_ab_wgmma \
          --ms ${DECODE_MS:-16 32 64} --space "$DECODE_SPACE" --rounds ${DECODE_ROUNDS:-11} \
          --replicates ${DECODE_REPLICATES:-2} \
          --json "$OUT/decode_sweep_wgmma_$gpu.json" 2>&1 | tee "$OUT/decode_sweep_wgmma_$gpu.log" | grep -E '^M=|GB/s'
        summary+=("decode sweep: exit $?")
      fi
      if [ -n "${DECODE_BENCH:-}" ]; then
        timeout 400 python3 -m warpgemm.cli bench decode --suite decode --kernels $DECODE_BENCH --no-progress \
          --json "$OUT/decode_auto_$gpu.json" > "$OUT/decode_auto_$gpu.log" 2>&1
        summary+=("decode bench: exit $?"); tail -${BENCH_TAIL:-60} "$OUT/decode_auto_$gpu.log"
      fi ;;
    igemm)
      # Integer GEMM: its tests, each in-place layout against torch._int_mm on the same layout,
      # the scaled product (W8A8) against the plain kernel and cuBLAS bf16, and where the scaled
      # epilogue's time goes (ncu, scaled against plain at 4096^3).
      gpu=$(python3 -c "import torch; print('h200' if 'H200' in torch.cuda.get_device_name() else 'h100')")
      timeout 500 python3 -m pytest -p no:cacheprovider -m gpu -n 8 -q tests/test_igemm.py tests/test_scaled.py \
        tests/test_int4.py tests/test_int4_matmul.py 2>&1 | tee "$OUT/pytest_igemm.log" | tail -4
      summary+=("igemm pytest: $(grep -aE '[0-9]+ (passed|failed)' "$OUT/pytest_igemm.log" | tail -1)")
      # The Linear layout with the mma.sync kernel too: its of_ceiling is its fraction of the s8
      # mma.sync ceiling timed in the same rounds.
      for l in "row col igemm/02_wgmma_s8 igemm/01_mma_sync_s8" "col col igemm/04_transposing_copy" \
               "row row igemm/05_swap_ab_row_major_b" "col row igemm/09_transposing_both"; do
        set -- $l
        timeout 200 python3 -m warpgemm.cli bench igemm --shapes 4096^3 8192^3 --a-layout $1 --b-layout $2 \
          --kernels "${@:3}" --no-progress --json "$OUT/igemm_${1}_${2}_$gpu.json" 2>&1 | tail -12
        summary+=("igemm bench $1/$2: exit $?")
      done
      # int4 storage against the int8 kernel in the same rounds: the widening rungs, and rung 06's
      # earlier 128 x 192 tile.
      timeout 200 python3 scripts/int4_bench.py --shapes 4096 8192 --unsigned-too --min-rounds 20 \
        --kernels int4/05_widen_to_s8_wgmma int4/06_widen_a_to_registers int4/06_widen_a_to_registers:BN=192,STAGES=7 \
        --json "$OUT/int4_widen_$gpu.json" 2>&1 | tail -4
      summary+=("int4 bench: exit $?")
      timeout 300 python3 scripts/scaled_bench.py ${SCALED_ARGS:-} --json "$OUT/scaled_$gpu.json" 2>&1 | tail -12
      summary+=("scaled bench: exit $?")
      m=smsp__issue_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum
      m=$m,smsp__pipe_tensor_op_imma_cycles_active.avg.pct_of_peak_sustained_active
      for r in long_scoreboard barrier wait math_pipe_throttle lg_throttle; do
        m=$m,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
      done
      timeout 200 ncu --clock-control none --metrics $m -k regex:igemm_ -c 6 python3 scripts/profile_scaled.py 4096 \
        2>&1 | tee "$OUT/ncu_scaled.log" | grep -E "igemm_|duration|stalled|issue_active|imma" | tail -60 ;;
    clocks)
      # What the power cap does: the SM clock and power while each of CLOCKS_KERNELS (default rung
      # 06 with its default parameters, then cuBLAS; "auto" is warpgemm's dispatch) runs CLOCKS_N^3
      # GEMMs of CLOCKS_DTYPE (default bfloat16) back to back for CLOCKS_S seconds (defaults 8192
      # and 4; nvidia-smi samples every 100 ms, read only), and the wgmma pipe metrics this ncu
      # knows. "Loaded" means the samples drawing at least 90% of the run's highest power: the
      # clock the cap allows.
      cn=${CLOCKS_N:-8192} cdt=${CLOCKS_DTYPE:-bfloat16}
      for who in ${CLOCKS_KERNELS:-hopper/06_tma_store_epilogue cublas}; do
        csv="$OUT/clocks_${cn}_${cdt}_${who//\//_}.csv"
        nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active \
          --format=csv,noheader -lms 100 > "$csv" &
        smi=$!
        python3 - "$who" "$cn" "${CLOCKS_S:-4}" "$cdt" <<'PY' 2>&1 | tee -a "$OUT/clocks.log"
import sys, time, torch, warpgemm
who, n, seconds, dtype = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), getattr(torch, sys.argv[4])
a = torch.randn(n, n, device="cuda", dtype=dtype)
b = torch.randn(n, n, device="cuda", dtype=dtype).t()
f = (lambda: a @ b) if who == "cublas" else (lambda: warpgemm.matmul(a, b, kernel=who))
f(); torch.cuda.synchronize()
s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
t0 = time.time(); calls = 0; s.record()
while time.time() - t0 < seconds:
    for _ in range(20): f()
    calls += 20; torch.cuda.synchronize()
e.record(); e.synchronize()
print(f"{who} at {n}^3 {dtype}: {calls} calls, {2 * n**3 * calls / (s.elapsed_time(e) * 1e-3) / 1e12:.1f} TFLOP/s over {seconds:g} s")
PY
        kill $smi
        awk -F', ' '{c[NR]=$2+0; p[NR]=$4+0; if ($4+0 > m) m=$4+0} END {
            for (i in p) if (p[i] >= 0.9 * m) {lc+=c[i]; lp+=p[i]; ln++}
            printf "  loaded samples: mean SM clock %.0f MHz, power %.0f W over %d of %d samples\n", lc/ln, lp/ln, ln, NR}' \
          "$csv" | tee -a "$OUT/clocks.log"
        sleep 2
      done
      ncu --query-metrics --chip gh100 2>/dev/null | grep -iE 'gmma|pipe_tensor' > "$OUT/ncu_tensor_metrics.txt"
      summary+=("clocks: $(tr '\n' ';' < "$OUT/clocks.log")") ;;
    ncu_pair)
      # cuBLAS and auto side by side under ncu at NCU_SHAPE (default 4096^3, bf16, Linear layout).
      # shellcheck disable=SC2086  # NCU_SHAPE splits into M N K
      ncu_pair_run "$OUT/ncu_pair.log" ${NCU_SHAPE:-4096 4096 4096}
      summary+=("ncu_pair: exit $? ($OUT/ncu_pair.log)") ;;
    ncu_source)
      # Where auto's warps wait at NCU_SHAPE, by range of its SASS (warp-state sampling; rung 06):
      # the report, its source page and the sums of scripts/ncu_source_regions.py.
      gpu=$(gpu_tag)
      python3 scripts/ncu_pair.py ${NCU_SHAPE:-4096 4096 4096} > /dev/null 2>&1  # compile outside ncu
      timeout 150 ncu --clock-control none -k regex:hopper_tma -s 2 -c 1 --section SourceCounters \
        --section WarpStateStats --warp-sampling-interval 0 -f -o "$OUT/ncu_source" \
        python3 scripts/ncu_pair.py ${NCU_SHAPE:-4096 4096 4096} > "$OUT/ncu_source.log" 2>&1
      ncu -i "$OUT/ncu_source.ncu-rep" --page source --csv --print-source sass > "$OUT/ncu_source_sass.csv" 2>> "$OUT/ncu_source.log"
      python3 scripts/ncu_source_regions.py "$OUT/ncu_source_sass.csv" --json "$OUT/ncu_source_$gpu.json" \
        --how "ncu warp-state sampling of auto at ${NCU_SHAPE:-4096 4096 4096} (scripts/gpu_check.sh ncu_source)" \
        | tee -a "$OUT/ncu_source.log"
      summary+=("ncu_source: exit $? ($OUT/ncu_source_$gpu.json)") ;;
    cluster4)
      # Rung 06 in clusters of four (CLUSTER = 4), then against clusters of two and cuBLAS at the
      # sizes where blocks run several tiles.
      K6=hopper/06_tma_store_epilogue
      variant_check cluster4 "four or cannot_store" "$K6:CLUSTER=4" "$K6:CLUSTER=4" &&
        variant_bench cluster4 "auto|CLUSTER" --shapes 4096^3 8192^3 4096x14336x4096 8192x4096x4096 \
          --kernels auto $K6:CLUSTER=2 $K6:CLUSTER=4 ;;
    stream_k)
      # Rung 06 with the tail shared out stream-K (STREAM_K = 1), then against single blocks
      # without it, auto and cuBLAS where the last wave is partial (SK_SHAPES to choose others).
      K6=hopper/06_tma_store_epilogue
      variant_check stream_k "stream_k or split or one_copy or cannot_store" "$K6:STREAM_K=1 $K6:STREAM_K=1,HOLD=1" \
        "$K6:STREAM_K=1" &&
        variant_bench stream_k "auto|STREAM|CLUSTER|^ +M=" \
          --shapes ${SK_SHAPES:-4096^3 8192^3 2048^3 4096x14336x4096 8192x4096x4096 1024x14336x4096 4096x6144x4096} \
          --kernels auto $K6:CLUSTER=1 $K6:STREAM_K=1 ;;
    ping_pong)
      # Hopper rung 07 (the two consumers take alternate tiles; a turn that never comes hangs),
      # then against rung 06 (auto) and cuBLAS.
      K7=hopper/07_ping_pong
      variant_check ping_pong "07_ping_pong" "$K7 $K7:CLUSTER=1 $K7:CLUSTER=4 $K7:BM=128,BN=128" "$K7 $K7:CLUSTER=1" &&
        variant_bench ping_pong "auto|ping_pong" --shapes 4096^3 8192^3 4096x14336x4096 2048x4096x4096 \
          --kernels auto $K7 $K7:CLUSTER=4 $K7:BM=128,BN=128 ;;
    small_m_h200)
      # The one-row and few-row sweeps the H100's rules use (decode/03 at one row, decode/04 at
      # 2-8 rows) on this GPU, against its rules (auto) and cuBLAS: on an H200, whose M = 1 rules
      # predate decode/03, 4096 x 4096 read 72% of the measured bandwidth at one row.
      gpu=$(gpu_tag)
      timeout 200 python3 scripts/decode_sweep.py --kernel decode/03_row_sweep --ms 1 --rounds 7 \
        --nk 4096x4096 6144x4096 14336x4096 4096x14336 8192x8192 \
        --space "THREADS=256,512,1024;ROWS=4,8;UNROLL=2,4;L2_256B=0,1;BLOCKS=1,2" \
        --json "$OUT/decode_sweep_rowsweep_$gpu.json" > "$OUT/small_m_rowsweep.log" 2>&1
      summary+=("small_m decode/03: exit $?"); grep -E '^M=' "$OUT/small_m_rowsweep.log" | cut -c1-150
      timeout 150 python3 scripts/decode_sweep.py --kernel decode/04_row_sweep_mma --ms 2 4 8 --rounds 7 \
        --nk 4096x4096 8192x8192 14336x4096 --json "$OUT/decode_sweep_rowsweep_mma_$gpu.json" \
        > "$OUT/small_m_rowsweep_mma.log" 2>&1
      summary+=("small_m decode/04: exit $?"); grep -E '^M=' "$OUT/small_m_rowsweep_mma.log" | cut -c1-150
      # The floor: how fast any kernel reads these weights once on this GPU (the M = 1 bandwidth
      # target's bound where the weight is small).
      timeout 200 python3 scripts/read_floor.py --nk 4096x4096 6144x4096 8192x8192 --ms 1 \
        --json "$OUT/read_floor_$gpu.json" > "$OUT/small_m_read_floor.log" 2>&1
      summary+=("small_m read floor: exit $?"); tail -8 "$OUT/small_m_read_floor.log" ;;
    token_tiles)
      # Rung 02 with the tokens in one tile of the narrowest atom that holds them, or in two, at
      # 72-184 rows: the H200's sweeps behind its 65-192-row rules (docs/decode.md, "Beyond 64
      # tokens"), for another GPU (the H100 keeps the rules it was measured with). Each row count
      # against cuBLAS and this GPU's rules (auto), into decode_token_tiles_m<M>_<gpu>.json.
      gpu=$(gpu_tag)
      for spec in "72 96 40" "96 96 48" "136 144 72" "152 160 80" "168 176 88" "184 192 96"; do
        set -- $spec; m=$1; one=$2; two=$((($3 + 7) / 8 * 8))
        deep=8; wide=8; [ $one -ge 144 ] && wide=6; [ $one -ge 176 ] && { deep=7; wide=5; }
        timeout 120 python3 scripts/decode_sweep.py --kernel decode/02_swap_ab_wgmma --ms $m --rounds 11 \
          --replicates 2 --nk 4096x4096 6144x4096 14336x4096 4096x14336 8192x8192 28672x8192 \
          --json "$OUT/decode_token_tiles_m${m}_$gpu.json" --cands \
          BN=$one,BM=64,BK=64,STAGES=$deep,IN_FLIGHT=1 BN=$one,BM=128,BK=64,STAGES=$wide,IN_FLIGHT=1 \
          BN=$two,BM=64,BK=64,STAGES=8,IN_FLIGHT=1 > "$OUT/token_tiles_m$m.log" 2>&1
        summary+=("token_tiles M=$m: exit $?"); grep -E '^M=' "$OUT/token_tiles_m$m.log" | cut -c1-150
      done ;;
    share_w)
      # Rung 02's clusters sharing W (docs/decode.md, "Clusters of two sharing W") for another GPU
      # than the H200 whose rules take them: two tiles of half the rows on each 64-row tile of W,
      # 128-column k-tiles, at 56-64, 96 and 136 rows of five weights, against cuBLAS and this GPU's
      # rules (auto), into decode_share_w_m<M>_<gpu>.json.
      gpu=$(gpu_tag)
      for spec in "56 32 8" "64 32 8" "96 48 7" "136 72 6"; do
        set -- $spec
        timeout 120 python3 scripts/decode_sweep.py --kernel decode/02_swap_ab_wgmma --ms $1 --rounds 11 \
          --replicates 2 --nk 4096x4096 3072x3072 4096x2048 4096x14336 6144x4096 \
          --json "$OUT/decode_share_w_m${1}_$gpu.json" --cands \
          CLUSTER=2,SHARE_W=1,BM=64,BN=$2,BK=128,STAGES=$3,IN_FLIGHT=1 > "$OUT/share_w_m$1.log" 2>&1
        summary+=("share_w M=$1: exit $?"); grep -E '^M=' "$OUT/share_w_m$1.log" | cut -c1-150
      done ;;
    token_tile16)
      # Rung 02's tiles of 16 tokens (docs/decode.md, "Tiles of 16 tokens (H200)") for another GPU
      # than the H200 whose rules take them: this GPU's rung-02 choices at 4-16 rows with BN = 16,
      # against auto (the same choices with 32 where the rules name rung 02) and cuBLAS in the same
      # rounds, at the decode suite's weights and two more, into decode_token_tile16_<gpu>.json.
      gpu=$(gpu_tag)
      timeout 200 python3 scripts/decode_sweep.py --kernel decode/02_swap_ab_wgmma --ms 4 8 12 16 --rounds 11 \
        --replicates 2 --nk 8192x8192 14336x4096 6144x4096 4096x14336 4096x4096 10240x8192 4608x6144 \
        --json "$OUT/decode_token_tile16_$gpu.json" --cands \
        BN=16,BM=64,BK=128,STAGES=8,IN_FLIGHT=1,STAGGER=8 BN=16,BM=64,BK=128,STAGES=8,IN_FLIGHT=1,SPLITS=1,STAGGER=8 \
        BN=16,BM=128,BK=128,STAGES=4,IN_FLIGHT=0,STAGGER=8 BN=16,BM=64,BK=128,STAGES=4,IN_FLIGHT=0,STAGGER=8 \
        BN=16,BM=64,BK=128,STAGES=8,IN_FLIGHT=1,SPLITS=1 BN=16,BM=64,BK=64,STAGES=16,IN_FLIGHT=1,SPLITS=1,STAGGER=8 \
        > "$OUT/token_tile16.log" 2>&1
      summary+=("token_tile16: exit $?"); python3 scripts/sweep_table.py "$OUT/decode_token_tile16_$gpu.json" \
        --against auto | cut -c1-150 ;;
    two_small_tiles)
      # The H200's rule for 65-112 rows of weights of 2048-4096 rows (two tiles of 40-56 tokens;
      # docs/decode.md, "Beyond 64 tokens").
      rule_check decode_two_small_tiles_check two_token_tiles_at_65_to_112 m65_112_two_tiles \
        BM=64,BK=64,STAGES=8,IN_FLIGHT=1 "68 40,84 48,100 56,108 56" \
        2048x2048 2560x2560 3072x3072 3584x3584 4096x3072 2560x4096 ;;
    m65_112_rules)
      # The H200's rules at 65-112 rows: one tile of 72, 80 or 88 tokens on wide weights, and two
      # tiles of 40-56 on weights of 1024-2047 rows (docs/decode.md, "Beyond 64 tokens").
      rule_check m65_88_exact_token_tile_check "one_token_tile_at_65 or two_token_tiles_at_65" m65_88_exact \
        BM=64,BK=64,STAGES=8,IN_FLIGHT=1 "66 72,71 72,74 80,79 80,82 88,87 88" \
        7168x4096 4096x8192 11008x4096 6144x6144 28672x8192 20480x5120
      rule_check m65_112_narrow_two_tiles_check "" m65_112_narrow \
        BM=64,BK=64,STAGES=8,IN_FLIGHT=1 "66 40,78 40,94 48,106 56" \
        1280x5120 1536x4096 1024x3072 1920x2048 1152x8192 1024x1536 ;;
    m33_56_rules)
      # The H200's rule at 33-56 rows: the tokens in one tile of 40, 48 or 56 rather than 64
      # (docs/decode.md, "The H200 at 33-56 rows").
      rule_check m33_56_token_tile_check narrow_token_tile_at_33 m33_56_token_tile \
        BM=64,BK=128,STAGES=6,IN_FLIGHT=1 "34 40,38 40,43 48,46 48,50 56,54 56" \
        2048x2048 3072x3072 1536x4096 7168x4096 4096x11008 11008x4096 16384x4096 32000x4096 ;;
    m65_112_k_gap)
      # The H200's rules for the gaps at 65-112 rows of weights of 2048-4096 rows (K of 1024-2047;
      # K past 4096; docs/decode.md, "Beyond 64 tokens").
      rule_check m65_112_k_gap_two_tiles_check "one_token_tile_at_65 or two_token_tiles_at_65" m65_112_k_gap \
        BM=64,BK=64,STAGES=8,IN_FLIGHT=1 "68 40,92 48,108 56" 2560x1024 3584x1536 2048x1536 4096x1280 3072x1024
      rule_check m65_112_k_gap_rows97_check "" m65_112_k_gap \
        BM=64,BK=64,STAGES=8,IN_FLIGHT=1 "100 56,110 56" 2560x6144 3584x5120 2048x7168 4096x6144
      rule_check m65_112_k_gap_one_tile_check "" m65_112_k_gap \
        BM=64,BK=64,STAGES=8,IN_FLIGHT=1 "70 72,84 88" 2304x8192 2816x11008 3840x6144 2048x12288 3072x5120 ;;
    h200_gap_rules)
      # The H200's rules drawn from h200_gaps' sweep, checked on weights they were not drawn from
      # (docs/decode.md, "The last cells the H100's rule served", and "The H200 at 33-56 rows").
      rule_check m89_96_k_past_4096_check "one_token_tile_at_65 or two_token_tiles_at_65 or narrow_token_tile_at_33" \
        m89_96_k_past_4096 BM=128,BK=64,STAGES=8,IN_FLIGHT=1 "89 96,93 96,96 96" \
        2048x5120 2304x12288 2560x6144 3072x16383 3840x8192
      rule_check m113_192_narrow_two_tiles_check3 "" m113_192_narrow BM=64,BK=128,STAGES=5,IN_FLIGHT=1,SPLITS=1 \
        "114 64,140 72,160 80" 1152x2304 1408x3072 1792x1792 1024x1024 1280x7168 1664x4608
      rule_check m113_192_narrow_two_tiles_check3 "" m113_192_narrow BM=64,BK=64,STAGES=8,IN_FLIGHT=1 \
        "180 96" 1152x2304 1408x3072 1792x1792 1024x1024 1280x7168 1664x4608
      rule_check m33_56_short_k_check "" m33_56_short_k BM=64,BK=128,STAGES=6,IN_FLIGHT=1 "34 40,45 48,53 56" \
        1024x1024 2048x1536 6144x1024 10240x1280 3584x2047 14336x1024
      rule_check m33_56_wide_short_k_check "" m33_56_short_k BM=128,BK=128,STAGES=4,IN_FLIGHT=1 "34 40,44 48,55 56" \
        13824x1024 24576x1536 32000x2047 18432x1280 12288x2000
      rule_check m97_192_long_k_check "" m97_192_long_k BM=64,BK=64,STAGES=8,IN_FLIGHT=1 "100 56,110 56" \
        2304x12288 2816x9216 3328x10240 3840x16000 2048x13824
      rule_check m97_192_long_k_check "" m97_192_long_k BM=128,BK=128,STAGES=4,IN_FLIGHT=1 "136 72,160 80,184 96" \
        2304x12288 2816x9216 3328x10240 3840x16000 2048x13824
      rule_check m89_128_narrow_long_k_check "" m89_128_narrow_long_k BM=64,BK=64,STAGES=8,IN_FLIGHT=1 \
        "89 48,94 48,113 128,122 128,127 128" 1056x15360 1200x12800 1376x9728 1440x13312 1600x16384 1856x11264 2016x9472
      rule_check m65_192_narrow_weights_check "" m65_192_narrow_weights BM=64,BK=64,STAGES=8,IN_FLIGHT=1 \
        "68 72,100 112,140 144,188 192" 576x2048 704x5632 832x1536 960x11008 512x16384 1008x896 ;;
    a_edge)
      # Rung 06's ragged last tile-row of a K-major A loaded by boxes that stop at the tensor's edge
      # (A_EDGE = 1) or full-height ones (A_EDGE = 0): smoke runs, the GPU tests of the edge and of
      # the tilings it runs with, the sanitizers on the smoke shapes (300 rows: 44 ragged), then
      # both on ragged rows of three weights in the same rounds.
      K6=hopper/06_tma_store_epilogue
      variant_check a_edge "ragged_last_tile_row or tma_store or 06 or held or stream_k" \
        "$K6 $K6:BN=128 $K6:BN=128,CLUSTER=2 $K6:BM=64,BN=128 $K6:STREAM_K=1 $K6:HOLD=1 $K6:BM=256,BN=128 $K6:BN=128,A_EDGE=0" \
        "$K6:BN=128 $K6:BN=128,CLUSTER=2 $K6:BM=256,BN=128"
      timeout 200 python3 scripts/decode_sweep.py --kernel $K6 --ms 193 200 216 300 333 450 600 777 1000 \
        --rounds 9 --replicates 2 --nk 8192x8192 14336x4096 4096x4096 --json "$OUT/a_edge_rows_$(gpu_tag).json" \
        --cands BN=128 BN=128,A_EDGE=0 BN=256 BN=256,A_EDGE=0 BM=256,BN=128 BM=256,BN=128,A_EDGE=0 \
        > "$OUT/a_edge_rows.log" 2>&1
      summary+=("a_edge rows: exit $?") ;;
    m193_256_edge)
      # The H200's rules at 193-256 rows (warpgemm/dispatch.py; docs/decode.md, "193-256 rows"),
      # drawn from m193_256_edge_sweep_h200.json, checked on weights they were not drawn from
      # against the choices before them, with the tilings of every bucket as candidates; then
      # the GPU tests of their choices.
      timeout 200 python3 scripts/decode_sweep.py --kernel hopper/06_tma_store_epilogue --ms 196 216 232 256 \
        --rounds 9 --replicates 2 --before m193_256_edge --json "$OUT/m193_256_edge_check_$(gpu_tag).json" \
        --nk 12288x4096 13824x5120 16384x8192 22016x4096 24576x6144 32768x8192 4096x16384 7168x18432 \
        8192x22016 3072x4096 4096x2048 4096x3072 \
        --cands BN=128 BM=256,BN=128 BN=176 BN=256 BM=64,BN=128 > "$OUT/m193_256_edge_check.log" 2>&1
      summary+=("m193_256_edge check: exit $?")
      timeout 150 python3 -m pytest -p no:cacheprovider -m gpu -n 8 -q tests/test_hopper.py \
        -k "drawn_with_the_edge_boxes and m193_256_edge" > "$OUT/m193_256_edge_pytest.log" 2>&1
      summary+=("m193_256_edge pytest: $(grep -aE '[0-9]+ (passed|failed)' "$OUT/m193_256_edge_pytest.log" | tail -1)") ;;
    m257_bn176_edge)
      # The H200's 128 x 176 tiles from 257 rows and at 4096-wide weights (warpgemm/dispatch.py,
      # fuller_waves_at_bn176), drawn from m257_1023_edge_sweep_h200.json, checked where the test
      # fires on weights the sweep had not measured (and at 300 x 28672 x 4096, where it lost before
      # the edge boxes) against the choices before, with four other tilings as candidates; then
      # the GPU tests of its choice.
      timeout 200 python3 scripts/decode_sweep.py --kernel hopper/06_tma_store_epilogue --ms 530 600 640 \
        --rounds 9 --replicates 2 --before m257_1023_edge --json "$OUT/m257_1023_edge_check_n4096_$(gpu_tag).json" \
        --nk 4096x2048 4096x3072 4096x8192 4096x11008 \
        --cands BN=176 BN=128 BN=192 BN=256 BN=256,HOLD=1 > "$OUT/m257_1023_edge_check_n4096.log" 2>&1
      summary+=("m257_bn176_edge check, N = 4096: exit $?")
      timeout 200 python3 scripts/decode_sweep.py --kernel hopper/06_tma_store_epilogue --ms 264 320 380 \
        --rounds 9 --replicates 2 --before m257_1023_edge --json "$OUT/m257_1023_edge_check_m257_$(gpu_tag).json" \
        --nk 7168x4096 7168x8192 29568x8192 14336x8192 28672x4096 \
        --cands BN=176 BN=128 BN=192 BN=256 BN=256,HOLD=1 > "$OUT/m257_1023_edge_check_m257.log" 2>&1
      summary+=("m257_bn176_edge check, 257-383 rows: exit $?")
      timeout 150 python3 -m pytest -p no:cacheprovider -m gpu -n 8 -q tests/test_hopper.py \
        -k "drawn_with_the_edge_boxes and m257_1023_edge" > "$OUT/m257_bn176_edge_pytest.log" 2>&1
      summary+=("m257_bn176_edge pytest: $(grep -aE '[0-9]+ (passed|failed)' "$OUT/m257_bn176_edge_pytest.log" | tail -1)") ;;
    edge_rules_fp16)
      # The H200's rules drawn with the edge boxes (m193_256_edge, m257_1023_edge), measured and
      # checked in bf16, through auto in fp16 against the choices before, on weights of their checks.
      K6=hopper/06_tma_store_epilogue
      for spec in "m193_256_edge|200 240|13824x5120 16384x8192 22016x4096 32768x8192 7168x18432 4096x16384 3072x4096" \
                  "m257_1023_edge|300|7168x4096 28672x4096 14336x8192" "m257_1023_edge|600|4096x2048 4096x8192"; do
        IFS='|' read -r note ms nks <<< "$spec"
        # shellcheck disable=SC2086  # MS and NKS split into one argument each
        timeout 150 python3 scripts/decode_sweep.py --kernel $K6 --dtype float16 --ms $ms --rounds 9 --replicates 2 \
          --before "$note" --nk $nks --cands BN=128 \
          --json "$OUT/${note}_fp16_m${ms// /_}_$(gpu_tag).json" > "$OUT/${note}_fp16_m${ms// /_}.log" 2>&1
        summary+=("edge_rules_fp16 $note at $ms rows: exit $?")
      done ;;
    h200_small_m_rules)
      # The H200's own choices at 1-8 rows (rung 03 for one token, rung 04 for 2-8, rung 01 staggered
      # past K = 4096) and unsplit tiles at 33-64 rows of narrow weights (docs/decode.md, "The H200's
      # own choices") and clusters sharing W at 49-192 rows ("Clusters of two sharing W"): each
      # through auto against the choices before its rules (--before), on weights none of their
      # sweeps had, in bf16 and fp16; then the GPU tests of their choices. (The run in
      # small_m_rules_check_h200.json had 2816 x 4096 where 3840 x 4096 is now: the unsplit rule
      # lost there and starts at 3072 rows since; and it checked unsplit tiles at 50 and 62 rows,
      # which the clusters sharing W now take.)
      for dtype in bfloat16 float16; do
        for spec in "row_sweep_m1|decode/03_row_sweep|1|3072x4096 7168x4096 11008x8192 32000x2048" \
                    "row_sweep_mma|decode/04_row_sweep_mma|2 3 6|3072x4096 7168x4096 10240x2560 32000x2048" \
                    "stagger_m|decode/01_swap_ab_splitk|3 8|4096x10240 12288x8192 16384x5120" \
                    "unsplit_m33_64|decode/02_swap_ab_wgmma|38 44|3840x4096 4096x2560 3328x3328" \
                    "share_w|decode/02_swap_ab_wgmma|49 54 62|3840x4096 4096x2560 3328x3328 2304x3072" \
                    "share_w_m72_128|decode/02_swap_ab_wgmma|70 92 116|3328x6144 3584x4096 4096x5120" \
                    "share_w_m136_192|decode/02_swap_ab_wgmma|132 166 190|3072x5120 3584x6144 4096x3584"; do
          IFS='|' read -r note kernel ms nks <<< "$spec"
          # shellcheck disable=SC2086  # MS and NKS split into one argument each
          timeout 150 python3 scripts/decode_sweep.py --kernel "$kernel" --ms $ms --rounds 9 --replicates 2 \
            --dtype "$dtype" --before "$note" --cands --nk $nks \
            --json "$OUT/h200_small_m_${note}_${dtype}_$(gpu_tag).json" > "$OUT/h200_small_m_${note}_${dtype}.log" 2>&1
          summary+=("h200_small_m_rules $note $dtype: exit $?")
        done
      done
      timeout 150 python3 -m pytest -p no:cacheprovider -m gpu -n 8 -q tests/test_decode.py -k "h200s_own_choices or sharing_w" \
        > "$OUT/h200_small_m_pytest.log" 2>&1
      summary+=("h200_small_m_rules pytest: $(grep -aE '[0-9]+ (passed|failed)' "$OUT/h200_small_m_pytest.log" | tail -1)") ;;
    m193_256)
      # Rung 06 at 193-256 rows (docs/decode.md, "193-256 rows: a short second tile-row"): 128 x 128
      # and 128 x 256 tiles row by row, then both under ncu at 193 and 256 rows of 8192 x 8192.
      timeout 150 python3 scripts/decode_sweep.py --kernel hopper/06_tma_store_epilogue \
        --ms 193 200 208 216 224 240 256 --rounds 9 --replicates 2 --nk 8192x8192 14336x4096 \
        --json "$OUT/m193_256_rows_$(gpu_tag).json" --cands BN=128 BM=128,BN=256 > "$OUT/m193_256_rows.log" 2>&1
      summary+=("m193_256 rows: exit $?")
      for rows in 193 256; do
        for bn in 128 256; do
          ncu_pair_run "$OUT/m193_256_ncu_m${rows}_bn$bn.log" $rows 8192 8192 --kernel hopper/06_tma_store_epilogue:BN=$bn
          summary+=("m193_256 ncu $rows rows, BN $bn: exit $?")
        done
      done ;;
    k_past_16383)
      # The H200's rules at 65-96 and 129-192 rows past K = 16383 (docs/decode.md, "K past 16383"),
      # checked on weights they were not drawn from against the 128 x 128 tiles that ran before,
      # with one tile of tokens on 128-row tiles of W as a candidate; then the 128-row tiles at
      # 4225-5632 rows against the 64-row ones.
      held_out=(8192x29568 5120x25600 4608x20480 7168x18432 10240x24576 2560x17408 12288x20480 16384x53248)
      rule_check k_past_16383_check "one_token_tile_at_65" k_past_16383 BM=128,BK=64,STAGES=8,IN_FLIGHT=1 \
        "68 72,76 80,84 88,94 96" "${held_out[@]}"
      for spec in "132 144 6" "150 160 6" "170 176 5" "190 192 5"; do
        read -r m bn stages <<< "$spec"
        decode_check k_past_16383_check "$m" k_past_16383 "BN=$bn,BM=128,BK=64,STAGES=$stages,IN_FLIGHT=1" "${held_out[@]}"
      done
      for spec in "66 72 8" "80 80 8" "90 96 8" "130 144 8" "145 160 8" "162 176 7" "180 192 7"; do
        read -r m bn stages <<< "$spec"
        decode_check k_past_16383_bm128_check "$m" k_past_16383_bm128_check \
          "BN=$bn,BM=64,BK=64,STAGES=$stages,IN_FLIGHT=1" 4352x20480 4864x18432 5376x24576 5632x17408 4480x32768 5248x22528
      done ;;
    h200_gaps)
      # The cells at 33-192 rows the H200's own rules did not reach (docs/decode.md, "The last cells
      # the H100's rule served"; h200_gap_rules checks the rules drawn from it): the tile of tokens
      # as narrow as the rows against auto there, into
      # h200_gap_<what>_m<M>_<gpu>.json. 89-96 rows of weights of 2048-4095 rows with K past 4096;
      # 113-192 rows of weights of 1024-2047 rows; 33-56 rows of weights under 1024 rows or with K
      # under 2048.
      for m in 90 94; do
        decode_check h200_gap_k_past_4096 $m "" \
          "BN=96,BM=64,BK=64,STAGES=8,IN_FLIGHT=1 BN=48,BM=64,BK=64,STAGES=8,IN_FLIGHT=1" \
          2048x8192 3072x8192 2560x10240 3584x14336
      done
      decode_check h200_gap_narrow_w 120 "" \
        "BN=64,BM=64,BK=64,STAGES=8,IN_FLIGHT=1 BN=64,BM=64,BK=128,STAGES=7,IN_FLIGHT=1,SPLITS=1" \
        1024x4096 1536x1536 1024x8192 1792x4096
      for spec in "136 72 144" "160 80 160" "184 96 192"; do
        set -- $spec
        decode_check h200_gap_narrow_w "$1" "" \
          "BN=$2,BM=64,BK=64,STAGES=8,IN_FLIGHT=1 BN=$3,BM=64,BK=64,STAGES=7,IN_FLIGHT=1" \
          1024x4096 1536x1536 1024x8192 1792x4096
      done
      decode_check h200_gap_small_w_or_k 40 "" \
        "BN=40,BM=64,BK=128,STAGES=6,IN_FLIGHT=1 BN=40,BM=64,BK=64,STAGES=8,IN_FLIGHT=1" \
        512x4096 768x2048 4096x1024 8192x1536 ;;
    decode_m64_h200)
      # Rung 02 at 48 and 64 tokens on this GPU: 64- and 128-row tiles, a K split or not, and
      # clusters of two sharing the tokens. On an H200 the rules ran 64 x 4096 x 4096 at 0.89x
      # cuBLAS (13.8-14.2 us against 12.4-12.5, far from its 8.2 us read of the weight): with HBM
      # a third faster than the H100's, the tokens' L2 traffic (as many bytes as W's at BM = 64)
      # may weigh more there than on the H100, where clusters did not pay (docs/decode.md).
      gpu=$(gpu_tag)
      timeout 240 python3 scripts/decode_sweep.py --kernel decode/02_swap_ab_wgmma --ms 48 64 --rounds 7 \
        --nk 4096x4096 8192x8192 14336x4096 \
        --space "BM=64,128;BK=128;STAGES=4;IN_FLIGHT=0,1;SPLITS=0,1;STAGGER=8;CLUSTER=1,2" \
        --json "$OUT/decode_sweep_m64_$gpu.json" > "$OUT/decode_m64.log" 2>&1
      summary+=("decode_m64: exit $?"); grep -E '^M=' "$OUT/decode_m64.log" | cut -c1-150 ;;
    rules_as)
      # The shipped rules against another GPU's (RULES_AS, default the H100 SXM's) on the square
      # suite in bf16 and fp16 and the llm suite, alternating in processes of their own, ROUNDS
      # rounds (scripts/rules_as.py): whether that GPU's rules would serve this one too. Files
      # rules_as_<suite>_<ship|other>_<round>_<gpu>.json, then scripts/targets.py on each round.
      gpu=$(gpu_tag)
      for round in $(seq ${ROUNDS:-2}); do
        for v in ship other; do
          run=(python3 -m warpgemm.cli); [ $v = other ] && run=(python3 scripts/rules_as.py "${RULES_AS:-NVIDIA H100 80GB HBM3}")
          for suite in square square_fp16 llm; do
            args=(--suite ${suite%_fp16}); [ $suite = square_fp16 ] && args+=(--dtype float16)
            timeout 100 "${run[@]}" bench hopper --no-progress "${args[@]}" --kernels auto \
              --json "$OUT/rules_as_${suite}_${v}_${round}_$gpu.json" > "$OUT/rules_as_${suite}_${v}_${round}.log" 2>&1
            summary+=("rules_as $suite $v $round: exit $?")
          done
        done
      done
      for v in ship other; do for round in $(seq ${ROUNDS:-2}); do
        echo "== $v, round $round"
        python3 scripts/targets.py --square "$OUT/rules_as_square_${v}_${round}_$gpu.json" \
          --square-fp16 "$OUT/rules_as_square_fp16_${v}_${round}_$gpu.json" --llm "$OUT/rules_as_llm_${v}_${round}_$gpu.json" | grep -v '^\['
      done; done 2>&1 | tee "$OUT/rules_as.txt" ;;
    bn192)
      # 128 x 192 tiles where they fill the waves (dispatch._fuller_waves_at_bn192), against the
      # rules' choice, on this GPU (the rule is measured on the H100 SXM, and serves the H200 too).
      gpu=$(gpu_tag)
      timeout 200 python3 -m warpgemm.cli bench hopper --shapes 1024x6144x4096 768x4096x4096 4608x2048x2048 \
        1536x2048x8192 --b-layout col --kernels auto hopper/06_tma_store_epilogue:BN=192 --no-progress \
        --json "$OUT/hopper_bn192_$gpu.json" > "$OUT/bn192.log" 2>&1
      summary+=("bn192: exit $?"); grep -E "auto|BN=192" "$OUT/bn192.log" | tail -8 ;;
    one_wave)
      # Grids of half a wave or less (dispatch.one_wave_tile, measured on the H100 SXM): the
      # three single-block tiles and 2-block clusters against the rules' choice on this GPU.
      K6=hopper/06_tma_store_epilogue
      for dt in bfloat16 float16; do
        variant_bench one_wave_$dt "^ +M=|auto|hopper/" --dtype $dt --shapes 1024^3 2048x512x2048 1280x768x1024 \
          256x1024x4096 512x512x4096 1024x1024x4096 320x3000x1000 300x2500x3000 2048x1024x2048 1920x1024x2048 \
          2048x1024x4096 512x4096x2048 1536^3 1024x4096x4096 --kernels auto $K6 $K6:BN=128 $K6:BM=64,BN=128 $K6:CLUSTER=2
      done ;;
    held)
      # Held tiles (HOLD = 1) from 1.9 to 13.6 tiles of 128 x 256 a SM, in clusters of two and in
      # single blocks, against the rules' choice on this GPU (dispatch.more_than_two_tiles_a_block,
      # measured on the H100 SXM, and serving the H200 too).
      K6=hopper/06_tma_store_epilogue
      for dt in bfloat16 float16; do
        variant_bench held_$dt "^ +M=|auto|hopper/" --dtype $dt --shapes 2048x4096x4096 3072x4096x4096 4096^3 \
          4096x4096x2048 4096x6144x4096 8192^3 4096x14336x4096 1024x14336x4096 1024x16384x4096 1536x14336x4096 \
          --kernels auto $K6:CLUSTER=2 $K6:CLUSTER=2,HOLD=1 $K6 $K6:HOLD=1
      done ;;
    single_long_k)
      # 257-2047 rows, N of 6144-16383 and K > 4096: the rules' 2-block clusters against single
      # blocks, with and without held tiles (single blocks are the rule there up to K = 4096;
      # docs/hopper.md, "Not the rules' choice"). Run twice, in processes of their own.
      K6=hopper/06_tma_store_epilogue
      for run in 1 2; do
        variant_bench single_long_k_$run "^ +M=|auto|hopper/" --shapes 1024x8192x8192 1024x8192x28672 \
          1024x8192x14336 1024x6144x8192 1024x14336x8192 1536x8192x8192 1536x14336x8192 2047x12288x8192 \
          --kernels auto $K6 $K6:HOLD=1 $K6:CLUSTER=2
      done ;;
    single_long_k_rule)
      # The rule that came of single_long_k (dispatch.py: single blocks past K = 4096) against the
      # clusters it replaced, at the shapes measured and at others of the band, bf16 and fp16.
      K6=hopper/06_tma_store_epilogue
      for dt in bfloat16 float16; do
        variant_bench single_long_k_rule_$dt "^ +M=|auto|hopper/" --dtype $dt --shapes 512x8192x8192 \
          768x8192x8192 768x14336x8192 1024x12288x8192 1024x8192x8192 1024x14336x8192 1280x14336x8192 \
          1536x14336x8192 --kernels auto $K6:CLUSTER=2 $K6:CLUSTER=2,HOLD=1
      done ;;
    llm_variants)
      # The llm suite's shapes from 4096 rows (and 1024 x 4096 x 14336): the rules' choice against
      # single blocks and clusters of two, each with and without held tiles. Run twice, in
      # processes of their own.
      K6=hopper/06_tma_store_epilogue
      for run in 1 2; do
        variant_bench llm_variants_$run "^ +M=|auto|hopper/" --shapes 4096^3 4096x6144x4096 4096x14336x4096 \
          4096x4096x14336 4096x8192x8192 8192x4096x4096 1024x4096x14336 \
          --kernels auto $K6 $K6:HOLD=1 $K6:CLUSTER=2 $K6:CLUSTER=2,HOLD=1
      done ;;
    low_llm)
      # The llm suite's lowest shapes (1024 rows, K = 4096): the rules' choice against rung 06's
      # other tiles, the K split of the last wave or none, stream-K and clusters. Run twice.
      K6=hopper/06_tma_store_epilogue
      for run in 1 2; do
        variant_bench low_llm_$run "^ +M=|auto|hopper/" --shapes 1024x14336x4096 1024x4096x4096 1024x6144x4096 \
          --kernels auto $K6 $K6:HOLD=1 $K6:HOLD=1,SPLITS=1 $K6:SPLITS=1 $K6:BN=192 $K6:BN=128 $K6:BM=256,BN=128 \
          $K6:STREAM_K=1 $K6:HOLD=1,GROUP=16
      done ;;
    bn192_held)
      # 128 x 192 tiles (91% of the waves full at 1024 x 14336, against 85% for 128 x 256), held
      # or not, against the rules' choice at the 14336-wide weight's 1024 and 1280 rows.
      K6=hopper/06_tma_store_epilogue
      variant_bench bn192_held "^ +M=|auto|hopper/" --shapes 1024x14336x4096 1024x14336x8192 1280x14336x4096 \
        --kernels auto $K6 $K6:HOLD=1 $K6:BN=192 $K6:BN=192,HOLD=1 $K6:BN=192,HOLD=1,GROUP=16 ;;
    cluster_tail)
      # Shapes where 2-block clusters (the rules' choice) leave the last wave at most 87% full:
      # clusters take no K split of the last wave, single blocks do. The rules' choice against
      # single blocks, held and not.
      K6=hopper/06_tma_store_epilogue
      variant_bench cluster_tail "^ +M=|auto|hopper/" --shapes 1024x5120x4096 1280x5120x8192 1280x8192x8192 \
        1280x11008x8192 2048x5120x4096 2048x11008x4096 2560x4096x4096 3584x4096x4096 3072x6144x4096 5120x2048x4096 \
        --kernels auto $K6 $K6:HOLD=1 ;;
    loop_rate)
      # The main loop's rate against cuBLAS's: kernel durations on the GPU timeline at 4096 x 4096
      # over K (scripts/k_sweep_timeline.py), auto and rung 06's other configurations, each in a
      # rotation of its own; the slope over K is the rate (docs/hopper.md, "Kernel durations over K").
      K6=hopper/06_tma_store_epilogue
      timeout 200 python3 scripts/k_sweep_timeline.py --mn 4096x4096 --ks 512 4096 8192 --variants auto $K6:HOLD=1 \
        $K6:CLUSTER=2 $K6:CLUSTER=2,HOLD=1,IN_FLIGHT=1 > "$OUT/loop_rate_$(gpu_tag).txt" 2>&1
      summary+=("loop_rate: exit $? ($OUT/loop_rate_$(gpu_tag).txt)"); grep 'us:' "$OUT/loop_rate_$(gpu_tag).txt" ;;
    igemm_ab)
      # A change's effect on the int8 layouts that copy (igemm 04 CC, 05 RR, 09 CR) and on the Linear
      # layout (igemm 02 RC): kernel="auto" at 4096^3 and 8192^3, the tree in BEFORE (a directory
      # holding another tree's src/) and this one alternating, AB_ROUNDS rounds (default 2), each in
      # processes and a kernel cache of its own; ms a call as the bench measures it.
      [ -n "${BEFORE:-}" ] || { echo "igemm_ab: set BEFORE to a directory holding the tree to compare against"; continue; }
      for round in $(seq ${AB_ROUNDS:-2}); do
        for tree in before this; do
          tree_env $tree
          for lay in "col col" "row row" "col row" "row col"; do
            set -- $lay
            PYTHONPATH=$pp WARPGEMM_CACHE=$cache timeout 90 python3 -m warpgemm.cli bench igemm \
              --shapes 4096x4096x4096 8192x8192x8192 --a-layout $1 --b-layout $2 --kernels auto --no-progress \
              --json "$OUT/igemm_ab_${tree}_${round}_$1$2.json" > "$OUT/igemm_ab_${tree}_${round}_$1$2.log" 2>&1
            summary+=("igemm_ab $tree $round $1/$2: exit $? ($(grep 'warpgemm auto' "$OUT/igemm_ab_${tree}_${round}_$1$2.log" \
              | awk '{print $3}' | tr '\n' ' ')ms)")
          done
        done
      done ;;
    bn176)
      # 128 x 176 tiles (cuBLAS's width at 1024 x 14336: 656 tiles, 4.97 waves, no K split): the GPU
      # tests, compute-sanitizer on a ragged shape, then the bench at the 14336-wide weight's shapes
      # against the rules' choice, twice.
      K6=hopper/06_tma_store_epilogue
      timeout 300 python3 -m pytest -p no:cacheprovider -m gpu -n 12 -q tests/test_hopper.py -k "176" \
        > "$OUT/bn176_pytest.log" 2>&1
      summary+=("bn176 pytest: $(grep -aE '[0-9]+ (passed|failed)' "$OUT/bn176_pytest.log" | tail -1)")
      for tool in memcheck racecheck; do
        timeout 200 compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 9 \
          python3 scripts/profile_one.py $K6 1000 3000 500 --dtype bfloat16 --b-layout col -p BN=176 -p HOLD=1 \
          > "$OUT/bn176_$tool.log" 2>&1
        summary+=("bn176 $tool: exit $? ($(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/bn176_$tool.log" | tail -1))")
      done
      for run in 1 2; do
        variant_bench bn176_$run "^ +M=|auto|hopper/" --shapes 1024x14336x4096 1024x14336x8192 1280x14336x4096 \
          2048x14336x4096 1024x4096x4096 \
          --kernels auto $K6:BN=176 $K6:BN=176,HOLD=1 $K6:BN=176,STAGES=5 $K6:BN=176,HOLD=1,STAGES=5
      done ;;
    loop_rate_ab)
      # A change's effect on the main loop: rung 06 as auto at 4096 x 4096 over K on the timeline,
      # the tree in BEFORE (a directory holding another tree's src/) and this one alternating,
      # AB_ROUNDS rounds (default 2), each in processes and a kernel cache of its own; the fit lines
      # give each tree's us per 1024 of K and at K = 0.
      [ -n "${BEFORE:-}" ] || { echo "loop_rate_ab: set BEFORE to a directory holding the tree to compare against"; continue; }
      for round in $(seq ${AB_ROUNDS:-2}); do
        for tree in before this; do
          tree_env $tree
          PYTHONPATH=$pp WARPGEMM_CACHE=$cache timeout 150 python3 scripts/k_sweep_timeline.py --mn 4096x4096 \
            --ks 512 4096 8192 --variants auto > "$OUT/loop_rate_ab_${tree}_$round.txt" 2>&1
          summary+=("loop_rate_ab $tree $round: exit $? ($(grep 'fit:' "$OUT/loop_rate_ab_${tree}_$round.txt"))")
        done
      done ;;
    cluster_tail_rule)
      # The rule that came of cluster_tail (dispatch.clusters_end_part_full) at other shapes of the
      # kind, against the clusters it replaced.
      K6=hopper/06_tma_store_epilogue
      variant_bench cluster_tail_rule "^ +M=|auto|hopper/" --shapes 896x5120x4096 2304x3072x4096 2304x8192x4096 \
        2816x4096x4096 2816x11008x4096 3328x4096x8192 4608x4096x4096 7168x3072x4096 \
        --kernels auto $K6:CLUSTER=2 $K6:CLUSTER=2,HOLD=1 ;;
    ncu_sol)
      # The same pair under ncu's speed-of-light, compute and memory sections: L2 throughput as a
      # share of its peak (is the L2 the bound of rung 06's data waits?) and the pipes' use.
      # NCU_KERNEL=NAME[:P=V,...] profiles that kernel in place of auto.
      gpu=$(gpu_tag)
      timeout 200 ncu --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis \
        --section MemoryWorkloadAnalysis --section LaunchStats -k regex:"nvjet|hopper_" -s 4 -c 2 \
        python3 scripts/ncu_pair.py ${NCU_SHAPE:-4096 4096 4096} --kernel "${NCU_KERNEL:-auto}" > "$OUT/ncu_sol.log" 2>&1
      rc=$?
      python3 scripts/ncu_metrics.py "$OUT/ncu_sol.log" --json "$OUT/ncu_sol_$gpu.json" \
        --how "ncu speed of light, compute, memory and launch sections, cuBLAS then ${NCU_KERNEL:-auto} at ${NCU_SHAPE:-4096 4096 4096} (scripts/gpu_check.sh ncu_sol)"
      summary+=("ncu_sol: exit $rc ($OUT/ncu_sol_$gpu.json)") ;;
    hopper_ncu)
      # One ncu pass per Hopper rung at 4096^3 bf16 (Linear layout): tensor-pipe (wgmma) activity,
      # DRAM and L2, and where warps wait. docs/hopper.md quotes these.
      m=sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active
      m=$m,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
      m=$m,lts__t_sector_hit_rate.pct,gpu__time_duration.sum,sm__cycles_active.avg
      for r in long_scoreboard barrier wait math_pipe_throttle mio_throttle lg_throttle sleeping membar; do
        m=$m,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
      done
      : > "$OUT/hopper_ncu.log"
      for rung in $( [ -s "$OUT/hopper_ok" ] && cat "$OUT/hopper_ok" || python3 -c "from warpgemm import catalog; print(' '.join(s.name for s in catalog.kernels('hopper')))"); do
        echo "== $rung" >> "$OUT/hopper_ncu.log"
        timeout 90 ncu --clock-control none --metrics $m -k regex:hopper_ -s 1 -c 1 \
          python3 scripts/profile_one.py "$rung" 4096 4096 4096 --dtype bfloat16 --b-layout col --runs 2 \
          2>&1 | grep -vE '^==(PROF|WARNING)==' | grep -E 'hopper_|\.(pct|ratio|sum|avg)' >> "$OUT/hopper_ncu.log"
      done
      summary+=("hopper_ncu: $(grep -c '^==' "$OUT/hopper_ncu.log") rungs profiled, $OUT/hopper_ncu.log") ;;
    occupancy)
      # How many blocks of each cluster-launched Hopper rung run at once (the persistent grid).
      python3 - <<'PY' 2>&1 | tee "$OUT/occupancy.log"
from warpgemm import catalog
from warpgemm.runtime import compile_kernel
from warpgemm.runtime.device import sm_count
from warpgemm.runtime.launch import resident_blocks
for spec in catalog.kernels("hopper"):
    if "CLUSTER" not in spec.params and spec.cluster is None:
        continue
    inst = spec.instance("row", "col", "bfloat16", "bfloat16", {"CLUSTER": 2} if "CLUSTER" in spec.params else None)
    k = compile_kernel(inst.source, inst.name_expression, "sm_90a")
    r = resident_blocks(k, inst.block, inst.smem_bytes, inst.cluster, 0)
    print(f"{spec.name} cluster {inst.cluster} smem {inst.smem_bytes}: {r} resident blocks of {sm_count(0)} SMs; "
          f"grid at 8192^3 {inst.grid(8192, 8192, 8192, r)}")
PY
      summary+=("occupancy: $(tr '\n' ';' < "$OUT/occupancy.log")") ;;
    pack)
      # One archive of everything under $OUT (the machine returns a limited number of files).
      # Run it again after a step that timed out: it packs what is there.
      (cd "$OUT" && tar czf ../gpu_out.tgz --exclude=gpu_out.tgz . && find . -type f ! -name gpu_out.tgz -delete \
        && mv ../gpu_out.tgz .)
      summary+=("pack: $OUT/gpu_out.tgz") ;;
    ncu)
      # NCU_ARGS: e.g. "--section WarpStateStats"; NCU_CMD: the python command to profile.
      eval "ncu --clock-control none ${NCU_ARGS:---set full} -k regex:${NCU_KERNEL:-.} -c ${NCU_COUNT:-1} ${NCU_CMD}" \
        2>&1 | tee "$OUT/ncu.log" | grep -vE '^==PROF==' | tail -${NCU_TAIL:-80} ;;
    stalls)
      # Where warps wait, for one kernel (NCU_KERNEL) run by NCU_CMD.
      m=smsp__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
      m=$m,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__warps_eligible.avg.per_cycle_active
      m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
      m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,lts__t_sector_hit_rate.pct
      for r in barrier long_scoreboard short_scoreboard math_pipe_throttle mio_throttle wait not_selected \
               dispatch_stall lg_throttle selected no_instruction branch_resolving tex_throttle; do
        m=$m,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
      done
      eval "ncu --clock-control none --metrics $m -k regex:${NCU_KERNEL:-.} -c ${NCU_COUNT:-1} ${NCU_CMD}" \
        2>&1 | tee "$OUT/stalls.log" | grep -vE '^==(PROF|WARNING)==' | tail -${NCU_TAIL:-60} ;;
    *) echo "unknown step $step"; exit 2 ;;
  esac
done

echo "==================== summary ===================="
printf '%s\n' "${summary[@]}"

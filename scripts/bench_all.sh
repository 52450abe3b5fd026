#!/usr/bin/env bash
# The benchmarks behind docs/results/, on a GPU machine, in parts that each fit one short call:
#
#   scripts/bench_all.sh tune     mma.sync ceilings (with the occupancy sweep); tune
#                                 hgemm/07_tuned for the square (bf16 and fp16) and llm (bf16)
#                                 suites and save the tuning table as $OUT/hgemm_tuning.json
#   scripts/bench_all.sh tuned    the hgemm square (bf16, then fp16 with rungs 05-08) and llm
#                                 suites, with that table: the one just made in $WARPGEMM_CACHE,
#                                 or TUNING_TABLE=path from an earlier call
#   scripts/bench_all.sh rest     hgemm ragged and layouts suites, sgemm square suite
#   scripts/bench_all.sh power    scripts/power_draw.py: sustained rate, clock and board power
#
# No part: the first three. Results (JSON with context, PNG plots, one log) go to $OUT (default ./gpu_out).
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-gpu_out}
mkdir -p "$OUT"
export PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
export WARPGEMM_CACHE=${WARPGEMM_CACHE:-/tmp/warpgemm-cache}
log="$OUT/bench_all.log"
wg() { python3 -m warpgemm.cli "$@" 2>&1 | tee -a "$log" | grep -vE '^\s*$|^\s+\['; }
bench() {  # family suite
  wg bench "$1" --suite "$2" --no-progress --json "$OUT/$1_$2.json" --plot "$OUT/$1_$2.png" \
    | grep -E "M=|cuBLAS|$1/|wrote"
}
table() { python3 -c "from warpgemm.tuning import table; print(table.table_path())"; }
parts=("$@"); [ ${#parts[@]} -eq 0 ] && parts=(tune tuned rest)
for part in "${parts[@]}"; do
  case $part in
    tune)
      wg bench ceiling --occupancy --json "$OUT/ceiling.json"
      wg tune hgemm/07_tuned --suite square --dtype bfloat16 --no-progress
      wg tune hgemm/07_tuned --suite llm --dtype bfloat16 --no-progress
      wg tune hgemm/07_tuned --suite square --dtype float16 --no-progress
      cp "$(table)" "$OUT/hgemm_tuning.json" ;;
    tuned)
      if [ -n "${TUNING_TABLE:-}" ]; then t=$(table); mkdir -p "$(dirname "$t")"; cp "$TUNING_TABLE" "$t"; fi
      bench hgemm square
      wg bench hgemm --suite square --dtype float16 --no-progress --json "$OUT/hgemm_square_fp16.json" \
        --kernels hgemm/05_smem_swizzle hgemm/06_fragment_double_buffer hgemm/07_tuned hgemm/08_f16_accumulate \
        | grep -E "M=|cuBLAS|hgemm/|wrote"
      bench hgemm llm ;;
    rest)
      bench hgemm ragged
      bench hgemm layouts
      bench sgemm square ;;
    power)
      python3 scripts/power_draw.py --json "$OUT/power.json" 2>&1 | tee -a "$log" ;;
    *) echo "unknown part $part (tune | tuned | rest | power)"; exit 2 ;;
  esac
done

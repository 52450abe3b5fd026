#!/usr/bin/env bash
# The benchmarks behind docs/results/, in one call on a GPU machine: tune the tuned HGEMM rung
# for the square suite, then the square suites of both ladders and the mma.sync ceilings.
# Results (JSON with context, PNG plots, one log) go to $OUT (default ./gpu_out).
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-gpu_out}
mkdir -p "$OUT"
export PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
export WARPGEMM_CACHE=${WARPGEMM_CACHE:-/tmp/warpgemm-cache}
log="$OUT/bench_all.log"
wg() { python3 -m warpgemm.cli "$@" 2>&1 | tee -a "$log" | grep -vE '^\s*$'; }
wg bench ceiling --json "$OUT/ceiling.json"
wg tune hgemm/07_tuned --shapes ${TUNE_SHAPES:-1024x1024x1024 2048x2048x2048 4096x4096x4096 8192x8192x8192} \
   --dtype bfloat16 --no-progress | grep -vE '^\s+\[' 
cp "$WARPGEMM_CACHE"/tuning/*.json "$OUT/tuning.json" 2>/dev/null
wg bench hgemm --suite square --no-progress --json "$OUT/hgemm_square.json" --plot "$OUT/hgemm_square.png" \
   | grep -E 'M=|cuBLAS|hgemm/|wrote'
wg bench sgemm --suite square --no-progress --json "$OUT/sgemm_square.json" --plot "$OUT/sgemm_square.png" \
   | grep -E 'M=|cuBLAS|sgemm/|wrote'

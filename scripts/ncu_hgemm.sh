#!/usr/bin/env bash
# The ncu evidence behind docs/hgemm.md, on a GPU machine with ncu, in one call:
#   * L2 hit rate and DRAM traffic of rung 02 (row order) and 03 (block swizzle);
#   * shared-memory bank conflicts of rungs 05, 06 and 07: ncu's hardware counters, and its
#     per-instruction wavefronts against the ideal (scripts/ncu_shared_excess.py);
#   * where the tuned rung's warps wait, next to the mma.sync ceiling loop.
# NCU_SIZE (default 4096) is the square problem; NCU_PARTS (default "l2 banks stalls") picks parts.
# Everything is appended to $OUT/ncu_hgemm.txt (default ./gpu_out) and printed.
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-gpu_out}
mkdir -p "$OUT"
export PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
export WARPGEMM_CACHE=${WARPGEMM_CACHE:-/tmp/warpgemm-cache}
txt="$OUT/ncu_hgemm.txt"
N=${NCU_SIZE:-4096}
one() { echo "scripts/profile_one.py $1 $N $N $N --dtype bfloat16 --runs 1 ${*:2}"; }
prof() {  # title metrics kernel-regex command...
  echo "=== $1" >> "$txt"
  timeout 240 ncu --clock-control none --metrics "$2" -k "regex:$3" -c 1 python3 ${*:4} 2>&1 \
    | grep -vE '^==(PROF|WARNING)==' | grep -E '\.(sum|pct|ratio|per_second|per_cycle_active)' >> "$txt"
}
L2=lts__t_sector_hit_rate.pct,dram__bytes_read.sum,gpu__time_duration.sum
BANK=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
BANK=$BANK,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
STALL=smsp__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
STALL=$STALL,smsp__inst_executed.sum,sm__inst_executed_pipe_tensor_op_hmma.sum,gpc__cycles_elapsed.avg.per_second
for r in barrier long_scoreboard short_scoreboard math_pipe_throttle mio_throttle wait not_selected selected; do
  STALL=$STALL,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
done
parts=" ${NCU_PARTS:-l2 banks stalls} "
[[ $parts == *" l2 "* ]] && for r in 02_mma_ldmatrix 03_block_swizzle; do
  prof "L2 hgemm/$r ${N}^3" "$L2" hgemm $(one hgemm/$r)
done
[[ $parts == *" banks "* ]] && for r in 05_smem_swizzle 06_fragment_double_buffer 07_tuned; do
  prof "banks hgemm/$r ${N}^3" "$BANK" hgemm $(one hgemm/$r)
  echo "=== per-instruction shared wavefronts hgemm/$r ${N}^3" >> "$txt"
  timeout 240 ncu --clock-control none --section SourceCounters --page source --csv --print-source sass \
    -k regex:hgemm -c 1 python3 $(one hgemm/$r) > "$OUT/src.csv" 2>/dev/null
  python3 scripts/ncu_shared_excess.py "$OUT/src.csv" >> "$txt"
done
rm -f "$OUT/src.csv"
[[ $parts == *" stalls "* ]] && {
prof "stalls hgemm/07_tuned ${N}^3 ${TUNED_PARAMS:-}" "$STALL" hgemm $(one hgemm/07_tuned ${TUNED_PARAMS:-})
prof "stalls hgemm/06_fragment_double_buffer ${N}^3" "$STALL" hgemm $(one hgemm/06_fragment_double_buffer)
prof "stalls mma.sync ceiling loop" "$STALL" mma_ceiling -m warpgemm.cli bench ceiling
}
sed 's/  */ /g' "$txt"

#!/usr/bin/env bash
# A femc study as a Slurm job array without MPI: N array tasks each compute
# one shard (femc study --shard K/N) into a shared OUT, and a last job,
# started when all have ended well, assembles the report (--merge).
#   scripts/slurm-study-shards.sh STUDY N OUT [femc study options...]
# e.g. scripts/slurm-study-shards.sh conditioning 32 /scratch/femc --size full
# With MPI, `mpirun -n K femc study STUDY ...` does the same in one job and
# balances the cells' costs (studies/README.md).
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 STUDY N OUT [femc study options...]" >&2
  exit 2
fi
study=$1 n=$2 out=$3
shift 3
femc=${FEMC:-femc}
mkdir -p "$out"
array=$(sbatch --parsable --array=1-"$n" --job-name="femc-$study" \
  --wrap="$femc study $study --out $out --shard \${SLURM_ARRAY_TASK_ID}/$n $*")
sbatch --dependency=afterok:"$array" --job-name="femc-$study-merge" \
  --wrap="$femc study $study --out $out --merge $*"
echo "submitted: array $array ($n shards), then the merge"

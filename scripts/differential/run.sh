#!/bin/bash
# The differential campaign against the reference evaluator (docs/differential.md).
#
#   scripts/differential/run.sh PROFILE [VARIANTS] [WORK_DIR]
#
# Generates the campaign's networks from the benchmark's gold networks (located as the CLI
# locates data: COOKINGBOT_BENCHMARK, COOKINGBOT_BENCHMARK_2023, the fetch cache), scores them
# with the reference through the oracle kit (ORACLE, default ../shared/oracle; run its setup.sh
# PROFILE once), in shuffled chunks of 100 so that a partial run covers every kind, then
# compares with cookingbot and writes WORK_DIR/PROFILE-report.txt and WORK_DIR/PROFILE.tsv (the
# oracle's values, the form tests/data/differential/PROFILE.tsv keeps). A chunk already scored
# is not scored again. The oracle is a development instrument: nothing here runs in the tests.
set -euo pipefail
profile=${1:?usage: run.sh PROFILE [VARIANTS] [WORK_DIR]}
variants=${2:-6}
work=${3:-target/differential}
root=$(cd "$(dirname "$0")/../.." && pwd)
oracle=${ORACLE:-$root/../shared/oracle}
cd "$root"
cargo build --release --example differential
bin=target/release/examples/differential
mkdir -p "$work/$profile" "$work/oracle-$profile"
"$bin" generate "$profile" "$work/$profile" "$variants"
ls "$work/$profile"/*.solution | python3 -c '
import random, sys
files = sorted(line.strip() for line in sys.stdin)
random.Random(7).shuffle(files)
out = sys.argv[1]
for i in range(0, len(files), 100):
    open("%s/chunk-%03d.lst" % (out, i // 100), "w").write("\n".join(files[i:i + 100]) + "\n")
' "$work/oracle-$profile"
for list in "$work/oracle-$profile"/chunk-*.lst; do
    tsv=${list%.lst}.tsv
    [ -f "$tsv" ] && continue
    ORACLE_JOBS=${ORACLE_JOBS:-2} ORACLE_TIMEOUT=${ORACLE_TIMEOUT:-120} \
        ORACLE_HEAP_MB=${ORACLE_HEAP_MB:-4000} ORACLE_RES="$work/oracle-$profile/res" \
        "$oracle/run.sh" "$profile" "$tsv" $(cat "$list")
done
{ head -1 "$(ls "$work/oracle-$profile"/chunk-*.tsv | head -1)"
  for t in "$work/oracle-$profile"/chunk-*.tsv; do tail -n +2 "$t"; done; } > "$work/oracle-$profile.tsv"
"$bin" compare "$profile" "$work/oracle-$profile.tsv" "$work/$profile.tsv" | tee "$work/$profile-report.txt"

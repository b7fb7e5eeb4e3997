#!/usr/bin/env bash
# Builds sdk-bench/target/benchmarks.jar and runs every benchmark with settings modest enough for a
# 2-core machine, then prints each comparison (Stowage vs its anchor, same run) with its ratio and
# target, and the 50 MB overflow heap measurement.
#
#   sdk-bench/run-benchmarks.sh                 # everything (about 25 minutes on 2 cores)
#   sdk-bench/run-benchmarks.sh 'DynamoDbBench' # only the benchmarks matching a JMH regexp
#   SKIP_BUILD=1 JMH_OPTS='-f 1 -wi 1 -i 2' sdk-bench/run-benchmarks.sh CodecBench
#   ROUNDS=3 sdk-bench/run-benchmarks.sh CodecBench  # 3 rounds, compared by their medians
#
# The build includes the modules sdk-bench depends on (-am), so no stale installed copy is used.
# Results: sdk-bench/target/bench-results/<timestamp>/{jmh.json,compare.txt,heap.txt}.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  mvn -B -q -o -pl sdk-bench -am -Pbench -DskipTests package
fi
JAR=sdk-bench/target/benchmarks.jar
OUT=sdk-bench/target/bench-results/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
export DDB_LOCAL_TELEMETRY=0   # DynamoDB Local: no telemetry, no metadata file in the working dir

read -r -a OPTS <<< "${JMH_OPTS:--f 1 -wi 2 -i 3 -w 2s -r 3s}"
java -cp "$JAR" dev.stowage.bench.Compare --rounds "${ROUNDS:-1}" "${OPTS[@]}" -rf json -rff "$OUT/jmh.json" "$@" \
  | tee "$OUT/jmh.log" | sed -n '/^\(medians of\|comparison\)/,$p' | tee "$OUT/compare.txt"

if [[ $# -eq 0 || "$*" == *Overflow* ]]; then
  java -cp "$JAR" dev.stowage.bench.OverflowPeakHeap "${HEAP_ITEM_MB:-50}" | tee "$OUT/heap.txt"
fi
echo "results in $OUT"

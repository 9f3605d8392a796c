#!/usr/bin/env bash
# Set up the environment and run the whole test suite (what CI runs).
#   ./scripts/test.sh [pytest options]        the whole suite
#   ./scripts/test.sh tests/unit/... [opts]   only the given paths (one pytest run)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

# pytest exits 5 when it collected nothing: say so, and keep it a failure.
check_rc() {
    if [ "$1" -eq 5 ]; then
        echo "pytest collected no tests ($2)" >&2
    fi
}

for arg in "$@"; do
    if [ -e "${arg%%::*}" ]; then
        set +e
        .venv/bin/python -m pytest "$@"
        rc=$?
        set -e
        check_rc "$rc" "$*"
        exit "$rc"
    fi
done

# The whole suite as three pytest runs side by side: the Spark tests (one SparkSession for all of
# them), the notebooks (each starts its own kernel and Spark; ~4.5 min) and everything else. Most
# tests wait on timeouts, brokers and child processes rather than burn CPU (a whole run uses ~0.8 of
# the 2 cores on average), so the runs overlap well. The other runs' output follows the main one's.
# --durations keeps the slowest tests of each run visible in CI's log (last measured on 2 cores,
# session 8, two runs: unit+integration+peers 35 min with the notebooks, tests/spark 30 min with
# the crash tests' ~7.5 min; the notebooks were the largest block that needs no shared session).
NOTEBOOKS=tests/integration/test_notebooks.py
spark_log="$(mktemp -t pykafka-spark-tests.XXXXXX)"
notebooks_log="$(mktemp -t pykafka-notebook-tests.XXXXXX)"
trap 'rm -f "$spark_log" "$notebooks_log"' EXIT
set +e
.venv/bin/python -m pytest tests/spark --durations=25 "$@" >"$spark_log" 2>&1 &
spark_pid=$!
.venv/bin/python -m pytest "$NOTEBOOKS" --durations=5 "$@" >"$notebooks_log" 2>&1 &
notebooks_pid=$!
.venv/bin/python -m pytest tests/unit tests/integration tests/peers --ignore="$NOTEBOOKS" --durations=25 "$@"
rc_rest=$?
wait "$notebooks_pid"
rc_notebooks=$?
wait "$spark_pid"
rc_spark=$?
set -e
echo
echo "================ $NOTEBOOKS ================"
cat "$notebooks_log"
echo
echo "================ tests/spark ================"
cat "$spark_log"
check_rc "$rc_rest" "tests/unit tests/integration tests/peers"
check_rc "$rc_notebooks" "$NOTEBOOKS"
check_rc "$rc_spark" "tests/spark"
echo "tests/unit + tests/integration + tests/peers: exit $rc_rest; notebooks: exit $rc_notebooks; tests/spark: exit $rc_spark"
for rc in "$rc_rest" "$rc_notebooks" "$rc_spark"; do
    if [ "$rc" -ne 0 ]; then exit "$rc"; fi
done
exit 0

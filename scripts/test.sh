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

# The whole suite as two pytest runs side by side: the Spark tests (one SparkSession for all of
# them) and everything else. Most tests wait on timeouts, brokers and child processes rather
# than burn CPU, so on two cores this halves the wall time. The Spark run's output follows the
# other's.
# --durations keeps the slowest tests of each run visible in CI's log (last measured on 2 cores:
# unit+integration+peers ~22 min, tests/spark ~23 min with the Delta crash tests' ~6 min).
spark_log="$(mktemp -t pykafka-spark-tests.XXXXXX)"
trap 'rm -f "$spark_log"' EXIT
set +e
.venv/bin/python -m pytest tests/spark --durations=25 "$@" >"$spark_log" 2>&1 &
spark_pid=$!
.venv/bin/python -m pytest tests/unit tests/integration tests/peers --durations=25 "$@"
rc_rest=$?
wait "$spark_pid"
rc_spark=$?
set -e
echo
echo "================ tests/spark ================"
cat "$spark_log"
check_rc "$rc_rest" "tests/unit tests/integration tests/peers"
check_rc "$rc_spark" "tests/spark"
echo "tests/unit + tests/integration + tests/peers: exit $rc_rest; tests/spark: exit $rc_spark"
if [ "$rc_rest" -ne 0 ]; then exit "$rc_rest"; fi
exit "$rc_spark"

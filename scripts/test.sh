#!/usr/bin/env bash
# Set up the environment and run the whole test suite (what CI runs).
#   ./scripts/test.sh [pytest options]        the whole suite
#   ./scripts/test.sh tests/unit/... [opts]   only the given paths (one pytest run)
set -euo pipefail
cd "$(dirname "$0")/.."
whole_suite=1
for arg in "$@"; do
    if [ -e "${arg%%::*}" ]; then whole_suite=0; fi
done
if [ "$whole_suite" = 1 ]; then
    # the S3 server's first build (Go, ~3.4 min on a fresh machine) runs beside the tests; the S3
    # tests wait for it (peers/s3.py), and it is stopped at the end if still running. The CDS
    # archives (peers/cds.py, ~2 min) are built below, beside the unit tests.
    PYKAFKA_S3_BUILD=background PYKAFKA_CDS_BUILD=later ./scripts/setup.sh
else
    ./scripts/setup.sh
fi

# pytest exits 5 when it collected nothing: say so, and keep it a failure.
check_rc() {
    if [ "$1" -eq 5 ]; then
        echo "pytest collected no tests ($2)" >&2
    fi
}

if [ "$whole_suite" = 0 ]; then
    set +e
    .venv/bin/python -m pytest "$@"
    rc=$?
    set -e
    check_rc "$rc" "$*"
    exit "$rc"
fi

# The whole suite as three pytest runs side by side:
#   1. the Spark tests that share one SparkSession, and the JVM peers' own tests (tests/peers), then the
#      latency-bound group files of AFTER_SPARK;
#   2. the notebooks (each starts its own kernel and Spark), the Spark tests that run their queries
#      in child drivers (crash tests, spark-submit, a standalone cluster, separate drivers) and the
#      cluster-level differential tests of wave 3: none needs the shared session;
#   3. everything else (unit + integration).
# Most tests wait on timeouts, brokers and child processes rather than burn CPU, so the runs overlap
# well; the CPU share of the whole run is printed at the end (from /proc/stat) to keep that checked.
# The other runs' output follows the main one's; --durations lists every test of 10 s or more.
# Session 10 on 2 cores: this balance ran green in 40 min (CPU busy 76%); moving the unit tests into
# the Spark stream ran in 31 min but at 94% CPU a child Spark driver took > 120 s to start and its
# test failed: the CPU work, not the balance, is what is left to cut.
# Session 11: C1-only Spark JVMs and two Spark/Delta JVM starts less cut the CPU work by ~18% (2,897 s
# of CPU; printed per run below): this balance ran green in 33.5 min (CPU busy 75%). Moving four
# differential integration files after tests/peers ran 31.5 min at 86% CPU, and test_groups_churn
# beside the child drivers failed there (its members' sessions expired at load 12): kept as is.
NOTEBOOKS=tests/integration/test_notebooks.py
SPARK_CHILD_DRIVERS=(
    tests/spark/test_delta_crash.py
    tests/spark/test_exactly_once_crash.py
    tests/spark/test_deploy_cluster.py
    tests/spark/test_group_mode_procs.py
    tests/spark/test_pipelines_example.py
    tests/spark/test_delta_example.py
    tests/spark/test_demo.py
)
# wave 3's cluster-level differential tests (reassignment, features, share coordinator, the Raft
# quorum and its network partition): EmbeddedCluster and the Apache cluster, no shared session
shopt -s nullglob
CLUSTER_DIFFERENTIAL=(
    tests/integration/test_reassignment*.py
    tests/integration/test_features*.py
    tests/integration/test_share_cluster*.py
    tests/integration/test_raft_*.py
    tests/integration/test_share_leader_move*.py
    # not cluster-level, but long group files of the integration run (about 4 min in session 10's
    # run 1, where unit + integration ran 39 min and this run 26): they even the two out
    tests/integration/test_eos_cluster_churn.py
    tests/integration/test_consumer_group_client.py
    # the last two integration files on the 3-node Apache cluster: with them here the unit + integration run
    # starts no Apache cluster at all (session 13's run B: 17.6 s to start it there, then these files'
    # ~2 min; that run was the long pole at 32.2 min, this one ended 9.6 min earlier)
    tests/integration/test_kafka_semantics.py
    tests/integration/test_operator_tools.py
    # session 17: with the CDS archives this run ended ~6 min before unit + integration (the long pole, 32.7 min,
    # latency-bound at 0.5 cores); this file is ~1/6 of that run's CPU and minutes of its wall, and only
    # throughput-bound (no timing assertion)
    tests/integration/test_clients_roundtrip.py
    # session 23: a differential file that starts its own Apache broker (a 1 s group cleanup interval)
    tests/integration/test_groups_cleanup.py
)
# latency-bound group files of the integration run that start no Spark: they run after tests/spark and
# tests/peers, in the Spark run's idle tail. Session 13's run A (cold, green): unit + integration 30.5 min,
# Spark + peers 18.2, child drivers 19.5; these files' tests of >= 10 s alone summed ~4.5 min.
AFTER_SPARK=(
    tests/integration/test_kip848_*.py
    tests/integration/test_streams_group*.py
    tests/integration/test_replication_fault.py
    tests/integration/test_groups_failure.py
    tests/integration/test_classic_group_liveness.py
)
shopt -u nullglob
ignore_child_drivers=()
for f in "${SPARK_CHILD_DRIVERS[@]}"; do ignore_child_drivers+=("--ignore=$f"); done
ignore_rest=(--ignore="$NOTEBOOKS")
for f in "${CLUSTER_DIFFERENTIAL[@]}" "${AFTER_SPARK[@]}"; do ignore_rest+=("--ignore=$f"); done
DURATIONS=(--durations=0 --durations-min=10)
# Every Spark JVM the tests start through spark-submit (the shared session, child drivers, notebooks'
# kernels, the Delta peer) runs with C1-only JIT and the serial GC: these JVMs live seconds to
# minutes, and C2's compile threads were a large part of their CPU. Measured on this 2-core box (session
# 11): the README examples on local[2] took 49-57 s of CPU by default, 32-37 s with these options.
export SPARK_SUBMIT_OPTS="${SPARK_SUBMIT_OPTS:+$SPARK_SUBMIT_OPTS }-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
# Session 17: with the class-data-sharing archive of pyspark's jars (peers/cds.py), a PySpark start + job +
# stop took 8.3-9.5 s of CPU instead of 14.4-16.9 s, and the exactly-once crash test (5 child drivers) 86 s
# instead of 113 s. The archives take ~2 min (~2 min of CPU) to build on a fresh machine: they are built
# here beside the unit tests, which start no Spark (the long pole: their run is latency-bound), and the
# two Spark runs start once the build is done. Kafka's JVMs pick their archive up as soon as it exists.
with_spark_cds() {  # with_spark_cds command...: wait for the build, then run with the Spark archive
    while [ ! -e "$cds_done" ]; do sleep 1; done
    local opt
    opt=$(.venv/bin/python -m peers.cds opts spark)
    SPARK_SUBMIT_OPTS="$SPARK_SUBMIT_OPTS${opt:+ $opt}" "$@"
}
# CPU seconds of each run (every process it starts), where cgroup v1's cpuacct is writable (root on the
# CI machine): the runs share 2 cores, and which one burns them is what the next cut needs to know
cg_root=/sys/fs/cgroup/cpuacct
cg_for() {
    local cg="$cg_root/pykafka-tests-$$-$1"
    if [ -w "$cg_root" ] && mkdir -p "$cg" 2>/dev/null; then echo "$cg"; fi
}
in_cgroup() {  # in_cgroup CGROUP_DIR_OR_EMPTY command...
    local cg=$1
    shift
    if [ -n "$cg" ]; then bash -c '{ echo $$ >"$0/tasks"; } 2>/dev/null; exec "$@"' "$cg" "$@"; else "$@"; fi
}
cg_report() {  # cg_report CGROUP_DIR_OR_EMPTY label
    if [ -n "$1" ] && [ -r "$1/cpuacct.usage" ]; then
        awk -v ns="$(cat "$1/cpuacct.usage")" -v l="$2" 'BEGIN { printf "  %s: %.0f s of CPU\n", l, ns / 1e9 }'
        rmdir "$1" 2>/dev/null || true
    fi
}
# Free disk where the tests write (brokers' logs, Spark's temp dirs, Delta tables): a machine whose disk
# fills mid-run fails everywhere at once (brokers stop, clients time out), so the space is printed up
# front and again at the end, next to each run's failures.
disk_free() { df -Pm "${TMPDIR:-/tmp}" . | awk 'NR>1 { printf "%s %d MiB free; ", $6, $4 }'; echo; }
echo "disk before the tests: $(disk_free)"
cg_rest=$(cg_for rest)
cg_children=$(cg_for children)
cg_spark=$(cg_for spark)
cpu_ticks() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat; }  # busy (no idle, no iowait), all
read -r busy0 total0 < <(cpu_ticks)
t0=$SECONDS
spark_log="$(mktemp -t pykafka-spark-tests.XXXXXX)"
children_log="$(mktemp -t pykafka-child-driver-tests.XXXXXX)"
rest_log="$(mktemp -t pykafka-rest-tests.XXXXXX)"
# testsupport/cpu_durations.py lists each run's largest CPU consumers (tests and files) from its cgroup
DURATIONS+=(-p testsupport.cpu_durations)
cg_cds=$(cg_for cds)
cds_done="$spark_log.cds-done"
trap 'rm -f "$spark_log" "$children_log" "$rest_log" "$cds_done" "$spark_log.cds"' EXIT
(in_cgroup "$cg_cds" .venv/bin/python -m peers.cds build >"$spark_log.cds" 2>&1; touch "$cds_done") &
set +e
PYKAFKA_CPU_CGROUP="$cg_spark" with_spark_cds in_cgroup "$cg_spark" .venv/bin/python -m pytest tests/spark tests/peers \
    "${AFTER_SPARK[@]}" "${ignore_child_drivers[@]}" "${DURATIONS[@]}" "$@" >"$spark_log" 2>&1 &
spark_pid=$!
PYKAFKA_CPU_CGROUP="$cg_children" with_spark_cds in_cgroup "$cg_children" .venv/bin/python -m pytest "$NOTEBOOKS" \
    "${SPARK_CHILD_DRIVERS[@]}" "${CLUSTER_DIFFERENTIAL[@]}" "${DURATIONS[@]}" "$@" >"$children_log" 2>&1 &
children_pid=$!
PYKAFKA_CPU_CGROUP="$cg_rest" in_cgroup "$cg_rest" .venv/bin/python -m pytest tests/unit tests/integration \
    "${ignore_rest[@]}" "${DURATIONS[@]}" "$@" 2>&1 | tee "$rest_log"
rc_rest=${PIPESTATUS[0]}
wait "$children_pid"
rc_children=$?
wait "$spark_pid"
rc_spark=$?
set -e
read -r busy1 total1 < <(cpu_ticks)
s3_builder=peers/target/s3/.building
if [ -f "$s3_builder" ]; then  # no S3 test waited for it to finish: nothing outlives the tests
    kill -- "-$(cat "$s3_builder")" 2>/dev/null || true
    rm -f "$s3_builder"
fi
[ ! -f peers/target/s3/.failed ] || echo "the S3 server's build failed: peers/target/s3/build.log" >&2
echo
echo "================ $NOTEBOOKS + Spark tests with child drivers + cluster differential tests ================"
cat "$children_log"
echo
echo "================ tests/spark (shared session) + tests/peers + AFTER_SPARK ================"
cat "$spark_log"
# CI keeps only the tail of this output: repeat every run's failing tests here, last
summary_line() { grep -aE '[0-9]+ (passed|failed|errors?|skipped).* in [0-9.]+s' "$1" | tail -n 1 || true; }  # JVM and librdkafka logs may follow it
echo
echo "================ the CDS archives (peers/cds.py) ================"
cat "$spark_log.cds" 2>/dev/null; rm -f "$spark_log.cds"
echo
echo "================ failures of the three runs ================"
echo "tests/unit + tests/integration: $(summary_line "$rest_log")"; grep -aE '^(FAILED|ERROR) ' "$rest_log" | head -40 || true
echo "notebooks + Spark child drivers + cluster differential: $(summary_line "$children_log")"; grep -aE '^(FAILED|ERROR) ' "$children_log" | head -40 || true
echo "tests/spark + tests/peers: $(summary_line "$spark_log")"; grep -aE '^(FAILED|ERROR) ' "$spark_log" | head -40 || true
echo "disk after the tests: $(disk_free)"
check_rc "$rc_rest" "tests/unit tests/integration"
check_rc "$rc_children" "notebooks + Spark child drivers"
check_rc "$rc_spark" "tests/spark + tests/peers"
echo "tests/unit + tests/integration: exit $rc_rest; notebooks + Spark child drivers: exit $rc_children;" \
    "tests/spark + tests/peers: exit $rc_spark"
awk -v b=$((busy1 - busy0)) -v t=$((total1 - total0)) -v n="$(nproc)" -v s=$((SECONDS - t0)) \
    'BEGIN { if (t > 0) printf "tests took %d s; CPU busy %.0f%% of %d cores (%.2f cores on average)\n", s, 100*b/t, n, n*b/t }'
cg_report "$cg_rest" "tests/unit + tests/integration"
cg_report "$cg_children" "notebooks + Spark child drivers + cluster differential"
cg_report "$cg_spark" "tests/spark + tests/peers"
cg_report "$cg_cds" "the CDS archives' build"
for rc in "$rc_rest" "$rc_children" "$rc_spark"; do
    if [ "$rc" -ne 0 ]; then exit "$rc"; fi
done
exit 0

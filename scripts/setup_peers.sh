#!/usr/bin/env bash
# The test peers (run by ./scripts/setup.sh, hence by ./scripts/test.sh; never by ./scripts/demo.sh):
# the JVM peers, delta-spark's venv and the S3 server. Idempotent: a second run only checks.
# PYKAFKA_SKIP_PEERS=1 skips them (the peer tests then skip, except under CI=true where they fail).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ "${PYKAFKA_SKIP_PEERS:-0}" = "1" ]; then
    exit 0
fi

# The JVM peers (Apache Kafka, its tools and Java clients, Spark's Kafka connector, delta-spark):
# peers/pom.xml resolved by Maven into peers/target/{kafka,spark}-lib (cached in ~/.m2). A second
# run does nothing unless a pom or Java source changed.
jvm_peers() {
    stamp=peers/target/.resolved
    if [ ! -f "$stamp" ] || [ -n "$(find peers \( -name pom.xml -o -name '*.java' \) -newer "$stamp" -print -quit)" ]; then
        if ! command -v mvn >/dev/null || ! command -v java >/dev/null; then
            echo "setup_peers.sh: mvn/java not found: the JVM peer tests will skip" >&2
        else
            rm -rf peers/target/kafka-lib peers/target/spark-kafka-lib peers/target/delta-lib peers/target/spark-lib
            mvn -q -B -f peers/pom.xml package || mvn -q -B -f peers/pom.xml package
            touch "$stamp"
        fi
    fi
}
# delta-spark runs only in the Spark minor it was built for: a small venv of its own with the
# pyspark matching <spark.version> in peers/pom.xml (peers/delta_spark.py runs in it).
delta_spark_venv() {
    spark_version="$(sed -n 's:.*<spark.version>\(.*\)</spark.version>.*:\1:p' peers/pom.xml)"
    delta_venv=peers/target/delta-venv
    if [ -n "$spark_version" ] && ! "$delta_venv/bin/python" -c "import pyspark, sys; sys.exit(pyspark.__version__ != '$spark_version')" 2>/dev/null; then
        "$PYTHON" -m venv "$delta_venv"
        # setup.sh hands over its uv (PYKAFKA_UV): the same pyspark wheel then comes from uv's cache
        if [ -z "${PYKAFKA_UV:-}" ] || ! "$PYKAFKA_UV" pip install --quiet --compile-bytecode --python "$delta_venv/bin/python" \
            "pyspark==$spark_version" pyarrow; then
            "$delta_venv/bin/python" -m pip install --quiet "pyspark==$spark_version" pyarrow
        fi
    fi
}

# A real S3-compatible server for the object-storage tests (Delta tables on s3://, the S3 tiered
# store): versitygw, built from the Go module proxy into peers/target/s3/ (about two minutes the first
# time, cached afterwards; peers/s3.py says why this server). Without Go the S3 tests skip (and fail
# under CI=true).
s3_server() {
    vgw_version="$(sed -n 's/^VERSITYGW_VERSION = "\(.*\)"$/\1/p' peers/s3.py)"
    vgw_dir="peers/target/s3/versitygw-$vgw_version"
    go_bin="$(command -v go || echo /usr/local/go/bin/go)"
    if [ -n "$vgw_version" ] && [ ! -x "$vgw_dir/versitygw" ]; then
        if [ ! -x "$go_bin" ]; then
            echo "setup_peers.sh: go not found: the S3 tests will skip" >&2
        else
            mkdir -p "$vgw_dir"
            vgw_install() { GOBIN="$PWD/$vgw_dir" GOFLAGS=-mod=mod "$go_bin" install "github.com/versity/versitygw/cmd/versitygw@$vgw_version"; }
            vgw_install || vgw_install  # one retry, as for Maven: a flaky download should not fail setup
        fi
    fi
}

# `--s3-only`: only the S3 server (the detached build below runs this).
if [ "${1:-}" = "--s3-only" ]; then
    s3_server
    exit 0
fi

# The three are independent downloads and builds: side by side, and setup fails if any of them did.
# PYKAFKA_S3_BUILD=background (scripts/test.sh, whole suite): the S3 server's first build (Go: 3 min 23 s
# of a fresh machine's 3.5 min setup, measured in session 12; the JVM peers took 64 s) is left running
# detached while the tests start; peers/s3.py waits for it (`.building` holds the builder's pid, a
# failure leaves `.failed`), and only the S3 tests need it.
s3_dir=peers/target/s3
if [ "${PYKAFKA_S3_BUILD:-}" = background ] && ! ls "$s3_dir"/versitygw-*/versitygw >/dev/null 2>&1; then
    mkdir -p "$s3_dir"
    rm -f "$s3_dir/.failed"
    setsid nohup bash -c 'echo $$ >"$0/.building"; if ./scripts/setup_peers.sh --s3-only; then rm -f "$0/.building"; else touch "$0/.failed"; rm -f "$0/.building"; fi' \
        "$s3_dir" >"$s3_dir/build.log" 2>&1 </dev/null &
    for _ in $(seq 50); do [ -f "$s3_dir/.building" ] && break; sleep 0.1; done  # the marker before the tests look
    s3_server() { :; }
fi
jvm_peers &
jvm_pid=$!
delta_spark_venv &
delta_pid=$!
s3_server &
s3_pid=$!
status=0
wait "$jvm_pid" || { echo "setup_peers.sh: the JVM peers failed" >&2; status=1; }
wait "$delta_pid" || { echo "setup_peers.sh: delta-spark's venv failed" >&2; status=1; }
wait "$s3_pid" || { echo "setup_peers.sh: the S3 server's build failed" >&2; status=1; }
exit "$status"

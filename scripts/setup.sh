#!/usr/bin/env bash
# Create .venv at the repository root and install pykafka with its test/bench extras.
# Idempotent: a second run only checks that everything is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
    .venv/bin/python -m pip install --quiet --upgrade pip
fi
.venv/bin/python -m pip install --quiet -e '.[dev]'
# Bytecode for the checkout's packages, as pip writes it for installed ones: an editable install has
# none, and where PYTHONDONTWRITEBYTECODE=1 is set every new process (the broker CLI, each Spark Python
# worker and streaming query process) compiled all our modules again (issue 17: 0.2-1 s per start).
# Python checks each .pyc against its source's mtime, so an edited module is never run stale.
.venv/bin/python -m compileall -q -j 0 kafka_wire broker_embedded connector consumer_group offsets \
    schema_registry pyspark_pykafka pyspark_pykafka_delta pytest_pykafka pykafka_cli >/dev/null

# The schema registry's second conformance oracle, python-schema-registry-client, lives beside the
# venv's site-packages: its top-level package is also named `schema_registry` and would shadow ours
# (tests/integration/test_schema_registry.py puts it on the path of a child process only).
second_sr=.venv/second-sr-client
if [ ! -f "$second_sr/schema_registry/client/__init__.py" ]; then
    rm -rf "$second_sr.tmp"
    .venv/bin/python -m pip install --quiet --no-deps --target "$second_sr.tmp" python-schema-registry-client==2.6.1
    mv "$second_sr.tmp" "$second_sr"
fi

# The JVM peers (Apache Kafka, its tools and Java clients, Spark's Kafka connector, delta-spark):
# peers/pom.xml resolved by Maven into peers/target/{kafka,spark}-lib (cached in ~/.m2). A second
# run does nothing unless a pom or Java source changed. PYKAFKA_SKIP_PEERS=1 skips this step (the
# peer tests then skip, except under CI=true where they fail).
if [ "${PYKAFKA_SKIP_PEERS:-0}" != "1" ]; then
    stamp=peers/target/.resolved
    if [ ! -f "$stamp" ] || [ -n "$(find peers \( -name pom.xml -o -name '*.java' \) -newer "$stamp" -print -quit)" ]; then
        if ! command -v mvn >/dev/null || ! command -v java >/dev/null; then
            echo "setup.sh: mvn/java not found: the JVM peer tests will skip" >&2
        else
            rm -rf peers/target/kafka-lib peers/target/spark-kafka-lib peers/target/delta-lib peers/target/spark-lib
            mvn -q -B -f peers/pom.xml package || mvn -q -B -f peers/pom.xml package
            touch "$stamp"
        fi
    fi
    # delta-spark runs only in the Spark minor it was built for: a small venv of its own with the
    # pyspark matching <spark.version> in peers/pom.xml (peers/delta_spark.py runs in it).
    spark_version="$(sed -n 's:.*<spark.version>\(.*\)</spark.version>.*:\1:p' peers/pom.xml)"
    delta_venv=peers/target/delta-venv
    if [ -n "$spark_version" ] && ! "$delta_venv/bin/python" -c "import pyspark, sys; sys.exit(pyspark.__version__ != '$spark_version')" 2>/dev/null; then
        "$PYTHON" -m venv "$delta_venv"
        "$delta_venv/bin/python" -m pip install --quiet "pyspark==$spark_version" pyarrow
    fi
fi

# A real S3-compatible server for the object-storage tests (Delta tables on s3://, the S3 tiered
# store): versitygw, built from the Go module proxy into peers/target/s3/ (about two minutes the first
# time, cached afterwards; peers/s3.py says why this server). Skipped with PYKAFKA_SKIP_PEERS=1 like the
# JVM peers; without Go the S3 tests skip (and fail under CI=true).
if [ "${PYKAFKA_SKIP_PEERS:-0}" != "1" ]; then
    vgw_version="$(sed -n 's/^VERSITYGW_VERSION = "\(.*\)"$/\1/p' peers/s3.py)"
    vgw_dir="peers/target/s3/versitygw-$vgw_version"
    go_bin="$(command -v go || echo /usr/local/go/bin/go)"
    if [ -n "$vgw_version" ] && [ ! -x "$vgw_dir/versitygw" ]; then
        if [ ! -x "$go_bin" ]; then
            echo "setup.sh: go not found: the S3 tests will skip" >&2
        else
            mkdir -p "$vgw_dir"
            vgw_install() { GOBIN="$PWD/$vgw_dir" GOFLAGS=-mod=mod "$go_bin" install "github.com/versity/versitygw/cmd/versitygw@$vgw_version"; }
            vgw_install || vgw_install  # one retry, as for Maven: a flaky download should not fail setup
        fi
    fi
fi

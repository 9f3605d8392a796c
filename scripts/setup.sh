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

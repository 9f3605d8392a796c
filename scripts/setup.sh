#!/usr/bin/env bash
# Create .venv at the repository root and install pykafka.
#   ./scripts/setup.sh          the venv with every extra (tests, benches, notebooks) and the test peers
#                               (scripts/setup_peers.sh): what ./scripts/test.sh needs
#   ./scripts/setup.sh --demo   only what examples/demo.py uses (the `demo` extra), no test peers: what
#                               ./scripts/demo.sh needs (about 1 min the first time instead of ~9)
# Idempotent: a second run only checks that everything is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
extras=dev
peers=1
for arg in "$@"; do
    case "$arg" in
        --demo) extras=demo; peers=0 ;;
        *) echo "usage: $0 [--demo]" >&2; exit 2 ;;
    esac
done
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
# uv installs from the same index as pip, and in parallel: the `demo` extra into a new venv took 58 s
# with uv and 95 s with pip (both caches cold, load 3-5, session 9). pip stays the fallback, and
# PYKAFKA_NO_UV=1 asks for it.
uv=
if [ "${PYKAFKA_NO_UV:-0}" != 1 ]; then
    if [ -x .venv/bin/uv ] || .venv/bin/python -m pip install --quiet uv; then
        uv=.venv/bin/uv
    else
        echo "setup.sh: could not install uv; installing with pip" >&2
    fi
fi
export PYKAFKA_UV="$uv"  # setup_peers.sh's delta-spark venv uses it too (and shares its cache)
# --compile-bytecode: uv, unlike pip, writes no .pyc for what it installs, and where
# PYTHONDONTWRITEBYTECODE=1 is set (as on the CI machine) nothing writes them later: every new Python
# process (each Spark Python worker daemon, streaming source runner, child driver, notebook kernel, CLI
# subprocess of the tests) then compiled pyspark, pandas and pyarrow from source. Measured (session 12):
# `import pyspark.sql, pandas, pyarrow, confluent_kafka` took 2.8 s of CPU without bytecode, 0.75 s with
# it; compiling those packages once took 12 s of CPU. uv skips it when nothing is installed.
venv_install() {
    if [ -n "$uv" ] && "$uv" pip install --quiet --compile-bytecode --python .venv/bin/python "$@"; then
        return 0
    fi
    [ -z "$uv" ] || echo "setup.sh: uv failed; installing with pip" >&2
    .venv/bin/python -m pip install --quiet "$@"
}
# The test peers (Maven's jars, delta-spark's venv, a Go build of the S3 server) need nothing from
# .venv but uv: they are fetched while the venv installs, which roughly halves a fresh machine's setup.
peers_pid=
if [ "$peers" = 1 ]; then
    ./scripts/setup_peers.sh &
    peers_pid=$!
    trap '[ -n "$peers_pid" ] && kill "$peers_pid" 2>/dev/null; true' EXIT
fi
venv_install -e ".[$extras]"
# pyspark's Python workers run `python3` from PATH unless PYSPARK_PYTHON says otherwise: this .pth
# makes a job run as `.venv/bin/python job.py` (venv not activated) give its workers this venv's
# interpreter (pyspark_pykafka/worker_python.py). A wheel install ships it (setup.py); an editable
# install cannot, so it is written here.
.venv/bin/python -m pyspark_pykafka.worker_python --install-pth >/dev/null
# Bytecode for the checkout's packages, as pip writes it for installed ones: an editable install has
# none, and where PYTHONDONTWRITEBYTECODE=1 is set every new process (the broker CLI, each Spark Python
# worker and streaming query process) compiled all our modules again (issue 17: 0.2-1 s per start).
# Python checks each .pyc against its source's mtime, so an edited module is never run stale.
.venv/bin/python -m compileall -q -j 0 kafka_wire broker_embedded connector consumer_group offsets \
    schema_registry pyspark_pykafka pyspark_pykafka_delta pytest_pykafka pykafka_cli >/dev/null

if [ "$peers" = 1 ]; then
    # The schema registry's second conformance oracle, python-schema-registry-client, lives beside the
    # venv's site-packages: its top-level package is also named `schema_registry` and would shadow ours
    # (tests/integration/test_schema_registry.py puts it on the path of a child process only).
    second_sr=.venv/second-sr-client
    if [ ! -f "$second_sr/schema_registry/client/__init__.py" ]; then
        rm -rf "$second_sr.tmp"
        .venv/bin/python -m pip install --quiet --no-deps --target "$second_sr.tmp" python-schema-registry-client==2.6.1
        mv "$second_sr.tmp" "$second_sr"
    fi
    wait "$peers_pid"  # its exit status is setup's (set -e)
    peers_pid=
    # Class-data-sharing archives of Spark's and Kafka's classes (peers/cds.py): a Spark JVM start then
    # costs ~40 % less CPU, a Kafka tool's ~30 %. Built once (~2.5 min, ~2 min of CPU), rebuilt when java or the jars
    # change; a failure only leaves the JVMs without it.
    # (PYKAFKA_CDS_BUILD=later: scripts/test.sh builds them itself, beside the unit tests.)
    if [ "${PYKAFKA_CDS_BUILD:-}" != later ]; then
        .venv/bin/python -m peers.cds build || echo "setup.sh: no CDS archive (see peers/target/cds/*.log)" >&2
    fi
fi

#!/usr/bin/env bash
# Set up the environment and run the whole test suite (what CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
set +e
# Two workers: the Spark tests (one SparkSession) run on one of them, everything else is shared
# out; most integration tests wait on timeouts rather than burn CPU, so this halves the wall time.
.venv/bin/python -m pytest -n 2 --dist loadgroup "$@"
rc=$?
set -e
# pytest exits 5 when it collected nothing: treat an empty selection as a failure to notice,
# not as a silent pass.
if [ "$rc" -eq 5 ]; then
    echo "pytest collected no tests" >&2
fi
exit "$rc"

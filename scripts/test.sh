#!/usr/bin/env bash
# Set up the environment and run the whole test suite (what CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
set +e
.venv/bin/python -m pytest "$@"
rc=$?
set -e
# pytest exits 5 when it collected nothing: treat an empty selection as a failure to notice,
# not as a silent pass.
if [ "$rc" -eq 5 ]; then
    echo "pytest collected no tests" >&2
fi
exit "$rc"

#!/usr/bin/env bash
# Set up what the demo needs (the venv with the `demo` extra; not the test peers) and run the main demo.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh --demo
exec .venv/bin/python -m examples.demo "$@"

#!/usr/bin/env bash
# Set up the environment and run the main demo.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
exec .venv/bin/python -m examples.demo "$@"

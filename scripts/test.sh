#!/usr/bin/env bash
# The project's test command (named in README.md): all Maven tests, then the vectors cross-check in Python.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -ntp verify
python3 scripts/sperli-vectors.py --check

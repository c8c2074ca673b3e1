#!/usr/bin/env bash
# Everything CI runs: make .venv, install the project (not editable, so the tests exercise the
# installed wheel and its shipped templates) with its test tools, then pytest, ruff and mypy.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet '.[test]'
echo "== pytest"
.venv/bin/pytest --durations=25  # the slowest tests, so CI time is watched
echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mypy (strict)"
.venv/bin/mypy
echo "all checks passed"

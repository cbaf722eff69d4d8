#!/usr/bin/env bash
# Refresh the screenshots in docs/screenshots/ from a browser-test run (a plain test run never touches tracked
# files: it writes build/screenshots/).  Run ./scripts/test.sh once first, or pass pytest arguments to run
# only the browser tests here: ./scripts/refresh-screenshots.sh tests/web
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -gt 0 ]; then
  QIPAI_SCREENSHOTS=build/screenshots .venv/bin/python -m pytest -q "$@"
fi
shopt -s nullglob
shots=(build/screenshots/*.png)
if [ "${#shots[@]}" -eq 0 ]; then
  echo "no screenshots in build/screenshots/: run the browser tests first (./scripts/test.sh tests/web)" >&2
  exit 1
fi
mkdir -p docs/screenshots
cp -v "${shots[@]}" docs/screenshots/

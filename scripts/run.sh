#!/usr/bin/env bash
# Install qipai and start the server on SQLite (data in ./qipai-data), opening the browser.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
.venv/bin/pip install -q -e .
exec .venv/bin/qipai serve --open "$@"

#!/usr/bin/env bash
# Install qipai and start the server on SQLite (data in ./qipai-data), opening the browser.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_python
ensure_venv
.venv/bin/pip install -q -e .
exec .venv/bin/qipai serve --open "$@"

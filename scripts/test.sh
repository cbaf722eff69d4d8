#!/usr/bin/env bash
# Install everything the test suite needs and run it: lint, types, tests.
#
# Needs: Python >= 3.11, and root (or sudo) for Debian packages on a fresh machine.
# - Chromium from Debian (browser tests launch /usr/bin/chromium; no browser is downloaded).
# - Redis on 127.0.0.1:6379 for the several-nodes tests (QIPAI_TEST_REDIS_URL names another); started, or
#   installed from Debian's redis-server, when nothing answers.
# - PostgreSQL: tests use the server QIPAI_TEST_PG_URL names (default postgresql+asyncpg://postgres@127.0.0.1:5432/
#   postgres) and create a database of their own for each run; if no server answers on 127.0.0.1:5432 this
#   script installs Debian's postgresql and starts it (trust auth on loopback, as on CI machines).
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/lib.sh
ensure_python

# --- Chromium (Debian's) for the browser tests; Playwright's driver needs libatomic1; a CJK font makes the
# screenshots legible (fc-list :lang=zh is empty without one)
apt_install chromium libatomic1 fonts-noto-cjk

# --- PostgreSQL on 127.0.0.1:5432
pg_ready() { command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h 127.0.0.1 -p 5432; }
if [ -z "${QIPAI_TEST_PG_URL:-}" ] && ! pg_ready; then
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    apt_install postgresql
  fi
  echo "== starting postgresql"
  ver=$(ls /etc/postgresql | sort -V | tail -n 1)
  as_root pg_ctlcluster --skip-systemctl-redirect "$ver" main start || true
  for _ in $(seq 1 30); do pg_ready && break; sleep 1; done
  # trust auth on loopback for the test database, as on CI machines (first matching line wins)
  hba=/etc/postgresql/$ver/main/pg_hba.conf
  if ! as_root grep -q "qipai-test" "$hba"; then
    as_root sed -i '1i # qipai-test: trust loopback connections\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
    as_root pg_ctlcluster --skip-systemctl-redirect "$ver" main reload || true
  fi
fi
# --- Redis on 127.0.0.1:6379 (the several-nodes tests; QIPAI_TEST_REDIS_URL names another)
redis_ready() { (exec 3<>/dev/tcp/127.0.0.1/6379 && printf 'PING\r\n' >&3 && head -c 5 <&3 | grep -q PONG) 2>/dev/null; }
# (the binary in any case: a test starts a Redis of its own and stops it under a node)
command -v redis-server >/dev/null 2>&1 || apt_install redis-server
if [ -z "${QIPAI_TEST_REDIS_URL:-}" ] && ! redis_ready; then
  echo "== starting redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  for _ in $(seq 1 30); do redis_ready && break; sleep 0.5; done
fi

# --- Python environment
ensure_venv
echo "== installing qipai with test, benchmark, environment and Ray extras"
.venv/bin/pip install -q -e '.[dev,bench,envs,ray]'
# DouZero's engine is pure Python but declares torch; the differential test needs only its engine.
.venv/bin/pip install -q --no-deps 'douzero==1.1.0'

echo "== ruff"
.venv/bin/ruff check src tests bench
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
before=$(git status --porcelain 2>/dev/null || true)
status=0
# two workers by default (the suite's databases, ports and folders are per test, so workers never share one):
# CI machines have two cores and the suite takes about half the time; QIPAI_TEST_WORKERS=0 runs it in one
# process. The browser tests run after the rest, a test file to a worker (`--dist loadfile`: each file's Chromium
# and servers stay in one process); their timers allow a second test beside them (60-s turns, time_scale 3).
workers="${QIPAI_TEST_WORKERS:-2}"
if [ "$#" -gt 0 ]; then
  .venv/bin/python -m pytest -n "$workers" "$@" || status=$?
else
  .venv/bin/python -m pytest -n "$workers" --ignore=tests/web || status=$?
  .venv/bin/python -m pytest -n "$workers" --dist loadfile tests/web || status=$?
fi
after=$(git status --porcelain 2>/dev/null || true)
if [ "$before" != "$after" ]; then
  echo "the test run changed files in the checkout (tests must write under build/ or a temporary folder):" >&2
  diff <(echo "$before") <(echo "$after") >&2 || true
  [ "$status" = 0 ] && status=1
fi
exit "$status"

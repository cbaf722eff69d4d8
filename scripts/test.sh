#!/usr/bin/env bash
# Install everything the test suite needs and run it: lint, types, tests.
#
# Needs: Python >= 3.11, and root (or sudo) for Debian packages on a fresh machine.
# - Chromium from Debian (browser tests launch /usr/bin/chromium; no browser is downloaded).
# - PostgreSQL: tests use QIPAI_TEST_PG_URL (default postgresql+asyncpg://postgres@127.0.0.1:5432/test);
#   if no server answers there, this script installs Debian's postgresql, starts it and creates the database.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then $SUDO apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

# --- Chromium (Debian's) for the browser tests
if [ ! -x /usr/bin/chromium ]; then
  echo "== installing chromium (Debian)"
  apt_install chromium
fi

# --- PostgreSQL on 127.0.0.1:5432 with database 'test'
pg_ready() { command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h 127.0.0.1 -p 5432; }
if [ -z "${QIPAI_TEST_PG_URL:-}" ] && ! pg_ready; then
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    echo "== installing postgresql (Debian)"
    apt_install postgresql
  fi
  echo "== starting postgresql"
  ver=$(ls /etc/postgresql | sort -V | tail -n 1)
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$ver" main start || true
  for _ in $(seq 1 30); do pg_ready && break; sleep 1; done
  # trust auth on loopback for the test database, as on CI machines (first matching line wins)
  hba=/etc/postgresql/$ver/main/pg_hba.conf
  if ! $SUDO grep -q "qipai-test" "$hba"; then
    $SUDO sed -i '1i # qipai-test: trust loopback connections\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
    $SUDO pg_ctlcluster --skip-systemctl-redirect "$ver" main reload || true
  fi
fi
if [ -z "${QIPAI_TEST_PG_URL:-}" ] && pg_ready; then
  if ! psql -h 127.0.0.1 -U postgres -tAc "select 1 from pg_database where datname='test'" 2>/dev/null | grep -q 1; then
    psql -h 127.0.0.1 -U postgres -c "create database test" >/dev/null 2>&1 || true
  fi
fi

# --- Python environment
if [ ! -x .venv/bin/python ]; then
  echo "== creating .venv"
  python3 -m venv .venv
fi
echo "== installing qipai with test and benchmark extras"
.venv/bin/pip install -q -e '.[dev,bench]'
# DouZero's engine is pure Python but declares torch; the differential test needs only its engine.
.venv/bin/pip install -q --no-deps 'douzero==1.1.0'

echo "== ruff"
.venv/bin/ruff check src tests bench
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
exec .venv/bin/python -m pytest "$@"

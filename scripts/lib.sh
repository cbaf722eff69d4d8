# Shared by run.sh and test.sh: what a fresh Debian/Ubuntu machine needs, installed or clearly asked for.
# Sourced, not run.  Needs bash.

# QIPAI_NO_INSTALL=1: never install anything, only say what is missing.
SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else SUDO="__none__"; fi
fi
if [ -n "${QIPAI_NO_INSTALL:-}" ]; then SUDO="__none__"; fi
_apt_updated=""

# as_root CMD...: run a command as root (directly, or with sudo), or say that it needs root.
as_root() {
  if [ "$SUDO" = "__none__" ]; then
    echo "this needs root: $*" >&2
    return 1
  fi
  $SUDO "$@"
}

# apt_install PKG...: install Debian packages that are missing (with sudo when not root).
apt_install() {
  local missing=()
  for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if ! command -v apt-get >/dev/null 2>&1 || [ "$SUDO" = "__none__" ]; then
    echo "qipai needs these packages: ${missing[*]}" >&2
    echo "install them (as root: apt-get install -y ${missing[*]}) and run this again" >&2
    exit 1
  fi
  echo "== installing ${missing[*]} (Debian)"
  if [ -z "$_apt_updated" ]; then as_root apt-get update -qq; _apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
}

# ensure_python: a Python >= 3.11 that can make virtual environments.
ensure_python() {
  if ! command -v python3 >/dev/null 2>&1; then apt_install python3; fi
  if ! python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
    echo "qipai needs Python 3.11 or newer; python3 is $(python3 -V 2>&1)" >&2
    exit 1
  fi
  if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
    local v
    v=$(python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
    apt_install "python${v}-venv" || apt_install python3-venv
  fi
}

# ensure_venv: .venv with a working pip; a broken or half-made one (an earlier failed run) is made again.
ensure_venv() {
  if [ -e .venv ] && ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
    echo "== .venv is incomplete (an earlier run failed?): making it again"
    rm -rf .venv
  fi
  if [ ! -x .venv/bin/python ]; then
    echo "== creating .venv"
    if ! python3 -m venv .venv; then
      rm -rf .venv
      echo "could not create .venv with $(command -v python3)" >&2
      exit 1
    fi
  fi
}

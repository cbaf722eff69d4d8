"""The set-up scripts on a fresh machine: a half-made ``.venv`` is made again, missing Debian packages are named
when they cannot be installed, and the README's commands point at scripts that exist."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIB = ROOT / "scripts" / "lib.sh"


def bash(script: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **env})


def test_a_broken_venv_is_made_again(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    shutil.copy(LIB, tmp_path / "scripts" / "lib.sh")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)  # what a failed `python3 -m venv` leaves behind
    py = Path(sys.executable).resolve()
    r = bash(f'PATH="{py.parent}:$PATH"; . scripts/lib.sh; ensure_venv', tmp_path)
    assert r.returncode == 0, r.stderr
    assert "incomplete" in r.stdout
    ok = subprocess.run([str(tmp_path / ".venv" / "bin" / "python"), "-m", "pip", "--version"], capture_output=True)
    assert ok.returncode == 0


def test_missing_packages_are_named_when_they_cannot_be_installed(tmp_path: Path) -> None:
    r = bash(f". {LIB}; apt_install qipai-no-such-package-xyz; echo reached", tmp_path, QIPAI_NO_INSTALL="1")
    assert r.returncode == 1 and "reached" not in r.stdout
    assert "qipai-no-such-package-xyz" in r.stderr and "apt-get install -y" in r.stderr


def test_the_readme_commands_exist() -> None:
    readme = (ROOT / "README.md").read_text()
    for script in ("./scripts/run.sh", "./scripts/test.sh"):
        assert script in readme
        assert (ROOT / script).stat().st_mode & 0o111, f"{script} is not executable"
    assert "./scripts/test.sh" in (ROOT / ".ci" / "run").read_text()

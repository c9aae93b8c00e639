"""Every module of the package (python/pyproject.toml's [tool.mypy] files: all of
src/hpf_archive) passes `mypy --strict`."""

import subprocess
import sys

from conftest import ROOT


def test_the_package_passes_mypy_strict():
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT / "python",
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout

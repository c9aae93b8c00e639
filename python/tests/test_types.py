"""The modules written typed (the writer, the loaders, python/pyproject.toml's [tool.mypy]
files) pass `mypy --strict`; the reader's modules are typed with issue 44."""

import subprocess
import sys

from conftest import ROOT


def test_the_typed_modules_pass_mypy_strict():
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT / "python",
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout

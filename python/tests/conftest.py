"""Shared fixtures: where the repository is, and the Java CLI to make archives with."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLI_JAR = ROOT / "hpf-cli" / "target" / "hpf.jar"


@pytest.fixture(scope="session")
def java_hpf():
    """Runs the Java `hpf` command (built by the Maven half of scripts/test.sh)."""
    if not CLI_JAR.exists():
        pytest.fail(f"{CLI_JAR} is missing: build the project first (mvn package)")

    def run(*args):
        env = dict(os.environ, LC_ALL="C.UTF-8")
        subprocess.run(["java", "-cp", str(CLI_JAR), "io.hpf.cli.Main", *map(str, args)],
                       check=True, env=env, stdout=subprocess.DEVNULL)

    return run

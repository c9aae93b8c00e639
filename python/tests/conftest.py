"""Shared fixtures: where the repository is, and the Java CLI to make archives with."""

import os
import random
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


@pytest.fixture(scope="session")
def java_cli():
    """Runs the Java `hpf` command and gives back what it did (exit code, stdout, stderr)."""
    if not CLI_JAR.exists():
        pytest.fail(f"{CLI_JAR} is missing: build the project first (mvn package)")

    def run(*args, check=True):
        env = dict(os.environ, LC_ALL="C.UTF-8")
        done = subprocess.run(["java", "-cp", str(CLI_JAR), "io.hpf.cli.Main", *map(str, args)],
                              env=env, capture_output=True, text=True)
        if check and done.returncode != 0:
            raise AssertionError(f"hpf {' '.join(map(str, args))} exited {done.returncode}: "
                                 f"{done.stderr.strip()}")
        return done

    return run


def make_tree(root, seed, count):
    rnd = random.Random(seed)
    files = {}
    for i in range(count):
        depth = rnd.randrange(3)
        parts = [rnd.choice(["logs", "img", "données", "日本", "a b"]) + str(rnd.randrange(3))
                 for _ in range(depth)]
        name = "/".join(parts + [f"f{i}.{rnd.choice(['txt', 'bin', 'log'])}"])
        size = rnd.choice([0, 1, 100, 4096, rnd.randrange(20000), 70000])
        if rnd.random() < 0.5:
            data = rnd.randbytes(size)
        else:
            data = (f"{i} the quick brown fox jumps over the lazy dog\n" * (size // 45 + 1)).encode()[:size]
        files[name] = data
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return files


CSV = "2024/01/meta.csv"


@pytest.fixture(scope="session")
def tree(tmp_path_factory, java_hpf):
    """A source tree (unicode, spaces, empty entries, a CSV, a 3 MiB entry) and the archive the
    Java CLI made of it: (source directory, archive, {name: bytes})."""
    root = tmp_path_factory.mktemp("tree")
    files = make_tree(root / "src", 5, 120)
    extra = {CSV: b"city,year,visitors\nParis,2024,17\nOslo,2024,5\nLima,2023,9\n",
             "big/blob.bin": random.Random(6).randbytes(3 << 20)}
    for name, data in extra.items():
        p = root / "src" / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    files.update(extra)
    archive = root / "tree.hpf"
    java_hpf("create", "--codec", "zstd", archive, root / "src")
    return root / "src", archive, files

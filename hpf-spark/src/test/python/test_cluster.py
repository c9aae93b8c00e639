"""hpf on a real Spark standalone cluster: a master and two workers started from pip's pyspark (the
version the project builds against) with its bin/spark-class, each executor a JVM of its own.
`hpf spark-pack --master spark://...` runs through the launcher as a user types it, and must make
the archive `hpf create` makes of the same tree; PySpark reads (pushed-down filters, lookups) and
writes archives through the executors.

Run by scripts/test.sh after the build (it needs hpf-spark.jar and the hpf launcher).
"""

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pyspark
import pytest

from conftest import HPF, JAR, s3_options, session

SPARK_CLASS = Path(pyspark.__file__).parent / "bin" / "spark-class"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def workers_alive(ui_port):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{ui_port}/json/", timeout=2) as r:
            return json.load(r).get("aliveworkers", 0)
    except (OSError, ValueError):  # not up yet; a UI just started may answer its HTML page
        return 0


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """spark://127.0.0.1:PORT with two workers of one core each; everything stopped after."""
    assert JAR.is_file(), f"{JAR} is missing: build first (mvn package)"
    base = tmp_path_factory.mktemp("cluster")
    env = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1", SPARK_LOG_DIR=str(base / "logs"),
               SPARK_WORKER_DIR=str(base / "work"))
    port, ui = free_port(), free_port()
    processes = []

    def start(name, *args):
        log = open(base / f"{name}.log", "wb")
        processes.append(subprocess.Popen([str(SPARK_CLASS), *args], env=env, stdout=log,
                                          stderr=subprocess.STDOUT, start_new_session=True))

    start("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
          "--port", str(port), "--webui-port", str(ui))
    url = f"spark://127.0.0.1:{port}"
    for i in range(2):
        start(f"worker-{i}", "org.apache.spark.deploy.worker.Worker", url, "--host", "127.0.0.1",
              "--cores", "1", "--memory", "1g", "--webui-port", str(free_port()),
              "--work-dir", str(base / f"work-{i}"))
    try:
        deadline = time.time() + 120
        while workers_alive(ui) < 2:
            if time.time() > deadline:
                logs = "\n".join((base / f).read_text(errors="replace")[-2000:]
                                 for f in ("master.log", "worker-0.log", "worker-1.log"))
                pytest.fail(f"the standalone cluster did not come up:\n{logs}")
            time.sleep(0.5)
        yield {"url": url, "base": base}
    finally:
        for p in processes:
            p.terminate()
        for p in processes:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()


def executor_logs(base):
    """Executor stderr files the workers wrote: one per executor JVM they launched."""
    return sorted(base.glob("work-*/app-*/*/stderr"))


def make_tree(root, count=400):
    files = {}
    for i in range(count):
        name = f"d{i % 7}/sub{i % 3}/f-{i:04d}.{'txt' if i % 2 else 'bin'}"
        data = (f"{i} the quick brown fox\n" * (i % 50)).encode() if i % 2 else os.urandom(i * 3)
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        files[name] = data
    (root / "run.sh").write_bytes(b"#!/bin/sh\n")
    (root / "run.sh").chmod(0o750)
    files["run.sh"] = b"#!/bin/sh\n"
    (root / "link.txt").symlink_to(root / "d0" / "sub0" / "f-0000.bin")  # skipped, as by create
    (root / "linked-dir").symlink_to(root / "d1")
    return files


def hpf(*args, **kwargs):
    return subprocess.run([str(HPF), *map(str, args)], capture_output=True, text=True, **kwargs)


def listing(archive):
    """Each entry's size, mode and time. (How small files are grouped, and so a tiny file's codec,
    follows how the files were divided into tasks.)"""
    run = hpf("ls", "--json", archive)
    assert run.returncode == 0, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    return {r["name"]: (r["length"], r["mode"], r["mtime"]) for r in rows}


def test_spark_pack_on_a_cluster_makes_the_archive_create_makes(cluster, tmp_path):
    tree = tmp_path / "tree"
    files = make_tree(tree)
    created, packed = tmp_path / "created.hpf", tmp_path / "packed.hpf"
    assert hpf("create", created, tree).returncode == 0
    before = len(executor_logs(cluster["base"]))
    run = hpf("spark-pack", "--master", cluster["url"], "--task-mb", "1", tree, packed,
              timeout=600)
    assert run.returncode == 0, run.stderr
    assert f"packed {len(files)} files" in run.stdout, run.stdout
    assert "link.txt: symbolic link" in run.stderr, run.stderr
    assert len(executor_logs(cluster["base"])) > before, "the tasks ran in executor JVMs"
    assert listing(packed) == listing(created)
    out = tmp_path / "out"
    assert hpf("extract", packed, out).returncode == 0
    for name, data in files.items():
        assert (out / name).read_bytes() == data, name
    assert ((out / "run.sh").stat().st_mode & 0o777) == 0o750
    assert hpf("verify", packed).returncode == 0


@pytest.fixture(scope="module")
def hdfs(tmp_path_factory):
    """A real HDFS of a NameNode and three DataNode processes (hpf hdfs start); its URI."""
    home = tmp_path_factory.mktemp("hdfs")
    run = hpf("hdfs", "start", "--home", home, "--datanodes", 3, timeout=300)
    assert run.returncode == 0, run.stderr + run.stdout
    try:
        uri = hpf("hdfs", "status", "--home", home, "--uri").stdout.strip()
        assert uri.startswith("hdfs://127.0.0.1:"), uri
        # Its settings, as docs/HADOOP.md has users export them (a file's close does not wait).
        conf = hpf("hdfs", "status", "--home", home, "--conf-dir").stdout.strip()
        yield uri, dict(os.environ, HADOOP_CONF_DIR=conf)
    finally:
        hpf("hdfs", "stop", "--home", home, timeout=120)


@pytest.mark.long  # 45 s with its HDFS of three DataNodes: -Plong (the default suite's budget)
def test_spark_pack_from_hdfs_to_hdfs_on_the_cluster(cluster, hdfs, tmp_path):
    hdfs, env = hdfs
    tree = tmp_path / "tree"
    files = make_tree(tree, 120)  # each file put on HDFS costs a NameNode round trip or more
    for link in ("link.txt", "linked-dir"):
        (tree / link).unlink()  # HDFS has no symbolic links
    put = hpf("fs", "-put", tree, f"{hdfs}/incoming", env=env)
    assert put.returncode == 0, put.stderr
    created, packed = f"{hdfs}/data/created.hpf", f"{hdfs}/data/packed.hpf"
    assert hpf("create", created, f"{hdfs}/incoming", env=env).returncode == 0
    before = len(executor_logs(cluster["base"]))
    run = hpf("spark-pack", "--master", cluster["url"], "--task-mb", "1", f"{hdfs}/incoming",
              packed, timeout=600, env=env)
    assert run.returncode == 0, run.stderr
    assert f"packed {len(files)} files" in run.stdout, run.stdout
    assert len(executor_logs(cluster["base"])) > before, "the tasks ran in executor JVMs"
    assert listing(packed) == listing(created)
    some = sorted(files)[::20]
    cat = subprocess.run([str(HPF), "cat", packed, *some], capture_output=True)
    assert cat.returncode == 0 and cat.stdout == b"".join(files[n] for n in some)
    assert hpf("verify", packed).returncode == 0


def test_spark_pack_says_what_is_wrong_in_one_line_before_starting_spark(cluster, tmp_path):
    tree = tmp_path / "tree"
    make_tree(tree)
    existing = tmp_path / "existing.hpf"
    assert hpf("create", existing, tree).returncode == 0
    start = time.time()
    run = hpf("spark-pack", "--master", cluster["url"], tree, existing, timeout=120)
    assert run.returncode == 1
    assert run.stderr.strip() == f"hpf spark-pack: {existing}: the archive exists", run.stderr
    nowhere = f"spark://127.0.0.1:{free_port()}"
    run = hpf("spark-pack", "--master", nowhere, tree, tmp_path / "new.hpf", timeout=120)
    assert run.returncode == 1
    assert run.stderr.startswith(f"hpf spark-pack: cannot reach the Spark master at {nowhere}: ")
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert time.time() - start < 60, "told before Spark's start-up and retries"


@pytest.fixture(scope="module")
def spark(cluster):
    spark = session(cluster["url"], "hpf-cluster-test", **{"spark.executor.memory": "512m"})
    yield spark
    spark.stop()


def test_reads_and_writes_through_executors(spark, cluster, tmp_path):
    tree = tmp_path / "tree"
    files = make_tree(tree)
    archive = tmp_path / "a.hpf"
    assert hpf("create", archive, tree).returncode == 0
    df = spark.read.format("hpf").load(str(archive))
    rows = {r["name"]: bytes(r["content"]) for r in df.select("name", "content").collect()}
    assert rows == files
    big_txt = df.filter("name like 'd3/%' and length > 500 and name like '%.txt'").select("name")
    assert sorted(r["name"] for r in big_txt.collect()) == sorted(
        n for n, d in files.items() if n.startswith("d3/") and len(d) > 500 and n.endswith(".txt"))
    wanted = sorted(files)[::37]
    looked_up = df.where(df.name.isin(wanted)).select("name", "content").collect()
    assert {r["name"]: bytes(r["content"]) for r in looked_up} == {n: files[n] for n in wanted}

    out = tmp_path / "written.hpf"
    df.where("name like 'd2/%'").select("name", "content").repartition(4) \
        .write.format("hpf").save(str(out))
    back = spark.read.format("hpf").load(str(out))
    assert {r["name"]: bytes(r["content"]) for r in back.collect()} == {
        n: d for n, d in files.items() if n.startswith("d2/")}
    assert hpf("verify", out).returncode == 0
    assert executor_logs(cluster["base"]), "executors ran in JVMs of their own"
    shutil.rmtree(out)


@pytest.mark.long  # SeaweedFS and S3A: -Plong (the default suite's budget)
def test_executors_read_an_archive_in_s3_with_the_s3a_jar(spark, cluster, s3, tmp_path):
    """The executors (JVMs of their own, whose Spark has no S3A) read an archive in S3
    (SeaweedFS) with hpf-s3a.jar, shipped with the session's jars."""
    for key, value in s3.items():
        spark.sparkContext._jsc.hadoopConfiguration().set(key, value)
    tree = tmp_path / "tree"
    files = make_tree(tree)
    archive = f"s3a://hpf/cluster-{os.getpid()}/a.hpf"
    run = hpf("create", *s3_options(s3), archive, tree)
    assert run.returncode == 0, run.stderr
    df = spark.read.format("hpf").load(archive).repartition(4)
    assert {r["name"]: bytes(r["content"]) for r in df.select("name", "content").collect()} == files
    assert executor_logs(cluster["base"]), "executors ran in JVMs of their own"

"""PySpark reads and writes archives with the built hpf-spark.jar alone (no Python package).

Run by scripts/test.sh with pip's pyspark of the version the project builds against.
"""

import os
import random
import subprocess

import pytest

from conftest import HPF, s3_options, session


@pytest.fixture(scope="module")
def spark():
    spark = session("local[2]", "hpf-pyspark-test")
    yield spark
    spark.stop()


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A small tree of files and the archive `hpf create` makes of it."""
    base = tmp_path_factory.mktemp("tree")
    files = {}
    rnd = random.Random(7)
    for i in range(300):
        name = f"{2023 + i % 2}/{i % 12 + 1:02d}/log-{i:04d}.txt"
        data = bytes(rnd.getrandbits(8) for _ in range(rnd.randrange(0, 3000)))
        path = base / "src" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        files[name] = data
    archive = base / "logs.hpf"
    subprocess.run([str(HPF), "create", str(archive), str(base / "src")], check=True)
    return files, archive


def test_an_archive_is_a_dataframe(spark, tree):
    files, archive = tree
    df = spark.read.format("hpf").load(str(archive))
    assert df.columns == ["path", "name", "length", "modificationTime", "content", "attributes"]
    rows = {r["name"]: (r["length"], bytes(r["content"])) for r in df.collect()}
    assert rows == {name: (len(data), data) for name, data in files.items()}
    jan = df.filter("name like '2024/01/%' and length > 1024").select("name", "length")
    expected = {n for n, d in files.items() if n.startswith("2024/01/") and len(d) > 1024}
    assert {r["name"] for r in jan.collect()} == expected
    wanted = sorted(files)[::37] + ["no/such/name"]
    found = df.where(df.name.isin(wanted)).select("name", "content").collect()
    assert {r["name"]: bytes(r["content"]) for r in found} == {
        n: files[n] for n in wanted if n in files
    }


def test_a_dataframe_is_written_in_one_commit(spark, tree, tmp_path):
    files, archive = tree
    out = tmp_path / "copy.hpf"
    df = spark.read.format("hpf").load(str(archive))
    df.where("length > 100").write.format("hpf").save(str(out))
    more = spark.createDataFrame([("extra/a", b"alpha"), ("extra/b", b"beta")], ["name", "content"])
    more.write.format("hpf").mode("append").save(str(out))
    with pytest.raises(Exception, match="the archive exists"):
        more.write.format("hpf").save(str(out))
    back = {r["name"]: bytes(r["content"]) for r in spark.read.format("hpf").load(str(out)).collect()}
    expected = {n: d for n, d in files.items() if len(d) > 100}
    expected.update({"extra/a": b"alpha", "extra/b": b"beta"})
    assert back == expected
    verify = subprocess.run([str(HPF), "verify", str(out)], capture_output=True, text=True)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    log = subprocess.run([str(HPF), "log", str(out)], capture_output=True, text=True, check=True)
    assert len([l for l in log.stdout.splitlines() if "job" in l]) == 2, log.stdout


@pytest.mark.long  # SeaweedFS and S3A: -Plong (the default suite's budget)
def test_an_archive_in_s3_is_read_and_written_with_the_s3a_jar(spark, tree, s3, tmp_path):
    """hpf-s3a.jar gives Spark's Hadoop (which has no S3A) s3a://: an archive `hpf create` put in
    S3 (SeaweedFS) read as a DataFrame, and a DataFrame written there in one commit."""
    files, _ = tree
    for key, value in s3.items():
        spark.sparkContext._jsc.hadoopConfiguration().set(key, value)
    archive = f"s3a://hpf/pyspark-{os.getpid()}/logs.hpf"
    src = tmp_path / "src"
    for name, data in files.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_bytes(data)
    run = subprocess.run([str(HPF), "create", *s3_options(s3), archive, str(src)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    df = spark.read.format("hpf").load(archive)
    assert {r["name"]: bytes(r["content"]) for r in df.collect()} == files
    out = archive.replace("logs.hpf", "written.hpf")
    df.where("name like '2023/%'").write.format("hpf").save(out)
    ls = subprocess.run([str(HPF), "ls", *s3_options(s3), out], capture_output=True, text=True)
    assert ls.stdout.split() == sorted(n for n in files if n.startswith("2023/")), ls.stderr

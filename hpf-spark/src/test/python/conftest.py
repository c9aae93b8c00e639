"""What the PySpark tests share: where the build is, a session that loads the built jars, and a
real S3 server (SeaweedFS) where it is built."""

import sys
from pathlib import Path

import pytest
from pyspark.sql import SparkSession

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT / "python" / "tests"))  # seaweed.py: the S3 server the tests share
import seaweed  # noqa: E402

JAR = ROOT / "hpf-spark" / "target" / "hpf-spark.jar"
# S3A and the AWS SDK modules it calls, for clusters without them (Spark's Hadoop has no S3A).
S3A_JAR = ROOT / "hpf-hadoop" / "target" / "hpf-s3a.jar"
HPF = ROOT / "hpf"


def session(master, app, **conf):
    """A Spark session on `master` with hpf-spark.jar, the driver on loopback, no UI."""
    assert JAR.is_file() and S3A_JAR.is_file(), f"{JAR} or {S3A_JAR} is missing: mvn package"
    builder = (
        SparkSession.builder.master(master)
        .appName(app)
        .config("spark.jars", f"{JAR},{S3A_JAR}")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
    )
    for key, value in conf.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    return spark


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "long: runs minutes of the suite's budget; scripts/test.sh runs it with -Plong")


@pytest.fixture(scope="session")
def s3(tmp_path_factory):
    """A SeaweedFS server with bucket 'hpf': the S3A settings (as a dict) to reach it."""
    weed = seaweed.weed_binary()
    if weed is None:
        pytest.skip("SeaweedFS is not built here: scripts/install-seaweedfs.sh builds it (once)")
    base = tmp_path_factory.mktemp("seaweed")
    with seaweed.running(weed, base, "hpf", "HPFSPARK", "hpf-spark-secret") as endpoint:
        yield {"fs.s3a.endpoint": endpoint,
               "fs.s3a.endpoint.region": "us-east-1", "fs.s3a.path.style.access": "true",
               "fs.s3a.access.key": "HPFSPARK", "fs.s3a.secret.key": "hpf-spark-secret"}


def s3_options(settings):
    """The settings as the CLI's -D options."""
    return [arg for key, value in settings.items() for arg in ("-D", f"{key}={value}")]

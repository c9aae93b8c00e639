"""What the PySpark tests share: where the build is, and a session that loads the built jar."""

from pathlib import Path

from pyspark.sql import SparkSession

ROOT = Path(__file__).resolve().parents[4]
JAR = ROOT / "hpf-spark" / "target" / "hpf-spark.jar"
HPF = ROOT / "hpf"


def session(master, app, **conf):
    """A Spark session on `master` with hpf-spark.jar, the driver on loopback, no UI."""
    assert JAR.is_file(), f"{JAR} is missing: build first (mvn package)"
    builder = (
        SparkSession.builder.master(master)
        .appName(app)
        .config("spark.jars", str(JAR))
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

"""What the PySpark tests share: where the build is, a session that loads the built jars, and a
real S3 server (SeaweedFS) where it is built."""

import os
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from pyspark.sql import SparkSession

ROOT = Path(__file__).resolve().parents[4]
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


def weed_binary():
    """SeaweedFS's weed, built by scripts/install-seaweedfs.sh, or None."""
    if os.environ.get("HPF_WEED"):
        return Path(os.environ["HPF_WEED"])
    built = sorted((Path.home() / ".cache" / "hpf").glob("seaweedfs-*/weed"))
    return built[-1] if built else None


def free_ports(n):
    """Free ports whose companions 10000 above (SeaweedFS's gRPC ports) are free too."""
    ports = []
    while len(ports) < n:
        with socket.socket() as s, socket.socket() as grpc:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
            if port >= 55000:
                continue
            try:
                grpc.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
            if port not in ports:
                ports.append(port)
    return ports


@pytest.fixture(scope="session")
def s3(tmp_path_factory):
    """A SeaweedFS server with bucket 'hpf': the S3A settings (as a dict) to reach it."""
    weed = weed_binary()
    if weed is None:
        pytest.skip("SeaweedFS is not built here: scripts/install-seaweedfs.sh builds it (once)")
    base = tmp_path_factory.mktemp("seaweed")
    (base / "s3.json").write_text(
        '{"identities":[{"name":"hpf","credentials":[{"accessKey":"HPFSPARK","secretKey":'
        '"hpf-spark-secret"}],"actions":["Admin","Read","Write","List"]}]}')
    master, volume, filer, s3_port, admin, webdav = free_ports(6)
    log = open(base / "weed.log", "wb")
    # `weed mini`: master, volume server, filer and S3 gateway in one process, quick to start.
    server = subprocess.Popen(
        [str(weed), "mini", f"-dir={base}", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
         f"-master.port={master}", f"-volume.port={volume}", f"-filer.port={filer}",
         f"-s3.port={s3_port}", f"-admin.port={admin}", f"-webdav.port={webdav}",
         "-admin.port.legacy=0", "-s3.port.iceberg=0", "-s3.port.lance=0", "-admin.ui=false",
         f"-s3.config={base / 's3.json'}", "-master.telemetry=false"],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.time() + 60
        while True:  # the bucket is a directory of the filer's, once the filer is up
            try:
                urllib.request.urlopen(urllib.request.Request(
                    f"http://127.0.0.1:{filer}/buckets/hpf/", method="POST"), timeout=2)
                break
            except OSError:
                assert server.poll() is None and time.time() < deadline, \
                    (base / "weed.log").read_text(errors="replace")[-2000:]
                time.sleep(0.3)
        yield {"fs.s3a.endpoint": f"http://127.0.0.1:{s3_port}",
               "fs.s3a.endpoint.region": "us-east-1", "fs.s3a.path.style.access": "true",
               "fs.s3a.access.key": "HPFSPARK", "fs.s3a.secret.key": "hpf-spark-secret"}
    finally:
        server.terminate()
        server.wait(30)


def s3_options(settings):
    """The settings as the CLI's -D options."""
    return [arg for key, value in settings.items() for arg in ("-D", f"{key}={value}")]

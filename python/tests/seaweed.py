"""A real S3 server for tests: SeaweedFS's `weed mini` (master, volume server, filer and S3
gateway in one process), built once by scripts/install-seaweedfs.sh. Shared by the Python
package's tests and the PySpark tests."""

import contextlib
import os
import socket
import subprocess
import time
import urllib.request
from pathlib import Path


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


@contextlib.contextmanager
def running(weed, base, bucket, access, secret, anonymous_reads=False):
    """A SeaweedFS server in `base` with `bucket`, keys (access, secret): yields its S3 endpoint.
    With `anonymous_reads`, a GET without a signature reads too (as curl does)."""
    anonymous = ',{"name":"anonymous","actions":["Read","List"]}' if anonymous_reads else ""
    (base / "s3.json").write_text(
        '{"identities":[{"name":"hpf","credentials":[{"accessKey":"%s","secretKey":"%s"}],'
        '"actions":["Admin","Read","Write","List"]}%s]}' % (access, secret, anonymous))
    master, volume, filer, s3_port, admin, webdav = free_ports(6)
    log = open(base / "weed.log", "wb")
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
                    f"http://127.0.0.1:{filer}/buckets/{bucket}/", method="POST"), timeout=2)
                break
            except OSError:
                assert server.poll() is None and time.time() < deadline, \
                    (base / "weed.log").read_text(errors="replace")[-2000:]
                time.sleep(0.3)
        yield f"http://127.0.0.1:{s3_port}"
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:  # its shutdown sometimes hangs on clients' open
            server.kill()  # kept-alive connections; the data directory is the test's anyway
            server.wait(30)
        log.close()


@contextlib.contextmanager
def required(tmp_path_factory, bucket, access, secret):
    """A server for a test module: yields (endpoint, s3fs's storage options). SeaweedFS missing is
    a failure: scripts/test.sh builds it first."""
    import pytest

    weed = weed_binary()
    if weed is None:
        pytest.fail("SeaweedFS is not built: scripts/install-seaweedfs.sh builds it (test.sh does)")
    with running(weed, tmp_path_factory.mktemp("weed"), bucket, access, secret) as endpoint:
        yield endpoint, {"key": access, "secret": secret,
                         "client_kwargs": {"endpoint_url": endpoint}}

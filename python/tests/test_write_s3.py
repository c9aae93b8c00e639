"""Archives written from Python straight into S3 (SeaweedFS, a real S3 server, through s3fs):
read back by Python and verified and read by the Java CLI through s3a://; the lock holds there
too."""

import pytest

import hpf_archive as hpf
import seaweed

ACCESS, SECRET = "HPFPY", "hpf-python-secret"


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    with seaweed.required(tmp_path_factory, "data", ACCESS, SECRET) as (endpoint, _):
        yield endpoint


def _options(endpoint):
    return {"key": ACCESS, "secret": SECRET, "client_kwargs": {"endpoint_url": endpoint}}


def _java_s3(endpoint):
    return ["-D", f"fs.s3a.endpoint={endpoint}", "-D", "fs.s3a.endpoint.region=us-east-1",
            "-D", "fs.s3a.path.style.access=true", "-D", f"fs.s3a.access.key={ACCESS}",
            "-D", f"fs.s3a.secret.key={SECRET}"]


def test_python_writes_into_s3_and_java_reads_it_back(s3, java_cli, tmp_path):
    options = _options(s3)
    expected = {f"img/{i:04d}.jpg": bytes([i % 251]) * (i * 37 % 5000) for i in range(300)}
    with hpf.create("s3://data/train.hpf", storage_options=options) as w:
        for name, data in expected.items():
            w.add(name, data)
    with hpf.append("s3://data/train.hpf", storage_options=options) as w:
        w.delete("img/0007.jpg")
        w.add("img/0008.jpg", b"replaced", replace=True)
        w.add("extra/big.bin", bytes(range(256)) * 9000)  # 2.2 MiB: in chunks
    del expected["img/0007.jpg"]
    expected["img/0008.jpg"] = b"replaced"
    expected["extra/big.bin"] = bytes(range(256)) * 9000
    with hpf.open("s3://data/train.hpf", storage_options=options) as a:
        assert a.manifest.writer_settings.codec == 2  # zstd where reads are remote, as Java's
        assert {e.name: a.get(e.name) for e in a.list()} == expected
    java_cli("verify", *_java_s3(s3), "s3a://data/train.hpf")
    java_cli("extract", *_java_s3(s3), "s3a://data/train.hpf", tmp_path / "out")
    for name, data in expected.items():
        assert (tmp_path / "out" / name).read_bytes() == data


def test_a_lock_in_s3_is_refused_with_its_holder(s3):
    import s3fs

    options = _options(s3)
    with hpf.create("s3://data/locked.hpf", storage_options=options) as w:
        w.add("a", b"a")
    fs = s3fs.S3FileSystem(**options)
    fs.pipe("data/locked.hpf/hpf.lock", b"host elsewhere, pid 42, since 2026-01-01T00:00:00Z")
    with pytest.raises(hpf.ArchiveLocked, match="host elsewhere, pid 42"):
        hpf.append("s3://data/locked.hpf", storage_options=options)
    fs.rm("data/locked.hpf/hpf.lock")
    with hpf.append("s3://data/locked.hpf", storage_options=options) as w:
        w.add("b", b"b")
    assert not fs.exists("data/locked.hpf/hpf.lock")


def test_signed_http_reads_what_s3fs_reads_and_says_why_it_cannot(s3):
    options = _options(s3)
    with hpf.create("s3://data/signed.hpf", storage_options=options) as w:
        for i in range(200):
            w.add(f"s/{i:03d}", b"%d;" % i * (i * 7 % 900))
    signed = dict(options, signed_http=True)
    with hpf.open("s3://data/signed.hpf", storage_options=signed) as a, \
            hpf.open("s3://data/signed.hpf", storage_options=options) as b:
        names = [e.name for e in a.list()]
        assert names == [e.name for e in b.list()] and len(names) == 200
        assert a.read_many(list(a.list())) == [b.get(n) for n in names]
        assert a.get("s/042") == b"42;" * (42 * 7 % 900)
    ds = hpf.StreamingDataset("s3://data/signed.hpf", shuffle=True, seed=2, storage_options=signed)
    assert sorted(name for name, _ in ds) == names
    with pytest.raises(OSError, match="403"):
        hpf.open("s3://data/signed.hpf", storage_options=dict(signed, secret="wrong"))
    with pytest.raises(FileNotFoundError):
        hpf.open("s3://data/none.hpf", storage_options=signed)

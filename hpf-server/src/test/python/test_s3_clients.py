"""hpf serve's S3 API read by the clients people use, unchanged: boto3, s3fs and the AWS CLI.

The archive is made with ./hpf create from a tree of files with unicode, spaces and a large file,
served by ./hpf serve --s3-keys as a user starts it; every answer is compared with the tree.
"""

import os
import random
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import boto3
import botocore
import pytest
import s3fs
from botocore.config import Config

ROOT = Path(__file__).resolve().parents[4]
HPF = ROOT / "hpf"
ACCESS, SECRET = "HPFPYTEST", "py/secret+key"
NAMES = ["a.txt", "top two.txt", "2024/01/cat.jpg", "2024/01/dog.jpg", "2024/02/ünï çödé.txt",
         "2024/02/日本語.txt", "docs/emoji😀.md", "docs/deep/er/file.bin", "large/blob.bin"]


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(endpoint, tree): the tree packed into photos.hpf and served with keys."""
    base = tmp_path_factory.mktemp("s3")
    tree, archives = base / "tree", base / "archives"
    rng = random.Random(7)
    files = {}
    for name in NAMES:
        size = 3_000_000 if name.startswith("large/") else rng.randrange(0, 5000)
        files[name] = rng.randbytes(size)
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_bytes(files[name])
    archives.mkdir()
    subprocess.run([str(HPF), "create", str(archives / "photos.hpf"), str(tree)], check=True)
    (base / "keys.txt").write_text(f"{ACCESS} {SECRET}\n")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([str(HPF), "serve", str(archives), "--port", str(port),
                               "--s3-keys", str(base / "keys.txt")])
    endpoint = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while True:
        try:
            urllib.request.urlopen(endpoint + "/_health")
        except urllib.error.HTTPError:
            break  # up: it refuses the unsigned request
        except OSError:
            assert server.poll() is None and time.time() < deadline, "hpf serve did not start"
            time.sleep(0.2)
    yield endpoint, files, tree
    server.terminate()
    server.wait(30)


def client(endpoint, secret=SECRET, access=ACCESS):
    return boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=access,
                        aws_secret_access_key=secret, region_name="us-east-1",
                        config=Config(s3={"addressing_style": "path"}, signature_version="s3v4",
                                      retries={"max_attempts": 1}))


def test_boto3_lists_and_reads_every_file(served):
    endpoint, files, _ = served
    s3 = client(endpoint)
    assert [b["Name"] for b in s3.list_buckets()["Buckets"]] == ["photos"]
    pages = s3.get_paginator("list_objects_v2").paginate(Bucket="photos", PaginationConfig={"PageSize": 3})
    listed = {o["Key"]: o["Size"] for page in pages for o in page.get("Contents", [])}
    assert listed == {name: len(content) for name, content in files.items()}
    top = s3.list_objects_v2(Bucket="photos", Delimiter="/")
    assert sorted(o["Key"] for o in top["Contents"]) == ["a.txt", "top two.txt"]
    assert [p["Prefix"] for p in top["CommonPrefixes"]] == ["2024/", "docs/", "large/"]
    for name, content in files.items():
        got = s3.get_object(Bucket="photos", Key=name)
        assert got["Body"].read() == content, name
        if len(content) < 100_000:  # (the pure-Python CRC is slow)
            assert got["ETag"] == '"%08x"' % crc32c(content), name
        assert s3.head_object(Bucket="photos", Key=name)["ContentLength"] == len(content)
    large = files["large/blob.bin"]
    part = s3.get_object(Bucket="photos", Key="large/blob.bin", Range="bytes=1000000-1000999")
    assert part["Body"].read() == large[1_000_000:1_001_000]


def test_boto3_errors_are_s3s(served):
    endpoint, _, _ = served
    s3 = client(endpoint)
    cases = [
        (lambda: s3.get_object(Bucket="photos", Key="no/such.txt"), "NoSuchKey"),
        (lambda: s3.list_objects_v2(Bucket="nobucket"), "NoSuchBucket"),
        (lambda: s3.put_object(Bucket="photos", Key="new.txt", Body=b"x"), "MethodNotAllowed"),
        (lambda: s3.delete_object(Bucket="photos", Key="a.txt"), "MethodNotAllowed"),
        (lambda: s3.get_object(Bucket="photos", Key="a.txt", Range="bytes=999999-"), "InvalidRange"),
        (lambda: client(endpoint, secret="wrong").list_buckets(), "SignatureDoesNotMatch"),
        (lambda: client(endpoint, access="NOBODY").list_buckets(), "InvalidAccessKeyId"),
    ]
    for call, code in cases:
        with pytest.raises(botocore.exceptions.ClientError) as e:
            call()
        assert e.value.response["Error"]["Code"] == code


def test_presigned_urls_work_until_they_expire(served):
    endpoint, files, _ = served
    s3 = client(endpoint)
    url = s3.generate_presigned_url("get_object", Params={"Bucket": "photos", "Key": "2024/02/日本語.txt"},
                                    ExpiresIn=60)
    assert urllib.request.urlopen(url).read() == files["2024/02/日本語.txt"]
    short = s3.generate_presigned_url("get_object", Params={"Bucket": "photos", "Key": "a.txt"},
                                      ExpiresIn=1)
    time.sleep(2.1)
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(short)
    assert e.value.code == 403 and b"<Code>AccessDenied</Code>" in e.value.read()


def test_s3fs_finds_lists_and_reads(served):
    endpoint, files, _ = served
    fs = s3fs.S3FileSystem(key=ACCESS, secret=SECRET, client_kwargs={"endpoint_url": endpoint},
                           config_kwargs={"s3": {"addressing_style": "path"}}, use_listings_cache=False)
    assert sorted(p[len("photos/"):] for p in fs.find("photos")) == sorted(files)
    assert sorted(fs.ls("photos/2024/01/", detail=False)) == ["photos/2024/01/cat.jpg", "photos/2024/01/dog.jpg"]
    assert fs.isdir("photos/docs/deep") and fs.isfile("photos/a.txt")
    assert fs.cat("photos/2024/02/ünï çödé.txt") == files["2024/02/ünï çödé.txt"]
    with fs.open("photos/large/blob.bin", "rb", block_size=256 * 1024) as f:
        f.seek(2_500_000)
        assert f.read(5000) == files["large/blob.bin"][2_500_000:2_505_000]


def aws(endpoint, *args):
    cli = shutil.which("aws") or os.environ.get("HPF_AWS_CLI")
    if cli is None:
        pytest.skip("the AWS CLI is not installed (scripts/test.sh installs it from PyPI)")
    env = dict(os.environ, AWS_ACCESS_KEY_ID=ACCESS, AWS_SECRET_ACCESS_KEY=SECRET,
               AWS_DEFAULT_REGION="us-east-1", AWS_CONFIG_FILE="/dev/null")
    return subprocess.run([cli, "--endpoint-url", endpoint, "s3", *args], env=env,
                          check=True, capture_output=True).stdout


def test_aws_cli_lists_and_copies(served, tmp_path):
    endpoint, files, tree = served
    listing = aws(endpoint, "ls", "--recursive", "s3://photos/").decode()
    assert sorted(line.split(None, 3)[3] for line in listing.splitlines()) == sorted(files)
    assert aws(endpoint, "cp", "s3://photos/docs/emoji😀.md", "-") == files["docs/emoji😀.md"]
    aws(endpoint, "cp", "--recursive", "s3://photos/", str(tmp_path / "copy"))
    assert subprocess.run(["diff", "-r", str(tree), str(tmp_path / "copy")]).returncode == 0

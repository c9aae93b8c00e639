"""hpf serve --writable written by the clients people use, unchanged: boto3, s3fs, the AWS CLI and
plain HTTP with a bearer token; every write read back through the server, `hpf cat`, `hpf verify`
and the Python reader, against a model of what was acknowledged.
"""

import base64
import concurrent.futures
import hashlib
import json
import os
import random
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import botocore
import pytest
import s3fs
from test_s3_clients import ACCESS, HPF, ROOT, SECRET, aws, client, crc32c

TOKEN = "py-writes-token"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`./hpf serve ROOT --writable` as a user starts it; restartable with the same command."""

    def __init__(self, base, *extra):
        self.base = base
        self.archives = base / "archives"
        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        (base / "keys.txt").write_text(f"{ACCESS} {SECRET}\n")
        (base / "token").write_text(TOKEN + "\n")
        self.command = [str(HPF), "serve", str(self.archives), "--port", str(self.port),
                        "--s3-keys", str(base / "keys.txt"), "--token-file", str(base / "token"),
                        "--writable", *extra]
        self.process = None

    def start(self):
        deadline = time.time() + 60
        self.process = subprocess.Popen(self.command, stderr=open(self.base / "serve.log", "ab"))
        while True:
            try:
                urllib.request.urlopen(self.endpoint + "/_health")
                return
            except urllib.error.HTTPError:
                return  # up: it refuses the request without a token
            except OSError:
                assert self.process.poll() is None, (self.base / "serve.log").read_text()
                assert time.time() < deadline, "hpf serve did not start"
                time.sleep(0.05)

    def kill(self, the_command=False):
        """kill -9 of the server's JVM, or of the `hpf` command that runs it (then the server,
        left alone, stops by itself)."""
        if not the_command:
            server = subprocess.run(["pgrep", "-P", str(self.process.pid)], capture_output=True,
                                    text=True).stdout.split()
            assert len(server) == 1, server
            os.kill(int(server[0]), signal.SIGKILL)
            self.process.wait(30)
            return
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)
        deadline = time.time() + 15
        while True:  # the server, its command gone, stops and lets the port go
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
            except OSError:
                return
            assert time.time() < deadline, "the server outlived its killed command"
            time.sleep(0.05)

    def stop(self):
        self.process.terminate()
        # 143: the command, ended by SIGTERM, stops its server and says how it was ended.
        assert self.process.wait(30) in (0, 143), (self.base / "serve.log").read_text()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    base = tmp_path_factory.mktemp("writes")
    tree = base / "tree"
    tree.mkdir()
    (tree / "a.txt").write_bytes(b"first")
    (base / "archives").mkdir()
    subprocess.run([str(HPF), "create", str(base / "archives" / "photos.hpf"), str(tree)], check=True)
    s = Server(base, "--max-object-size", "24m")
    s.start()
    yield s
    s.stop()


def hpf(*args, check=True):
    return subprocess.run([str(HPF), *args], check=check, capture_output=True)


def extracted(path, into):
    """Every entry of the archive, as `hpf extract` writes it: name to content."""
    hpf("extract", str(path), str(into))
    return {str(f.relative_to(into)): f.read_bytes() for f in Path(into).rglob("*") if f.is_file()}


def assert_archive_holds(path, model, scratch):
    """`hpf verify` passes and `hpf extract` gives exactly the model, byte for byte."""
    hpf("verify", str(path))
    got = extracted(path, scratch / ("extract-" + path.name))
    assert sorted(got) == sorted(model)
    for name, content in model.items():
        assert got[name] == content, name


def test_boto3_writes_read_back_everywhere(server, tmp_path):
    s3 = client(server.endpoint)
    rng = random.Random(11)
    model = {"a.txt": b"first"}
    for i in range(60):
        name = f"2024/{i % 5}/ünï {i}.bin" if i % 3 else f"logs/{i}.log"
        model[name] = rng.randbytes(rng.randrange(0, 70_000))
        r = s3.put_object(Bucket="photos", Key=name, Body=model[name])
        assert r["ETag"] == s3.head_object(Bucket="photos", Key=name)["ETag"]
    model["a.txt"] = b"replaced"
    s3.put_object(Bucket="photos", Key="a.txt", Body=b"replaced",
                  ContentMD5=base64.b64encode(hashlib.md5(b"replaced").digest()).decode())
    big = rng.randbytes(20_000_000)  # above boto3's 8 MiB threshold: a multipart upload
    s3.upload_fileobj(__import__("io").BytesIO(big), "photos", "big/blob.bin")
    model["big/blob.bin"] = big
    s3.copy_object(Bucket="photos", Key="copied/a.txt", CopySource={"Bucket": "photos", "Key": "a.txt"})
    model["copied/a.txt"] = b"replaced"
    gone = [n for n in model if n.startswith("logs/")]
    result = s3.delete_objects(Bucket="photos", Delete={"Objects": [{"Key": n} for n in gone]})
    assert sorted(d["Key"] for d in result["Deleted"]) == sorted(gone)
    for n in gone:
        del model[n]
    s3.delete_object(Bucket="photos", Key="2024/1/ünï 1.bin")
    del model["2024/1/ünï 1.bin"]
    pages = s3.get_paginator("list_objects_v2").paginate(Bucket="photos", PaginationConfig={"PageSize": 7})
    listed = {o["Key"]: o["Size"] for page in pages for o in page.get("Contents", [])}
    assert listed == {name: len(content) for name, content in model.items()}
    for name, content in model.items():
        assert s3.get_object(Bucket="photos", Key=name)["Body"].read() == content, name
    assert_archive_holds(server.archives / "photos.hpf", model, tmp_path)
    python_reader_agrees(server.archives / "photos.hpf", model)


def python_reader_agrees(path, model):
    """The Python package (its own venv) reads every entry as the model has it."""
    venv = subprocess.run([str(ROOT / "scripts" / "python-venv.sh")], check=True,
                          capture_output=True, text=True).stdout.strip()
    digests = {n: hashlib.sha256(c).hexdigest() for n, c in model.items()}
    code = ("import hashlib, json, sys, hpf_archive as hpf\n"
            "a = hpf.open(sys.argv[1])\n"
            "print(json.dumps({e.name: hashlib.sha256(a.read(e)).hexdigest() for e in a.list()}))")
    out = subprocess.run([f"{venv}/bin/python", "-c", code, str(path)], check=True,
                         capture_output=True, text=True).stdout
    assert json.loads(out) == digests


def test_conditional_puts_and_refusals_are_s3s(server):
    s3 = client(server.endpoint)
    s3.put_object(Bucket="photos", Key="cond/x", Body=b"v1", IfNoneMatch="*")
    cases = [
        (lambda: s3.put_object(Bucket="photos", Key="cond/x", Body=b"v2", IfNoneMatch="*"),
         "PreconditionFailed"),
        (lambda: s3.put_object(Bucket="photos", Key="cond/x", Body=b"v2", IfMatch='"00000000"'),
         "PreconditionFailed"),
        (lambda: s3.put_object(Bucket="photos", Key="x", Body=b"v", ContentMD5="AAAAAAAAAAAAAAAAAAAAAA=="),
         "BadDigest"),
        (lambda: s3.put_object(Bucket="photos", Key="x", Body=b"v", ContentMD5="not base64!"),
         "InvalidDigest"),
        (lambda: s3.put_object(Bucket="photos", Key="cond/x/under", Body=b"v"), "InvalidArgument"),
        (lambda: s3.put_object(Bucket="photos", Key="a/../b", Body=b"v"), "InvalidArgument"),
        (lambda: s3.put_object(Bucket="nobucket", Key="x", Body=b"v"), "NoSuchBucket"),
        (lambda: s3.create_bucket(Bucket="photos"), "BucketAlreadyOwnedByYou"),
        (lambda: s3.create_bucket(Bucket="No_Such_Name"), "InvalidBucketName"),
        (lambda: client(server.endpoint, secret="wrong").put_object(Bucket="photos", Key="x", Body=b"v"),
         "SignatureDoesNotMatch"),
    ]
    for call, code in cases:
        with pytest.raises(botocore.exceptions.ClientError) as e:
            call()
        assert e.value.response["Error"]["Code"] == code, code
    etag = s3.head_object(Bucket="photos", Key="cond/x")["ETag"]
    s3.put_object(Bucket="photos", Key="cond/x", Body=b"v3", IfMatch=etag)
    assert s3.get_object(Bucket="photos", Key="cond/x")["Body"].read() == b"v3"
    with pytest.raises(botocore.exceptions.ClientError) as e:
        s3.head_object(Bucket="photos", Key="x")
    assert e.value.response["Error"]["Code"] == "404"  # nothing refused was committed
    hpf("verify", str(server.archives / "photos.hpf"))


def test_user_metadata_is_kept_copied_and_bounded(server, tmp_path):
    """boto3's Metadata= (x-amz-meta-*) is the entry's attributes: back on HEAD and GET, kept by
    a copy unless replaced, given at the start of a multipart upload, seen by `hpf ls --json`."""
    s3 = client(server.endpoint)
    s3.put_object(Bucket="photos", Key="meta/a.jpg", Body=b"jpeg",
                  Metadata={"Camera": "nikon", "taken": "2024-01-02"})
    want = {"camera": "nikon", "taken": "2024-01-02"}
    assert s3.head_object(Bucket="photos", Key="meta/a.jpg")["Metadata"] == want
    assert s3.get_object(Bucket="photos", Key="meta/a.jpg")["Metadata"] == want
    s3.copy_object(Bucket="photos", Key="meta/copy.jpg",
                   CopySource={"Bucket": "photos", "Key": "meta/a.jpg"})
    assert s3.head_object(Bucket="photos", Key="meta/copy.jpg")["Metadata"] == want
    s3.copy_object(Bucket="photos", Key="meta/replaced.jpg", MetadataDirective="REPLACE",
                   Metadata={"camera": "canon"},
                   CopySource={"Bucket": "photos", "Key": "meta/a.jpg"})
    assert s3.head_object(Bucket="photos", Key="meta/replaced.jpg")["Metadata"] == {"camera": "canon"}
    up = s3.create_multipart_upload(Bucket="photos", Key="meta/big.bin", Metadata={"part": "many"})
    etag = s3.upload_part(Bucket="photos", Key="meta/big.bin", UploadId=up["UploadId"],
                          PartNumber=1, Body=b"p" * 100)["ETag"]
    s3.complete_multipart_upload(Bucket="photos", Key="meta/big.bin", UploadId=up["UploadId"],
                                 MultipartUpload={"Parts": [{"PartNumber": 1, "ETag": etag}]})
    assert s3.head_object(Bucket="photos", Key="meta/big.bin")["Metadata"] == {"part": "many"}
    assert s3.head_object(Bucket="photos", Key="a.txt")["Metadata"] == {}
    with pytest.raises(botocore.exceptions.ClientError) as e:
        s3.put_object(Bucket="photos", Key="meta/too-much", Body=b"x", Metadata={"k": "v" * 2100})
    assert e.value.response["Error"]["Code"] == "MetadataTooLarge"
    lines = hpf("ls", "--json", str(server.archives / "photos.hpf"), "meta/").stdout.splitlines()
    attributes = {row["name"]: row["attributes"] for row in map(json.loads, lines)}
    assert attributes["meta/a.jpg"] == want
    assert "meta/too-much" not in attributes  # nothing refused was committed


def test_a_full_disk_is_an_error_to_the_writer_and_reads_go_on(tmp_path):
    """The archives on a 3 MiB tmpfs (this suite runs as root, as the CLI's full-device test
    does): PUTs fill it until one is refused with an S3 error; every acknowledged object still
    reads right from the same server, and the archive verifies."""
    base = tmp_path / "full"
    archives = base / "archives"
    archives.mkdir(parents=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(archives)], check=True)
    s = Server(base)
    try:
        s.start()
        s3 = client(s.endpoint)
        s3.create_bucket(Bucket="small")
        rng = random.Random(5)
        acknowledged = {}
        refusal = None
        for i in range(40):
            body = rng.randbytes(200_000)
            try:
                s3.put_object(Bucket="small", Key=f"f{i}", Body=body)
                acknowledged[f"f{i}"] = body
            except botocore.exceptions.ClientError as e:
                refusal = e.response
                break
        assert refusal is not None, "3 MiB took 8 MB"
        assert refusal["Error"]["Code"] == "InsufficientStorage", refusal
        assert refusal["ResponseMetadata"]["HTTPStatusCode"] == 507
        assert "no space left" in refusal["Error"]["Message"], refusal
        assert len(acknowledged) >= 5
        for key, body in acknowledged.items():
            assert s3.get_object(Bucket="small", Key=key)["Body"].read() == body, key
        assert "Exception" not in (base / "serve.log").read_text()
        hpf("verify", str(archives / "small.hpf"))  # check=True: the committed archive is whole
    finally:
        if s.process:
            s.stop()
        subprocess.run(["umount", str(archives)], check=False)


def test_copies_in_parts_and_uploads_in_progress_are_s3s(server):
    """boto3's managed copy of an object above its threshold copies it in parts (UploadPartCopy
    with x-amz-copy-source-range); ListMultipartUploads lists what is in progress."""
    from boto3.s3.transfer import TransferConfig
    s3 = client(server.endpoint)
    big = random.Random(7).randbytes(13_000_000)
    s3.put_object(Bucket="photos", Key="copy/src.bin", Body=big, Metadata={"from": "src"})
    config = TransferConfig(multipart_threshold=5 * 1024 * 1024, multipart_chunksize=5 * 1024 * 1024)
    s3.copy({"Bucket": "photos", "Key": "copy/src.bin"}, "photos", "copy/dst.bin", Config=config)
    got = s3.get_object(Bucket="photos", Key="copy/dst.bin")
    assert got["Body"].read() == big
    assert got["Metadata"] == {"from": "src"}  # boto3 gives the source's metadata to the upload
    a = s3.create_multipart_upload(Bucket="photos", Key="pending/a")["UploadId"]
    b = s3.create_multipart_upload(Bucket="photos", Key="pending/b")["UploadId"]
    s3.create_multipart_upload(Bucket="photos", Key="other/c")
    listed = s3.list_multipart_uploads(Bucket="photos", Prefix="pending/")
    assert [(u["Key"], u["UploadId"]) for u in listed["Uploads"]] == [("pending/a", a), ("pending/b", b)]
    with pytest.raises(botocore.exceptions.ClientError) as e:
        s3.upload_part_copy(Bucket="photos", Key="pending/a", UploadId=a, PartNumber=1,
                            CopySource={"Bucket": "photos", "Key": "copy/src.bin"},
                            CopySourceRange="bytes=0-13000000")  # one byte past the end
    assert e.value.response["Error"]["Code"] == "InvalidArgument"
    tag = s3.upload_part_copy(Bucket="photos", Key="pending/a", UploadId=a, PartNumber=1,
                              CopySource={"Bucket": "photos", "Key": "copy/src.bin"},
                              CopySourceRange="bytes=100-199")["CopyPartResult"]["ETag"]
    s3.complete_multipart_upload(Bucket="photos", Key="pending/a", UploadId=a,
                                 MultipartUpload={"Parts": [{"PartNumber": 1, "ETag": tag}]})
    assert s3.get_object(Bucket="photos", Key="pending/a")["Body"].read() == big[100:200]
    s3.abort_multipart_upload(Bucket="photos", Key="pending/b", UploadId=b)
    assert "Uploads" not in s3.list_multipart_uploads(Bucket="photos", Prefix="pending/")


def unsigned_trailer_put(server, key, content, trailer_crc=None, chunk=65536):
    """A PutObject as boto3 sends it over HTTPS: STREAMING-UNSIGNED-PAYLOAD-TRAILER, the body in
    aws-chunked framing, its CRC32C in a trailer; signed by botocore's own SigV4 (headers only)."""
    from botocore.auth import S3SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials
    crc = crc32c(content) if trailer_crc is None else trailer_crc
    framed = b"".join(b"%x\r\n%s\r\n" % (len(content[i:i + chunk]), content[i:i + chunk])
                      for i in range(0, len(content), chunk))
    framed += b"0\r\nx-amz-checksum-crc32c:" + base64.b64encode(crc.to_bytes(4, "big")) + b"\r\n\r\n"
    request = AWSRequest(method="PUT", url=f"{server.endpoint}/photos/{key}", data=framed, headers={
        "Content-Encoding": "aws-chunked", "x-amz-decoded-content-length": str(len(content)),
        "x-amz-trailer": "x-amz-checksum-crc32c", "Content-Length": str(len(framed))})
    request.context["checksum"] = {"request_algorithm": {"in": "trailer", "name": "x-amz-checksum-crc32c"}}
    S3SigV4Auth(Credentials(ACCESS, SECRET), "s3", "us-east-1").add_auth(request)
    assert request.headers["X-Amz-Content-SHA256"] == "STREAMING-UNSIGNED-PAYLOAD-TRAILER"
    prepared = request.prepare()
    return sent(urllib.request.Request(prepared.url, data=framed, method="PUT",
                                       headers=dict(prepared.headers.items())))


def test_unsigned_payloads_with_a_trailing_checksum_are_taken_and_checked(server):
    s3 = client(server.endpoint)
    content = random.Random(3).randbytes(150_000)  # three chunks
    status, _ = unsigned_trailer_put(server, "trailer/ok.bin", content)
    assert status == 200
    assert s3.get_object(Bucket="photos", Key="trailer/ok.bin")["Body"].read() == content
    status, body = unsigned_trailer_put(server, "trailer/bad.bin", content,
                                        trailer_crc=crc32c(content) ^ 1)
    assert status == 400 and b"<Code>BadDigest</Code>" in body, body
    with pytest.raises(botocore.exceptions.ClientError) as e:
        s3.head_object(Bucket="photos", Key="trailer/bad.bin")
    assert e.value.response["Error"]["Code"] == "404"


def test_multipart_uploads_are_checked_and_bounded(server):
    s3 = client(server.endpoint)
    up = s3.create_multipart_upload(Bucket="photos", Key="mp/x")["UploadId"]
    e1 = s3.upload_part(Bucket="photos", Key="mp/x", UploadId=up, PartNumber=1, Body=b"a" * 1000)["ETag"]
    e2 = s3.upload_part(Bucket="photos", Key="mp/x", UploadId=up, PartNumber=2, Body=b"b" * 10)["ETag"]
    assert [p["PartNumber"] for p in s3.list_parts(Bucket="photos", Key="mp/x", UploadId=up)["Parts"]] == [1, 2]
    for parts, code in [([(2, e2), (1, e1)], "InvalidPartOrder"), ([(1, e2)], "InvalidPart")]:
        with pytest.raises(botocore.exceptions.ClientError) as e:
            s3.complete_multipart_upload(
                Bucket="photos", Key="mp/x", UploadId=up,
                MultipartUpload={"Parts": [{"PartNumber": n, "ETag": t} for n, t in parts]})
        assert e.value.response["Error"]["Code"] == code
    s3.complete_multipart_upload(Bucket="photos", Key="mp/x", UploadId=up, MultipartUpload={
        "Parts": [{"PartNumber": 1, "ETag": e1}, {"PartNumber": 2, "ETag": e2}]})
    assert s3.get_object(Bucket="photos", Key="mp/x")["Body"].read() == b"a" * 1000 + b"b" * 10
    up = s3.create_multipart_upload(Bucket="photos", Key="mp/huge")["UploadId"]
    tags = [s3.upload_part(Bucket="photos", Key="mp/huge", UploadId=up, PartNumber=n,
                           Body=b"z" * 9_000_000)["ETag"] for n in (1, 2, 3)]
    with pytest.raises(botocore.exceptions.ClientError) as e:  # 27 MB above --max-object-size 24m
        s3.complete_multipart_upload(Bucket="photos", Key="mp/huge", UploadId=up, MultipartUpload={
            "Parts": [{"PartNumber": n + 1, "ETag": t} for n, t in enumerate(tags)]})
    assert e.value.response["Error"]["Code"] == "EntityTooLarge"
    s3.abort_multipart_upload(Bucket="photos", Key="mp/huge", UploadId=up)
    with pytest.raises(botocore.exceptions.ClientError) as e:
        s3.list_parts(Bucket="photos", Key="mp/huge", UploadId=up)
    assert e.value.response["Error"]["Code"] == "NoSuchUpload"


def test_aws_cli_makes_buckets_syncs_and_removes(server, tmp_path):
    day = tmp_path / "day"
    rng = random.Random(3)
    files = {}
    for i in range(200):
        name = f"{i % 7}/f{i}.txt"
        files[name] = rng.randbytes(rng.randrange(1, 3000))
        (day / name).parent.mkdir(parents=True, exist_ok=True)
        (day / name).write_bytes(files[name])
    aws(server.endpoint, "mb", "s3://cli")
    assert (server.archives / "cli.hpf").is_dir()
    aws(server.endpoint, "sync", str(day), "s3://cli/day/")
    aws(server.endpoint, "cp", str(day / "0/f0.txt"), "s3://cli/one.txt")
    listing = aws(server.endpoint, "ls", "--recursive", "s3://cli/").decode().splitlines()
    assert len(listing) == 201
    aws(server.endpoint, "rm", "--recursive", "s3://cli/day/3/")
    model = {"day/" + n: c for n, c in files.items() if not n.startswith("3/")}
    model["one.txt"] = files["0/f0.txt"]
    aws(server.endpoint, "sync", str(day), "s3://cli/day/")  # puts back only what is missing
    model.update({"day/" + n: c for n, c in files.items()})
    assert_archive_holds(server.archives / "cli.hpf", model, tmp_path)


def test_buckets_are_made_and_deleted_when_empty(server):
    s3 = client(server.endpoint)
    s3.create_bucket(Bucket="short-lived")
    s3.put_object(Bucket="short-lived", Key="x", Body=b"x")
    with pytest.raises(botocore.exceptions.ClientError) as e:
        s3.delete_bucket(Bucket="short-lived")
    assert e.value.response["Error"]["Code"] == "BucketNotEmpty"
    assert hpf("cat", str(server.archives / "short-lived.hpf"), "x").stdout == b"x"
    s3.delete_object(Bucket="short-lived", Key="x")
    aws(server.endpoint, "rb", "s3://short-lived")
    assert not (server.archives / "short-lived.hpf").exists()
    assert "short-lived" not in [b["Name"] for b in s3.list_buckets()["Buckets"]]
    with pytest.raises(botocore.exceptions.ClientError) as e:
        s3.put_object(Bucket="short-lived", Key="y", Body=b"y")
    assert e.value.response["Error"]["Code"] == "NoSuchBucket"


def test_s3fs_pipes_and_puts(server, tmp_path):
    fs = s3fs.S3FileSystem(key=ACCESS, secret=SECRET, client_kwargs={"endpoint_url": server.endpoint},
                           config_kwargs={"s3": {"addressing_style": "path"}}, use_listings_cache=False)
    fs.pipe("photos/s3fs/piped.bin", b"\x00piped\xff")
    (tmp_path / "local.txt").write_bytes(b"put by s3fs")
    fs.put(str(tmp_path / "local.txt"), "photos/s3fs/put.txt")
    assert fs.cat("photos/s3fs/piped.bin") == b"\x00piped\xff"
    assert hpf("cat", str(server.archives / "photos.hpf"), "s3fs/put.txt").stdout == b"put by s3fs"
    fs.rm("photos/s3fs/piped.bin")
    assert not fs.exists("photos/s3fs/piped.bin")


def sent(request):
    """A request's status and body, an HTTP error's included."""
    try:
        with urllib.request.urlopen(request) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def http(server, method, path, body=None, token=TOKEN):
    request = urllib.request.Request(server.endpoint + path, data=body, method=method)
    if token:
        request.add_header("Authorization", "Bearer " + token)
    return sent(request)


def test_writable_needs_keys_or_a_token(tmp_path):
    r = subprocess.run([str(HPF), "serve", str(tmp_path), "--writable", "--port", str(free_port())],
                       capture_output=True, timeout=120)
    assert r.returncode != 0
    assert b"--writable needs --s3-keys or --token-file" in r.stderr, r.stderr


def test_http_put_and_delete_with_the_token(server):
    status, body = http(server, "PUT", "/photos/http/a.log", b"line 1\n")
    assert status == 201 and json.loads(body)["name"] == "http/a.log"
    assert http(server, "GET", "/photos/http/a.log") == (200, b"line 1\n")
    assert http(server, "PUT", "/photos/http/b.log", b"x", token=None)[0] == 401
    assert http(server, "PUT", "/photos/http/b.log", b"x", token="wrong")[0] == 401
    assert http(server, "PUT", "/photos/http/", b"x")[0] == 400
    assert http(server, "PUT", "/photos/http/a.log/under", b"x")[0] == 409
    assert http(server, "DELETE", "/photos/http/a.log")[0] == 204
    assert http(server, "GET", "/photos/http/a.log")[0] == 404


def test_replacing_while_reading_gives_whole_old_or_whole_new(server):
    s3 = client(server.endpoint)
    keys = [f"hot/{k}" for k in range(4)]

    def version(key, v):
        return (f"{key} v{v} ".encode() * 2000)[: 5000 + v * 7]

    for k in keys:
        s3.put_object(Bucket="photos", Key=k, Body=version(k, 0))
    stop = threading.Event()
    wrong = []

    def read():
        r = client(server.endpoint)
        while not stop.is_set():
            for k in keys:
                got = r.get_object(Bucket="photos", Key=k)["Body"].read()
                v = int(got[len(k) + 2:].split(b" ", 1)[0])
                if got != version(k, v):
                    wrong.append((k, v))

    def write(w):
        c = client(server.endpoint)
        for v in range(1, 40):
            k = keys[(v + w) % len(keys)]
            c.put_object(Bucket="photos", Key=k, Body=version(k, v))

    with concurrent.futures.ThreadPoolExecutor(12) as pool:
        readers = [pool.submit(read) for _ in range(4)]
        try:
            for f in [pool.submit(write, w) for w in range(8)]:
                f.result()
        finally:
            stop.set()
        for f in readers:
            f.result()
    assert wrong == []


def test_a_cli_add_waits_for_the_server_writer_and_both_land(server, tmp_path):
    s3 = client(server.endpoint)
    (tmp_path / "cli").mkdir()
    (tmp_path / "cli" / "by-cli.txt").write_bytes(b"from the CLI")
    s3.put_object(Bucket="photos", Key="race/by-server.txt", Body=b"from the server")
    # The server's writer holds the archive for 10 s after its last write: the CLI is refused,
    # clearly, and nothing is hurt.
    refused = hpf("add", str(server.archives / "photos.hpf"), str(tmp_path / "cli"), check=False)
    assert refused.returncode == 1 and b"locked" in refused.stderr.lower(), refused.stderr
    assert b"Exception" not in refused.stderr
    deadline = time.time() + 30
    while hpf("add", str(server.archives / "photos.hpf"), str(tmp_path / "cli"), check=False).returncode:
        assert time.time() < deadline, "the server's writer never let the archive go"
        time.sleep(0.5)
    s3.put_object(Bucket="photos", Key="race/after.txt", Body=b"after")
    archive = str(server.archives / "photos.hpf")
    assert hpf("cat", archive, "by-cli.txt").stdout == b"from the CLI"
    assert hpf("cat", archive, "race/after.txt").stdout == b"after"
    hpf("verify", archive)


def test_kill_9_under_16_writers_loses_no_acknowledged_write(tmp_path):
    (tmp_path / "archives").mkdir()
    server = Server(tmp_path)
    server.start()
    client(server.endpoint).create_bucket(Bucket="crash")
    acknowledged = {}
    attempted = {}
    lock = threading.Lock()
    stop = threading.Event()

    def writer(w):
        c = client(server.endpoint)
        n = 0
        while not stop.is_set():
            key = f"w{w}/{n}"
            body = hashlib.sha256(key.encode()).digest() * (1 + n % 40)
            with lock:
                attempted[key] = body
            try:
                c.put_object(Bucket="crash", Key=key, Body=body)
                with lock:
                    acknowledged[key] = body
            except (botocore.exceptions.BotoCoreError, botocore.exceptions.ClientError):
                time.sleep(0.05)  # the server is down or restarting
            n += 1

    rng = random.Random(9)
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        writers = [pool.submit(writer, w) for w in range(16)]
        try:
            for kill in range(20):
                time.sleep(rng.uniform(0.1, 0.8))
                server.kill(the_command=kill % 4 == 3)
                server.start()  # the same command: it takes over its dead self's lock, recovers
            time.sleep(0.5)
        finally:
            stop.set()
        for f in writers:
            f.result()
    server.stop()
    archive = str(tmp_path / "archives" / "crash.hpf")
    hpf("verify", archive)
    got = extracted(archive, tmp_path / "extract")
    assert set(acknowledged) <= set(got), sorted(set(acknowledged) - set(got))[:5]
    assert set(got) <= set(attempted)  # nothing that was never sent
    assert len(acknowledged) > 100
    for name, content in got.items():
        assert content == attempted[name], name  # whole objects only

#!/usr/bin/env python3
"""The S3 side of scripts/bench-s3.sh, with boto3 (SigV4, path style), against any endpoint:

  bench-s3-client.py upload ENDPOINT BUCKET TREE NAMES    create BUCKET, put every listed file (NAMES -: none)
  bench-s3-client.py presign ENDPOINT BUCKET NAMES OUT    OUT: one presigned GET (path?query) per name
  bench-s3-client.py list ENDPOINT BUCKET                 ListObjectsV2 page by page: keys, seconds
  bench-s3-client.py presign-put ENDPOINT BUCKET N OUT    OUT: N presigned PUT URLs of keys k/0 ... k/N-1

Keys come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY."""
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import boto3
from botocore.config import Config


def client(endpoint):
    return boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                        aws_access_key_id=os.environ["AWS_ACCESS_KEY_ID"],
                        aws_secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"],
                        config=Config(s3={"addressing_style": "path"}, signature_version="s3v4",
                                      max_pool_connections=32))


def names(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def upload(endpoint, bucket, tree, names_file):
    s3 = client(endpoint)
    s3.create_bucket(Bucket=bucket)
    if names_file == "-":  # the bucket only
        return

    def put(name):
        with open(os.path.join(tree, name), "rb") as f:
            s3.put_object(Bucket=bucket, Key=name, Body=f.read())

    with ThreadPoolExecutor(16) as pool:
        list(pool.map(put, names(names_file)))


def presign(endpoint, bucket, names_file, out):
    s3 = client(endpoint)
    with open(out, "w") as f:
        for name in names(names_file):
            url = urlsplit(s3.generate_presigned_url(
                "get_object", Params={"Bucket": bucket, "Key": name}, ExpiresIn=6 * 24 * 3600))
            f.write(f"{url.path}?{url.query}\n")


def presign_put(endpoint, bucket, count, out):
    s3 = client(endpoint)
    with open(out, "w") as f:
        for i in range(int(count)):
            f.write(s3.generate_presigned_url("put_object", Params={"Bucket": bucket, "Key": f"k/{i}"},
                                              ExpiresIn=6 * 24 * 3600) + "\n")


def listing(endpoint, bucket):
    """Each page signed by botocore and sent on one kept-alive connection; the XML is not parsed
    beyond its keys and next token, so that the client's own work stays small beside the
    server's (boto3's parser takes longer over a page of 1,000 keys than either server)."""
    import re
    from urllib.parse import quote

    import urllib3
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials

    credentials = Credentials(os.environ["AWS_ACCESS_KEY_ID"], os.environ["AWS_SECRET_ACCESS_KEY"])
    pool = urllib3.PoolManager(maxsize=1)
    start = time.perf_counter()
    keys, token = 0, None
    while True:
        url = f"{endpoint}/{bucket}?list-type=2&max-keys=1000"
        if token:
            url += "&continuation-token=" + quote(token, safe="")
        request = AWSRequest("GET", url, headers={"x-amz-content-sha256": "UNSIGNED-PAYLOAD"})
        SigV4Auth(credentials, "s3", "us-east-1").add_auth(request)
        body = pool.request("GET", url, headers=dict(request.headers)).data
        keys += body.count(b"<Key>")
        found = re.search(rb"<NextContinuationToken>([^<]*)</NextContinuationToken>", body)
        if not found:
            break
        token = found.group(1).decode()
    print(keys, round(time.perf_counter() - start, 3))


if __name__ == "__main__":
    {"upload": upload, "presign": presign, "list": listing, "presign-put": presign_put}[sys.argv[1]](*sys.argv[2:])

"""S3 over plain signed HTTP: the few calls a reader makes (list a prefix, GET a range), each
request signed with AWS Signature V4 and sent on a kept-alive connection of the thread's own.
Where a training loader reads one ranged GET per sample, s3fs's asynchronous stack costs about a
millisecond of CPU per request on its own; this costs a fraction of that, so that the server, not
the client, sets the pace. Chosen with `storage_options={"signed_http": True, ...}`; keys and
endpoint as s3fs takes them (`key`, `secret`, `client_kwargs={"endpoint_url": ...}`) or from the
AWS_* environment. Speaks to the interface FsspecStorage (remote.py) uses of a file system."""

from __future__ import annotations

import concurrent.futures
import datetime
import hashlib
import hmac
import os
import urllib.parse
import xml.etree.ElementTree as ET
from typing import Any, Optional

from .http_pool import KeptAlive

EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()
MAX_BODY = 1 << 30  # a range or a listing page larger than this is no reader's
THREADS = 32  # requests in flight at once per process (object stores throttle far above this)


class S3Error(OSError):
    """A request the server refused or answered wrongly: names the object and the status."""


class SignedS3:
    """An S3 endpoint read through signed HTTP GETs. Thread-safe; each thread keeps a connection."""

    def __init__(self, options: Optional[dict[str, Any]] = None) -> None:
        o = dict(options or {})
        endpoint = (o.get("client_kwargs", {}).get("endpoint_url") or o.get("endpoint_url")
                    or os.environ.get("AWS_ENDPOINT_URL") or "https://s3.amazonaws.com")
        url = urllib.parse.urlsplit(endpoint)
        self.secure = url.scheme == "https"
        self.host = url.hostname or "s3.amazonaws.com"
        self.port = url.port or (443 if self.secure else 80)
        self.key = o.get("key") or os.environ.get("AWS_ACCESS_KEY_ID", "")
        self.secret = o.get("secret") or os.environ.get("AWS_SECRET_ACCESS_KEY", "")
        self.region = (o.get("client_kwargs", {}).get("region_name") or o.get("region")
                       or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1")
        self._http = KeptAlive(self.host, self.port, self.secure, 60)
        self._signing: tuple[str, bytes] = ("", b"")
        self._pool: Optional[concurrent.futures.ThreadPoolExecutor] = None
        self._pid = os.getpid()

    # -- what FsspecStorage asks of a file system ------------------------------------------

    def unstrip_protocol(self, path: str) -> str:
        return "s3://" + path.lstrip("/")

    def ls(self, path: str, detail: bool = True) -> list[dict[str, Any]]:
        bucket, prefix = _split(path)
        prefix = prefix.rstrip("/") + "/" if prefix else ""
        out, token = [], None
        while True:
            query = {"list-type": "2", "prefix": prefix, "delimiter": "/"}
            if token:
                query["continuation-token"] = token
            body = self._get(f"/{bucket}", query, None, path)
            root = ET.fromstring(body)
            ns = root.tag[:root.tag.index("}") + 1] if root.tag.startswith("{") else ""
            for c in root.iter(f"{ns}Contents"):
                key = c.findtext(f"{ns}Key") or ""
                out.append({"name": f"{bucket}/{key}", "type": "file",
                            "size": int(c.findtext(f"{ns}Size") or 0)})
            for p in root.iter(f"{ns}CommonPrefixes"):
                out.append({"name": f"{bucket}/{p.findtext(f'{ns}Prefix')}", "type": "directory",
                            "size": 0})
            token = root.findtext(f"{ns}NextContinuationToken")
            if root.findtext(f"{ns}IsTruncated") != "true" or not token:
                break
        if not out:
            raise FileNotFoundError(self.unstrip_protocol(path))
        return out

    def isdir(self, path: str) -> bool:
        try:
            return bool(self.ls(path))
        except FileNotFoundError:
            return False

    def cat_file(self, path: str, start: int = 0, end: Optional[int] = None) -> bytes:
        bucket, key = _split(path)
        if end is not None and end <= start:
            return b""
        wanted = f"bytes={start}-{'' if end is None else end - 1}"
        return self._get(f"/{bucket}/{key}", {}, wanted, path)

    def cat_ranges(self, paths: list[Any], starts: list[Any], ends: list[Any]) -> list[Any]:
        """The ranges, fetched at once on the pool's threads; an error in place of a range that
        failed (as fsspec's cat_ranges with on_error="return")."""
        if self._pid != os.getpid():  # a forked child: the parent's threads are not here
            self._pool, self._pid = None, os.getpid()
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(THREADS)

        def one(args: tuple[Any, ...]) -> Any:
            try:
                return self.cat_file(*args)
            except OSError as e:
                return e

        return list(self._pool.map(one, zip(paths, starts, ends)))

    # -- requests ---------------------------------------------------------------------------

    def _get(self, path: str, query: dict[str, Any], wanted: Optional[str], shown: str) -> bytes:
        try:
            status, body = self._http.request("GET", _with_query(path, query),
                                              headers=self._signed(path, query, wanted),
                                              limit=MAX_BODY + 1)
        except OSError as e:
            raise S3Error(f"{self.unstrip_protocol(shown)}: {e}") from None
        if status == 404:
            raise FileNotFoundError(self.unstrip_protocol(shown))
        if status not in (200, 206) or len(body) > MAX_BODY:
            raise S3Error(f"{self.unstrip_protocol(shown)}: the server answered {status} "
                          f"({_code(body)})")
        return body

    def _signed(self, path: str, query: dict[str, Any], wanted: Optional[str]) -> dict[str, Any]:
        now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        day = now[:8]
        if self._signing[0] != day:
            k = hmac.new(("AWS4" + self.secret).encode(), day.encode(), hashlib.sha256).digest()
            for part in (self.region, "s3", "aws4_request"):
                k = hmac.new(k, part.encode(), hashlib.sha256).digest()
            self._signing = (day, k)
        host = self.host if self.port in (80, 443) else f"{self.host}:{self.port}"
        headers = {"host": host, "x-amz-content-sha256": EMPTY_SHA256, "x-amz-date": now}
        if wanted:
            headers["range"] = wanted
        names = ";".join(sorted(headers))
        canonical = "\n".join(["GET", urllib.parse.quote(path, safe="/~"), _canonical(query),
                               *(f"{k}:{headers[k]}" for k in sorted(headers)), "", names,
                               EMPTY_SHA256])
        scope = f"{day}/{self.region}/s3/aws4_request"
        to_sign = "\n".join(["AWS4-HMAC-SHA256", now, scope,
                             hashlib.sha256(canonical.encode()).hexdigest()])
        signature = hmac.new(self._signing[1], to_sign.encode(), hashlib.sha256).hexdigest()
        headers["authorization"] = (f"AWS4-HMAC-SHA256 Credential={self.key}/{scope}, "
                                    f"SignedHeaders={names}, Signature={signature}")
        return headers


def _split(path: str) -> tuple[str, str]:
    path = path.split("://", 1)[-1].lstrip("/")
    bucket, _, key = path.partition("/")
    return bucket, key


def _canonical(query: dict[str, Any]) -> str:
    return "&".join(f"{urllib.parse.quote(k, safe='-_.~')}={urllib.parse.quote(v, safe='-_.~')}"
                    for k, v in sorted(query.items()))


def _with_query(path: str, query: dict[str, Any]) -> str:
    return urllib.parse.quote(path, safe="/~") + ("?" + _canonical(query) if query else "")


def _code(body: bytes) -> str:
    try:
        return ET.fromstring(body).findtext("Code") or "no error code"
    except ET.ParseError:
        return "no error code"

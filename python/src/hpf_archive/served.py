"""An archive read through `hpf serve`'s HTTP API (docs/SERVER.md): names listed page by page,
entries read a batch at a time with `_mget` (one request for a batch of names anywhere in the
archive, the server reading and checking each entry's CRC32C before it sends it). For training
loops that read from a server near the data: a shuffled batch costs one request, not one a
sample. Locations `hpf+http://HOST:PORT/ARCHIVE` (or `hpf+https://`); `storage_options` may give
`{"token": ...}` for a server started with `--token-file`."""

from __future__ import annotations

import http.client
import json
import os
import threading
import urllib.parse
from typing import Any, Iterator, List, NamedTuple, Optional

from .errors import CorruptArchive, HpfError, NotFound

MAX_LINE = 70_000  # a status line: status, length and a name of at most 65,535 bytes
MAX_ENTRY = 16 << 20  # the most an _mget answer carries for one name (SERVER.md)
PAGE = 10_000
MGET_NAMES = 1000


class ServedEntry(NamedTuple):
    """What a listing of the server says of an entry."""

    name: str
    length: int
    mtime_millis: int
    mode: int


class ServedArchive:
    """The archive ARCHIVE of the server at HOST:PORT. Thread-safe: a connection per thread."""

    def __init__(self, location: str, storage_options: Optional[dict[str, Any]] = None) -> None:
        url = urllib.parse.urlsplit(location)
        if url.scheme not in ("hpf+http", "hpf+https") or not url.hostname:
            raise ValueError(f"{location}: not an hpf+http://HOST:PORT/ARCHIVE location")
        self.location = location
        self.secure = url.scheme == "hpf+https"
        self.host, self.port = url.hostname, url.port or (443 if self.secure else 80)
        self.archive = url.path.strip("/")
        if not self.archive or "/" in self.archive:
            raise ValueError(f"{location}: the path names one archive of the server")
        token = (storage_options or {}).get("token")
        self._headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._local = threading.local()
        self._pid = os.getpid()
        self.storage = self  # a remote storage to the dataset: batches read ahead on threads

    def read_ranges(self, ranges: Any) -> Any:  # the mark of remote storage; never called
        raise NotImplementedError

    def list(self, prefix: str = "") -> Iterator[ServedEntry]:
        after = ""
        while True:
            query = {"prefix": prefix, "limit": str(PAGE)}
            if after:
                query["after"] = after
            path = f"/{_quote(self.archive)}/?{urllib.parse.urlencode(query)}"
            page = json.loads(self._request("GET", path, None, prefix or "/"))
            for e in page.get("entries", []):
                yield ServedEntry(e["name"], int(e["length"]), int(e.get("mtime", 0)),
                                  int(e.get("mode", 0)))
            after = page.get("next") or ""
            if not after:
                return

    def read(self, info: Any) -> bytes:
        return self.read_many([info])[0]

    def get(self, name: str) -> bytes:
        return self._request("GET", f"/{_quote(self.archive)}/{_quote(name)}", None, name)

    def read_many(self, infos: List[Any]) -> List[bytes]:
        """The contents of the entries, in their order: an `_mget` request per 1,000 names (the
        server's default bound)."""
        out: List[bytes] = []
        for at in range(0, len(infos), MGET_NAMES):
            out += self._mget([i.name for i in infos[at:at + MGET_NAMES]])
        return out

    def _mget(self, names: List[str]) -> List[bytes]:
        body = "".join(n + "\n" for n in names).encode("utf-8")
        answer = self._request("POST", f"/{_quote(self.archive)}/_mget", body, "_mget")
        out, at = [], 0
        for name in names:
            end = answer.find(b"\n", at, at + MAX_LINE)
            if end < 0:
                raise CorruptArchive(self.location, at, "an _mget answer cut short")
            status, length, said = answer[at:end].decode("utf-8", "surrogateescape").split(" ", 2)
            size = int(length)
            if said != name or size > MAX_ENTRY or end + 1 + size + 1 > len(answer):
                raise CorruptArchive(self.location, at, f"an _mget answer for '{said}' where "
                                                        f"'{name}' was asked, or cut short")
            if status == "404":
                raise NotFound(self.location, name)
            if status != "200":
                raise CorruptArchive(self.location, 0, f"the server could not read '{name}' "
                                                       f"(status {status})")
            out.append(answer[end + 1:end + 1 + size])
            at = end + 1 + size + 1
        return out

    def _connection(self) -> http.client.HTTPConnection:
        if self._pid != os.getpid():  # a forked worker: the parent's connections are not ours
            self._local, self._pid = threading.local(), os.getpid()
        c = getattr(self._local, "c", None)
        if c is None:
            kind = http.client.HTTPSConnection if self.secure else http.client.HTTPConnection
            c = self._local.c = kind(self.host, self.port, timeout=120)
        return c

    def _request(self, method: str, path: str, body: Optional[bytes], shown: str) -> bytes:
        for attempt in range(2):  # a kept-alive connection the server closed: once more anew
            c = self._connection()
            try:
                c.request(method, path, body=body, headers=self._headers)
                r = c.getresponse()
                data = r.read()
            except (http.client.HTTPException, ConnectionError) as e:
                c.close()
                self._local.c = None
                if attempt:
                    raise HpfError(f"{self.location}: {e or type(e).__name__}") from None
                continue
            if r.status == 404:
                raise NotFound(self.location, shown)
            if r.status != 200:
                raise HpfError(f"{self.location}: {shown}: the server answered {r.status} "
                               f"({data[:200].decode('utf-8', 'replace').strip()})")
            return data
        raise AssertionError("unreachable")

    def close(self) -> None:
        c = getattr(self._local, "c", None)
        if c is not None:
            c.close()
            self._local.c = None

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        del state["_local"], state["storage"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._local, self.storage = threading.local(), self


def _quote(text: str) -> str:
    return urllib.parse.quote(text, safe="/")

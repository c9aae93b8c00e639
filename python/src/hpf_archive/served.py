"""An archive read through `hpf serve`'s HTTP API (docs/SERVER.md): names listed page by page,
entries read a batch at a time with `_mget` (one request for a batch of names anywhere in the
archive, the server reading and checking each entry's CRC32C before it sends it). For training
loops that read from a server near the data: a shuffled batch costs one request, not one a
sample. Locations `hpf+http://HOST:PORT/ARCHIVE` (or `hpf+https://`); `storage_options` may give
`{"token": ...}` for a server started with `--token-file`."""

from __future__ import annotations

import json
import urllib.parse
from typing import Any, Iterator, List, NamedTuple, Optional

from .errors import CorruptArchive, HpfError, NotFound
from .http_pool import KeptAlive

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
        self._http = KeptAlive(self.host, self.port, self.secure, 120)

    @property
    def storage(self) -> ServedArchive:
        """Itself: a remote storage to the dataset (it reads batches ahead on threads)."""
        return self

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

    def _request(self, method: str, path: str, body: Optional[bytes], shown: str) -> bytes:
        try:
            status, data = self._http.request(method, path, body, self._headers)
        except OSError as e:
            raise HpfError(f"{self.location}: {e}") from None
        if status == 404:
            raise NotFound(self.location, shown)
        if status != 200:
            raise HpfError(f"{self.location}: {shown}: the server answered {status} "
                           f"({data[:200].decode('utf-8', 'replace').strip()})")
        return data

    def close(self) -> None:
        self._http.close()


def _quote(text: str) -> str:
    return urllib.parse.quote(text, safe="/")

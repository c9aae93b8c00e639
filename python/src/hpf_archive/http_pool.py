"""HTTP(S) connections kept alive, one per thread of the process using them: a forked child (a
data-loader worker) and an unpickled copy make their own, never sharing a socket with the process
that made the object. A connection the server closed meanwhile is made anew once."""

from __future__ import annotations

import http.client
import os
import threading
from typing import Any, Optional


class KeptAlive:
    def __init__(self, host: str, port: int, secure: bool, timeout: float) -> None:
        self.host, self.port, self.secure, self.timeout = host, port, secure, timeout
        self._local = threading.local()
        self._pid = os.getpid()

    def request(self, method: str, path: str, body: Optional[bytes] = None,
                headers: Optional[dict[str, str]] = None,
                limit: int = -1) -> tuple[int, bytes]:
        """The status and body (at most `limit` bytes read when given); OSError saying why when
        no answer came on a fresh connection either."""
        for attempt in range(2):
            c = self._connection()
            try:
                c.request(method, path, body=body, headers=headers or {})
                r = c.getresponse()
                return r.status, r.read(limit) if limit >= 0 else r.read()
            except (http.client.HTTPException, OSError) as e:
                c.close()
                self._local.connection = None
                if attempt:
                    raise OSError(str(e) or type(e).__name__) from None
        raise AssertionError("unreachable")

    def _connection(self) -> http.client.HTTPConnection:
        if self._pid != os.getpid():  # a forked child: the parent's connections are not ours
            self._local, self._pid = threading.local(), os.getpid()
        c = getattr(self._local, "connection", None)
        if c is None:
            kind = http.client.HTTPSConnection if self.secure else http.client.HTTPConnection
            c = self._local.connection = kind(self.host, self.port, timeout=self.timeout)
        return c

    def close(self) -> None:
        """Closes this thread's connection."""
        c = getattr(self._local, "connection", None)
        if c is not None:
            c.close()
            self._local.connection = None

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        del state["_local"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._local, self._pid = threading.local(), os.getpid()

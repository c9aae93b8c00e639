"""The one-writer-at-a-time lock (FORMAT.md "Lock file"), as hpf's Java writer takes it, so that
a Python writer and a Java one exclude each other: `hpf.lock` created exclusively, holding
`host H, pid P, since TIME`; on local disk also an OS lock (fcntl, the whole file) held for the
writer's life, and a lock left by a process of this host that no longer runs taken over.
Internal to the writer."""

from __future__ import annotations

import calendar
import datetime
import os
import re
import socket
import time
from typing import Any, Optional

from ..errors import HpfError
from .target import Target

FILE_NAME = "hpf.lock"
_HOLDER = re.compile(r"^host (.*), pid (\d+), since (\S+)$")
ATTEMPTS = 50


class ArchiveLocked(HpfError):
    """Another writer holds the archive's lock; the message names the lock and its holder."""


def _locked(lock_file: str, holder: str, why: Optional[str] = None) -> ArchiveLocked:
    tail = why or "if that writer is gone, break the lock (--break-lock)"
    return ArchiveLocked(f"{lock_file}: the archive is locked by another writer ({holder}); {tail}")


def new_holder() -> str:
    now = datetime.datetime.now(datetime.timezone.utc)
    return f"host {socket.gethostname()}, pid {os.getpid()}, since " \
           f"{now.strftime('%Y-%m-%dT%H:%M:%S.%f')}Z"


def _started(pid: int) -> Optional[float]:
    """When a process of this host started (seconds since the epoch), from /proc; None if
    unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        with open("/proc/stat", "rb") as f:
            boot = next(int(line.split()[1]) for line in f if line.startswith(b"btime "))
        return boot + int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return None


def holder_alive_here(holder: str) -> bool:
    """Whether the lock names a process of this host that still runs and started no later than
    the lock was taken (a later start got the pid again)."""
    m = _HOLDER.match(holder)
    if not m or m.group(1) != socket.gethostname():
        return False
    pid = int(m.group(2))
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    since = _instant(m.group(3))
    if since is None:
        return False  # not a lock hpf wrote
    started = _started(pid)
    return started is None or started <= since + 1.0


_INSTANT = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d{1,9})?Z$")


def _instant(text: str) -> Optional[float]:
    """Seconds since the epoch of an ISO-8601 instant as Java's Instant prints it."""
    m = _INSTANT.match(text)
    if not m:
        return None
    whole = datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S")
    return calendar.timegm(whole.timetuple()) + float("0" + (m.group(2) or ".0"))


class Lock:
    """A held lock; `release` deletes the file, then lets the OS lock go."""

    def __init__(self, target: Target, fd: Optional[int], took_over: Optional[str]) -> None:
        self.target, self.fd, self.took_over = target, fd, took_over

    def release(self) -> None:
        if self.target is None:
            return
        try:
            self.target.delete(FILE_NAME)
        finally:
            if self.fd is not None:
                os.close(self.fd)
            self.target = None  # type: ignore[assignment]


def acquire(target: Target) -> Lock:
    if target.local:
        lock = _acquire_local(target)
        if lock is not None:
            return lock
    line = new_holder()
    try:
        with target.create(FILE_NAME, exclusive=True) as f:
            f.write(line.encode("utf-8"))
            target.sync(f)
    except FileExistsError:
        raise _locked(target.describe(FILE_NAME), _holder(target)) from None
    return Lock(target, None, None)


def _holder(target: Target) -> str:
    try:
        return target.read(FILE_NAME)[:1024].decode("utf-8", "replace").strip()
    except OSError as e:
        return f"holder unknown: {e.strerror or e}"


def _acquire_local(target: Target) -> Optional[Lock]:
    """The lock with its OS lock; None where the file system takes no OS locks."""
    import fcntl

    path = target.describe(FILE_NAME)
    for _ in range(ATTEMPTS):
        try:
            before = os.lstat(path)
        except FileNotFoundError:
            before = None
        try:
            fd = os.open(path, os.O_RDWR | (os.O_CREAT | os.O_EXCL if before is None else 0), 0o644)
        except (FileExistsError, FileNotFoundError):
            time.sleep(0.02)
            continue
        keep = False
        try:
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except (BlockingIOError, PermissionError):
                raise _locked(path, _read(fd)) from None
            except OSError:
                if before is None:
                    os.unlink(path)
                return None  # no OS locks here: the file alone, as elsewhere
            lock = _take(fd, path, before)
            if lock is None:
                time.sleep(0.02)
                continue
            keep = True
            return Lock(target, fd, lock)
        finally:
            if not keep:
                os.close(fd)
    raise _locked(path, _holder(target))


def _take(fd: int, path: str, before: Any) -> Optional[str]:
    """With the OS lock held: writes this writer's line, taking over a dead writer's; returns
    the line taken over ("" for a new file), None if the path names another file now."""
    try:
        now = os.lstat(path)
    except FileNotFoundError:
        return None
    if before is not None and (now.st_ino, now.st_dev) != (before.st_ino, before.st_dev):
        return None
    stale = ""
    if before is not None:
        holder = _read(fd)
        if not holder:
            holder = "no holder written: its writer died making it"
        elif holder_alive_here(holder):
            raise _locked(path, holder, "that process is alive on this host: wait for it to end")
        elif not holder.startswith(f"host {socket.gethostname()}, pid "):
            raise _locked(path, holder)
        stale = holder
    line = new_holder().encode("utf-8")
    os.ftruncate(fd, 0)
    os.pwrite(fd, line, 0)
    os.fsync(fd)
    return stale


def _read(fd: int) -> str:
    return os.pread(fd, 1024, 0).decode("utf-8", "replace").strip()

"""After a commit (FORMAT.md "Commit protocol", "Cleanup"): a manifest superseded more than the
grace period ago goes, after the files only it names, so that a reader that opened it keeps
reading for at least that long. Only file names of the format's patterns are deleted. Internal to
the writer."""

from __future__ import annotations

import time
from typing import Any

from .. import files
from ..errors import HpfError
from ..manifest import MANIFEST_NAME, Manifest, parse

GRACE_SECONDS = 15 * 60


def _named(m: Manifest) -> set[str]:
    """The files a manifest names (FORMAT.md "File names")."""
    out = {files.part(p) for p in m.parts}
    for s in m.segments:
        if s.file_length:
            out.add(files.segment(s.segment_id))
        else:
            out.add(files.catalog(s.segment_id))
            out.update(files.bucket(s.segment_id, b.number) for b in s.buckets)
    out.update(files.dictionary(i) for i, d in m.dictionaries.items() if not d.segment_id)
    return out


def clean(target: Any, current: Manifest, now: float | None = None) -> None:
    now = time.time() if now is None else now
    superseded_at = {g - 1: millis / 1000 for g, millis, _, _ in current.history}
    listed = target.list()
    keep, going = _named(current), []
    for name in sorted(listed):
        m = MANIFEST_NAME.match(name)
        if not m or int(m.group(1)) >= current.generation:
            continue
        try:
            old = parse(target.read(name), target.describe(name))
        except (HpfError, OSError):
            return  # one that cannot be read may name anything: left for hpf's own cleaner
        at = superseded_at.get(int(m.group(1)))
        if at is not None and now - at < GRACE_SECONDS:
            keep |= _named(old)  # a reader may still read it
        else:
            going.append((name, old))
    for name, old in going:
        for f in sorted(_named(old) - keep):
            if f in listed:
                target.delete(f)
        target.delete(name)

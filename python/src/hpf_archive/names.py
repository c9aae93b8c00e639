"""Entry names (FORMAT.md "Entry names"): the normal form a reader looks up."""

from __future__ import annotations

MAX_NAME_BYTES = 65535


# Text read from an archive (a name, an attribute) is UTF-8 decoded with "surrogateescape": each
# byte that is not part of valid UTF-8 is kept as U+DC00 + byte (U+DC80..U+DCFF), as the Java
# reader does (FORMAT.md "Entry names"), so that one such name never stops a listing, and
# encoding with "surrogateescape" gives back the bytes it was read from.
ESCAPES = (0xDC80, 0xDCFF)


def stored_bytes(text: str) -> bytes:
    """The bytes a name read from an archive was read from."""
    return text.encode("utf-8", "surrogateescape")


def not_utf8(name: str) -> str | None:
    """Why a name read from an archive is not valid UTF-8 (its first such byte), or None."""
    for i, c in enumerate(name):
        if ESCAPES[0] <= ord(c) <= ESCAPES[1]:
            return f"not valid UTF-8 (byte 0x{ord(c) - 0xDC00:02x} at character {i})"
    return None


def shown(name: str) -> str:
    """A name for a message: bytes that are not UTF-8 as \\xNN."""
    return stored_bytes(name).decode("utf-8", "backslashreplace")


def lookup_key(raw: str) -> bytes | None:
    """The UTF-8 bytes of the normal form of a name asked for, or None if no entry can have it.

    Most names asked for are already normal; they are recognised with a few substring tests
    (no '//', no '.' component, no leading or trailing '/', no NUL, no drive letter) and only
    encoded. The rest go through normalize. A name holding bytes that are not UTF-8, as a
    listing gives it, is looked up as the bytes it was read from, as it is."""
    try:
        key = raw.encode("utf-8")
    except UnicodeEncodeError:  # an unpaired surrogate: a listed name's bytes, or no name
        try:
            listed = stored_bytes(raw) if not_utf8(raw) else None
        except UnicodeEncodeError:
            return None
        return listed if listed is not None and len(listed) <= MAX_NAME_BYTES else None
    if (raw and "//" not in raw and "/." not in raw and "\0" not in raw and raw[0] not in "/."
            and raw[-1] != "/" and (len(raw) < 2 or raw[1] != ":")):
        return key if len(key) <= MAX_NAME_BYTES else None
    normal = normalize(raw)
    return None if normal is None else normal.encode("utf-8")


def normalize(raw: str) -> str | None:
    """The normal form of a name asked for (dropping '.' components, repeated and trailing '/'),
    or None if no entry can have it: absolute, a drive letter, NUL, '..', empty, not encodable
    as UTF-8, or too long."""
    if raw.startswith("/") or "\0" in raw:
        return None
    if len(raw) >= 2 and raw[1] == ":" and raw[0].isalpha():
        return None
    parts = [p for p in raw.split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        return None
    normal = "/".join(parts)
    try:
        if len(normal.encode("utf-8")) > MAX_NAME_BYTES:
            return None
    except UnicodeEncodeError:
        return None  # an unpaired surrogate
    return normal

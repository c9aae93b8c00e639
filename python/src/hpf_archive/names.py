"""Entry names (FORMAT.md "Entry names"): the normal form a reader looks up."""

MAX_NAME_BYTES = 65535


def lookup_key(raw):
    """The UTF-8 bytes of the normal form of a name asked for, or None if no entry can have it.

    Most names asked for are already normal; they are recognised with a few substring tests
    (no '//', no '.' component, no leading or trailing '/', no NUL, no drive letter) and only
    encoded. The rest go through normalize."""
    if (raw and "//" not in raw and "/." not in raw and "\0" not in raw and raw[0] not in "/."
            and raw[-1] != "/" and (len(raw) < 2 or raw[1] != ":")):
        try:
            key = raw.encode("utf-8")
        except UnicodeEncodeError:
            return None  # an unpaired surrogate
        return key if len(key) <= MAX_NAME_BYTES else None
    normal = normalize(raw)
    return None if normal is None else normal.encode("utf-8")


def normalize(raw):
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

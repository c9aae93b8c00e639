"""Entry names (FORMAT.md "Entry names"): the normal form a reader looks up."""

MAX_NAME_BYTES = 65535


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

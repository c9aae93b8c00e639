"""Names as a writer takes them (FORMAT.md "Entry names"): '.' components and repeated or trailing
'/' dropped, everything else that no entry may be called refused, naming the rule."""

from __future__ import annotations

MAX_NAME_BYTES = 65535


def normal(name: str) -> str:
    """The normal form of a name given to a writer; ValueError naming the rule it breaks."""
    if not isinstance(name, str):
        raise TypeError(f"an entry name is a str, not {type(name).__name__}")
    if "\0" in name:
        raise ValueError(f"entry name {name!r} is not allowed: it holds a NUL character")
    if name.startswith("/"):
        raise ValueError(f"entry name {name!r} is not allowed: it is absolute (starts with '/')")
    if len(name) >= 2 and name[1] == ":" and name[0].isalpha():
        raise ValueError(f"entry name {name!r} is not allowed: it starts with a drive letter")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if not parts:
        raise ValueError(f"entry name {name!r} is not allowed: it is empty")
    if ".." in parts:
        raise ValueError(f"entry name {name!r} is not allowed: it has a '..' component")
    text = "/".join(parts)
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise ValueError(f"entry name {name!r} is not allowed: not valid UTF-8 (an unpaired "
                         "surrogate)") from None
    if size > MAX_NAME_BYTES:
        raise ValueError(f"entry name of {size} bytes is not allowed: at most {MAX_NAME_BYTES}")
    return text


def parents(name: str) -> list[str]:
    """The directories a name is in, the top first: 'a', 'a/b' for 'a/b/c'."""
    out = []
    at = name.find("/")
    while at >= 0:
        out.append(name[:at])
        at = name.find("/", at + 1)
    return out

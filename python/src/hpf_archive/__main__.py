"""python -m hpf_archive ls|cat|get|info|verify|create|add|rm ARCHIVE ...: a small CLI for scripts.

Exit codes: 0 done, 1 not found, damaged, refused or locked (one line on stderr naming file, entry
or offset), 2 usage."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys

from . import open as open_archive
from .archive import Archive
from .errors import HpfError, NotFound
from .names import normalize
from .write import cli as write_cli


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m hpf_archive",
                                description=(__doc__ or "").split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    ls = sub.add_parser("ls", help="names under a prefix, in order")
    ls.add_argument("archive")
    ls.add_argument("prefix", nargs="?", default="")
    ls.add_argument("-l", action="store_true", help="with length and mtime")
    cat = sub.add_parser("cat", help="an entry's content to stdout")
    cat.add_argument("archive")
    cat.add_argument("name")
    get = sub.add_parser("get", help="entries into a directory")
    get.add_argument("archive")
    get.add_argument("names", nargs="+")
    get.add_argument("-o", "--output", default=".")
    info = sub.add_parser("info", help="generation, entries, parts, segments (JSON)")
    info.add_argument("archive")
    verify = sub.add_parser("verify", help="read every byte, check every checksum")
    verify.add_argument("archive")
    write_cli.add_parsers(sub)
    args = p.parse_args(argv)
    try:
        if args.command in write_cli.COMMANDS:
            return write_cli.run(args)
        with open_archive(args.archive) as a:
            return run(a, args)
    except NotFound as e:
        print(f"hpf_archive: {e}", file=sys.stderr)
        return 1
    except (HpfError, OSError, ValueError) as e:  # ValueError: a name the format refuses
        print(f"hpf_archive: {e}", file=sys.stderr)
        return 1


def run(a: Archive, args: argparse.Namespace) -> int:
    out = sys.stdout
    if args.command == "ls":
        for e in a.list(args.prefix):
            out.write(f"{e.raw_length}\t{e.mtime_millis}\t{e.name}\n" if args.l else e.name + "\n")
    elif args.command == "cat":
        with a.open(args.name) as f:
            shutil.copyfileobj(f, sys.stdout.buffer, 1 << 20)
    elif args.command == "get":
        # Every name is checked before anything is written (FORMAT.md "Entry names"): a name
        # that does not normalize ('..', absolute, a drive letter, NUL) could write outside.
        normal: list[str] = []
        for name in args.names:
            n = normalize(name)
            if n is None:
                print(f"hpf_archive: refusing unsafe name '{name}'", file=sys.stderr)
                return 1
            normal.append(n)
        for name in normal:
            target = os.path.join(args.output, *name.split("/"))
            os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
            with a.open(name) as f, open(target, "wb") as w:
                shutil.copyfileobj(f, w, 1 << 20)
    elif args.command == "info":
        m = a.manifest
        info: dict[str, object] = {"generation": m.generation, "entries": m.live_entries,
                "liveBytes": m.live_bytes, "parts": len(m.parts),
                "segments": len(m.segments), "dictionaries": len(m.dictionaries),
                "operation": m.operation, "bucketCapacity": m.bucket_capacity}
        s = m.writer_settings  # version 5: how the archive's writers store new entries
        if s is not None:
            info.update(codec=("none", "lz4", "zstd")[s.codec], groupBytes=s.group_bytes,
                        groupEntryMaxBytes=s.group_entry_max_bytes, zstdLevel=s.zstd_level)
        json.dump(info, out)
        out.write("\n")
    elif args.command == "verify":
        checked = a.verify()
        out.write(f"ok: {checked} entries checked\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The writing commands of `python -m hpf_archive` (create, add, rm), named as the Java CLI's: a
directory adds its files named by their paths relative to it, a file by its file name, `--prefix`
puts them under a prefix; symbolic links and other non-regular files are skipped and listed.
Each command is one commit; an error commits nothing."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from .opening import append, create
from .writer import Writer

COMMANDS = ("create", "add", "rm")


def add_parsers(sub: Any) -> None:
    c = sub.add_parser("create", help="pack a directory into a new archive (one commit)")
    c.add_argument("archive")
    c.add_argument("source")
    c.add_argument("--codec", choices=("none", "lz4", "zstd"))
    a = sub.add_parser("add", help="add files or directories to an archive (one commit)")
    a.add_argument("archive")
    a.add_argument("paths", nargs="+")
    a.add_argument("--replace", action="store_true", help="replace entries whose names exist")
    a.add_argument("--prefix", default="", help="put the added names under this prefix")
    r = sub.add_parser("rm", help="delete entries (one commit)")
    r.add_argument("archive")
    r.add_argument("names", nargs="+")


def run(args: argparse.Namespace) -> int:
    if args.command == "create":
        with create(args.archive, codec=args.codec) as w:
            added = _tree(w, args.source, "", False)
        print(f"created {args.archive}: {added} entries")
    elif args.command == "add":
        with append(args.archive) as w:
            added = 0
            for path in args.paths:
                if os.path.isdir(path):
                    added += _tree(w, path, args.prefix, args.replace)
                else:
                    w.add_file(args.prefix + os.path.basename(path), path, replace=args.replace)
                    added += 1
        print(f"added {added} entries to {args.archive}")
    else:
        with append(args.archive) as w:
            for name in args.names:
                w.delete(name)
        print(f"deleted {len(args.names)} entries from {args.archive}")
    return 0


def _tree(w: Writer, root: str, prefix: str, replace: bool) -> int:
    """Adds the regular files under `root` in name order; lists what it skips on stderr."""
    added = 0
    for directory, subdirectories, names in os.walk(root):
        subdirectories.sort()
        for name in sorted(names):
            path = os.path.join(directory, name)
            relative = os.path.relpath(path, root).replace(os.sep, "/")
            if os.path.islink(path) or not os.path.isfile(path):
                print(f"skipped {path}: not a regular file", file=sys.stderr)
                continue
            w.add_file(prefix + relative, path, replace=replace)
            added += 1
    return added

#!/usr/bin/env python3
"""A tree of N tiny files of real text: the kernel source (bench-data/linux-source-6.1, installed by
install-corpora.sh) cut at line ends into pieces of 100 to 2,000 bytes (about 1 KB on average), each
named after the file it came from (drivers/net/tun.c.0007). The same N gives the same tree, byte for
byte, on any machine: the sizes come from a seeded generator and the files are taken in name order.

Usage: scripts/gen-tiny-tree.py SOURCE ROOT N
"""
import os
import random
import sys


def kernel_files(source):
    for top, dirs, files in os.walk(source):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(top, name)
            if os.path.isfile(path) and not os.path.islink(path):
                yield path


def pieces(data, rnd):
    """The text cut at line ends into pieces whose sizes are drawn from 100..2000 bytes."""
    start = 0
    while start < len(data):
        want = rnd.randint(100, 2000)
        end = data.find(b"\n", start + want)
        end = len(data) if end < 0 else end + 1
        yield data[start:end]
        start = end


def main():
    source, root, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rnd = random.Random(48)
    made = 0
    for path in kernel_files(source):
        rel = os.path.relpath(path, source)
        with open(path, "rb") as f:
            data = f.read()
        if not data:
            continue
        os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
        for i, piece in enumerate(pieces(data, rnd)):
            with open(os.path.join(root, "%s.%04d" % (rel, i)), "wb") as out:
                out.write(piece)
            made += 1
            if made == n:
                return
    sys.exit("the source holds fewer than %d pieces" % n)


main()

"""Warm random gets of small entries from Python, side by side in one process: the hpf package
against plain files (open/read/close), zipfile (STORED) and sqlite3 blobs in an sqlar table;
then a listing of every name, and the time to open archives of growing entry counts.

Usage: python bench_reads.py WORK_DIR [gets] [reps]
WORK_DIR holds what scripts/bench-python.sh made: src/ (the files), a.hpf, a.zip, a.db, and
open-N.hpf / open-N.zip for the open times. Prints one JSON line per measurement."""

import json
import os
import random
import sqlite3
import statistics
import sys
import time
import zipfile

import hpf_archive as hpf


def per_op_us(fn, items):
    start = time.perf_counter()
    fn(items)
    return (time.perf_counter() - start) / len(items) * 1e6


def main():
    work = sys.argv[1]
    gets = int(sys.argv[2]) if len(sys.argv) > 2 else 50_000
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    src = os.path.join(work, "src")
    archive = hpf.open(os.path.join(work, "a.hpf"))
    names = [e.name for e in archive.list()]
    archive_zip = zipfile.ZipFile(os.path.join(work, "a.zip"))
    db = sqlite3.connect(os.path.join(work, "a.db"))
    cursor = db.cursor()

    def plain(sample):
        for n in sample:
            with open(os.path.join(src, n), "rb") as f:
                f.read()

    def hpf_get(sample):
        get = archive.get
        for n in sample:
            get(n)

    def zip_read(sample):
        read = archive_zip.read
        for n in sample:
            read(n)

    def sqlite_read(sample):
        for n in sample:
            cursor.execute("SELECT data FROM sqlar WHERE name = ?", (n,)).fetchone()

    systems = {"hpf": hpf_get, "plain": plain, "zipfile": zip_read, "sqlite3": sqlite_read}
    for fn in systems.values():  # warm: page cache, hpf's slot tables, sqlite's pages
        fn(names)
    rnd = random.Random(1)
    results = {k: [] for k in systems}
    for _ in range(reps):
        sample = [rnd.choice(names) for _ in range(gets)]
        for k, fn in systems.items():  # alternating within each repetition
            results[k].append(per_op_us(fn, sample))
    for k, v in results.items():
        emit("get-4k-warm", k, len(names), statistics.median(v), v)

    listing = {
        "hpf": lambda: [e.name for e in hpf.open(os.path.join(work, "a.hpf")).list()],
        "zipfile": lambda: zipfile.ZipFile(os.path.join(work, "a.zip")).namelist(),
        "sqlite3": lambda: [r[0] for r in sqlite3.connect(os.path.join(work, "a.db")).execute(
            "SELECT name FROM sqlar ORDER BY name")],
        "plain": lambda: sorted(os.path.relpath(os.path.join(d, f), src)
                                for d, _, fs in os.walk(src) for f in fs),
    }
    times = {k: [] for k in listing}
    for _ in range(reps):
        for k, fn in listing.items():
            start = time.perf_counter()
            assert len(fn()) == len(names)
            times[k].append((time.perf_counter() - start) * 1000)
    for k, v in times.items():
        emit("list-all-ms", k, len(names), statistics.median(v), v)

    for f in sorted(os.listdir(work)):
        if f.startswith("open-") and f.endswith(".hpf"):
            n = int(f[5:-4])
            opens = {"hpf": lambda p=os.path.join(work, f): hpf.open(p).close(),
                     "zipfile": lambda p=os.path.join(work, f[:-4] + ".zip"): zipfile.ZipFile(p).close()}
            t = {k: [] for k in opens}
            for _ in range(reps):
                for k, fn in opens.items():
                    start = time.perf_counter()
                    fn()
                    t[k].append((time.perf_counter() - start) * 1000)
            for k, v in t.items():
                emit("open-ms", k, n, statistics.median(v), v)


def emit(benchmark, system, entries, median, runs):
    print(json.dumps({"benchmark": benchmark, "system": system, "entries": entries,
                      "median": round(median, 3), "runs": [round(x, 3) for x in runs],
                      "python": sys.version.split()[0]}), flush=True)


if __name__ == "__main__":
    main()

"""Writes the benchmark's inputs: N files of SIZE bytes under DIR/src (100 per directory, half
random bytes, half text), their zipfile (STORED) and sqlar-style sqlite3 table; or, with --tiny,
only the files (for archives whose open time is measured) and their zip.

Usage: python make_peers.py DIR N SIZE [--tiny]"""

import os
import random
import sqlite3
import sys
import zipfile


def main():
    out, n, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    tiny = "--tiny" in sys.argv
    src = os.path.join(out, "src")
    rnd = random.Random(n)
    zip_name = os.path.join(out, "a.zip") if not tiny else out.rstrip("/") + ".zip"
    z = zipfile.ZipFile(zip_name, "w", zipfile.ZIP_STORED)
    db = None if tiny else sqlite3.connect(os.path.join(out, "a.db"))
    if db:
        db.execute("CREATE TABLE sqlar(name TEXT PRIMARY KEY, mode INT, mtime INT, sz INT, data BLOB)")
    for i in range(n):
        name = f"d{i // 100:05d}/f{i:07d}.dat"
        data = rnd.randbytes(size // 2) + (b"%d text " % i * size)[:size - size // 2]
        path = os.path.join(src, name)
        if i % 100 == 0:
            os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        z.writestr(name, data)
        if db:
            db.execute("INSERT INTO sqlar VALUES (?, ?, ?, ?, ?)", (name, 0o644, 0, size, data))
    z.close()
    if db:
        db.commit()
        db.close()


if __name__ == "__main__":
    main()

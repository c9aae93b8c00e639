#!/usr/bin/env python3
"""A benchmark corpus: N files of SIZE random bytes as ROOT/dNNN/fNNNNNNN.bin (1,000 directories),
and ROOT.names listing them, one per line. Random bytes, as images or compressed logs are."""
import os
import random
import sys

root, n, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rnd = random.Random(12)
names = []
for i in range(n):
    d = os.path.join(root, "d%03d" % (i % 1000))
    os.makedirs(d, exist_ok=True)
    name = "d%03d/f%07d.bin" % (i % 1000, i)
    with open(os.path.join(root, name), "wb") as f:
        f.write(rnd.randbytes(size))
    names.append(name)
with open(root + ".names", "w") as f:
    f.write("\n".join(names) + "\n")

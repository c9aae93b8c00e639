#!/usr/bin/env python3
"""Writes N log-like small files under DIR, deterministically (seed 2026): sizes drawn from a
lognormal distribution (median 4 KiB, sigma 1.0, 1 KiB to 10 MiB, like the HPF paper's log
files but smaller), lines of timestamps, levels and messages, 100 files per directory.

Usage: scripts/gen-logs.py N DIR"""
import os
import random
import sys


def main():
    count, root = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(2026)
    levels = ["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"]
    words = ["request", "served", "user", "cache", "miss", "hit", "block", "replica",
             "timeout", "retry", "commit", "segment", "client", "latency", "bytes"]
    for i in range(count):
        size = int(min(10 << 20, max(1024, rng.lognormvariate(8.3178, 1.0))))  # e^8.3178 = 4096
        d = os.path.join(root, "host-%03d" % (i // 100 % 1000), "day-%02d" % (i // 100000))
        os.makedirs(d, exist_ok=True)
        lines = []
        total = 0
        t = 1_700_000_000 + i * 37
        while total < size:
            t += rng.randrange(1, 20)
            line = "%d %s [worker-%d] %s %s %s=%d\n" % (
                t, rng.choice(levels), rng.randrange(16), rng.choice(words),
                rng.choice(words), rng.choice(words), rng.randrange(100000))
            lines.append(line)
            total += len(line)
        with open(os.path.join(d, "app-%06d.log" % i), "w", encoding="utf-8") as f:
            f.write("".join(lines)[:size])


if __name__ == "__main__":
    main()

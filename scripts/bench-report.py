#!/usr/bin/env python3
"""Turns bench-results/*.jsonl into the markdown tables of docs/BENCHMARKS.md.

Usage: scripts/bench-report.py [bench-results] [--plots DIR]   (prints markdown to stdout;
with --plots, also writes PNG plots of the paper suite into DIR, needing matplotlib)
Each JSON line is one measurement with its machine, JDK, commit and command; see hpf-bench.
"""
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path


def load(directory, name):
    path = Path(directory) / name
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def perfect_hash(rows):
    print("| keys | build (keys/s) | query (ns) | bits/key |")
    print("|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['keys']:,} | {r['build_keys_per_second']:,.0f} | "
              f"{r['query_ns_median']:.0f} | {r['bits_per_key']:.2f} |")


def warm_get(rows):
    by_threads = defaultdict(list)
    for r in rows:
        by_threads[r["threads"]].append(r)
    for threads, group in sorted(by_threads.items()):
        plain = next(r for r in group if r["system"] == "plain-files")["gets_per_second_median"]
        print(f"\n{threads} thread(s), {group[0]['entries']:,} entries, "
              f"medians of {group[0]['rounds']} rounds:\n")
        print("| system | gets/s | vs plain files | p50 (µs) | p99 (µs) | index B/entry | heap delta B/entry |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for r in group:
            index = r.get("index_bytes_per_entry")
            index = "—" if index is None or index != index or r["system"] == "plain-files" else f"{index:.2f}"
            print(f"| {r['system']} | {r['gets_per_second_median']:,.0f} | "
                  f"{r['gets_per_second_median'] / plain:.2f}× | {r['p50_us_median']:.1f} | "
                  f"{r['p99_us_median']:.1f} | {index} | {r['heap_bytes_per_entry']:.2f} |")


def create(rows):
    """Per tree: each system's median wall and CPU time, against tar's; then start-up and add."""
    trees = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if r["benchmark"] == "create":
            trees[r.get("tree", "kernel")][r["system"]].append(r)
    for tree, by_system in trees.items():
        files = next(iter(by_system.values()))[0]["files"]
        tar = statistics.median(r["seconds"] for r in by_system["tar"])
        print(f"\n{tree} ({files:,} files)\n")
        print("| system | runs | median s (min–max) | vs tar | CPU s | CPU µs/file | output |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for system, group in by_system.items():
            seconds = statistics.median(r["seconds"] for r in group)
            cpu = statistics.median(r.get("cpu_seconds", float("nan")) for r in group)
            size = statistics.median(r["output_bytes"] for r in group)
            print(f"| {system} | {len(group)} | {seconds:.2f} ({min(r['seconds'] for r in group):.2f}–"
                  f"{max(r['seconds'] for r in group):.2f}) | {seconds / tar:.2f}× | {cpu:.2f} | "
                  f"{cpu / files * 1e6:.1f} | {size / 1e6:,.1f} MB |")
    starts = [r["seconds"] for r in rows if r["benchmark"] == "startup"]
    if starts:
        print(f"\nstart-up (create of an empty directory): median {statistics.median(starts):.3f} s "
              f"of {len(starts)}")
    adds = defaultdict(list)
    for r in rows:
        if r["benchmark"] == "add-1k":
            adds[r["system"]].append(r["seconds"])
    for system, seconds in adds.items():
        print(f"\nadd 1,000 files to 1M entries, {system}: median {statistics.median(seconds):.3f} s "
              f"of {len(seconds)}")


def mount_writes(rows):
    """Per tree and program: each system's median seconds, written and durable, against plain."""
    groups = defaultdict(lambda: defaultdict(list))
    for r in rows:
        groups[(r["tree"], r["files"], r["op"])][r["system"]].append(r)
    print(f"on {rows[0]['fs']}; peer {rows[0]['peer']}")
    for (tree, files, op), by_system in groups.items():
        plain = statistics.median(r["seconds"] for r in by_system["plain"])
        plain_durable = statistics.median(r["durable_seconds"] for r in by_system["plain"])
        print(f"\n{op} of {tree} ({files:,} files)\n")
        print("| system | runs | written s | vs plain | durable s | vs plain |")
        print("|---|---:|---:|---:|---:|---:|")
        for system, group in by_system.items():
            written = statistics.median(r["seconds"] for r in group)
            durable = statistics.median(r["durable_seconds"] for r in group)
            print(f"| {system} | {len(group)} | {written:.2f} | {written / plain:.2f}× | "
                  f"{durable:.2f} | {durable / plain_durable:.2f}× |")


def change(rows):
    adds = [r for r in rows if r["benchmark"] == "add-1k"]
    if adds:
        create = next(r for r in adds if r["base_entries"] == 0)
        print("| adding 1,000 files to | median s | vs creating 1,000 | bytes written | archive bytes |")
        print("|---|---:|---:|---:|---:|")
        print(f"| (create a new archive) | {create['seconds_median']:.3f} | 1.00× | "
              f"{create['bytes_written']:,} | |")
        for r in adds:
            if r["base_entries"]:
                print(f"| {r['base_entries']:,} entries | {r['seconds_median']:.3f} | "
                      f"{r['seconds_median'] / create['seconds_median']:.2f}× | "
                      f"{r['bytes_written_median']:,.0f} | {r['archive_bytes']:,} |")
    gets = [r for r in rows if r["benchmark"] == "segments-get"]
    if gets:
        print("\n| segments | lookup | reads per get | p50 (µs) | p99 (µs) |")
        print("|---:|---|---:|---:|---:|")
        for r in gets:
            print(f"| {r['segments']} | {r['kind']} | {r['reads_per_get']:.3f} | "
                  f"{r['p50_us']:.1f} | {r['p99_us']:.1f} |")


def hdfs(rows):
    datasets = list(dict.fromkeys(r["dataset"] for r in rows))
    for name in datasets:
        group = [r for r in rows if r["dataset"] == name]
        first = group[0]
        print(f"\n**{name}**: {first['files']:,} files, {first['bytes'] / 2**20:,.0f} MiB\n")
        creates = defaultdict(list)
        for r in group:
            if r["benchmark"] == "hdfs-create":
                creates[r["system"]].append(r["seconds"])
        put = statistics.median(creates["hdfs-dfs-put"])
        print("| creation | runs | median s (min–max) | files/s | hpf create is faster by |")
        print("|---|---:|---:|---:|---:|")
        hpf = statistics.median(creates["hpf-create"])
        har_total = put + statistics.median(creates.get("har-archive-job", [float("nan")]))
        for system, seconds in creates.items():
            med = statistics.median(seconds)
            print(f"| {system} | {len(seconds)} | {med:.1f} ({min(seconds):.1f}–{max(seconds):.1f}) | "
                  f"{first['files'] / med:,.0f} | {med / hpf:.1f}× |")
        print(f"| HAR: upload + archive job | | {har_total:.1f} | {first['files'] / har_total:,.0f} | "
              f"{har_total / hpf:.1f}× |")
        objects = {r["system"]: r for r in group if r["benchmark"] == "hdfs-namenode-objects"}
        if objects:
            plain = objects["plain"]["nnObjects"]
            print("\n| stored as | files | dirs | blocks | NameNode objects | heap (150 B/object) | "
                  "fewer objects than plain | bytes stored |")
            print("|---|---:|---:|---:|---:|---:|---:|---:|")
            for system, r in objects.items():
                print(f"| {system} | {r['nnFiles']:,} | {r['nnDirectories']:,} | {r['nnBlocks']:,} | "
                      f"{r['nnObjects']:,} | {r['nnHeapBytesModel'] / 2**10:,.1f} KiB | "
                      f"{plain / r['nnObjects']:,.0f}× | {r['bytesStored'] / 2**20:,.1f} MiB |")
        gets = {r["system"]: r for r in group if r["benchmark"] == "hdfs-get"}
        if gets:
            plain = gets["plain-open-read-close"]["microsPerGetMedian"]
            print("\n| random get (uniform) | gets per round | µs per get (median of rounds) | "
                  "vs plain HDFS files |")
            print("|---|---:|---:|---:|")
            for system, r in gets.items():
                print(f"| {system} | {r['getsPerRound']:,} | {r['microsPerGetMedian']:,.0f} | "
                      f"{plain / r['microsPerGetMedian']:.2f}× |")


SYSTEMS = ["hpf", "hpf-nocache", "hpf-lz4", "hpf-solid", "plain", "seqfile-record", "seqfile-block", "mapfile", "har"]


def paper(rows):
    """The paper suite: one block of tables per file system."""
    for fs in dict.fromkeys(r["fs"] for r in rows):
        group = [r for r in rows if r["fs"] == fs]
        datasets = list(dict.fromkeys(r["dataset"] for r in group if "dataset" in r))
        print(f"\n#### On {fs}\n")
        print("Medians over repetitions (rounds), with the range in parentheses.\n")
        for d in datasets:
            f = next(r for r in group if r.get("dataset") == d)
            print(f"- {d}: {f['files']:,} files, {f['bytes'] / 2**20:,.1f} MiB")
        for title, key, fmt in (("Creation, median seconds", "seconds", "{:.2f}"),
                                ("Bytes stored, MiB", "bytesStored", "{:.1f}"),
                                ("NameNode objects (files + directories + blocks)", "nnObjects", "{:,.0f}")):
            print(f"\n{title}:\n")
            print("| dataset | " + " | ".join(SYSTEMS) + " |")
            print("|---|" + "---:|" * len(SYSTEMS))
            for d in datasets:
                cells = []
                for s_ in SYSTEMS:
                    vals = [r[key] for r in group if r["benchmark"] == "create" and r["dataset"] == d
                            and r["system"] == s_]
                    if key == "bytesStored":
                        vals = [v / 2**20 for v in vals]
                    v = statistics.median(vals) if vals else float("nan")
                    cell = fmt.format(v)
                    if key == "seconds" and len(vals) > 1:
                        cell += f" ({min(vals):.2f}–{max(vals):.2f})"
                    cells.append(cell)
                print(f"| {d} | " + " | ".join(cells) + " |")
        for kind, title in (("warm-uniform", "Warm random get (one reader), uniform, µs"),
                            ("warm-zipf", "Warm random get, Zipf, µs"),
                            ("cold-uniform", "Cold random get (a new reader per get), uniform, µs"),
                            ("scan", "Full scan, MB/s")):
            print(f"\n{title}:\n")
            print("| dataset | " + " | ".join(SYSTEMS) + " |")
            print("|---|" + "---:|" * len(SYSTEMS))
            for d in datasets:
                cells = []
                for s_ in SYSTEMS:
                    r = next((r for r in group if r["benchmark"] in ("get", "scan") and
                              r["dataset"] == d and r["system"] == s_ and r["kind"] == kind), None)
                    if r is None:
                        cells.append("—")
                    elif kind == "scan":
                        cells.append(f"{r['megabytesPerSecond'] / 1.048576:,.0f}")
                    else:
                        rounds = json.loads(r["microsPerOperationRounds"])
                        cells.append(f"{r['microsPerOperationMedian']:,.0f} "
                                     f"({min(rounds):,.0f}–{max(rounds):,.0f})")
                print(f"| {d} | " + " | ".join(cells) + " |")
        catalog = [r for r in group if r["benchmark"] == "catalog"]
        if catalog:
            print(f"\nCatalog (HFile paper's four), {catalog[0]['rows']:,} rows:\n")
            print("| operation | operations | µs per operation |")
            print("|---|---:|---:|")
            for r in catalog:
                print(f"| {r['operation']} | {r['operations']:,} | {r['microsPerOperation']:.2f} |")


def plots(rows, directory):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    Path(directory).mkdir(parents=True, exist_ok=True)
    for fs in dict.fromkeys(r["fs"] for r in rows):
        group = [r for r in rows if r["fs"] == fs]
        datasets = list(dict.fromkeys(r["dataset"] for r in group if "dataset" in r))
        for name, pick, label, log in (
                ("create", lambda d, s_: statistics.median(
                    [r["seconds"] for r in group if r["benchmark"] == "create"
                     and r["dataset"] == d and r["system"] == s_] or [float("nan")]),
                 "creation time (s)", True),
                ("warm-get", lambda d, s_: next(
                    (r["microsPerOperationMedian"] for r in group if r["benchmark"] == "get"
                     and r["dataset"] == d and r["system"] == s_ and r["kind"] == "warm-uniform"),
                    float("nan")), "warm random get (µs)", True),
                ("namenode-objects", lambda d, s_: statistics.median(
                    [r["nnObjects"] for r in group if r["benchmark"] == "create"
                     and r["dataset"] == d and r["system"] == s_] or [float("nan")]),
                 "NameNode objects", True)):
            fig, ax = plt.subplots(figsize=(8, 3.5))
            width = 0.8 / len(SYSTEMS)
            for i, s_ in enumerate(SYSTEMS):
                ax.bar([x + i * width for x in range(len(datasets))],
                       [pick(d, s_) for d in datasets], width, label=s_)
            ax.set_xticks([x + 0.4 - width / 2 for x in range(len(datasets))], datasets)
            ax.set_ylabel(label)
            if log:
                ax.set_yscale("log")
            ax.set_title(f"{label} on {fs}")
            ax.legend(fontsize=7, ncol=3)
            fig.tight_layout()
            fig.savefig(Path(directory) / f"paper-{fs}-{name}.png", dpi=90)
            plt.close(fig)


def mapreduce(rows):
    """SFMapReduce's jobs over plain files, combine splits, HAR and hpf; sweep; hpf:// vs har://."""
    def median(bench, system):
        values = [r["seconds"] for r in rows if r["benchmark"] == bench and r["system"] == system]
        return statistics.median(values) if values else None

    def maps(bench, system):
        return next((r.get("maps") for r in rows
                     if r["benchmark"] == bench and r["system"] == system), None)

    files = next(r["files"] for r in rows if r["benchmark"].startswith("mapreduce-"))

    reps = max(r["repetition"] for r in rows if r["benchmark"].startswith("mapreduce-"))
    print(f"\nMap-only jobs over {files:,} sf-text-30k files, medians of {reps} runs "
          "(seconds, map tasks; the ratio is the system's time over hpf's):\n")
    print("| job | plain files (a) | combine (b) | HAR (c) | hpf (d) | (a)/(d) | (b)/(d) | (c)/(d) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for job in ("wordcount", "grep", "sort"):
        bench = "mapreduce-" + job
        t = {s: median(bench, s) for s in ("plain", "combine", "har", "hpf")}
        if None in t.values():
            continue
        cells = " | ".join(f"{t[s]:.2f} ({maps(bench, s)})" for s in ("plain", "combine", "har", "hpf"))
        print(f"| {job} | {cells} | {t['plain'] / t['hpf']:.1f}× | {t['combine'] / t['hpf']:.2f}× | "
              f"{t['har'] / t['hpf']:.1f}× |")
    sweep = sorted({r["splitMb"] for r in rows if "splitMb" in r})
    if sweep:
        print("\nhpf WordCount by split size:\n")
        print("| split size (MB) | seconds | map tasks |")
        print("|---:|---:|---:|")
        for mb in sweep:
            system = f"hpf-split-{mb}mb"
            print(f"| {mb} | {median('mapreduce-wordcount', system):.2f} | "
                  f"{maps('mapreduce-wordcount', system)} |")
    print("\n`hpf://` against `har://` (seconds):\n")
    print("| entries | operation | har:// | hpf:// | har/hpf |")
    print("|---:|---|---:|---:|---:|")
    for count in sorted({r["files"] for r in rows if r["benchmark"] == "list-recursive"}):
        for bench, label in (("list-recursive", "list recursively (with block locations)"),
                             ("open-read-1000", "open and read 1,000 random entries")):
            values = {s: statistics.median(r["seconds"] for r in rows
                                           if r["benchmark"] == bench and r["system"] == s
                                           and r["files"] == count) for s in ("har", "hpf")}
            print(f"| {count:,} | {label} | {values['har']:.2f} | {values['hpf']:.2f} | "
                  f"{values['har'] / values['hpf']:.1f}× |")
    setup = [r for r in rows if r["benchmark"] == "split-setup"]
    if setup:
        print(f"\nSplit computation for an archive of {setup[0]['files']:,} entries: median "
              f"{statistics.median(r['seconds'] for r in setup):.2f} s "
              f"({setup[0]['splits']} splits, {len(setup)} runs).")


def spark(rows):
    """Spark local[2]: hpf against binaryFile, wholeTextFiles and sc.binaryFiles; spark-pack."""
    systems = ("hpf", "binaryFile", "wholeTextFiles", "sc.binaryFiles")
    labels = {"bytes": "sum of content bytes", "wordcount": "WordCount (distinct words)",
              "count-prefix": "count by prefix (metadata)", "lookup-1000": "1,000 lookups by name"}
    for corpus, files in sorted({(r["corpus"], r["files"]) for r in rows}):
        these = [r for r in rows if r["corpus"] == corpus and r["files"] == files]
        queried = [r for r in these if "repetition" in r]
        if queried:
            reps = max(r["repetition"] for r in queried)
            print(f"\n{files:,} files of the {corpus} corpus, medians of {reps} runs (seconds; the "
                  "ratio is the peer's time over hpf's):\n")
            present = [s for s in systems if any(r["system"] == s for r in queried)]
            print("| query | " + " | ".join(present) + " | "
                  + " | ".join(f"{s}/hpf" for s in present[1:]) + " |")
            print("|---|" + "---:|" * (2 * len(present) - 1))
            for bench, label in labels.items():
                t = {}
                for s in present:
                    values = [r["seconds"] for r in queried
                              if r["benchmark"] == "spark-" + bench and r["system"] == s]
                    t[s] = statistics.median(values) if values else None
                if None in t.values():
                    continue
                cells = " | ".join(f"{t[s]:.2f}" for s in present)
                ratios = " | ".join(f"{t[s] / t['hpf']:.1f}×" for s in present[1:])
                print(f"| {label} | {cells} | {ratios} |")
        packing = [r for r in these if r["benchmark"] == "spark-pack"]
        if packing:
            print(f"\nPacking the {files:,} files of the {corpus} corpus from HDFS:\n")
            print("| how | seconds | files/s per core | listing tasks | pack tasks |")
            print("|---|---:|---:|---:|---:|")
            for r in packing:
                print(f"| {r['system']} | {r['seconds']:.1f} | {r['files_per_second_per_core']:,.0f} | "
                      f"{r.get('list_tasks', '—')} | {r.get('pack_tasks', '—')} |")


def main():
    args = [a for a in sys.argv[1:]]
    plot_dir = None
    if "--plots" in args:
        i = args.index("--plots")
        plot_dir = args[i + 1]
        del args[i:i + 2]
    directory = args[0] if args else "bench-results"
    for title, name, table in (("Perfect hash", "perfect-hash.jsonl", perfect_hash),
                               ("Warm random get", "warm-get.jsonl", warm_get),
                               ("Archives that change", "change.jsonl", change),
                               ("Create", "create.jsonl", create),
                               ("Writes through the mount", "mount-writes.jsonl", mount_writes),
                               ("HDFS", "hdfs.jsonl", hdfs),
                               ("MapReduce", "mapreduce.jsonl", mapreduce),
                               ("Spark", "spark.jsonl", spark)):
        rows = load(directory, name)
        if rows:
            print(f"\n### {title}\n")
            print(f"`{rows[0]['command']}` — {rows[0]['machine']}, {rows[0]['cores']} cores, "
                  f"{rows[0]['jdk']}, commit {rows[0]['commit']}\n")
            table(rows)
    paper_rows = []
    for path in sorted(Path(directory).glob("paper-*.jsonl")):
        paper_rows += load(directory, path.name)
    if paper_rows:
        print("\n### Paper suite\n")
        print(f"`{paper_rows[0]['command']}` — {paper_rows[0]['machine']}, "
              f"{paper_rows[0]['cores']} cores, {paper_rows[0]['jdk']}, commit {paper_rows[0]['commit']}")
        paper(paper_rows)
        if plot_dir:
            plots(paper_rows, plot_dir)


if __name__ == "__main__":
    main()

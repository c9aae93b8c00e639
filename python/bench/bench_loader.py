"""Training-loader benchmark: the same JPEGs written into hpf (the Python writer), WebDataset tar
shards (TarWriter), LitData (`optimize`) and MosaicML MDS (MDSWriter), then read through PyTorch's
DataLoader (2 workers, batches of 64, bytes only, no decode) from local disk in order and with a
full shuffle, and from S3 (SeaweedFS, through a byte-counting proxy) with a full shuffle.

    python bench_loader.py images DIR COUNT          JPEGs of 5-40 KB made with Pillow, seeded
    python bench_loader.py write DIR FORMAT          one format of DIR/images, timed
    python bench_loader.py suite DIR COUNT RUNS [ONLY]   all of it (or ONLY: write,local,s3,served),
                                                     the formats alternating
    python bench_loader.py read DIR FORMAT WHERE MODE [--endpoint URL --count URL]
    python bench_loader.py resume DIR FORMAT [--endpoint URL --count URL]

Each prints one JSON line. scripts/bench-loader.sh runs them all, alternating, into
bench-results/loader.jsonl."""

import io
import json
import os
import random
import shutil
import sys
import time
import urllib.request

BATCH, WORKERS = 64, 2
FORMATS = ("hpf", "webdataset", "litdata", "mds")
S3_READERS = ("hpf", "hpf-http", "webdataset", "litdata", "mds")  # hpf through s3fs, or its own


def images(out, count):
    from PIL import Image

    os.makedirs(out, exist_ok=True)
    rnd = random.Random(20261128)
    for i in range(count):
        side = rnd.randrange(96, 256)
        noise = rnd.randbytes(side * side * 3 // 16)
        img = Image.frombytes("RGB", (side // 4, side // 4), noise).resize((side, side))
        buf = io.BytesIO()
        img.save(buf, "JPEG", quality=rnd.randrange(60, 95))
        with open(os.path.join(out, f"{i:07d}.jpg"), "wb") as f:
            f.write(buf.getvalue())


def _files(work):
    src = os.path.join(work, "images")
    return [(n, os.path.join(src, n)) for n in sorted(os.listdir(src))]


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _litdata_item(item):
    name, path = item
    return {"name": name, "jpg": _read(path)}


def write(work, fmt):
    files = _files(work)
    out = os.path.join(work, fmt)
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    if fmt == "hpf":
        import hpf_archive as hpf

        with hpf.create(os.path.join(out, "train.hpf")) as w:
            for name, path in files:
                w.add_file(name, path)
    elif fmt == "webdataset":
        import webdataset as wds

        os.makedirs(out)
        with wds.ShardWriter(os.path.join(out, "shard-%06d.tar"), maxsize=64 << 20,
                             verbose=0) as w:
            for name, path in files:
                w.write({"__key__": name[:-4], "jpg": _read(path)})
    elif fmt == "litdata":
        import litdata

        litdata.optimize(_litdata_item, files, out, chunk_bytes="64MB", num_workers=WORKERS,
                         verbose=False)
    elif fmt == "mds":
        from streaming import MDSWriter

        with MDSWriter(out=out, columns={"name": "str", "jpg": "bytes"},
                       size_limit=64 << 20) as w:
            for name, path in files:
                w.write({"name": name, "jpg": _read(path)})
    seconds = time.perf_counter() - start
    return {"what": "write", "format": fmt, "files": len(files), "seconds": round(seconds, 3),
            "files_per_s": round(len(files) / seconds)}


def _s3(endpoint):
    return {"key": "bench", "secret": "bench-secret", "client_kwargs": {"endpoint_url": endpoint}}


def _dataset(work, fmt, where, shuffle, endpoint, cache):
    """The format's dataset yielding (name, bytes), and the loader's collate."""
    if fmt == "hpf-serve":  # through hpf serve's HTTP API: a batch one _mget
        import hpf_archive as hpf

        return hpf.StreamingDataset(f"hpf+{endpoint}/train", batch_size=BATCH, shuffle=shuffle,
                                    seed=1)
    if fmt.startswith("hpf"):
        import hpf_archive as hpf

        if where == "local":
            return hpf.StreamingDataset(os.path.join(work, "hpf", "train.hpf"),
                                        batch_size=BATCH, shuffle=shuffle, seed=1)
        options = dict(_s3(endpoint), **({"signed_http": True} if fmt == "hpf-http" else {}))
        return hpf.StreamingDataset("s3://bench/hpf/train.hpf", batch_size=BATCH,
                                    shuffle=shuffle, seed=1, storage_options=options)
    if fmt == "webdataset":
        import webdataset as wds

        shards = sorted(n for n in os.listdir(os.path.join(work, "webdataset")))
        urls = ([os.path.join(work, "webdataset", n) for n in shards] if where == "local" else
                [f"pipe:curl -s {endpoint}/bench/webdataset/{n}" for n in shards])
        ds = wds.WebDataset(urls, shardshuffle=len(urls) if shuffle else False,
                            nodesplitter=wds.split_by_node, workersplitter=wds.split_by_worker,
                            empty_check=False)
        if shuffle:
            ds = ds.shuffle(5000)  # WebDataset's shuffle: shards, then a buffer of samples
        return ds.to_tuple("__key__", "jpg")
    if fmt == "litdata":
        import litdata
        from litdata.streaming import downloader

        # The test server speaks plain HTTP, which LitData's object-store client refuses unless
        # told (real S3 is HTTPS); nothing else of its settings changes.
        downloader._OBSTORE_CLIENT_OPTIONS = {**downloader._OBSTORE_CLIENT_OPTIONS,
                                              "allow_http": "true"}

        location = (os.path.join(work, "litdata") if where == "local"
                    else "s3://bench/litdata")
        options = None if where == "local" else {"endpoint_url": endpoint,
                                                 "aws_access_key_id": "bench",
                                                 "aws_secret_access_key": "bench-secret"}
        return litdata.StreamingDataset(location, shuffle=shuffle, cache_dir=cache,
                                        storage_options=options or {},
                                        transform=lambda d: (d["name"], d["jpg"]))
    from streaming import StreamingDataset
    from streaming.base.util import clean_stale_shared_memory

    clean_stale_shared_memory()  # what an earlier run left (it made a later one fail once)

    class MDS(StreamingDataset):
        def __getitem__(self, i):
            d = super().__getitem__(i)
            return d["name"], d["jpg"]

    if where == "local":
        return MDS(local=os.path.join(work, "mds"), shuffle=shuffle, batch_size=BATCH)
    return MDS(remote="s3://bench/mds", local=cache, shuffle=shuffle, batch_size=BATCH)


def _names_and_sizes(samples):
    return [s[0] for s in samples], sum(len(s[1]) for s in samples)


def _bytes_sent(count_url):
    if not count_url:
        return 0
    with urllib.request.urlopen(count_url) as r:
        return int(r.read())


def read(work, fmt, where, mode, endpoint=None, count_url=None):
    import torch.utils.data as tud

    cache = os.path.join(work, f"cache-{fmt}")
    shutil.rmtree(cache, ignore_errors=True)
    os.environ.setdefault("S3_ENDPOINT_URL", endpoint or "")
    sent0 = _bytes_sent(count_url)
    start = time.perf_counter()
    ds = _dataset(work, fmt, where, mode == "shuffle", endpoint, cache)
    loader = tud.DataLoader(ds, batch_size=BATCH, num_workers=WORKERS,
                            collate_fn=_names_and_sizes, persistent_workers=False)
    samples = size = 0
    first = None
    for names, nbytes in loader:
        if first is None:
            first = time.perf_counter() - start
        samples += len(names)
        size += nbytes
    seconds = time.perf_counter() - start
    sent = _bytes_sent(count_url) - sent0
    shutil.rmtree(cache, ignore_errors=True)
    return {"what": "read", "format": fmt, "where": where, "mode": mode, "samples": samples,
            "seconds": round(seconds, 3), "samples_per_s": round(samples / seconds),
            "first_sample_s": round(first or 0, 3), "sample_bytes": size,
            "sent_per_sample": round(sent / samples) if samples and count_url else None,
            "sent_over_content": round(sent / size, 3) if size and count_url else None}


def resume(work, fmt, endpoint=None, count_url=None):
    """hpf resumed at half an epoch from S3: time to its first sample, bytes for the rest."""
    import torch.utils.data as tud

    import hpf_archive as hpf

    options = dict(_s3(endpoint), **({"signed_http": True} if fmt == "hpf-http" else {}))
    ds = hpf.StreamingDataset("s3://bench/hpf/train.hpf", batch_size=BATCH, shuffle=True,
                              seed=1, storage_options=options)
    half = (len(ds) // 2 // BATCH) * BATCH
    state = ds.state_dict(samples_seen=half)
    sent0 = _bytes_sent(count_url)
    start = time.perf_counter()
    again = hpf.StreamingDataset("s3://bench/hpf/train.hpf", batch_size=BATCH, shuffle=True,
                                 seed=1, storage_options=options)
    again.load_state_dict(state)
    loader = tud.DataLoader(again, batch_size=BATCH, num_workers=WORKERS,
                            collate_fn=_names_and_sizes)
    first, samples, size = None, 0, 0
    for names, nbytes in loader:
        if first is None:
            first = time.perf_counter() - start
        samples += len(names)
        size += nbytes
    sent = _bytes_sent(count_url) - sent0
    return {"what": "resume", "format": fmt, "at": half, "first_sample_s": round(first, 3),
            "samples": samples, "bytes_fetched": sent, "content_bytes": size}


def _run(*args):
    """One measurement in a process of its own (a fresh interpreter, as a training job starts)."""
    import subprocess

    done = subprocess.run([sys.executable, __file__, *map(str, args)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        return {"what": args[0], "args": list(map(str, args[2:])),
                "error": (done.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def suite(work, count, runs, only=None):
    """Everything (or only the measurements named `only`: write, local, s3, served), `runs` times
    each, the formats alternating; yields the JSON lines."""
    import contextlib
    import subprocess
    from pathlib import Path

    here = Path(__file__).resolve().parent
    sys.path.insert(0, str(here / "tests" if (here / "tests").is_dir() else here.parent / "tests"))
    import seaweed

    if not os.path.isdir(os.path.join(work, "images")):
        images(os.path.join(work, "images"), count)
    wanted = set((only or "write,local,s3,served").split(","))
    for _, path in _files(work):  # into the page cache: no writer pays for reading them first
        _read(path)
    for run in range(runs if "write" in wanted else 0):
        for fmt in FORMATS:
            yield dict(_run("write", work, fmt), run=run)
    for mode in ("seq", "shuffle"):
        for run in range(runs if "local" in wanted else 0):
            for fmt in FORMATS:
                yield dict(_run("read", work, fmt, "local", mode), run=run)
    if "served" in wanted:
        yield from _served(work, runs)
    if "s3" not in wanted:
        return
    weed = seaweed.weed_binary()
    proxy = os.environ.get("HPF_COUNTPROXY")
    with contextlib.ExitStack() as stack:
        data = Path(work) / "weed-data"
        shutil.rmtree(data, ignore_errors=True)
        data.mkdir()
        s3 = stack.enter_context(seaweed.running(weed, data, "bench", "bench", "bench-secret",
                                                 anonymous_reads=True))
        ports = seaweed.free_ports(2)
        counter = subprocess.Popen([proxy, f"127.0.0.1:{ports[0]}", s3.split("//")[1],
                                    f"127.0.0.1:{ports[1]}"])
        stack.callback(counter.kill)
        endpoint, count_url = f"http://127.0.0.1:{ports[0]}", f"http://127.0.0.1:{ports[1]}/bytes"
        time.sleep(0.5)
        _upload(work, s3)
        os.environ.update(AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench-secret",
                          AWS_DEFAULT_REGION="us-east-1", S3_ENDPOINT_URL=endpoint,
                          AWS_ENDPOINT_URL=endpoint)
        for run in range(runs):
            for fmt in S3_READERS:
                yield dict(_run("read", work, fmt, "s3", "shuffle", "--endpoint", endpoint,
                                "--count", count_url), run=run)
        for run in range(runs):
            yield dict(_run("resume", work, "hpf-http", "--endpoint", endpoint, "--count",
                            count_url), run=run)


def _served(work, runs):
    """The same shuffled epoch read through `hpf serve` (HPF_LAUNCHER) over the local archive,
    through the byte-counting proxy."""
    import subprocess

    launcher = os.environ.get("HPF_LAUNCHER")
    if not launcher:
        return
    import hpf_serve
    import seaweed  # for its free ports

    serve, listen, control = seaweed.free_ports(3)
    counter = subprocess.Popen([os.environ["HPF_COUNTPROXY"], f"127.0.0.1:{listen}",
                                f"127.0.0.1:{serve}", f"127.0.0.1:{control}"])
    try:
        with hpf_serve.running(launcher, os.path.join(work, "hpf"), serve):
            for run in range(runs):
                yield dict(_run("read", work, "hpf-serve", "served", "shuffle", "--endpoint",
                                f"http://127.0.0.1:{listen}", "--count",
                                f"http://127.0.0.1:{control}/bytes"), run=run)
    finally:
        counter.kill()


def _upload(work, endpoint):
    import s3fs

    fs = s3fs.S3FileSystem(**_s3(endpoint))
    for fmt in FORMATS:
        local = os.path.join(work, fmt)
        for root, _, names in os.walk(local):
            for n in names:
                path = os.path.join(root, n)
                fs.put_file(path, "bench/" + fmt + "/" + os.path.relpath(path, local))


def main():
    command, work = sys.argv[1], sys.argv[2]
    if command == "suite":
        import datetime
        import platform

        import torch

        model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                      if line.startswith("model name")), platform.machine())
        only = sys.argv[5] if len(sys.argv) > 5 else None
        for line in suite(work, int(sys.argv[3]), int(sys.argv[4]), only):
            line.update(benchmark="loader", torch=torch.__version__,
                        python=platform.python_version(), machine=model, cores=os.cpu_count(),
                        commit=os.environ.get("HPF_COMMIT", "unknown"),
                        command=os.environ.get("BENCH_COMMAND", ""),
                        time=datetime.datetime.now(datetime.timezone.utc).isoformat())
            print(json.dumps(line), flush=True)
        return
    args = sys.argv[3:]
    opts = {}
    while "--endpoint" in args or "--count" in args:
        i = next(i for i, a in enumerate(args) if a in ("--endpoint", "--count"))
        opts[args[i][2:]] = args[i + 1]
        del args[i:i + 2]
    if command == "images":
        images(os.path.join(work, "images"), int(args[0]))
        return
    if command == "write":
        result = write(work, args[0])
    elif command == "read":
        result = read(work, args[0], args[1], args[2], opts.get("endpoint"), opts.get("count"))
    else:
        result = resume(work, args[0], opts.get("endpoint"), opts.get("count"))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()

"""StreamingDataset reading through `hpf serve` (hpf+http://): a shuffled batch is one `_mget`
request; every sample once, a damaged entry named (or skipped and counted), resume exact."""

import socket

import pytest

import hpf_archive as hpf
import hpf_serve
from conftest import ROOT

N = 700


def _content(i):
    return b"%d|" % i * (i % 300)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("served")
    with hpf.create(root / "train.hpf", codec="none") as w:
        for i in range(N):
            w.add(f"img/{i:04d}.jpg", _content(i))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with hpf_serve.running(ROOT / "hpf", root, port) as url:
        yield root, url.replace("http://", "hpf+http://") + "/train"


def test_a_shuffled_epoch_through_the_server_is_every_sample_once(served):
    _, location = served
    ds = hpf.StreamingDataset(location, batch_size=32, shuffle=True, seed=4)
    seen = list(ds)
    assert sorted(name for name, _ in seen) == [f"img/{i:04d}.jpg" for i in range(N)]
    assert all(data == _content(int(name[4:8])) for name, data in seen)
    local = hpf.StreamingDataset(served[0] / "train.hpf", batch_size=32, shuffle=True, seed=4)
    assert [name for name, _ in local] == [name for name, _ in seen]  # the same permutation
    again = hpf.StreamingDataset(location, batch_size=32, shuffle=True, seed=4)
    again.load_state_dict(ds.state_dict(samples_seen=320))
    assert list(again) == seen[320:]


def test_a_damaged_entry_served_is_named_or_skipped(served):
    root, location = served
    with hpf.open(root / "train.hpf") as a:
        info = a.stat("img/0299.jpg")
    part = root / "train.hpf" / f"part-{info.part_id:08d}.hpfp"
    original = part.read_bytes()
    damaged = bytearray(original)
    damaged[info.offset + info.entry_length - 10] ^= 0xFF
    part.write_bytes(bytes(damaged))
    try:
        with pytest.raises(hpf.CorruptArchive, match="img/0299.jpg"):
            list(hpf.StreamingDataset(location, batch_size=50))
        ds = hpf.StreamingDataset(location, batch_size=50, skip_damaged=True,
                                  transform=lambda name, data: name)
        names = list(ds)
        assert "img/0299.jpg" not in names and len(names) == N - 1 and ds.skipped == 1
    finally:
        part.write_bytes(original)

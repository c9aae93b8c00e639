"""The datasets under a real PyTorch DataLoader with worker processes (fork and spawn), on local
disk and in S3 (SeaweedFS through s3fs): every sample once, in the order the permutation gives,
an exact resume with another number of workers, and no connection of the parent used in a
worker. Runs in the venv scripts/torch-venv.sh makes (scripts/test.sh does)."""

import pytest
import torch
from torch.utils.data import DataLoader

import hpf_archive as hpf
import seaweed

N, BATCH = 600, 16
# Three workers on two cores are asked for on purpose: a resume with another worker count.
pytestmark = pytest.mark.filterwarnings("ignore:This DataLoader will create")
ACCESS, SECRET = "HPFTORCH", "hpf-torch-secret"


def _content(i):
    return b"%d;" % i * (i % 200)


def _fill(w):
    for i in range(N):
        w.add(f"img/{i:04d}.jpg", _content(i))


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    with seaweed.required(tmp_path_factory, "train", ACCESS, SECRET) as (_, options):
        with hpf.create("s3://train/set.hpf", storage_options=options) as w:
            _fill(w)
        yield options


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    path = tmp_path_factory.mktemp("local") / "set.hpf"
    with hpf.create(path) as w:
        _fill(w)
    return str(path)


def _sizes(batch):
    return [len(x) for x in batch]


def _collate(samples):
    return [name for name, _ in samples], [data for _, data in samples]


@pytest.fixture(params=["local", "s3"])
def source(request, local, s3):
    return ("s3://train/set.hpf", s3) if request.param == "s3" else (local, None)


@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_workers_see_every_sample_in_the_permutations_order_and_resume(source, start):
    location, options = source
    ds = hpf.StreamingDataset(location, batch_size=BATCH, shuffle=True, seed=11,
                              storage_options=options)
    ds.set_epoch(2)
    reference = hpf.StreamingDataset(location, batch_size=BATCH, shuffle=True, seed=11,
                                     storage_options=options)
    reference.set_epoch(2)
    expected = [name for name, _ in reference]  # in this process, no workers
    loader = DataLoader(ds, batch_size=BATCH, num_workers=2, multiprocessing_context=start,
                        collate_fn=_collate)
    seen = []
    for names, contents in loader:
        for name, data in zip(names, contents):
            assert data == _content(int(name[4:8]))
        seen += names
    assert seen == expected and sorted(seen) == [f"img/{i:04d}.jpg" for i in range(N)]

    # Stopped after 7 batches; resumed with three workers.
    state = ds.state_dict(samples_seen=7 * BATCH)
    again = hpf.StreamingDataset(location, batch_size=BATCH, shuffle=True, seed=11,
                                 storage_options=options)
    again.load_state_dict(state)
    loader = DataLoader(again, batch_size=BATCH, num_workers=3, multiprocessing_context=start,
                        collate_fn=_collate)
    rest = [name for names, _ in loader for name in names]
    assert rest == expected[7 * BATCH:]


def test_the_map_style_dataset_under_forked_workers_reads_s3(s3):
    ds = hpf.Dataset("s3://train/set.hpf", storage_options=s3)  # listed in this process
    loader = DataLoader(ds, batch_size=BATCH, num_workers=2, multiprocessing_context="fork",
                        collate_fn=_sizes)
    sizes = [n for batch in loader for n in batch]
    assert sizes == [len(_content(i)) for i in range(N)]
    assert torch.utils.data.get_worker_info() is None

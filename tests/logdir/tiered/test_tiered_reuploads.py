"""Every shape of re-upload, each offset once (issue 42, item 2).

A copy of one segment of a multi-segment partition under a new segment id, its manifest naming that id
and an event time one later, was read twice by ``open_log`` when the manifests state no leader epochs
(``segmentLeaderEpochs`` empty, as ``write_tiered`` writes them for a log without a leader-epoch
checkpoint, the synth data's): such a manifest was "kept where its name puts it", beside its twin. Kafka
serves each offset once: here every shape (a copy earlier, later or at the same event time, of the
first, a middle or the last segment; a superset and a subset cut elsewhere; the epochs stated or not)
reads the log's records once, in order, through ``open_log``'s records and Arrow, and ``verify``
reports no error. Prefixes are written under the test's tmp_path, beside a canary that must survive.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pytest
from support.logdir import write_partition

from kafkaspec import logdir
from kafkaspec.logdir.kafka.files import LEADER_EPOCH_CHECKPOINT
from kafkaspec.logdir.tiered.segment import INDEXES_SUFFIX, MANIFEST_SUFFIX, kafka_uuid


def _records(log) -> list[tuple]:
    return [
        (p.topic, p.partition, r.offset, r.key, r.value) for p in log.partitions() for _, r in p.records()
    ]


def _written(tmp_path: Path, name: str, segment_bytes: int, epochs: bool) -> tuple[Path, list[tuple]]:
    """One partition (epochs changing every 17 batches) cut into segments of ``segment_bytes``, in the
    tiered layout; without its leader-epoch checkpoint unless ``epochs`` (manifests stating none)."""
    logs = tmp_path / f"logs-{name}"
    write_partition(logs, topic="t", batches=70, seed=5, segment_bytes=segment_bytes, codecs=("none", "zstd"))
    if not epochs:
        (logs / "t-0" / LEADER_EPOCH_CHECKPOINT).unlink()
    remote = tmp_path / f"remote-{name}"
    logdir.write_tiered(logs, remote, chunk_size=700, compression=False)
    return remote, _records(logdir.open_log(logs))


def _folder(remote: Path) -> Path:
    (topic,) = remote.iterdir()
    (folder,) = topic.iterdir()
    return folder


def _stems(folder: Path) -> list[str]:
    return sorted({p.name.rsplit(".", 1)[0] for p in folder.iterdir() if p.name.endswith(MANIFEST_SUFFIX)})


def _reupload(src: Path, stem: str, dest: Path, seed: str, later: int) -> str:
    """Segment ``stem`` of folder ``src`` put into ``dest`` under a new id, its manifest naming that id and
    its event time ``later`` ms later (a leader's re-upload)."""
    new = f"{stem[:20]}-{kafka_uuid(seed.encode())}"
    for suffix in (".log", INDEXES_SUFFIX):
        shutil.copyfile(src / f"{stem}{suffix}", dest / f"{new}{suffix}")
    doc = json.loads((src / f"{stem}{MANIFEST_SUFFIX}").read_bytes())
    meta = doc["remoteLogSegmentMetadata"]
    meta["remoteLogSegmentId"]["id"] = new[21:]
    meta["eventTimestampMs"] += later
    (dest / f"{new}{MANIFEST_SUFFIX}").write_text(json.dumps(doc))
    return new


def _read_once(remote: Path, expected: list[tuple], epochs: bool) -> None:
    """Each offset once, in order, by records and by Arrow; ``verify`` finds no error (with ``epochs``:
    without, the manifests' empty ``segmentLeaderEpochs`` disagree with the batches' own, an error)."""
    log = logdir.open_log(remote)
    assert _records(log) == expected
    table = pa.Table.from_batches(list(logdir.open_log(remote).to_arrow_batches()))
    assert table["offset"].to_pylist() == [r[2] for r in expected]
    if epochs:
        errors = [p for p in logdir.verify(remote) if p.severity == "error"]
        assert errors == [], errors


@pytest.mark.parametrize("epochs", [True, False], ids=["epochs", "no-epochs"])
@pytest.mark.parametrize("later", [1, 0, -1], ids=["later", "same-time", "earlier"])
@pytest.mark.parametrize("which", [0, 1, -1], ids=["first", "middle", "last"])
def test_a_copy_under_a_new_id_is_read_once(tmp_path, epochs, later, which):
    remote, expected = _written(tmp_path, "small", 2500, epochs)
    (tmp_path / "canary").write_text("keep")
    folder = _folder(remote)
    stems = _stems(folder)
    assert len(stems) > 3
    copy = _reupload(folder, stems[which], folder, f"copy-{which}", later)
    _read_once(remote, expected, epochs)
    unused = logdir.open_log(remote).unused_segments
    assert len(unused) == 1 and unused[0].path.name[:-4] in (copy, stems[which]), unused
    assert (tmp_path / "canary").read_text() == "keep"


@pytest.mark.parametrize("epochs", [True, False], ids=["epochs", "no-epochs"])
@pytest.mark.parametrize("later", [1_000_000, -1_000_000], ids=["later", "earlier"])
@pytest.mark.parametrize("shape", ["superset", "subset"])
def test_a_reupload_cut_elsewhere_is_read_once(tmp_path, epochs, later, shape):
    """A superset (one segment of a log cut in larger segments, over two or more of the prefix's) or a
    subset (one of a log cut in smaller ones, inside one of the prefix's), uploaded earlier or later. A
    later subset starting where a segment of the prefix starts replaces it (``offsetToId.put``), so the
    leader that cut it uploads its next segments too, as a broker does: else offsets after the subset
    are in no live segment, for Kafka as here."""
    small, expected = _written(tmp_path, "small", 1500, epochs)
    large, same = _written(tmp_path, "large", 6000, epochs)
    assert same == expected
    (tmp_path / "canary").write_text("keep")
    fs, fl = _folder(small), _folder(large)
    base, other = (fs, fl) if shape == "superset" else (fl, fs)
    starts = {int(s[:20]) for s in _stems(base)}
    stems = [s for s in _stems(other) if int(s[:20]) in starts and int(s[:20]) > 0]
    assert stems, (_stems(base), _stems(other))
    uploads = [stems[0]]
    if shape == "subset" and later > 0:
        uploads += [s for s in _stems(other) if s > stems[0]]
    for stem in uploads:
        _reupload(other, stem, base, f"{shape}-{later}-{stem}", later)
    _read_once(tmp_path / f"remote-{'small' if shape == 'superset' else 'large'}", expected, epochs)
    assert (tmp_path / "canary").read_text() == "keep"

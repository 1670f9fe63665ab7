"""What the verifier asks of a segment, answered by every kind of segment (a broker's, the tiered plugin's,
Kafka's LocalTieredStorage): the verifier never asks which kind it holds, so each kind must answer
``unreadable``, ``stored_index``, ``missing_index`` and ``source_findings`` for itself, with where its
indexes really are."""

from __future__ import annotations

import json

import pytest
from support.local_tiered import write_local_tiered
from support.logdir import write_partition

from kafkaspec.logdir import open_log, write_tiered
from kafkaspec.logdir.kafka import indexes
from kafkaspec.logdir.kafka.segment import Scanned, Segment
from kafkaspec.logdir.tiered.local_storage import LocalTieredSegment
from kafkaspec.logdir.tiered.segment import MANIFEST_SUFFIX, TieredSegment

KINDS = ("kafka", "tiered", "local-tiered")


@pytest.fixture(scope="module")
def layouts(tmp_path_factory):
    root = tmp_path_factory.mktemp("segment-interface")
    write_partition(root / "logs", topic="t", partition=0, batches=40, seed=7)
    write_tiered(root / "logs", root / "tiered", chunk_size=800)
    write_local_tiered(root / "logs", root / "local")
    return {"kafka": root / "logs", "tiered": root / "tiered", "local-tiered": root / "local"}


def _first_segment(path) -> Segment:
    with open_log(path) as log:
        return log.partitions()[0].segments()[0]


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_says_where_its_offset_index_is(layouts, kind):
    seg = _first_segment(layouts[kind])
    assert seg.layout == kind
    assert seg.unreadable() is None
    where = seg.stored_index("offset")
    assert where is not None
    data = where.read(0, where.size)
    assert len(data) == where.size > 0
    used = data[: indexes.used_length(data, indexes.OFFSET_ENTRY_SIZE)]
    assert indexes.parse_offset_index(used, seg.base_offset) == seg.index_entries()
    if isinstance(seg, TieredSegment):  # a range of the bundle, named as such
        assert where.source == str(seg.indexes_path) and where.label.startswith("offset index (bytes ")
        assert where.base == seg.manifest.index_ranges["offset"][0]
    else:  # a file of its own beside the .log (LocalTieredStorage keeps the broker's names after the id)
        assert (where.source, where.base, where.label) == (str(seg.index_path), 0, "")
        assert where.source.endswith(seg.path.name[: -len(".log")] + ".index")


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_says_how_a_missing_index_is_reported(layouts, kind):
    seg = _first_segment(layouts[kind])
    where, says = seg.missing_index("transaction")
    if isinstance(seg, TieredSegment):
        assert (where, says) == (str(seg.indexes_path), "no transaction index in the bundle")
    else:
        assert (where, says) == (str(seg.txn_index_path), "missing")


@pytest.mark.parametrize("kind", KINDS)
def test_only_a_tiered_segment_stores_its_snapshot_and_epochs_with_it(layouts, kind):
    """A broker's segment has no producer snapshot or epoch checkpoint of its own (they are the
    partition's files); the plugin's bundle holds both; LocalTieredStorage's files are not checked
    per segment."""
    seg = _first_segment(layouts[kind])
    for index in ("producerSnapshot", "leaderEpoch"):
        where = seg.stored_index(index)
        assert (where is not None) == (kind == "tiered"), index
    assert isinstance(seg, LocalTieredSegment) == (kind == "local-tiered")


@pytest.mark.parametrize("kind", KINDS)
def test_source_findings_are_the_manifests_only(layouts, kind):
    seg = _first_segment(layouts[kind])
    bases = [b.base_offset for b in seg.iter_batches(verify=False)]
    epochs = [b.partition_leader_epoch for b in seg.iter_batches(verify=False)]
    last = list(seg.iter_batches(verify=False))[-1].last_offset
    right = Scanned(bases[0], last, seg.max_timestamp(), bases, epochs, True)
    assert seg.source_findings(right, "t", 0, "") == []
    bundle = seg.indexes_path if isinstance(seg, TieredSegment) else None
    if bundle is not None:  # bytes after the last index: the manifest's ranges do not account for them
        bundle.write_bytes(bundle.read_bytes() + b"\0")
        try:
            found = seg.source_findings(right, "t", 0, "")
        finally:
            bundle.write_bytes(bundle.read_bytes()[:-1])
        assert found and found[0][0] == str(seg.manifest_path) and "holds" in found[0][1]


def test_an_unreadable_tiered_segment_names_its_manifest(tmp_path, layouts):
    seg = _first_segment(layouts["tiered"])
    copy = tmp_path / "t-0"
    copy.mkdir()
    canary = tmp_path / "canary"
    canary.write_text("keep")
    for p in (seg.path, seg.manifest_path, seg.indexes_path):
        (copy / p.name).write_bytes(p.read_bytes())
    manifest = copy / seg.manifest_path.name
    doc = json.loads(manifest.read_text())
    del doc["chunkIndex"]
    manifest.write_text(json.dumps(doc))
    broken = TieredSegment(copy / seg.path.name)
    exc = broken.unreadable()
    assert exc is not None and exc.source == str(manifest), exc
    assert manifest.name.endswith(MANIFEST_SUFFIX) and canary.read_text() == "keep"

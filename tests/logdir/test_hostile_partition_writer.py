"""``PartitionWriter`` on a partition that exists (issue 39, item 6): appending appends, or refuses.

Opened and closed without a write, a writer used to empty the active segment, reset
``leader-epoch-checkpoint`` and replace ``partition.metadata``'s topic id; one record appended left
only that record. The promise: appending continues the partition (offsets from its log end offset,
its leader epochs, its topic id, its producers' state) and keeps every byte already written, or
refuses in one line naming the partition; overwriting happens only when asked (``mode="overwrite"``).
Every partition here is a copy in the test's own folder, with a canary beside it.
"""

from __future__ import annotations

import hashlib
import shutil

import pytest
from support.corpus import CORPUS

from kafkaspec import KafkaFormatError, Record
from kafkaspec.logdir import InvariantError, PartitionWriter, open_log, synth, verify_path

pytestmark = pytest.mark.hostile

CORPUS_PARTITION = "files/segments/LDI-POC/TestTopicPatient-0"


def _hashes(root):
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _records(partition_dir):
    with open_log(partition_dir) as log:
        return [(r.offset, r.key, r.value) for _, r in log.partitions()[0].records()]


def _errors(path):
    return [p for p in verify_path(path) if p.severity == "error"]


@pytest.fixture(scope="module")
def synthesized(tmp_path_factory):
    """A data directory written by kafkaspec's synth (several segments, producers, transactions)."""
    root = tmp_path_factory.mktemp("synth") / "data"
    synth(root, size_mb=1, seed=5)
    return root


def _copy(src, tmp_path):
    """``src`` (a partition directory) copied into ``tmp_path/data``, writable, with a canary beside it."""
    data = tmp_path / "data"
    data.mkdir()
    dst = data / src.name
    shutil.copytree(src, dst, copy_function=shutil.copyfile)
    dst.chmod(0o755)
    (data / "canary").write_text("keep")
    (dst / "canary.txt").write_text("keep")
    return dst


def _synth_partition(synthesized, tmp_path, name="orders-0"):
    return _copy(synthesized / name, tmp_path)


def _corpus_partition(tmp_path):
    if CORPUS is None:
        pytest.fail("the corpus (../shared/corpus) is missing")
    return _copy(CORPUS / CORPUS_PARTITION, tmp_path)


def _split(part):
    topic, _, partition = part.name.rpartition("-")
    return topic, int(partition)


@pytest.mark.parametrize("source", ["synth", "corpus"])
def test_open_and_close_without_writing_changes_no_byte(source, synthesized, tmp_path):
    part = _synth_partition(synthesized, tmp_path) if source == "synth" else _corpus_partition(tmp_path)
    before = _hashes(tmp_path)
    topic, partition = _split(part)
    with PartitionWriter(part.parent, topic, partition):
        pass
    PartitionWriter(part.parent, topic, partition).close()
    assert _hashes(tmp_path) == before


@pytest.mark.parametrize("source", ["synth", "corpus"])
def test_append_continues_the_partition(source, synthesized, tmp_path):
    part = _synth_partition(synthesized, tmp_path) if source == "synth" else _corpus_partition(tmp_path)
    topic, partition = _split(part)
    old = _records(part)
    before = _hashes(tmp_path)
    epochs = (part / "leader-epoch-checkpoint").read_text()
    metadata = (part / "partition.metadata").read_text()
    end = old[-1][0] + 1
    with PartitionWriter(part.parent, topic, partition) as w:
        assert w.next_offset == end
        base, last = w.append(
            [Record(key=b"new", value=b"v%d" % i, timestamp=1_800_000_000_000 + i) for i in range(3)]
        )
    assert (base, last) == (end, end + 2)
    assert _records(part) == old + [(end + i, b"new", b"v%d" % i) for i in range(3)]
    after = _hashes(tmp_path)
    assert {k: v for k, v in after.items() if k in before and k.endswith(".log")} == {
        k: v for k, v in before.items() if k.endswith(".log")
    }, "a segment written before changed"
    assert (part / "leader-epoch-checkpoint").read_text() == epochs
    assert (part / "partition.metadata").read_text() == metadata
    assert (tmp_path / "data" / "canary").read_text() == "keep" and (
        part / "canary.txt"
    ).read_text() == "keep"
    assert _errors(part) == []


def test_a_new_leader_epoch_adds_one_checkpoint_entry(tmp_path):
    with PartitionWriter(tmp_path, "t", 0, leader_epoch=3) as w:
        w.append([Record(key=None, value=b"a", timestamp=0)])
    with PartitionWriter(tmp_path, "t", 0) as w:  # the partition's epoch goes on
        w.append([Record(key=None, value=b"b", timestamp=1)])
    assert (tmp_path / "t-0" / "leader-epoch-checkpoint").read_text() == "0\n1\n3 0\n"
    with PartitionWriter(tmp_path, "t", 0, leader_epoch=5) as w:
        w.append([Record(key=None, value=b"c", timestamp=2)])
    assert (tmp_path / "t-0" / "leader-epoch-checkpoint").read_text() == "0\n2\n3 0\n5 2\n"
    assert [r[2] for r in _records(tmp_path / "t-0")] == [b"a", b"b", b"c"]
    before = _hashes(tmp_path)
    with pytest.raises(KafkaFormatError, match=r"t-0.*leader epoch 4.*below.*5"):
        PartitionWriter(tmp_path, "t", 0, leader_epoch=4)
    assert _hashes(tmp_path) == before


def test_producer_state_goes_on_across_writers(tmp_path):
    with PartitionWriter(tmp_path, "t", 0) as w:
        w.append(
            [Record(key=None, value=b"idem", timestamp=0)], producer_id=7, producer_epoch=0, base_sequence=0
        )
        w.append(
            [Record(key=None, value=b"in txn", timestamp=1)],
            producer_id=9,
            producer_epoch=0,
            base_sequence=0,
            is_transactional=True,
        )
    with PartitionWriter(tmp_path, "t", 0) as w:
        with pytest.raises(InvariantError, match="producer 7.*base sequence 0"):
            w.append(
                [Record(key=None, value=b"again", timestamp=2)],
                producer_id=7,
                producer_epoch=0,
                base_sequence=0,
            )
        w.append(
            [Record(key=None, value=b"next", timestamp=2)], producer_id=7, producer_epoch=0, base_sequence=1
        )
        w.append_control("abort", producer_id=9, producer_epoch=0)
    with open_log(tmp_path / "t-0") as log:
        part = log.partitions()[0]
        aborted, _ = part.transactions()
        assert [(a.producer_id, a.first_offset) for a in aborted] == [(9, 1)]
        assert [r.value for _, r in part.records(read_committed=True)] == [b"idem", b"next"]
    assert _errors(tmp_path / "t-0") == []


def test_overwrite_only_when_asked(synthesized, tmp_path):
    part = _synth_partition(synthesized, tmp_path)
    topic, partition = _split(part)
    with PartitionWriter(part.parent, topic, partition, mode="overwrite") as w:
        w.append([Record(key=b"k", value=b"only", timestamp=0)])
    assert _records(part) == [(0, b"k", b"only")]
    assert (tmp_path / "data" / "canary").read_text() == "keep" and (
        part / "canary.txt"
    ).read_text() == "keep"
    assert _errors(part) == []


def test_create_refuses_an_existing_partition(synthesized, tmp_path):
    part = _synth_partition(synthesized, tmp_path)
    topic, partition = _split(part)
    before = _hashes(tmp_path)
    with pytest.raises(KafkaFormatError, match=f"{part.name}.*exists") as info:
        PartitionWriter(part.parent, topic, partition, mode="create")
    assert "\n" not in str(info.value)
    assert _hashes(tmp_path) == before
    with pytest.raises(ValueError, match="mode"):
        PartitionWriter(part.parent, topic, partition, mode="replace")


@pytest.mark.parametrize("damage", ["torn", "corrupt"])
def test_a_damaged_tail_refuses(damage, synthesized, tmp_path):
    part = _synth_partition(synthesized, tmp_path)
    topic, partition = _split(part)
    last = sorted(part.glob("*.log"))[-1]
    data = bytearray(last.read_bytes())
    if damage == "torn":
        data += data[:30]
    else:
        data[-3] ^= 0xFF
    last.write_bytes(bytes(data))
    before = _hashes(tmp_path)
    with pytest.raises(KafkaFormatError, match=part.name) as info:
        PartitionWriter(part.parent, topic, partition)
    assert "\n" not in str(info.value)
    assert _hashes(tmp_path) == before


def test_a_different_topic_id_refuses(tmp_path):
    with PartitionWriter(tmp_path, "t", 0) as w:
        w.append([Record(key=None, value=b"a", timestamp=0)])
    before = _hashes(tmp_path)
    with pytest.raises(KafkaFormatError, match="t-0.*topic id"):
        PartitionWriter(tmp_path, "t", 0, topic_id="AAAAAAAAAAAAAAAAAAAAAA")
    with pytest.raises(KafkaFormatError, match="t-0.*offset 0.*below"):
        PartitionWriter(tmp_path, "t", 0, start_offset=0)
    assert _hashes(tmp_path) == before


@pytest.mark.parametrize("name", ["abc.log", "-0000000000000000005.log", "09223372036854775808.log"])
def test_a_segment_name_that_is_no_offset_refuses(name, tmp_path):
    with PartitionWriter(tmp_path, "t", 0) as w:
        w.append([Record(key=None, value=b"a", timestamp=0)])
    (tmp_path / "t-0" / name).write_bytes(b"")
    before = _hashes(tmp_path)
    with pytest.raises(KafkaFormatError, match="t-0"):
        PartitionWriter(tmp_path, "t", 0)
    assert _hashes(tmp_path) == before


def test_a_symbolic_link_in_the_partition_is_never_written_through(tmp_path):
    root = tmp_path / "data"
    with PartitionWriter(root, "t", 0) as w:
        w.append([Record(key=None, value=b"a", timestamp=0)])
    part = root / "t-0"
    victim = tmp_path / "victim"
    victim.write_text((part / "leader-epoch-checkpoint").read_text())
    (part / "leader-epoch-checkpoint").unlink()
    (part / "leader-epoch-checkpoint").symlink_to(victim)
    (part / "partition.metadata").unlink()
    (part / "partition.metadata").symlink_to(tmp_path / "created")  # dangling
    kept = victim.read_text()
    with PartitionWriter(root, "t", 0, leader_epoch=1) as w:
        w.append([Record(key=None, value=b"b", timestamp=1)])
    assert victim.read_text() == kept and not (tmp_path / "created").exists()
    assert (part / "leader-epoch-checkpoint").read_text() == "0\n2\n0 0\n1 1\n"
    assert [r[2] for r in _records(part)] == [b"a", b"b"]


def test_a_symbolic_link_where_the_next_batch_would_go_refuses(tmp_path):
    root = tmp_path / "data"
    with PartitionWriter(root, "t", 0) as w:
        w.append([Record(key=None, value=b"a", timestamp=0)])
        w.roll()
    outside = tmp_path / "outside.log"
    outside.write_bytes(b"")
    active = root / "t-0" / "00000000000000000001.log"
    active.unlink()
    active.symlink_to(outside)
    before = _hashes(tmp_path)
    with pytest.raises(KafkaFormatError, match="t-0.*00000000000000000001.log.*symbolic link"):
        PartitionWriter(root, "t", 0)
    assert _hashes(tmp_path) == before and outside.read_bytes() == b""

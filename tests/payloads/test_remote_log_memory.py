"""``inspect remote-log`` (and the lineage the metadata topic chooses) holds what the state holds, not the
input: a ``__remote_log_metadata`` partition of retries (the same update again, which Kafka's state
machine takes as a self-transition) kept every event of every segment, about 500 bytes a record (200,000
updates of 10 segments: 134 MB, 10x the 20,000 case's growth). A retry now replaces its segment's
earlier event of that state and moves it to the end, which is all Kafka's cache keeps of it (its later
put wins), so the events are at most four per segment.

Memory: `support.memory.cli_memory` (a subprocess under RLIMIT_AS, its own VmHWM).
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from support.memory import cli_memory
from support.remote_log_records import FINISHED, segment, update, write_topic

from kafkaspec.payloads.decode import decode
from kafkaspec.payloads.remote_log_state import RemoteLogState

pytestmark = pytest.mark.hostile

TID = uuid.UUID(int=77)
SEGS = [uuid.UUID(int=i + 1) for i in range(10)]


def _retries(root: Path, n: int) -> Path:
    values = [segment("orders", TID, 0, s, 100 * i, 100 * i + 99, [(0, 100 * i)]) for i, s in enumerate(SEGS)]
    values += [update("orders", TID, 0, SEGS[i % 10], FINISHED) for i in range(n)]
    return write_topic(root, values)


def _grew(root: Path) -> int:
    got = cli_memory("inspect", "remote-log", root, "--json")
    assert got.code == 0
    return got.grew


@pytest.mark.slow  # sized runs in child processes: `make test`, not `make check-fast`
def test_retries_do_not_grow_the_state(tmp_path):
    (tmp_path / "canary").write_text("keep")
    small, large = _grew(_retries(tmp_path / "small", 10_000)), _grew(_retries(tmp_path / "large", 100_000))
    # the segment file is read whole (2.3 MB more for the large one); what else grows is per record
    per_record = (large - small - (90_000 * 175)) / 90_000
    assert per_record < 40, f"{per_record:.0f} bytes kept per record ({small >> 20} MB, {large >> 20} MB)"
    assert (tmp_path / "canary").read_text() == "keep"


def test_events_keep_kafkas_order_of_the_last_puts():
    """A retried FINISHED is the segment's latest put, as in Kafka's cache: its event moves to the end."""
    state = RemoteLogState()
    a, b = SEGS[:2]
    records = [
        segment("orders", TID, 0, a, 0, 99, [(0, 0)]),
        segment("orders", TID, 0, b, 0, 99, [(0, 0)]),
        update("orders", TID, 0, a, FINISHED),
        update("orders", TID, 0, b, FINISHED),
        update("orders", TID, 0, a, FINISHED),
    ]
    for offset, value in enumerate(records):
        state.apply(decode("__remote_log_metadata", None, value), offset)
    (part,) = state.partitions.values()
    order = [(st, seg.segment_id, seg.offset) for st, seg in part.events]
    assert order == [
        ("COPY_SEGMENT_STARTED", state_id(a), 0),
        ("COPY_SEGMENT_STARTED", state_id(b), 1),
        ("COPY_SEGMENT_FINISHED", state_id(b), 3),
        ("COPY_SEGMENT_FINISHED", state_id(a), 4),
    ]


def state_id(seg: uuid.UUID) -> str:
    from kafkaspec.payloads.decode import kafka_uuid

    return kafka_uuid(seg)

"""Every batch iter_batches yields, whatever its magic, implements kafkaspec.LogBatch with the same values
for the fields the legacy formats lack."""

from __future__ import annotations

import pytest

import kafkaspec
from kafkaspec import LogBatch, Record

RECORDS = [Record(key=b"k", value=b"v%d" % i, timestamp=100 + i) for i in range(3)]
NONE_VALUES = dict(
    producer_id=-1,
    producer_epoch=-1,
    base_sequence=-1,
    partition_leader_epoch=-1,
    is_transactional=False,
    is_control=False,
    has_delete_horizon=False,
    control=None,
)
PROTOCOL_FIELDS = [name for name in dir(LogBatch) if not name.startswith("_")]


@pytest.mark.parametrize("magic", [0, 1, 2])
@pytest.mark.parametrize("compression", ["none", "gzip"])
def test_every_batch_implements_the_interface(magic, compression):
    data = kafkaspec.build_batch(RECORDS, magic=magic, compression=compression, base_offset=10)
    batches = list(kafkaspec.iter_batches(data))
    assert batches and all(isinstance(b, LogBatch) for b in batches)
    for b in batches:
        values = {name: getattr(b, name) for name in PROTOCOL_FIELDS if name != "raw"}
        assert {k: values[k] for k in NONE_VALUES} == NONE_VALUES
        assert values["magic"] == magic and values["compression"] == compression
        assert values["records_count"] == len(b) == len(values["records"])
        assert values["last_offset"] - values["base_offset"] == values["last_offset_delta"]
        assert values["size"] == values["end"] - values["position"] == len(b.raw())
    assert [r.offset for b in batches for r in b] == [10, 11, 12]


def test_protocol_lists_the_documented_fields():
    documented = {
        "magic",
        "base_offset",
        "last_offset",
        "compression",
        "timestamp_type",
        "is_transactional",
        "is_control",
        "producer_id",
        "producer_epoch",
        "base_sequence",
        "partition_leader_epoch",
        "records",
        "position",
        "end",
        "size",
        "raw",
    }
    assert documented <= set(PROTOCOL_FIELDS)

"""``PartitionWriter`` to an object-store partition that exists (issue 39, item 6): the store's copy
is published whole, so it cannot be appended to; the writer refuses before staging anything, in one
line naming the partition, and replaces it only when asked (``mode="overwrite"``)."""

from __future__ import annotations

import pytest

from kafkaspec import Record, logdir
from kafkaspec.logdir import ExistingPartitionError

pytestmark = pytest.mark.hostile


def _values(uri) -> list[bytes]:
    with logdir.open_log(uri) as log:
        return [r.value for p in log.partitions() for _, r in p.records()]


def test_an_existing_store_partition_is_replaced_only_when_asked(store_env, store_server):
    bucket = store_server.new_bucket()
    dest = store_server.uri(bucket, "out")
    with logdir.PartitionWriter(dest, "t", 0) as w:
        w.append([Record(key=None, value=b"old", timestamp=0)])
    for mode in ("append", "create"):
        with pytest.raises(
            ExistingPartitionError, match=r"partition t-0 exists at .*mode='overwrite'"
        ) as info:
            logdir.PartitionWriter(dest, "t", 0, mode=mode)
        assert "\n" not in str(info.value)
    assert _values(dest) == [b"old"]
    with logdir.PartitionWriter(dest, "t", 0, mode="overwrite") as w:
        w.append([Record(key=None, value=b"new", timestamp=0)])
    assert _values(dest) == [b"new"]
    assert logdir.verify(dest) == []

"""What the broker is deleting: a topic deleted while it runs (its partition directories renamed
``-delete``) and a segment deleted by retention (renamed ``.deleted``), in every copy of the data
directory. The readers pass over both, as the broker no longer serves them; the record comparisons of
test_broker_records and `verify` of test_broker_files hold with them there."""

from __future__ import annotations

import pytest
from support.kafka_cleanup import RETAINED_RECORDS
from support.kafka_workload import DELETED, RETAINED

from kafkaspec.errors import SkippedDirWarning
from kafkaspec.logdir import open_log

DIRS = ("live", "killed", "stopped")


@pytest.mark.parametrize("which", DIRS)
def test_a_deleted_topics_directories_are_passed_over(broker_run, which):
    data = getattr(broker_run, which)
    assert len(list(data.glob(f"{DELETED}-*-delete"))) == 2, sorted(p.name for p in data.iterdir())
    with pytest.warns(SkippedDirWarning, match=r"-delete: skipped: a partition directory being deleted"):
        log = open_log(str(data))
        assert DELETED not in log.topics()
    assert not any(
        r["topic"] == DELETED for rb in log.to_arrow_batches() for r in rb.select(["topic"]).to_pylist()
    )


@pytest.mark.parametrize("which", DIRS)
def test_retention_deleted_the_first_segment(broker_run, which):
    folder = getattr(broker_run, which) / f"{RETAINED}-0"
    if which == "live":
        assert (folder / f"{0:020d}.log.deleted").exists(), sorted(p.name for p in folder.iterdir())
    part = open_log(str(folder)).partitions()[0]
    assert [s.base_offset for s in part.segments()][0] == RETAINED_RECORDS
    offsets = [r.offset for _, r in part.records()]
    assert offsets == list(range(RETAINED_RECORDS, 2 * RETAINED_RECORDS))
    assert offsets == [r.offset for r in broker_run.served(which).uncommitted if r.topic == RETAINED]

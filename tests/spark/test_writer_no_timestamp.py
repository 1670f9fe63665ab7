"""A magic 0 record read by ``kafkalog`` has a null ``timestamp`` and ``timestampType`` -1 (it has
none). Written back by the ``kafkalog`` writer as plain rows (v2 batches), it keeps having none: -1,
as Kafka writes a magic 0 message it converts to v2 (``RecordBatch.NO_TIMESTAMP``), not the time of
the write, which a null timestamp of a row without that ``timestampType`` gets (as Kafka's producer
gives a record without one). The writer is driven as Spark drives it, without a Spark session."""

from __future__ import annotations

import kafkaspec
from kafkaspec import logdir
from kafkaspec.arrow.ranges import read_records
from kafkaspec.arrow.schema import KAFKA_FIELDS
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.planning import plan
from kafkaspec.spark.read.schema import RECORD_COLUMNS, struct_type
from kafkaspec.spark.write.writer import KafkaLogWriter

TS = 1_700_000_000_000


def test_a_magic_0_record_written_back_has_no_timestamp(tmp_path):
    (tmp_path / "canary").write_text("keep")
    src = tmp_path / "src" / "t-0"
    src.mkdir(parents=True)
    data = kafkaspec.build_batch([kafkaspec.Record(key=None, value=b"old")], magic=0) + kafkaspec.build_batch(
        [kafkaspec.Record(key=None, value=b"new", timestamp=TS)], base_offset=1
    )
    (src / "00000000000000000000.log").write_bytes(data)
    kafka_names = {name for name, _ in KAFKA_FIELDS}
    schema = struct_type([c for c in RECORD_COLUMNS if c[0] in kafka_names])
    out = tmp_path / "out"
    w = KafkaLogWriter(str(out), {}, schema, overwrite=False)
    w.commit([w.write(read_records(t)) for t in plan(str(tmp_path / "src"), ReadOptions.parse({}))])
    part = logdir.open_log(out).partition("t", 0)
    assert [(r.value, r.timestamp) for _, r in part.records()] == [(b"old", -1), (b"new", TS)]
    assert (tmp_path / "canary").read_text() == "keep"

"""Delta tables on S3 (moto): a backfill from a backup in the bucket, an incremental run, each record once."""

from __future__ import annotations

import pytest
from support.tables import consumer_rows

from kafkaspec import Record, logdir
from kafkaspec.tables import write_table


def _rows(uri):
    from deltalake import DeltaTable

    t = DeltaTable(uri, storage_options={"AWS_ALLOW_HTTP": "true"}).to_pyarrow_table()
    return sorted(
        zip(*(t.column(c).to_pylist() for c in ("topic", "partition", "offset", "value")), strict=True)
    )


@pytest.mark.parametrize("source_in_bucket", [False, True])
def test_delta_on_s3_backfill_then_incremental(s3_env, tmp_path, source_in_bucket):
    local = tmp_path / "logs"
    with logdir.PartitionWriter(local, "orders", 0) as w:
        for i in range(20):
            w.append([Record(key=b"k", value=b"v%d" % i, timestamp=i)])
    bucket = s3_env.new_bucket()
    src = s3_env.upload(local, bucket, "backup") if source_in_bucket else str(local)
    dest = f"s3://{bucket}/lake"
    assert write_table(src, dest, format="delta").rows == 20
    assert write_table(src, dest, format="delta").rows == 0
    with logdir.PartitionWriter(local, "orders", 0) as w:
        w.append([Record(key=b"k", value=b"late", timestamp=99)])
    src = s3_env.upload(local, bucket, "backup") if source_in_bucket else str(local)
    assert write_table(src, dest, format="delta").rows == 1
    assert _rows(f"{dest}/orders") == consumer_rows(local)

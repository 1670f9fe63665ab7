"""Tables in S3 (moto), GCS and Azure (their emulators): a backfill from a local data dir or a backup in
the bucket, then an incremental run, each record once; Delta in its folder, Iceberg with its SQL catalog
in a local SQLite file."""

from __future__ import annotations

import os

import pytest
from support.tables import consumer_rows

from kafkaspec import Record, logdir
from kafkaspec.tables import write_table


def _rows(fmt, dest, catalog):
    if fmt == "delta":
        from deltalake import DeltaTable

        t = DeltaTable(f"{dest}/orders", storage_options={"AWS_ALLOW_HTTP": "true"}).to_pyarrow_table()
    else:
        from pyiceberg.catalog import load_catalog

        props = {"s3.endpoint": os.environ["AWS_ENDPOINT_URL"], "s3.region": os.environ["AWS_DEFAULT_REGION"]}
        cat = load_catalog("kafkaspec", type="sql", uri=catalog, warehouse=dest, **props)
        t = cat.load_table(("kafka", "orders")).scan().to_arrow()
    return sorted(
        zip(*(t.column(c).to_pylist() for c in ("topic", "partition", "offset", "value")), strict=True)
    )


@pytest.mark.parametrize("fmt", ["delta", "iceberg"])
@pytest.mark.parametrize("source_in_bucket", [False, True])
def test_tables_in_s3_backfill_then_incremental(s3_env, tmp_path, source_in_bucket, fmt):
    local = tmp_path / "logs"
    with logdir.PartitionWriter(local, "orders", 0) as w:
        for i in range(20):
            w.append([Record(key=b"k", value=b"v%d" % i, timestamp=i)])
    bucket = s3_env.new_bucket()
    src = s3_env.upload(local, bucket, "backup") if source_in_bucket else str(local)
    dest = f"s3://{bucket}/lake"
    catalog = f"sqlite:///{tmp_path}/catalog.db" if fmt == "iceberg" else None
    assert write_table(src, dest, format=fmt, catalog_uri=catalog).rows == 20
    assert write_table(src, dest, format=fmt, catalog_uri=catalog).rows == 0
    with logdir.PartitionWriter(local, "orders", 0) as w:
        w.append([Record(key=b"k", value=b"late", timestamp=99)])
    src = s3_env.upload(local, bucket, "backup") if source_in_bucket else str(local)
    assert write_table(src, dest, format=fmt, catalog_uri=catalog).rows == 1
    assert _rows(fmt, dest, catalog) == consumer_rows(local)


@pytest.mark.hostile
@pytest.mark.parametrize("point", ["written", "committed"])
@pytest.mark.parametrize("fmt", ["delta", "iceberg"])
def test_tables_in_s3_sigkill_leaves_the_last_commit(s3_env, tmp_path, fmt, point):
    import signal
    import subprocess
    import sys

    local = tmp_path / "logs"
    with logdir.PartitionWriter(local, "orders", 0) as w:
        for i in range(30):
            w.append([Record(key=b"k", value=b"v%d" % i, timestamp=i)])
    dest = f"s3://{s3_env.new_bucket()}/lake"
    catalog = f"sqlite:///{tmp_path}/catalog.db" if fmt == "iceberg" else None
    write_table(str(local), dest, format=fmt, catalog_uri=catalog)
    before = _rows(fmt, dest, catalog)
    with logdir.PartitionWriter(local, "orders", 0) as w:
        w.append([Record(key=b"k", value=b"late", timestamp=99)])
    cmd = [sys.executable, "-m", "kafkaspec.cli", "pipeline", str(local), "--table", fmt, dest, "--quiet"]
    cmd += ["--catalog-uri", catalog] if catalog else []
    env = {**os.environ, "KAFKASPEC_TABLES_PAUSE": point}
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stderr.readline().strip() == f"paused at {point}"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert _rows(fmt, dest, catalog) == (consumer_rows(local) if point == "committed" else before)
    assert subprocess.run(cmd, env=os.environ, timeout=120).returncode == 0
    assert _rows(fmt, dest, catalog) == consumer_rows(local)


def _store_rows(fmt, dest, catalog):
    """The table read back on GCS or Azure, with the settings the environment gives (the store's own)."""
    from kafkaspec.tables.stores import delta_options, iceberg_properties

    if fmt == "delta":
        from deltalake import DeltaTable

        t = DeltaTable(f"{dest}/orders", storage_options=delta_options(dest)).to_pyarrow_table()
    else:
        from pyiceberg.catalog import load_catalog

        cat = load_catalog("kafkaspec", type="sql", uri=catalog, warehouse=dest, **iceberg_properties())
        t = cat.load_table(("kafka", "orders")).scan().to_arrow()
    return sorted(
        zip(*(t.column(c).to_pylist() for c in ("topic", "partition", "offset", "value")), strict=True)
    )


# Delta on GCS is not here: delta-rs speaks GCS's XML API, which gcp-storage-emulator does not serve
# (501 on every object GET)
@pytest.mark.parametrize(
    ("store_server", "fmt"),
    [("gcs", "iceberg"), ("azure", "iceberg"), ("azure", "delta")],
    indirect=["store_server"],
)
def test_tables_in_gcs_and_azure_backfill_then_incremental(store_env, tmp_path, fmt):
    local = tmp_path / "logs"
    with logdir.PartitionWriter(local, "orders", 0) as w:
        for i in range(20):
            w.append([Record(key=b"k", value=b"v%d" % i, timestamp=i)])
    dest = store_env.uri(store_env.new_bucket(), "lake")
    catalog = f"sqlite:///{tmp_path}/catalog.db" if fmt == "iceberg" else None
    assert write_table(str(local), dest, format=fmt, catalog_uri=catalog).rows == 20
    assert write_table(str(local), dest, format=fmt, catalog_uri=catalog).rows == 0
    with logdir.PartitionWriter(local, "orders", 0) as w:
        w.append([Record(key=b"k", value=b"late", timestamp=99)])
    assert write_table(str(local), dest, format=fmt, catalog_uri=catalog).rows == 1
    assert _store_rows(fmt, dest, catalog) == consumer_rows(local)

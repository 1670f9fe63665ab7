"""Tables in S3 (moto), GCS and Azure (their emulators): a backfill from a local data dir or a backup in
the bucket, then an incremental run, each record once; Delta in its folder, Iceberg with its SQL catalog
in a local SQLite file."""

from __future__ import annotations

import os

import pytest
from support.tables import consumer_rows

from kafkaspec import Record, logdir
from kafkaspec.tables import write_table


def _rows(fmt, dest, catalog, name="orders"):
    if fmt == "delta":
        from deltalake import DeltaTable

        t = DeltaTable(f"{dest}/{name}", storage_options={"AWS_ALLOW_HTTP": "true"}).to_pyarrow_table()
    else:
        from pyiceberg.catalog import load_catalog

        props = {"s3.endpoint": os.environ["AWS_ENDPOINT_URL"], "s3.region": os.environ["AWS_DEFAULT_REGION"]}
        cat = load_catalog("kafkaspec", type="sql", uri=catalog, warehouse=dest, **props)
        t = cat.load_table(("kafka", name)).scan().to_arrow()
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


def _store_rows(fmt, dest, catalog, name="orders"):
    """The table read back on any store, with the settings the environment gives (the store's own)."""
    from kafkaspec.tables.stores import delta_options, iceberg_properties

    if fmt == "delta":
        from deltalake import DeltaTable

        t = DeltaTable(f"{dest}/{name}", storage_options=delta_options(dest)).to_pyarrow_table()
    else:
        from pyiceberg.catalog import load_catalog

        cat = load_catalog("kafkaspec", type="sql", uri=catalog, warehouse=dest, **iceberg_properties())
        t = cat.load_table(("kafka", name)).scan().to_arrow()
    return sorted(
        zip(*(t.column(c).to_pylist() for c in ("topic", "partition", "offset", "value")), strict=True)
    )


# Delta on GCS is not here: delta-rs speaks GCS's XML API, which no emulator we run serves whole
# (gcp-storage-emulator: 501 to the listing GET /BUCKET?list-type=2; fake-gcs-server 1.56.1: 400
# "invalid uploadType" to PUT /BUCKET/OBJECT; docs/tables.md)
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


@pytest.mark.hostile
def test_iceberg_in_s3_the_next_commit_deletes_a_killed_runs_files(s3_env, tmp_path):
    """A run killed after writing its data files leaves them in the bucket; the next run's commit proves
    them dead (written before the version it committed on: our tables commit without retries) and
    deletes them, and nothing else: a file of another name under the table's data stays."""
    import random
    import signal
    import subprocess
    import sys

    from pyarrow import fs as pafs

    local = tmp_path / "logs"
    with logdir.PartitionWriter(local, "orders", 0) as w:
        for i in range(30):
            w.append([Record(key=b"k", value=b"v%d" % i, timestamp=i)])
    bucket = s3_env.new_bucket()
    dest = f"s3://{bucket}/lake"
    catalog = f"sqlite:///{tmp_path}/catalog.db"
    write_table(str(local), dest, format="iceberg", catalog_uri=catalog)
    fs = s3_env.filesystem()
    data = f"{bucket}/lake/kafka/orders/data"
    theirs = f"{data}/notes.parquet"
    with fs.open_output_stream(theirs) as out:
        out.write(b"mine")

    def data_files():
        infos = fs.get_file_info(pafs.FileSelector(data, recursive=True))
        return sorted(i.path for i in infos if i.type == pafs.FileType.File)

    committed = data_files()
    rng = random.Random(3)
    with logdir.PartitionWriter(local, "orders", 0) as w:  # several MB: files written before the last read
        for i in range(0, 12_000, 500):
            w.append(
                [Record(key=b"k%d" % j, value=rng.randbytes(200), timestamp=99) for j in range(i, i + 500)]
            )
    cmd = [sys.executable, "-m", "kafkaspec.cli", "pipeline", str(local), "--table", "iceberg", dest]
    cmd += ["--quiet", "--catalog-uri", catalog, "--target-file-mb", "1"]
    proc = subprocess.Popen(
        cmd, stderr=subprocess.PIPE, text=True, env={**os.environ, "KAFKASPEC_TABLES_PAUSE": "written"}
    )
    assert proc.stderr.readline().strip() == "paused at written"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    killed = sorted(set(data_files()) - set(committed))
    assert killed  # written, never committed
    with logdir.PartitionWriter(local, "orders", 0) as w:
        w.append([Record(key=b"k", value=b"later", timestamp=99)])
    assert subprocess.run(cmd, env=os.environ, timeout=120).returncode == 0
    assert _rows("iceberg", dest, catalog) == consumer_rows(local)
    left = data_files()
    assert theirs in left and not set(killed) & set(left)
    from pyiceberg.catalog import load_catalog

    props = {"s3.endpoint": os.environ["AWS_ENDPOINT_URL"], "s3.region": os.environ["AWS_DEFAULT_REGION"]}
    table = load_catalog("kafkaspec", type="sql", uri=catalog, warehouse=dest, **props).load_table(
        ("kafka", "orders")
    )
    referenced = sorted(t.file.file_path.removeprefix("s3://") for t in table.scan().plan_files())
    assert sorted(set(left) - {theirs}) == referenced

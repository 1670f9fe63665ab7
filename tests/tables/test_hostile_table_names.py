"""Names that are legal in Kafka but odd as tables, and text from the data on the terminal, for
``pipeline --table`` and ``kafkaspec table``: a topic named as a typed topic's dead-letter table
(``orders_errors`` beside ``orders``) was mixed into it (Iceberg) or refused as a schema change
forever (Delta), after the dead letters' commit; a 249-character typed topic failed on its dead-letter
folder's name; a ``cleanup.policy`` from the metadata log and the names ``table summary``,
``compact`` and ``expire-snapshots`` read back reached the terminal raw; an SQLite catalog in memory
forgot every commit. Names Kafka allows that are odd on disk (``...x``, ``a.b`` beside ``a_b``, the
markers' own folder name) are tables of their own, read back whole."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from support.tables import FORMATS, TS, table_rows, write_orders
from support.values import skey, sval
from test_tables_decoded import SCHEMA, _good, _source
from test_tables_default_mode import _metadata

from kafkaspec import Record, logdir
from kafkaspec.errors import UsageError
from kafkaspec.tables import write_table
from kafkaspec.tables.errors import TableError

pytestmark = pytest.mark.hostile

ESC = "\x1b]0;owned\x07\x1b[2J"


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", *map(str, args)], capture_output=True, text=True, timeout=180
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_topic_named_as_a_dead_letter_table_is_refused_before_any_commit(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _source(src, [_good(0), b"\x00\x00\x00\x00\x07garbage"])
    write_orders(src, 3, topic="orders_errors")
    canary = tmp_path / "canary"
    canary.write_text("x")
    with pytest.raises(TableError, match="'orders_errors'") as caught:
        write_table(str(src), str(dest), format=fmt, decode_values=True)
    assert "nothing was written" in str(caught.value)
    assert not (dest / "orders_errors").exists() and not (dest / "kafka" / "orders_errors").exists()
    assert canary.read_text() == "x"
    run = write_table(str(src), str(dest), format=fmt)  # without --decode-values: two tables, as they are
    rows = {c.name: c.rows for c in run.commits}
    assert (rows["orders"], rows["orders_errors"]) == (2, 3)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_typed_topic_of_249_characters_is_refused_in_one_line(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    topic = "t" * 249
    with logdir.PartitionWriter(src, "_schemas", 0) as w:
        subject = f"{topic}-value"
        w.append([Record(key=skey(subject, 1), value=sval(subject, 1, 1, json.dumps(SCHEMA)), timestamp=TS)])
    write_orders(src, 2, topic=topic)  # unframed values: dead letters
    done = _cli("pipeline", src, "--table", fmt, dest, "--decode-values")
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "256 characters" in done.stderr and "Traceback" not in done.stderr
    done = _cli("pipeline", src, "--table", fmt, dest, "--quiet")
    assert done.returncode == 0, done.stderr
    assert len(table_rows(fmt, dest, topic)) == 2


@pytest.mark.parametrize("fmt", FORMATS)
def test_names_kafka_allows_are_tables_of_their_own(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    topics = ["...x", "a.b", "a_b", ".kafkaspec-runs", "x" * 249] + (
        ["_delta_log"] if fmt == "iceberg" else []
    )
    for i, t in enumerate(topics):
        write_orders(src, i + 1, topic=t)
    for _ in range(2):  # the second run finds each table and appends nothing
        done = _cli("pipeline", src, "--table", fmt, dest, "--quiet")
        assert done.returncode == 0, done.stderr
    for i, t in enumerate(topics):
        assert [r[2] for r in table_rows(fmt, dest, t)] == list(range(i + 1)), t


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_cleanup_policy_from_the_metadata_log_is_escaped_on_stderr(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _metadata(src, (2, "orders", "cleanup.policy", f"delete{ESC}"))
    write_orders(src, 2)
    done = _cli("pipeline", src, "--table", fmt, dest, "--quiet")
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr
    assert "cleanup.policy=delete\\x1b]0;owned\\x07" in done.stderr


def test_names_and_topics_read_back_are_escaped_by_table_commands(tmp_path):
    import pyarrow as pa
    from deltalake import write_deltalake

    from kafkaspec.arrow.schema import SCHEMA as COLUMNS

    dest = tmp_path / "lake"
    write_orders(tmp_path / "logs", 2)
    assert _cli("pipeline", tmp_path / "logs", "--table", "delta", dest, "--quiet").returncode == 0
    row = {n: None for n in COLUMNS.names} | {"topic": f"t{ESC}", "partition": 0, "offset": 0}
    write_deltalake(str(dest / "other"), pa.Table.from_pylist([row], COLUMNS))  # another writer's table
    for action in ("compact", "expire-snapshots", "summary"):
        done = _cli("table", action, dest, "--table", "delta")
        assert done.returncode == 0, done.stderr
        assert "\x1b" not in done.stdout and "\x07" not in done.stdout, (action, done.stdout)
    assert "other/t\\x1b]0;owned\\x07" in done.stdout


@pytest.mark.parametrize("uri", ["sqlite:///:memory:", "sqlite://", "sqlite:///file:c?mode=memory&uri=true"])
def test_an_sqlite_catalog_in_memory_is_refused(uri, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 2)
    with pytest.raises(TableError, match="in memory"):
        write_table(str(src), str(dest), format="iceberg", catalog_uri=uri)


def test_a_topic_named_delta_log_is_refused_as_a_delta_table_and_can_be_left_out(tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 2, topic="_delta_log")  # was written, then DEST read as a table: every run failed
    write_orders(src, 3, topic="b")
    done = _cli("pipeline", src, "--table", "delta", dest, "--quiet")
    assert done.returncode == 2 and "cannot be named _delta_log" in done.stderr, done.stderr
    assert not (dest / "_delta_log").exists() and not (dest / "b").exists()
    done = _cli("pipeline", src, "--table", "delta", dest, "--quiet", "--topics", "!_delta_log")
    assert done.returncode == 0, done.stderr
    assert len(table_rows("delta", dest, "b")) == 3 and not (dest / "_delta_log").exists()


@pytest.mark.parametrize("fmt", FORMATS)
def test_topics_choose_the_tables(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    for t in ("orders", "payments", "audit"):
        write_orders(src, 2, topic=t)
    done = _cli("pipeline", src, "--table", fmt, dest, "--topics", "orders,pay*")  # was: every topic
    assert done.returncode == 0, done.stderr
    assert "audit" not in done.stdout
    assert len(table_rows(fmt, dest, "payments")) == 2
    assert not (dest / "audit").exists() and not (dest / "kafka" / "audit").exists()


def test_a_table_destination_inside_the_data_dir_is_refused(tmp_path):
    src = tmp_path / "logs"
    write_orders(src, 2)
    before = sorted(p.name for p in src.iterdir())
    done = _cli("pipeline", src, "--table", "delta", src / "lake", "--quiet")
    assert done.returncode == 2 and "inside the input" in done.stderr, done.stderr
    assert sorted(p.name for p in src.iterdir()) == before  # a broker refuses to start on a stray folder


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("engine", ["local", "tasks"])
@pytest.mark.parametrize("where", ["lake", "", "topic"])
def test_a_table_destination_inside_the_source_is_refused_from_python(fmt, engine, where, tmp_path):
    """From Python, as the CLI: ``write_table(src, src / "lake")`` wrote the tables into the data dir,
    whose files the next run read as log data (or refused as strays), and a broker would not start on."""
    from kafkaspec.tables.files import write_table_tasks

    src = tmp_path / "logs"
    write_orders(src, 2)
    dest = src / "lake" if where == "lake" else src if where == "" else src / "orders-0" / "lake"
    before = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))
    with pytest.raises(UsageError, match=r"lies inside the source .*logs"):
        if engine == "local":
            write_table(src, dest, format=fmt)
        else:
            write_table_tasks(src, dest, lambda fn, tasks: [fn(t) for t in tasks], format=fmt)
    assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")) == before
    write_table(logdir.open_log(str(src)), tmp_path / "lake", format=fmt)  # beside it: written
    with pytest.raises(UsageError, match="lies inside the source"):  # an opened LogDir too
        write_table(logdir.open_log(str(src)), src / "lake", format=fmt)


def test_a_rest_catalog_that_answers_a_byte_a_second_is_cut_at_the_deadline(tmp_path):
    """A socket timeout bounds each read: a catalog dripping its answer held the run for ever."""
    import socket
    import threading
    import time

    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def drip():
        server.settimeout(1)
        conns = []
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            conns.append(conn)
            conn.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 99999\r\n\r\n{"
            )
            while not stop.wait(0.5):
                try:
                    conn.sendall(b" ")
                except OSError:
                    break
        for c in conns:
            c.close()

    threading.Thread(target=drip, daemon=True).start()
    src = tmp_path / "logs"
    write_orders(src, 2)
    uri = f"http://127.0.0.1:{server.getsockname()[1]}"
    started = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "kafkaspec.cli", "pipeline", src, "--table", "iceberg", tmp_path / "lake"]
            + ["--catalog-uri", uri],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "KAFKASPEC_STORAGE_TIMEOUT": "2"},
        )
    finally:
        stop.set()
        server.close()
    assert done.returncode == 2 and "no whole answer within 2 s" in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and time.monotonic() - started < 120


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_schema_registrys_own_topic_is_no_table(fmt, tmp_path):
    """``_schemas`` holds Schema Registry's schemas (the source of ``--decode-values``), not records of the
    business: like Kafka's own ``__*`` topics it gets no table (it became one)."""
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 2)
    write_orders(src, 3, topic="_schemas")
    run = write_table(src, dest, format=fmt)
    assert [c.name for c in run.commits] == ["orders"] and run.rows == 2
    assert not (dest / "_schemas").exists() and not (dest / "kafka" / "_schemas").exists()
    single = write_table(src, tmp_path / "single", format=fmt, layout="single")
    assert single.rows == 2


@pytest.mark.parametrize("fmt", FORMATS)
def test_table_commands_check_their_numbers(fmt, tmp_path):
    """``--older-than-hours`` -5, nan, inf or 1e300 and ``--target-file-mb`` 0 or -1 were the libraries'
    errors (a ValueError, an OverflowError, with the debug hint) or, for Iceberg, accepted as they were."""
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 2)
    assert _cli("pipeline", src, "--table", fmt, dest, "--quiet").returncode == 0
    for action, option, value in [
        ("expire-snapshots", "--older-than-hours", v) for v in ("-5", "nan", "inf", "1e300")
    ] + [("compact", "--target-file-mb", v) for v in ("0", "-1")]:
        done = _cli("table", action, dest, "--table", fmt, option, value)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1 and option in lines[0], (value, done.stderr)
        assert "KAFKASPEC_DEBUG" not in lines[0], lines[0]
    assert len(table_rows(fmt, dest, "orders")) == 2


def test_delta_expiry_keeps_what_is_younger_than_asked(tmp_path):
    """Delta's vacuum counts whole hours: ``--older-than-hours 0.5`` was cut to 0, deleting the files a
    compaction had just replaced, which the user asked to keep for half an hour."""
    src, dest = tmp_path / "logs", tmp_path / "lake"
    for _ in range(2):
        write_orders(src, 2)
        assert _cli("pipeline", src, "--table", "delta", dest, "--quiet").returncode == 0
    assert _cli("table", "compact", dest, "--table", "delta").returncode == 0
    parquet = lambda: sorted(p.name for p in (dest / "orders").rglob("*.parquet"))  # noqa: E731
    before = parquet()
    done = _cli("table", "expire-snapshots", dest, "--table", "delta", "--older-than-hours", "0.5")
    assert done.returncode == 0 and "orders: 0 files expired" in done.stdout, done.stdout + done.stderr
    assert parquet() == before and len(before) == 3
    done = _cli("table", "expire-snapshots", dest, "--table", "delta", "--older-than-hours", "0")
    assert done.returncode == 0 and "orders: 2 files expired" in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize("fmt", FORMATS)
def test_table_commands_write_nothing_into_an_empty_folder(fmt, tmp_path):
    """``table summary`` (or compact, expire-snapshots) of an empty folder made an Iceberg catalog there."""
    empty = tmp_path / "empty"
    empty.mkdir()
    for action in ("summary", "compact", "expire-snapshots"):
        done = _cli("table", action, empty, "--table", fmt)
        assert done.returncode == 0 and f"no tables in {empty}" in done.stdout, done.stderr
    assert os.listdir(empty) == []

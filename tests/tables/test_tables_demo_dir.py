"""Issue 43's first "done when" on the demo's own data (``kafkaspec synth``, what ``make demo`` writes:
idempotent and transactional producers, aborted transactions, a compacted topic with tombstones, every
codec): a backfill, then an incremental run after more data, equal to a read_committed read row for row
(the compacted topic upserted: its last value per key), in Iceberg and in Delta; and ``make demo`` itself ends
by writing the data dir into an Iceberg table and querying it with Polars (``table summary``)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from support.tables import FORMATS, TS, consumer_rows, table_arrow, table_rows, write_orders

from kafkaspec import logdir
from kafkaspec.tables import write_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory):
    src = tmp_path_factory.mktemp("demo") / "logs"
    logdir.synth(str(src), size_mb=1, seed=7)
    return src


def _last_per_key(src, topic):
    last = {}
    for part in logdir.open_log(str(src)).partitions():
        if part.topic == topic:
            for _, r in part.records(read_committed=True):
                if r.key is not None:
                    last[r.key] = r.value
    return {k: v for k, v in last.items() if v is not None}


def _check(fmt, dest, src, run_modes):
    expected = consumer_rows(src)
    for table, (mode, _) in run_modes.items():
        if mode == "append":
            assert table_rows(fmt, dest, table) == [r for r in expected if r[0] == table], table
        else:
            t = table_arrow(fmt, dest, table)
            got = dict(zip(t.column("key").to_pylist(), t.column("value").to_pylist(), strict=True))
            assert len(got) == t.num_rows and got == _last_per_key(src, table), table


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_demo_dir_backfilled_then_incremental_equals_a_committed_read(fmt, demo_dir, tmp_path):
    import shutil

    src, dest = tmp_path / "logs", tmp_path / "lake"
    shutil.copytree(demo_dir, src)
    (tmp_path / "canary").write_text("keep")
    first = write_table(str(src), str(dest), format=fmt)
    topics = {p.topic for p in logdir.open_log(str(src)).partitions() if not p.topic.startswith("_")}
    assert set(first.modes) == topics and {"orders", "payments", "users"} <= topics, first.modes
    _check(fmt, dest, src, first.modes)  # synth writes no __cluster_metadata: every topic appends
    values = {r[3] for r in table_rows(fmt, dest, "payments")}
    aborted = {
        r.value
        for part in logdir.open_log(str(src)).partitions()
        if part.topic == "payments"
        for _, r in part.records(read_committed=False)
    } - {r[3] for r in consumer_rows(src) if r[0] == "payments"}
    assert aborted and not values & aborted  # the demo's aborted transactions are in no row

    write_orders(src, 7, tag=b"later", topic="clicks", start_ts=TS + 10**9)
    again = write_table(str(src), str(dest), format=fmt)
    assert {c.name: c.rows for c in again.commits} == {"clicks": 7}
    _check(fmt, dest, src, first.modes)
    users = write_table(str(src), str(tmp_path / "upserted"), format=fmt, mode="upsert", topics="users")
    assert [c.name for c in users.commits] == ["users"]
    _check(fmt, tmp_path / "upserted", src, {"users": ("upsert", "")})  # the compacted topic's tombstones
    assert (tmp_path / "canary").read_text() == "keep"


def _demo_recipe():
    """The commands of the Makefile's ``demo`` target, as written."""
    lines = (ROOT / "Makefile").read_text().splitlines()
    start = lines.index("demo: $(STAMP) java-check") + 1
    recipe = []
    for line in lines[start:]:
        if not line.startswith("\t"):
            break
        recipe.append(line.strip())
    return recipe


def test_make_demo_ends_by_writing_an_iceberg_table_and_querying_it_with_polars(demo_dir, tmp_path):
    recipe = _demo_recipe()
    write = [i for i, c in enumerate(recipe) if re.search(r"pipeline \S+ --table iceberg ", c)]
    assert write and recipe[-1].startswith("$(PY) -m kafkaspec.cli table summary "), recipe
    assert write[-1] < len(recipe) - 1
    # the table part of the recipe, run as written on a small data dir (the synth and the Parquet
    # pipeline before it are tests/spark/test_demo_typed.py's)
    demo = tmp_path / "demo"
    (demo / "logs").parent.mkdir()
    import shutil

    shutil.copytree(demo_dir, demo / "logs")
    outputs = []
    for command in recipe[write[-1] - 1 :]:
        words = shlex.split(command.replace("$(DEMO_DIR)", str(demo)))
        if words[0] == "rm":
            continue  # the recipe's own clean-up of an earlier demo's lake: nothing here to remove
        assert words[0] == "$(PY)", command
        done = subprocess.run([sys.executable, *words[1:]], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (command, done.stderr)
        outputs.append(done.stdout)
    summary = outputs[-1].splitlines()
    rows = {r[0] for r in consumer_rows(demo / "logs")}
    assert {line.split(":")[0] for line in summary} == rows - {"_schemas"}, summary
    orders = next(line for line in summary if line.startswith("orders: "))
    count = sum(1 for r in consumer_rows(demo / "logs") if r[0] == "orders")
    assert orders.startswith(f"orders: {count:,} rows") or orders.startswith(f"orders: {count} rows"), orders

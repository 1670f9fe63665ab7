"""The pipeline's audit rows reuse what the records read saw, and equal the audit's own walk (no Spark needed).

The one pass (``kafkaspec.spark.run.onepass``) reads a range's records, then builds its audit rows from that
read (:class:`~kafkaspec.arrow.ranges.Walk`): the entries it walked, the checksums it checked, the
uncompressed sizes the engine found, the legacy record counts. These tests compare those rows with the
audit's own walk of the same bytes on every kind of batch the synth data holds, on transactions, on a
corrupt range and on a torn tail, and count the decompressions the audit still does.
"""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest

from kafkaspec import logdir
from kafkaspec.arrow.ranges import ReadRange, Walk, load_range, read_records
from kafkaspec.spark.read import audit
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.planning import plan
from kafkaspec.spark.run import onepass


def _tasks(path, **options: str) -> list[ReadRange]:
    return plan(str(path), ReadOptions.parse({"view": "batches", "splitSize": "256k", **options}))


def _walked(task: ReadRange, records_task: ReadRange | None = None) -> tuple[bytes, Walk]:
    buf = load_range(task)
    walk = Walk()
    for _ in read_records(records_task or task, buf=buf, walk=walk):
        pass
    return buf, walk


@pytest.fixture
def decompressions(monkeypatch):
    """How many batches the audit decompresses itself."""
    calls = []
    real = audit.decompress

    def counting(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(audit, "decompress", counting)
    return calls


@pytest.mark.parametrize("verify", ["true", "false"])
def test_rows_from_the_read_equal_the_audits_own_walk(synth_dir, txn_dir, verify, decompressions):
    seen = {"compressed": 0, "legacy": 0, "transactional": 0, "mismatch-free": 0}
    for source in (synth_dir, txn_dir):
        for task in _tasks(source, verifyCrc=verify):
            buf, walk = _walked(task, replace(task, read_committed=None))
            assert walk.clean, task
            fast = list(audit.audit_rows(task, buf, walk))
            assert decompressions == [], task  # the engine's sizes, not a second decompression
            slow = list(audit.audit_rows(task, buf))
            assert fast == slow, task
            decompressions.clear()
            seen["compressed"] += sum(r["compression"] != "none" and r["magic"] == 2 for r in slow)
            seen["legacy"] += sum(r["magic"] in (0, 1) for r in slow)
            seen["transactional"] += sum(r["transaction"] not in ("none", None) for r in slow)
            seen["mismatch-free"] += all(r["crcStatus"] == "ok" for r in slow)
    assert all(seen.values()), seen  # the data covered every kind of row


def _copy_with(synth_dir, tmp_path, edit) -> ReadRange:
    out = tmp_path / "clicks-0"
    shutil.copytree(synth_dir / "clicks-0", out)
    seg = sorted(out.glob("*.log"))[0]
    with logdir.open_log(seg) as log:
        batches = [(b.position, b.end) for b in log.segments()[0].iter_batches()]
    data = bytearray(seg.read_bytes())
    seg.write_bytes(bytes(edit(data, batches)))
    return ReadRange(str(seg), "clicks", 0, 0, seg.stat().st_size, skip_corrupt=True)


def _flip(data: bytearray, batches: list[tuple[int, int]]) -> bytearray:
    data[batches[4][0] + 70] ^= 0xFF
    return data


def _tear(data: bytearray, batches: list[tuple[int, int]]) -> bytearray:
    return data[: batches[-1][0] + 30]


@pytest.mark.parametrize("edit", [_flip, _tear])
def test_a_read_that_skipped_or_stopped_short_is_not_reused(synth_dir, tmp_path, edit):
    """A corrupt batch (skipped by the read, a ``mismatch`` row in the audit) or a torn tail: the audit
    walks the range itself, and its rows are what they are without the read."""
    task = _copy_with(synth_dir, tmp_path, edit)
    buf, walk = _walked(task)
    assert not walk.clean
    rows = list(audit.audit_rows(task, buf, walk))
    assert rows == list(audit.audit_rows(task, buf))
    assert {r["crcStatus"] for r in rows} - {"ok"} == ({"mismatch"} if edit is _flip else {"partial"})


@pytest.mark.parametrize("verify", ["true", "false"])
def test_the_columns_built_from_the_heads_equal_the_audits_own_rows(synth_dir, txn_dir, verify):
    """The pipeline's audit batch (columns from the walk's batch heads, no dict per batch) holds the rows
    of the audit's own walk, in file order, on every kind of batch and with the transactions' outcomes."""
    kinds = set()
    for source in (synth_dir, txn_dir):
        for task in _tasks(source, verifyCrc=verify):
            buf, walk = _walked(task, replace(task, read_committed=None))
            batch = audit.audit_batch(task, buf, walk)
            assert batch.schema == audit.audit_schema()
            slow = list(audit.audit_rows(task, buf))
            assert batch.to_pylist() == slow, task
            kinds |= {(r["magic"], r["compression"], r["transaction"]) for r in slow}
    assert {m for m, _, _ in kinds} >= {0, 1, 2}, kinds
    assert {t for _, _, t in kinds} >= {"none", "marker", "committed", "aborted", "open", "held"}, kinds


@pytest.mark.parametrize("edit", [_flip, _tear])
def test_the_audit_batch_of_a_range_read_with_a_skip_or_a_torn_tail(synth_dir, tmp_path, edit):
    task = _copy_with(synth_dir, tmp_path, edit)
    buf, walk = _walked(task)
    assert audit.audit_batch(task, buf, walk).to_pylist() == list(audit.audit_rows(task, buf))


def _counted(rows: list[dict]) -> tuple[dict, list]:
    """The summary share of audit rows, counted row by row."""
    groups: dict = {}
    corrupt = []
    for r in rows:
        good = r["crcStatus"] in ("ok", "unchecked")
        key = (
            r["topic"],
            r["partition"],
            r["transaction"],
            r["compression"],
            r["magic"],
            r["isControl"],
            good,
        )
        counts = groups.setdefault(key, [0, 0, 0])
        counts[0] += r["recordCount"] or 0
        counts[1] += 1
        counts[2] += r["size"] or 0
        if not good:
            corrupt.append([r["segment"], r["position"], r["size"], r["crcStatus"], r["error"]])
    return groups, corrupt


@pytest.mark.parametrize("edit", [None, _flip, _tear])
def test_the_summary_share_counted_as_columns_equals_the_rows_counts(synth_dir, txn_dir, tmp_path, edit):
    tasks = [_copy_with(synth_dir, tmp_path, edit)] if edit else _tasks(synth_dir) + _tasks(txn_dir)
    for task in tasks:
        buf, walk = _walked(task, replace(task, read_committed=None))
        result = onepass.RangeResult(0, str(tmp_path))
        onepass._audit(task, buf, result, walk)
        assert (result.groups, result.corrupt) == _counted(list(audit.audit_rows(task, buf))), task
        assert result.corrupt or edit is None

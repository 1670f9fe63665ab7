"""The batch-audit view (``option("view", "batches")``): one row per batch or skipped byte range.

Reads headers and checks checksums without decoding records (compressed
batches are decompressed to report their uncompressed size). The pipeline's one pass
(:mod:`kafkaspec.spark.run.onepass`) gives it what its records read saw instead, so that the bytes are walked,
checked and decompressed once. Never fails on
corrupt data: a bad checksum is a row with ``crcStatus = mismatch``, an
unreadable entry a ``corrupt`` row covering the bytes up to the next
verifiable batch, a torn tail a ``partial`` row; a tiered segment outside the partition's live
lineage an ``unused`` row saying why.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from kafkaspec.generated import record_batch_v2 as v2

from ...arrow.engine.heads import read_heads
from ...arrow.ranges import ReadRange, Walk, load_range
from ...codec.compression import codec_name, decompress
from ...codec.crc import crc32c
from ...entry import LogBatch
from ...errors import KafkaFormatError
from ...logdir.kafka.transactions import ReadCommitted
from ...records import Batch, BatchIterator
from ...recovery import Resync
from .schema import AUDIT_COLUMNS, arrow_schema


def _transaction(
    rc: ReadCommitted | None, producer_id: int, base_offset: int, transactional: bool, control: bool
) -> str:
    """The batch's ``transaction`` column, from its head's fields (taken once per row by the caller: this
    runs for every batch of the pipeline's input). ``held``: a data batch past the last stable offset
    that is not the open transaction's own (read_committed holds it back, whoever wrote it)."""
    if control:
        return "marker" if transactional else "none"
    if rc is None:
        return "unknown" if transactional else "none"
    if transactional:
        start = rc.open_transactions.get(producer_id)
        if start is not None and base_offset >= start:
            return "open"
    if rc.held(base_offset):
        return "held"
    if not transactional:
        return "none"
    return "aborted" if rc.aborted_at(producer_id, base_offset) else "committed"


def audit_rows(
    task: ReadRange, buf: bytes | None = None, walk: Walk | None = None
) -> Iterator[dict[str, Any]]:
    """One dict per batch (or skipped range) of the task's byte range, in file order.

    ``walk``: what a records read of the same bytes saw (:class:`~kafkaspec.arrow.ranges.Walk`). When it read the
    range cleanly, its entries are the rows' batches (no second walk), their checksums are known good
    if it checked them, and the uncompressed sizes and legacy record counts it found are not computed
    again; otherwise the range is walked here as without it. A segment the partition does not serve
    (``task.unused``: a tiered copy outside the live lineage) is one row saying why, nothing read."""
    if task.unused is not None:
        yield {
            **dict.fromkeys(name for name, _ in AUDIT_COLUMNS),
            "topic": task.topic,
            "partition": task.partition,
            "segment": task.path,
            "position": 0,
            "size": 0,
            "crcStatus": "unused",
            "error": f"not served: {task.unused}",
        }
        return
    if task.unreadable is not None:
        yield {
            **dict.fromkeys(name for name, _ in AUDIT_COLUMNS),
            "topic": task.topic,
            "partition": task.partition,
            "segment": task.path,
            "position": 0,
            "size": 0,
            "crcStatus": "corrupt",
            "error": f"the segment cannot be read: {task.unreadable}",
        }
        return
    buf = load_range(task) if buf is None else buf
    base, pos, end = task.start, 0, len(buf)
    common = {"topic": task.topic, "partition": task.partition, "segment": task.path}
    empty = dict.fromkeys(name for name, _ in AUDIT_COLUMNS)
    template = {**empty, **common}
    if walk is not None and walk.clean:
        crc_known = task.verify_crc  # the read's iterator checked every entry's checksum
        for batch in walk.entries:
            yield _batch_row(template.copy(), batch, buf, base, task, walk, crc_known)
        return
    recovery: Resync | None = None  # one for the range: its checksums are shared between resyncs
    while pos < end:
        it = BatchIterator(buf, verify=False, start=pos, max_decompressed=task.max_decompressed)
        try:
            for batch in it:
                pos = batch.end
                yield _batch_row(template.copy(), batch, buf, base, task, walk)
            if it.partial is not None:
                p = it.partial
                yield {
                    **empty,
                    **common,
                    "position": base + p.position,
                    "size": p.size,
                    "crcStatus": "partial",
                    "error": f"incomplete entry: {p.size} of {p.needed or '?'} bytes",
                }
            pos = end
        except KafkaFormatError as exc:
            recovery = recovery or Resync(buf, end, origin=pos)
            resume, _ = recovery.resume(pos)
            nxt = end if resume is None else resume
            yield {
                **empty,
                **common,
                "position": base + pos,
                "size": nxt - pos,
                "crcStatus": "corrupt",
                "error": exc.reason,
            }
            pos = nxt


def _batch_row(
    row: dict[str, Any],
    batch: LogBatch,
    buf: bytes,
    base: int,
    task: ReadRange,
    walk: Walk | None = None,
    crc_known: bool = False,
) -> dict[str, Any]:
    """Fill ``row`` (the range's columns already there) with ``batch``'s."""
    pos, end = batch.position, batch.end
    row["position"], row["size"] = base + pos, end - pos
    if isinstance(batch, Batch):
        h = batch.head
        attributes, base_offset, producer_id = h.attributes, h.base_offset, h.producer_id
        codec = attributes & v2.COMPRESSION_MASK
        transactional = bool(attributes & v2.IS_TRANSACTIONAL_MASK)
        control = bool(attributes & v2.IS_CONTROL_MASK)
        row["magic"] = 2
        row["compression"] = codec_name(codec)
        row["baseOffset"], row["lastOffset"] = base_offset, base_offset + h.last_offset_delta
        row["producerId"] = producer_id
        row["recordCount"] = h.records_count
        ok = crc_known or crc32c(memoryview(buf)[pos + v2.ATTRIBUTES_OFFSET : end]) == h.crc
        row["crcStatus"] = "ok" if ok else "mismatch"
        plain = None if walk is None or codec == 0 else walk.plain_sizes.get(pos)
        if codec == 0:
            row["uncompressedSize"] = end - pos
        elif plain is not None:
            row["uncompressedSize"] = v2.RECORD_BATCH_OVERHEAD + plain
        else:
            body = memoryview(buf)[pos + v2.RECORD_BATCH_OVERHEAD : end]
            try:
                row["uncompressedSize"] = v2.RECORD_BATCH_OVERHEAD + len(
                    decompress(codec, body, max_size=task.max_decompressed, position=pos, magic=2)
                )
            except KafkaFormatError as exc:
                row["error"] = exc.reason
    else:
        transactional, control = batch.is_transactional, batch.is_control
        producer_id = batch.producer_id
        row["magic"] = batch.magic
        row["compression"] = str(batch.compression)
        # a wrapper's first offset is its first inner record's: known only if its records decode
        row["lastOffset"] = base_offset = batch.last_offset
        row["producerId"] = producer_id
        count = None if walk is None else walk.legacy_counts.get(pos)
        try:
            row["baseOffset"] = base_offset = batch.base_offset
            row["recordCount"] = len(list(batch)) if count is None else count
            row["crcStatus"] = "ok"
        except KafkaFormatError as exc:
            row["crcStatus"] = "mismatch" if "crc" in exc.reason.lower() else "corrupt"
            row["error"] = exc.reason
    row["isTransactional"], row["isControl"] = transactional, control
    row["transaction"] = _transaction(task.read_committed, producer_id, base_offset, transactional, control)
    return row


@cache
def audit_schema() -> pa.Schema:
    """The audit view's Arrow schema (built once: it asks pyspark for it)."""
    return arrow_schema(AUDIT_COLUMNS)


def read_audit(task: ReadRange, buf: bytes | None = None) -> Iterator[pa.RecordBatch]:
    """The audit rows of a range as one Arrow batch (audits are small: one row per batch)."""
    rows = list(audit_rows(task, buf))
    if rows:
        yield pa.RecordBatch.from_pylist(rows, schema=audit_schema())


def audit_batch(task: ReadRange, buf: bytes, walk: Walk) -> pa.RecordBatch:
    """:func:`audit_rows`' rows as one Arrow batch, the same rows in the same order.

    When ``walk`` read the range cleanly, its v2 batches' rows are built as columns from their heads,
    read at once as numpy records (:func:`~kafkaspec.arrow.engine.heads.read_heads`), with no Python
    dict per batch: the pipeline audits every batch of its input, and per-batch rows were an eighth of
    its workers' time. Legacy entries, and every row of a range the read did not walk cleanly, are
    :func:`audit_rows`' dicts (such ranges are rare and small)."""
    schema = audit_schema()
    if walk.clean and task.unused is None and task.unreadable is None:
        v2_noted = [b for b in walk.noted if isinstance(b, Batch)]
        legacy = len(walk.noted) - len(v2_noted)
        noted = np.fromiter((b.position for b in v2_noted), np.int64, len(v2_noted))
        columns = _v2_columns(task, buf, walk, np.concatenate([walk.vouched, noted]))
        if not legacy:
            return columns
        crc_known = task.verify_crc
        template = {**dict.fromkeys(schema.names), "topic": task.topic, "partition": task.partition}
        template["segment"] = task.path
        rows = [
            _batch_row(template.copy(), b, buf, task.start, task, walk, crc_known)
            for b in walk.noted
            if not isinstance(b, Batch)
        ]
        both = pa.Table.from_batches([columns, pa.RecordBatch.from_pylist(rows, schema=schema)])
        both = both.take(pc.sort_indices(both.column("position")))
        return both.combine_chunks().to_batches()[0]
    return pa.RecordBatch.from_pylist(list(audit_rows(task, buf, walk)), schema=schema)


def _strings(codes: np.ndarray, names: list[str]) -> pa.Array:
    """A string column from small integer codes into ``names``."""
    return pa.DictionaryArray.from_arrays(pa.array(codes, pa.int32()), pa.array(names, pa.string())).cast(
        pa.string()
    )


#: the ``transaction`` column's values, as codes for :func:`_strings`
_TRANSACTIONS = ["none", "marker", "unknown", "open", "held", "aborted", "committed"]
_TXN_CODE = {name: i for i, name in enumerate(_TRANSACTIONS)}


def _v2_columns(task: ReadRange, buf: bytes, walk: Walk, pos: np.ndarray) -> pa.RecordBatch:
    """The rows of a clean walk's v2 batches at ``pos`` as columns (see :func:`audit_batch`)."""
    n = len(pos)
    heads = read_heads(np.frombuffer(buf, np.uint8), pos)
    end = pos + v2.BATCH_LENGTH_END + heads["batch_length"].astype(np.int64)
    attributes = heads["attributes"].astype(np.int32)
    codec = attributes & v2.COMPRESSION_MASK
    transactional = (attributes & v2.IS_TRANSACTIONAL_MASK) != 0
    control = (attributes & v2.IS_CONTROL_MASK) != 0
    base_offset = heads["base_offset"].astype(np.int64)
    producer_id = heads["producer_id"].astype(np.int64)
    size = end - pos
    errors: list[str | None] = [None] * n
    unc: list[int | None] = size.tolist()
    compressed = np.flatnonzero(codec != 0)
    plain = walk.plain_sizes
    for i in compressed.tolist():
        p = int(pos[i])
        known = plain.get(p)
        if known is not None:
            unc[i] = v2.RECORD_BATCH_OVERHEAD + known
            continue
        body = memoryview(buf)[p + v2.RECORD_BATCH_OVERHEAD : int(end[i])]
        try:
            unc[i] = v2.RECORD_BATCH_OVERHEAD + len(
                decompress(int(codec[i]), body, max_size=task.max_decompressed, position=p, magic=2)
            )
        except KafkaFormatError as exc:
            unc[i], errors[i] = None, exc.reason
    if task.verify_crc:  # the read's iterator checked every entry's checksum
        crc = np.zeros(n, np.int32)
    else:
        view, crcs = memoryview(buf), heads["crc"].tolist()
        crc = np.array(
            [
                0 if crc32c(view[p + v2.ATTRIBUTES_OFFSET : e]) == c else 1
                for p, e, c in zip(pos.tolist(), end.tolist(), crcs)
            ],
            np.int32,
        )
    txn = _transaction_codes(task.read_committed, transactional, control, base_offset, producer_id)
    codecs, codec_index = np.unique(codec, return_inverse=True)
    cols = {
        "topic": _strings(np.zeros(n, np.int32), [task.topic]),
        "partition": pa.array(np.full(n, task.partition, np.int32)),
        "segment": _strings(np.zeros(n, np.int32), [task.path]),
        "position": pa.array(pos + task.start),
        "size": pa.array(size),
        "magic": pa.array(np.full(n, 2, np.int32)),
        "compression": _strings(codec_index.astype(np.int32), [codec_name(int(c)) for c in codecs]),
        "baseOffset": pa.array(base_offset),
        "lastOffset": pa.array(base_offset + heads["last_offset_delta"].astype(np.int64)),
        "recordCount": pa.array(heads["records_count"].astype(np.int32)),
        "uncompressedSize": pa.array(unc, pa.int64()),
        "isTransactional": pa.array(transactional),
        "isControl": pa.array(control),
        "producerId": pa.array(producer_id),
        "transaction": _strings(txn, _TRANSACTIONS),
        "crcStatus": _strings(crc, ["ok", "mismatch"]),
        "error": pa.array(errors, pa.string()),
    }
    schema = audit_schema()
    return pa.RecordBatch.from_arrays([cols[name] for name in schema.names], schema=schema)


def _transaction_codes(
    rc: ReadCommitted | None,
    transactional: np.ndarray,
    control: np.ndarray,
    base_offset: np.ndarray,
    producer_id: np.ndarray,
) -> np.ndarray:
    """The ``transaction`` column as :data:`_TRANSACTIONS` codes: :func:`_transaction` on every row, the
    transactional data batches' looked up a producer at a time."""
    txn = np.zeros(len(base_offset), np.int32)  # none
    txn[control & transactional] = _TXN_CODE["marker"]
    data_txn = transactional & ~control
    if rc is None:
        txn[data_txn] = _TXN_CODE["unknown"]
        return txn
    if rc.stable is not None:
        txn[~transactional & ~control & (base_offset >= rc.stable)] = _TXN_CODE["held"]
    rows = np.flatnonzero(data_txn)
    pids = producer_id[rows]
    order = np.argsort(pids, kind="stable")
    pids, rows = pids[order], rows[order]
    cuts = np.flatnonzero(pids[1:] != pids[:-1]) + 1
    for these in np.split(rows, cuts) if len(rows) else ():
        pid = int(producer_id[these[0]])
        offsets = base_offset[these]
        code = np.full(len(these), _TXN_CODE["committed"], np.int32)
        firsts, lasts = rc.aborted_spans(pid)
        if firsts:
            i = np.searchsorted(np.array(firsts, np.int64), offsets, side="right") - 1
            aborted = (i >= 0) & (offsets <= np.array(lasts, np.int64)[np.maximum(i, 0)])
            code[aborted] = _TXN_CODE["aborted"]
        if rc.stable is not None:
            code[offsets >= rc.stable] = _TXN_CODE["held"]
        start = rc.open_transactions.get(pid)
        if start is not None:
            code[offsets >= start] = _TXN_CODE["open"]
        txn[these] = code
    return txn

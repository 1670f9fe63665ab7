"""The batch-audit view (``option("view", "batches")``): one row per batch or skipped byte range.

Reads headers and checks checksums without decoding records (compressed
batches are decompressed to report their uncompressed size). The pipeline's one pass
(:mod:`.onepass`) gives it what its records read saw instead, so that the bytes are walked,
checked and decompressed once. Never fails on
corrupt data: a bad checksum is a row with ``crcStatus = mismatch``, an
unreadable entry a ``corrupt`` row covering the bytes up to the next
verifiable batch, a torn tail a ``partial`` row; a tiered segment outside the partition's live
lineage an ``unused`` row saying why.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pyarrow as pa

from kafkaspec.generated import record_batch_v2 as v2

from ..arrow.ranges import ReadRange, Walk, load_range
from ..codec.compression import codec_name, decompress
from ..codec.crc import crc32c
from ..entry import LogBatch
from ..errors import KafkaFormatError
from ..logdir.kafka.transactions import ReadCommitted
from ..records import Batch, BatchIterator
from ..recovery import Resync
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
        it = BatchIterator(buf, verify=False, start=pos)
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
                    decompress(codec, body, position=pos, magic=2)
                )
            except KafkaFormatError as exc:
                row["error"] = exc.reason
    else:
        transactional, control = batch.is_transactional, batch.is_control
        base_offset, producer_id = batch.base_offset, batch.producer_id
        row["magic"] = batch.magic
        row["compression"] = str(batch.compression)
        row["baseOffset"], row["lastOffset"] = base_offset, batch.last_offset
        row["producerId"] = producer_id
        count = None if walk is None else walk.legacy_counts.get(pos)
        try:
            row["recordCount"] = len(list(batch)) if count is None else count
            row["crcStatus"] = "ok"
        except KafkaFormatError as exc:
            row["crcStatus"] = "mismatch" if "crc" in exc.reason.lower() else "corrupt"
            row["error"] = exc.reason
    row["isTransactional"], row["isControl"] = transactional, control
    row["transaction"] = _transaction(task.read_committed, producer_id, base_offset, transactional, control)
    return row


def read_audit(task: ReadRange, buf: bytes | None = None) -> Iterator[pa.RecordBatch]:
    """The audit rows of a range as one Arrow batch (audits are small: one row per batch)."""
    rows = list(audit_rows(task, buf))
    if rows:
        yield pa.RecordBatch.from_pylist(rows, schema=arrow_schema(AUDIT_COLUMNS))

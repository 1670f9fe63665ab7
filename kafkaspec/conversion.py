"""Converting a stream of batches between message formats (magic 0, 1, 2), as a broker down- or up-converts."""

from __future__ import annotations

from typing import NamedTuple

from .builder import build_batch
from .codec.compression import DEFAULT_MAX_DECOMPRESSED
from .entry import Buffer, Partial
from .errors import UnsupportedCodecError
from .records import iter_batches


class Converted(NamedTuple):
    """The result of :func:`convert`: the new bytes and what the target format could not keep."""

    data: bytes
    batches: int  # shallow entries written
    dropped_headers: int  # record headers (they need magic 2)
    dropped_producer_fields: int  # batches whose producer id/epoch/sequence/transaction flag were set
    dropped_control_batches: int  # control batches (brokers do not down-convert them)
    dropped_timestamps: int  # record timestamps (magic 0 has none)
    partial: Partial | None  # a trailing partial entry of the input, not copied


def convert(
    data: Buffer,
    magic: int,
    *,
    compression: str | None = None,
    verify: bool = True,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
) -> Converted:
    """Rewrite a stream of batches into message format ``magic``, as a broker down- or up-converts.

    Offsets, keys and values are kept; timestamps too, except for magic 0.
    Each batch becomes one batch (a compressed one one wrapper; an uncompressed
    one one message per record for magic 0/1). Entries already in ``magic``
    are copied as they are. ``compression`` overrides the codec (zstd cannot go
    below magic 2). Whatever the target cannot hold is counted in the result.
    """
    if magic not in (0, 1, 2):
        raise ValueError(f"magic must be 0, 1 or 2, got {magic!r}")
    out = []
    headers = producer = control = timestamps = written = 0
    it = iter_batches(data, verify=verify, max_decompressed=max_decompressed)
    for batch in it:
        if batch.magic == magic:
            out.append(batch.raw())
            written += 1
            continue
        records = batch.records
        if magic < 2:
            if batch.is_control:
                control += 1
                continue
            if batch.producer_id != -1 or batch.base_sequence != -1 or batch.is_transactional:
                producer += 1
            kept = []
            for r in records:
                headers += len(r.headers)
                if magic == 0 and r.timestamp is not None and r.timestamp != -1:
                    timestamps += 1
                kept.append(r._replace(headers=[]))
            records = kept
        codec = batch.compression if compression is None else compression
        if codec == "zstd" and magic < 2:
            raise UnsupportedCodecError(
                f"the batch at byte {batch.position} is zstd-compressed, which magic {magic} cannot hold; "
                "pass compression= to recompress",
                batch.position,
            )
        log_append = batch.timestamp_type == "log_append"
        if not records:
            if magic == 2:
                out.append(build_batch([], magic=2, compression=codec, base_offset=batch.base_offset))
                written += 1
            continue
        out.append(
            build_batch(
                records,
                magic=magic,
                compression=codec,
                base_offset=records[0].offset,
                timestamp_type=batch.timestamp_type if magic else "create",
                log_append_time=batch.max_timestamp if log_append else None,
            )
        )
        written += 1 if magic == 2 or codec != "none" else len(records)
    return Converted(b"".join(out), written, headers, producer, control, timestamps, it.partial)

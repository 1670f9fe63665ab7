"""``kafkaspec dump`` of a partition's segments: each batch and, unless asked not to, its records, as text
(DumpLogSegments' lines, :mod:`kafkaspec.render`) or JSON lines, with payloads and values decoded when
asked (:mod:`.dump`, the command, calls :func:`dump_partition` for each partition of a PATH).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, TextIO, cast

if TYPE_CHECKING:
    from kafkaspec.generated.record_v2 import Record
    from kafkaspec.logdir import Partition
    from kafkaspec.payloads import Family
    from kafkaspec.progress import Progress

    from ..logdir.store.fs import StoragePath

#: lines gathered before one write: output in a few large writes, memory bounded by this many lines
#: (a batch's records stream from its decompressed bytes, so no batch makes this grow)
FLUSH_LINES = 2048


def dump_partition(
    part: Partition, args: argparse.Namespace, out: TextIO, bar: Progress, done: int, total: int
) -> int:
    from kafkaspec.errors import KafkaFormatError
    from kafkaspec.printable import escape
    from kafkaspec.recovery import RULE_WORDS

    from .. import render
    from ..logdir.kafka.transactions import select_batches

    start = args.start_offset
    if args.start_timestamp is not None:
        ts_offset = part.offset_for_timestamp(args.start_timestamp)
        if ts_offset is None:
            return 0
        start = ts_offset if start is None else max(start, ts_offset)
    end = args.end_offset
    end_ts = args.end_timestamp
    rc = part.read_committed() if args.read_committed else None
    show_control = not args.read_committed or args.include_control
    as_json, print_data, batches_only = args.json, args.print_data, args.batches_only
    no_metadata = args.skip_record_metadata
    where: dict[str, object] = {"topic": part.topic, "partition": part.partition}  # on every JSON line
    family = decode_family(part, args)
    write = out.write
    to_json = render.to_json
    status = 0
    segs = part.segments()
    if start is not None:
        segs = [s for i, s in enumerate(segs) if i == len(segs) - 1 or segs[i + 1].base_offset > start]
    if end is not None:
        segs = [s for i, s in enumerate(segs) if i == 0 or s.base_offset < end]
    for seg in segs:
        src = str(seg.path)
        if not as_json:
            write(f"Dumping {escape(src)}\n{_opening(seg.path, seg.base_offset)}\n")
        position = seg.position_for_offset(start) if start is not None else 0
        limit = None if args.max_bytes is None else position + args.max_bytes
        try:
            it = seg.iter_batches(
                position, verify=not args.no_verify, on_corrupt="skip" if args.skip_corrupt else "raise"
            )
        except KafkaFormatError as exc:  # not a regular file, or (tiered) a manifest that cannot be read
            print(escape(f"kafkaspec dump: {exc.source or src}: {exc.reason}"), file=sys.stderr)
            status = 1
            continue
        lines: list[str] = []
        try:
            for batch in select_batches(
                it, start_offset=start, end_offset=end, include_control=show_control, read_committed=rc
            ):
                if limit is not None and batch.end > limit:
                    break  # --max-bytes: whole batches only, as DumpLogSegments reads a slice of the file
                b = render.batch_fields(batch, src if as_json else None)
                if as_json:
                    b.update(where)
                lines.append(to_json(b) if as_json else render.batch_text(b))
                if not batches_only:
                    control = render.control_fields(batch) if batch.is_control else None
                    ts_name = render._TS_NAME.get(b["timestamp_type"], "CreateTime")
                    for r in batch:
                        o = r.offset
                        if (start is not None and o < start) or (end is not None and o >= end):
                            continue
                        if end_ts is not None and r.timestamp is not None and r.timestamp >= end_ts:
                            continue
                        one = control
                        if control is not None and batch.records_count > 1:
                            one = render.control_fields(batch, r)
                        d = render.record_fields(batch, r, print_data, one)
                        if (
                            family is not None
                            and control is None
                            and not _decode_into(d, family, r, args.kafka_release)
                        ):
                            status = 1
                        if (
                            args.values is not None
                            and control is None
                            and not _values_into(d, args, part.topic, r)
                        ):
                            status = 1
                        if as_json:
                            d.update(where)
                            if no_metadata:
                                for k in render.RECORD_METADATA:
                                    d.pop(k, None)
                            lines.append(to_json(d))
                        elif not no_metadata:
                            lines.append(render.record_text(d, ts_name, r))
                        elif len(d) > len(render.RECORD_METADATA) + 1:  # something beside the metadata
                            lines.append(render.record_text(d, ts_name, r, metadata=False))
                        if len(lines) >= FLUSH_LINES:  # within a batch too: one may hold millions of records
                            lines.append("")
                            write("\n".join(lines))
                            lines.clear()
                if len(lines) >= FLUSH_LINES:
                    lines.append("")
                    write("\n".join(lines))
                    lines.clear()
                    bar(done + batch.end, total)
        except KafkaFormatError as exc:
            lines.append("")
            write("\n".join(lines))
            lines.clear()
            at = exc.position if exc.position is not None else "?"
            print(escape(f"kafkaspec dump: {src} at byte {at}: {exc.reason}"), file=sys.stderr)
            status = 1
        if lines:
            lines.append("")
            write("\n".join(lines))
        for skipped in it.skipped:
            print(
                escape(
                    f"kafkaspec dump: {src} at byte {skipped.start}: {skipped.reason} "
                    f"(bytes {skipped.start}..{skipped.end} skipped; {RULE_WORDS[skipped.rule]})"
                ),
                file=sys.stderr,
            )
            status = 1
        if it.partial is not None:
            p = it.partial
            if as_json:
                write(
                    to_json(
                        {
                            "type": "partial",
                            "file": src,
                            "position": p.position,
                            "size": p.size,
                            "needed": p.needed,
                        }
                    )
                    + "\n"
                )
            else:
                write(
                    f"Found {p.size} invalid bytes at the end of {escape(seg.path.name)} "
                    f"(a partial batch at {p.position})\n"
                )
        done += seg.size
        seg.close()
    return status


def _opening(path: StoragePath, base_offset: int) -> str:
    """The line after "Dumping": as DumpLogSegments, a KRaft snapshot says what it is."""
    from ..logdir.kafka import files

    if path.name == files.BOOTSTRAP_CHECKPOINT:
        return "KRaft bootstrap snapshot"
    if files.is_metadata_checkpoint(path):
        end, epoch = path.name[: -len(files.CHECKPOINT_SUFFIX)].split("-")
        return f"Snapshot end offset: {int(end)}, epoch: {int(epoch)}"
    return f"Log starting offset: {base_offset}"


def decode_family(part: Partition, args: argparse.Namespace) -> Family | None:
    """The payload family ``--decode`` / ``--decode-as`` ask for in ``part`` (None: no decoding):
    by topic name, and KRaft snapshot (.checkpoint) files hold metadata records."""
    from kafkaspec.payloads import FAMILY_OF_TOPIC

    from ..logdir.kafka import files

    if args.decode_as:
        return cast("Family", args.decode_as)
    if not args.decode:
        return None
    if any(files.is_metadata_checkpoint(s.path) for s in part.segments()):
        return "metadata"
    return FAMILY_OF_TOPIC.get(part.topic)


def _decode_into(d: dict[str, Any], family: Family, r: Record, release: str | None = None) -> bool:
    """Add ``decoded`` to a record's fields, or ``decode_error`` and the raw key and value; False on error,
    and when a consumer group member's subscription or assignment bytes do not parse (the record is
    decoded, the member's bytes stay raw beside its ``*_error``)."""
    from kafkaspec.errors import KafkaFormatError
    from kafkaspec.payloads import decode_as
    from kafkaspec.payloads.consumer_protocol import member_errors

    from .. import render

    try:
        decoded = decode_as(family, r.key, r.value, release)
        d["decoded"] = render.decoded_fields(decoded)
        return not member_errors(decoded.value)
    except KafkaFormatError as exc:
        d["decode_error"] = str(exc)
        if "key" not in d:  # flagged records show their raw bytes
            d.update(render.data_fields(r))
        return False


def _values_into(d: dict[str, Any], args: argparse.Namespace, topic: str, r: Record) -> bool:
    """Add ``key_decoded`` / ``value_decoded`` (or ``*_error``) beside the raw key and value; False
    when one does not fit its format."""
    from kafkaspec.values.decoder import jsonable

    from .. import render

    ok = True
    if "key" not in d:
        d.update(render.data_fields(r))
    for part, given, raw in (("key", args.key_format, r.key), ("value", args.value_format, r.value)):
        if not given:
            continue
        got = args.values.decode(topic, raw, part)
        if got.error is not None:
            d[f"{part}_error"] = got.error
            ok = False
        else:
            d[f"{part}_decoded"] = jsonable(got)
        if got.schema_id is not None:
            d[f"{part}_schema_id"] = got.schema_id
    return ok

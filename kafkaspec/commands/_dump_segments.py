"""``kafkaspec dump`` of a partition's segments: each batch and, unless asked not to, its records, as text
(DumpLogSegments' lines, :mod:`kafkaspec.render`) or JSON lines, with payloads and values decoded when
asked (:mod:`.dump`, the command, calls :func:`dump_partition` for each partition of a PATH).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, TextIO, cast

from ._dump_habits import start_offset

if TYPE_CHECKING:
    from collections.abc import Callable

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
    from ..logdir.kafka import files
    from ..logdir.kafka.transactions import select_batches

    start = start_offset(part, args)
    if args.start_timestamp is not None:
        ts_offset = part.offset_for_timestamp(args.start_timestamp)
        if ts_offset is None:
            return 0
        start = ts_offset if start is None else max(start, ts_offset)
    end = args.end_offset
    rc = part.read_committed() if args.read_committed else None
    line_format = args.line_format  # -f: the record lines alone, in the user's format; no control records
    left = args.left  # -c: records (or batches) still to print
    show_control = (not args.read_committed or args.include_control) and line_format is None
    as_json, batches_only = args.json, args.batches_only
    where: dict[str, object] = {"topic": part.topic, "partition": part.partition}  # on every JSON line
    family = decode_family(part, args)
    keep_going = args.keep_going
    #: what the batch lines say of the checksum: checked by the reader (True), not checked (None)
    checked: bool | None = None if args.no_verify and not keep_going else True
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
        if not as_json and line_format is None:
            write(f"Dumping {escape(src)}\n{_opening(seg.path, seg.base_offset)}\n")
        position = seg.position_for_offset(start) if start is not None else 0
        limit = None if args.max_bytes is None else position + args.max_bytes
        try:
            it = seg.iter_batches(
                position,
                verify=not (args.no_verify or keep_going),
                on_corrupt="skip" if args.skip_corrupt or keep_going else "raise",
                check_records=not keep_going,  # a batch whose records fail is printed, then reported
            )
        except KafkaFormatError as exc:  # not a regular file, or (tiered) a manifest that cannot be read
            print(escape(f"kafkaspec dump: {exc.source or src}: {exc.reason}"), file=sys.stderr)
            status = 1
            continue
        lines: list[str] = []
        try:
            for batch in select_batches(
                it,
                start_offset=start,
                end_offset=end,
                include_control=show_control,
                read_committed=rc,
                look_past_end=False,
            ):
                if limit is not None and batch.end > limit:
                    break  # --max-bytes: whole batches only, as DumpLogSegments reads a slice of the file
                valid, computed = checked, None
                if keep_going:
                    computed, problem = check_batch(batch)
                    valid = problem is None
                    if problem is not None:
                        status = 1
                        print(
                            escape(f"kafkaspec dump: {src} at byte {batch.position}: {problem}"),
                            file=sys.stderr,
                        )
                elif checked is None and batch.magic < 2:
                    batch.decode_records(verify=False)  # a LegacyBatch
                b = render.batch_fields(batch, src if as_json else None)
                if as_json:
                    b.update(where)
                    if keep_going:
                        b["valid"] = valid
                if valid is False and computed is not None:
                    b["computed_crc"] = computed
                if line_format is None:
                    lines.append(to_json(b) if as_json else render.batch_text(b, valid))
                if batches_only and left is not None:
                    left -= 1
                if not batches_only:
                    got, left = _record_lines(
                        batch, b["timestamp_type"], part, args, (start, end, left, family), lines, write, src
                    )
                    status |= got
                if len(lines) >= FLUSH_LINES:
                    lines.append("")
                    write("\n".join(lines))
                    lines.clear()
                    bar(done + batch.end, total)
                if left == 0:
                    break
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
            if files.is_metadata_checkpoint(seg.path):  # a log's last batch may be torn, a snapshot's not
                print(
                    escape(
                        f"kafkaspec dump: {src} at byte {p.position}: an incomplete batch ({p.size} bytes to "
                        "the end): a KRaft snapshot is written whole, so this one is damaged"
                    ),
                    file=sys.stderr,
                )
                status = 1
        done += seg.size
        seg.close()
        if left == 0:
            break
    args.left = left
    if rc is not None and rc.stable is not None and (end is None or end > rc.stable) and left != 0:
        print(escape(_held_back(part, rc.stable, rc.open_transactions)), file=sys.stderr)
    return status


def _held_back(part: Partition, stable: int, open_transactions: dict[int, int]) -> str:
    """The stderr line of a ``--read-committed`` dump that stopped at the last stable offset: which offsets
    are held back (to the log's end when its tail can be read), and the transaction that holds them."""
    from kafkaspec.errors import KafkaFormatError

    from ..logdir.kafka.tail import PartitionTail

    pid = min(open_transactions, key=lambda p: open_transactions[p])
    try:
        upto = PartitionTail(transactions=False).look(part).end - 1
        what = f"offsets {stable} to {upto}" if upto > stable else f"offset {stable}"
    except (KafkaFormatError, OSError):  # the tail cannot be read: the lines printed above say why
        what = f"offsets from {stable}"
    return (
        f"kafkaspec dump: {part.name}: {what} held back by --read-committed: producer {pid}'s transaction "
        f"opened at offset {stable} has no marker yet (the last stable offset, where Kafka's read_committed "
        "consumer stops too); without --read-committed they are printed"
    )


def _record_lines(
    batch: Any,
    timestamp_type: str | None,
    part: Partition,
    args: argparse.Namespace,
    window: tuple[int | None, int | None, int | None, Family | None],
    lines: list[str],
    write: Callable[[str], object],
    src: str,
) -> tuple[int, int | None]:
    """Append the record lines of ``batch`` to ``lines`` (written out every :data:`FLUSH_LINES`); return
    (the exit status they give, the ``-c`` count left). ``window``: the first offset, the offset to stop
    before, the count left (None: no ``-c``) and the payload family to decode. Under ``--keep-going`` a
    batch whose records fail is reported and its other records left out; otherwise the error is raised."""
    from kafkaspec.errors import KafkaFormatError
    from kafkaspec.printable import escape

    from .. import render

    start, end, left, family = window
    end_ts, line_format, keep_going = args.end_timestamp, args.line_format, args.keep_going
    as_json, print_data, no_metadata = args.json, args.print_data, args.skip_record_metadata
    where: dict[str, object] = {"topic": part.topic, "partition": part.partition}  # on every JSON line
    to_json = render.to_json
    status = 0
    control = render.control_fields(batch) if batch.is_control else None
    ts_name = render._TS_NAME.get(timestamp_type, "CreateTime")
    try:
        for r in batch:
            o = r.offset
            if (start is not None and o < start) or (end is not None and o >= end):
                continue
            if end_ts is not None and r.timestamp is not None and r.timestamp >= end_ts:
                continue
            if left is not None:
                if left == 0:
                    break
                left -= 1
            if line_format is not None:
                lines.append(line_format(part.topic, part.partition, r).removesuffix("\n"))
            else:
                one = control
                if control is not None and batch.records_count > 1:  # a KRaft control batch: each its own key
                    one = render.control_fields(batch, r)
                d = render.record_fields(batch, r, print_data, one)
                if (
                    family is not None
                    and control is None
                    and not _decode_into(d, family, r, args.kafka_release)
                ):
                    status = 1
                if args.values is not None and control is None and not _values_into(d, args, part.topic, r):
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
    except KafkaFormatError as exc:  # --keep-going: the batch is flagged, the next one read
        if not keep_going:
            raise
        status = 1
        at = batch.position if exc.position is None else exc.position
        print(
            escape(
                f"kafkaspec dump: {src} at byte {at}: {exc.reason} (the batch's other records are not shown)"
            ),
            file=sys.stderr,
        )
    return status, left


def check_batch(batch: Any) -> tuple[int | None, str | None]:
    """``dump --keep-going``'s own check of a batch read unverified: (the CRC its bytes give when the stored
    one differs, what is wrong) or (None, None) when it holds. A legacy wrapper's inner messages are
    checked too; when one fails, its records are kept decoded without the check, to be shown."""
    from kafkaspec.codec.crc import crc32, crc32c
    from kafkaspec.entry import MAGIC_OFFSET
    from kafkaspec.errors import KafkaFormatError
    from kafkaspec.generated import record_batch_v2 as v2

    raw = memoryview(batch.raw())
    if batch.magic == 2:
        computed, algorithm = crc32c(raw[v2.ATTRIBUTES_OFFSET :]), "CRC32C"
    else:
        computed, algorithm = crc32(raw[MAGIC_OFFSET:]), "CRC32"
    if computed != batch.crc:
        return computed, f"crc is {batch.crc}, the {algorithm} of the batch's bytes is {computed}"
    if batch.magic < 2 and batch.is_wrapper:
        try:
            batch.decode_records()
        except KafkaFormatError as exc:
            batch.decode_records(verify=False)
            return None, f"in the wrapper's inner messages: {exc.reason}"
    return None, None


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
        if got.error is None and given == "auto" and raw is not None and got.format == "bytes":
            want = args.values.column_format(topic, part)  # the format of <topic>-<part>'s schema, if any
            if want not in ("auto", "bytes"):  # as the pipeline's typed column flags it
                got = got._replace(
                    error=f"read as bytes (not registry-framed), not {want} like the topic's {part}s"
                )
        if got.error is not None:
            d[f"{part}_error"] = got.error
            ok = False
        else:
            d[f"{part}_decoded"] = jsonable(got)
        if got.schema_id is not None:
            d[f"{part}_schema_id"] = got.schema_id
    return ok

"""``kafkaspec dump``: print batches and records of segments, like Kafka's DumpLogSegments.

Why one module of this size: it is one command with DumpLogSegments' options and ours (several paths,
byte and offset windows, payload and value decoding, tiered copies), and most of its lines are the
argument parser and the two output forms of one walk; the line formats are ``logdir.render``'s.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, TextIO, cast

from ..logdir.tiered.key_dir import add_key_dir_argument, private_keys

if TYPE_CHECKING:
    from kafkaspec.generated.record_v2 import Record
    from kafkaspec.logdir import Partition
    from kafkaspec.payloads import Family
    from kafkaspec.progress import Progress

    from ..logdir.store.fs import StoragePath

EPILOG = r"""examples:
  kafkaspec dump logs/orders-0/00000000000000000000.log
  kafkaspec dump logs/orders-0 --print-data --start-offset 1000 --end-offset 1010
  kafkaspec dump logs/ --json --read-committed > records.jsonl
  kafkaspec dump logs/payments-0 --start-timestamp 1700000000000 --batches-only
  kafkaspec dump logs/orders-0/00000000000000000000.index     # index, timeindex, txnindex, snapshot files too
  kafkaspec dump logs/meta.properties logs/replication-offset-checkpoint   # a data dir's own files by name
  kafkaspec dump logs/bootstrap.checkpoint --decode           # KRaft's bootstrap records
  AWS_ENDPOINT_URL=http://127.0.0.1:9000 kafkaspec dump s3://bucket/backup/ --json   # an object store

Text output follows DumpLogSegments: a line per batch (baseOffset, lastOffset,
count, producer fields, position, size, magic, compresscodec, crc), then a
"| offset: ..." line per record; control records show their marker type.
--json prints one object per line with "type": "batch" | "record" | "partial".
Keys, values and header values are printed (with --print-data) as UTF-8 text, or base64
with "key_base64"/"value_base64": true beside them when they are not UTF-8 (headers: a list
of {"key", "value"} objects, "value_base64": true in each base64 one). Floats that are NaN
or infinite (a decoded quota) print as the strings "NaN", "Infinity", "-Infinity".
Text lines escape what is not printable (control, format and separator characters) as
\xNN, \uNNNN, \n, \t, \r, a backslash as \\, and bytes that are not UTF-8 as \xNN
(80..ff); "null" is a null key, value or header value.

exit codes: 0 ok, 1 corrupt data found (reported with file and byte position), 2 bad path or arguments
"""


def _integer(text: str, least: int, what: str) -> int:
    """An integer argument of at least ``least`` (argparse's error, exit 2, otherwise)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"{text} must be {what}")
    return value


def offset(text: str) -> int:
    """An offset argument: a non-negative integer."""
    return _integer(text, 0, "a non-negative offset")


def _size(text: str) -> int:
    """A byte count argument: a positive integer (beyond the file's size it means the whole file)."""
    return _integer(text, 1, "a positive number of bytes")


#: lines gathered before one write: output in a few large writes, memory bounded by this many lines
#: (a batch's records stream from its decompressed bytes, so no batch makes this grow)
FLUSH_LINES = 2048


def _version() -> str:
    from kafkaspec.cli import version

    return version()


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "dump",
        help="print batches and records (like DumpLogSegments)",
        description="Print the batches and records of a data dir, partition dir or segment file.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "path",
        metavar="PATH",
        nargs="+",
        help="data dir, <topic>-<partition> dir, .log file, or an index/snapshot "
        "file; local, or an object-store URI (s3://bucket/prefix/, configured from the environment)",
    )
    p.add_argument("--version", action="version", version=f"kafkaspec dump {_version()}")
    p.add_argument("--print-data", action="store_true", help="print keys, values and header values")
    p.add_argument(
        "--skip-record-metadata",
        action="store_true",
        help="record lines without their offset, timestamp, sizes, sequence and header keys (as "
        "DumpLogSegments): with --print-data or --decode, the data alone",
    )
    p.add_argument(
        "--max-bytes",
        type=_size,
        metavar="N",
        help="read at most N bytes of each segment, from where reading starts (whole batches only)",
    )
    p.add_argument("--json", action="store_true", help="JSON lines instead of text")
    p.add_argument("--batches-only", action="store_true", help="one line per batch, no record lines")
    p.add_argument("--start-offset", type=offset, help="first offset to print")
    p.add_argument("--end-offset", type=offset, help="stop before this offset")
    p.add_argument(
        "--start-timestamp", type=int, help="start at the first record with timestamp >= this (ms)"
    )
    p.add_argument("--end-timestamp", type=int, help="only records with timestamp < this (ms)")
    p.add_argument(
        "--read-committed",
        action="store_true",
        help="drop records of aborted transactions and hide control batches (as a consumer sees them)",
    )
    p.add_argument(
        "--include-control", action="store_true", help="with --read-committed: still show control batches"
    )
    p.add_argument("--no-verify", action="store_true", help="skip CRC checks")
    p.add_argument(
        "--decode",
        action="store_true",
        help="decode Kafka's own payloads by topic (__consumer_offsets, __transaction_state, "
        "__share_group_state, __cluster_metadata and .checkpoint snapshots, __remote_log_metadata)",
    )
    p.add_argument(
        "--decode-as",
        choices=("offsets", "transactions", "share", "metadata", "remote_log"),
        help="decode every record's key and value as this family, whatever the topic",
    )
    p.add_argument(
        "--kafka-release",
        metavar="X.Y",
        help="with --decode/--decode-as: the Kafka release that wrote the records (e.g. 4.0), read first "
        "where Kafka wrote a message in more than one layout (Kafka 4.0's early-access share records); "
        "default: the newest layout first, then any earlier one that fits",
    )
    p.add_argument(
        "--key-format",
        choices=_FORMATS,
        metavar="FORMAT",
        help="decode keys: " + "|".join(_FORMATS) + " (registry-framed with the _schemas topic's schemas); "
        "the decoded key is printed beside the raw one",
    )
    p.add_argument(
        "--value-format",
        choices=_FORMATS,
        metavar="FORMAT",
        help="decode values as --key-format decodes keys",
    )
    p.add_argument(
        "--schemas",
        metavar="DIR",
        help="with --key-format/--value-format: the data dir whose _schemas topic holds the schemas "
        "(default: PATH)",
    )
    p.add_argument(
        "--registry",
        metavar="URL",
        help="with --key-format/--value-format: a Schema Registry asked for the ids _schemas lacks "
        "(GET /schemas/ids/ID, each id once; KAFKASPEC_REGISTRY_TIMEOUT bounds each request, default "
        "10 s, KAFKASPEC_REGISTRY_BUDGET all of them, default 60 s; a registry that failed is not asked "
        "again, and one redirecting to another host is refused)",
    )
    p.add_argument(
        "--skip-corrupt",
        action="store_true",
        help="resume after a corrupt entry (reported on stderr, exit code 1) instead of stopping",
    )
    p.add_argument(
        "--tiered",
        metavar="PREFIX",
        help="the tiered-storage copy of PATH (a broker's data or partition dir): read each partition's "
        "whole history, the remote segments below the local log start offset, then the local ones",
    )
    p.add_argument(
        "--remote-log-metadata",
        metavar="PATH",
        help="__remote_log_metadata partitions (a data dir holding them, or one partition dir): their "
        "events choose each tiered partition's live segments, as a broker does (default: those "
        "found beside the data, else the segments' manifests decide)",
    )
    add_key_dir_argument(p)
    p.set_defaults(func=run)


#: the formats of kafkaspec.values.decoder.FORMATS (spelled here so that --help needs no import)
_FORMATS = (
    "auto",
    "avro",
    "json-schema",
    "protobuf",
    "string",
    "int",
    "long",
    "double",
    "uuid",
    "json",
    "bytes",
)


def run(args: argparse.Namespace) -> int:
    if args.kafka_release is not None:
        from kafkaspec.payloads.decode import parse_release

        try:
            parse_release(args.kafka_release)
        except ValueError as exc:
            print(f"kafkaspec dump: --kafka-release: {exc}", file=sys.stderr)
            return 2
    if args.tiered is not None and len(args.path) > 1:
        print(
            "kafkaspec dump: --tiered takes one PATH (the local log its tiered copy belongs to)",
            file=sys.stderr,
        )
        return 2
    for given in args.path:  # every path checked first: a typo in the third is not found after two dumps
        problem = _unusable(given)
        if problem:
            print(f"kafkaspec dump: {problem}", file=sys.stderr)
            return 2
    status = 0
    for given in args.path:  # several paths, one after the other, as DumpLogSegments' --files
        status |= _dump_path(given, args)
    return status


def _unusable(given: str) -> str | None:
    """Why a local PATH argument cannot be opened at all (missing, a symlink loop, no permission), or None.

    Object-store URIs are checked when opened (a request each)."""
    import os

    from kafkaspec.printable import escape

    from ..logdir.store.storage import is_uri

    if is_uri(given):
        return None
    try:  # follows symlinks: a loop is ELOOP, named as such. A FIFO or a device where a Kafka file should
        # be passes here: that is damaged data, reported in its turn (exit 1)
        os.stat(given)
    except OSError as exc:
        return escape(f"{given}: {(exc.strerror or str(exc)).lower()}")
    return None


def _dump_path(given: str, args: argparse.Namespace) -> int:
    """Dump one PATH argument; its exit status."""
    from kafkaspec.errors import KafkaFormatError
    from kafkaspec.logdir import open_log
    from kafkaspec.printable import escape
    from kafkaspec.progress import Progress

    from ..logdir.kafka.layout import known_segments, no_kafka_data
    from ..logdir.kafka.segment import readable_size
    from ..logdir.store.publish import PUBLISHING, describe
    from ..logdir.store.storage import as_path

    path = as_path(given)
    out = sys.stdout
    if path.exists() and not path.is_dir() and not path.name.endswith((".log", ".checkpoint")):
        return _dump_small_file(path, out, args.json)
    log = open_log(
        path, tiered=args.tiered, remote_log_metadata=args.remote_log_metadata, keys=private_keys(args)
    )
    if not log.has_data():
        raise no_kafka_data(given)
    args.values = None
    if args.key_format or args.value_format:
        from kafkaspec.values import RegistryError, decoder

        schemas_log = log if args.schemas is None else open_log(as_path(args.schemas))
        try:
            args.values = decoder(
                schemas_log,
                key_format=args.key_format or "bytes",
                value_format=args.value_format or "bytes",
                registry_url=args.registry,
            )
        except RegistryError as exc:  # a URL that is not one
            print(escape(f"kafkaspec dump: --registry: {exc}"), file=sys.stderr)
            return 2
    bar = Progress("dump")
    parts = log.partitions() + log.checkpoints()
    total = sum(readable_size(s) for p in parts for s in known_segments(p)) or 1
    status = 0
    for staged in log.interrupted:  # an interrupted rewrite: what is shown is not a complete copy
        print(
            f"kafkaspec dump: {staged}: the staging dir of a rewrite that did not finish: this directory is not "
            "a complete copy (the staged output is not shown)",
            file=sys.stderr,
        )
        status = 1
    done = 0
    for p in log.unpublished:  # never an empty success: a partition not read is named
        print(f"kafkaspec dump: {p / PUBLISHING}: {describe(p)}", file=sys.stderr)
        status = 1
    try:
        for part in parts:
            try:
                status |= _dump_partition(part, args, out, bar, done, total)
            except (
                KafkaFormatError
            ) as exc:  # this partition cannot be read on: report it, go on with the next
                out.flush()
                print(escape(f"kafkaspec dump: {part.path}: {exc}"), file=sys.stderr)
                status = 1
            done += sum(readable_size(s) for s in known_segments(part))
            part.close()
    finally:
        bar.close()
        out.flush()
    registry = args.values.schemas.registry if args.values is not None else None
    if registry is not None and registry.failure is not None:  # the records name it; this says it once
        print(
            escape(f"kafkaspec dump: {registry.failure}; the registry was not asked again"), file=sys.stderr
        )
        status = 1
    return status


def _dump_partition(
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
                        d = render.record_fields(batch, r, print_data, control)
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


def _dump_small_file(path: StoragePath, out: TextIO, as_json: bool) -> int:
    from kafkaspec.printable import escape, json_text

    from ..logdir.kafka import files, indexes
    from ..logdir.kafka.snapshot import parse_snapshot

    name = path.name
    base = files.offset_from_name(path) or 0
    rows: list[dict[str, Any]]
    # read through files' readers: a FIFO or device at the name is an error, not a hang, and the
    # zero-filled tail of a preallocated index is not read
    if name.endswith(files.INDEX_SUFFIX):
        data = files.read_index_file(path, indexes.OFFSET_ENTRY_SIZE)
        rows = [{"offset": e.offset, "position": e.position} for e in indexes.parse_offset_index(data, base)]
    elif name.endswith(files.TIME_INDEX_SUFFIX):
        data = files.read_index_file(path, indexes.TIME_ENTRY_SIZE)
        rows = [{"timestamp": e.timestamp, "offset": e.offset} for e in indexes.parse_time_index(data, base)]
    elif name.endswith(files.TXN_INDEX_SUFFIX):
        rows = [e._asdict() for e in indexes.parse_txn_index(files.read_regular(path))]
    elif name.endswith(files.SNAPSHOT_SUFFIX):
        rows = [_snapshot_row(e) for e in parse_snapshot(files.read_regular(path)).producer_entries]
    elif name == files.LEADER_EPOCH_CHECKPOINT:
        rows = [
            e._asdict() for e in files.parse_leader_epoch_checkpoint(files.read_text_file(path), str(path))
        ]
    elif name == files.PARTITION_METADATA:
        rows = [files.parse_partition_metadata(files.read_text_file(path), str(path))]
    elif name in NODE_FILES:
        rows = _node_file_rows(path)
    else:
        print(
            escape(f"kafkaspec dump: {path}: not a segment, index, snapshot or checkpoint file"),
            file=sys.stderr,
        )
        return 2
    if as_json:
        out.writelines(json_text(row) + "\n" for row in rows)
        return 0
    out.write(f"Dumping {escape(str(path))}\n")
    if not rows and name.endswith(files.INDEX_SUFFIX):
        out.write(f"{escape(str(path))} is empty.\n")  # as DumpLogSegments says of an offset index alone
    line = _KAFKA_LINES.get(name[name.rfind(".") :], _plain_line)
    out.writelines(escape(line(row)) + "\n" for row in rows)
    return 0


def _plain_line(row: dict[str, Any]) -> str:
    return " ".join(f"{k}: {v}" for k, v in row.items())


def _snapshot_line(row: dict[str, Any]) -> str:
    """A producer snapshot entry as DumpLogSegments prints it: the producer, then its last batch, which
    an entry without one (last offset -1: a producer whose transaction marker bumped its epoch) leaves out
    (Kafka reads no batch from it). A snapshot keeps one batch per producer, so its last timestamp is
    that batch's."""
    txn = row["current_txn_first_offset"]
    line = (
        f"producerId: {row['producer_id']} producerEpoch: {row['epoch']} coordinatorEpoch: "
        f"{row['coordinator_epoch']} currentTxnFirstOffset: "
        f"{'OptionalLong.empty' if txn < 0 else f'OptionalLong[{txn}]'} lastTimestamp: {row['timestamp']}"
    )
    if row["last_offset"] < 0:
        return line
    return (
        f"{line} firstSequence: {row['first_sequence']} lastSequence: {row['last_sequence']} lastOffset: "
        f"{row['last_offset']} offsetDelta: {row['offset_delta']} timestamp: {row['timestamp']}"
    )


def _txn_line(row: dict[str, Any]) -> str:
    """An aborted transaction as DumpLogSegments prints it (entry version 0: the only one Kafka reads)."""
    return (
        f"version: 0 producerId: {row['producer_id']} firstOffset: {row['first_offset']} lastOffset: "
        f"{row['last_offset']} lastStableOffset: {row['last_stable_offset']}"
    )


#: the text line of an entry of these files, by suffix: DumpLogSegments' (others: ``name: value`` pairs)
_KAFKA_LINES = {".snapshot": _snapshot_line, ".txnindex": _txn_line}


#: the data dir's own files dump reads by name (besides bootstrap.checkpoint, read like a segment)
NODE_FILES = (
    "meta.properties",
    "quorum-state",
    ".kafka_cleanshutdown",
    "replication-offset-checkpoint",
    "recovery-point-offset-checkpoint",
    "log-start-offset-checkpoint",
    "cleaner-offset-checkpoint",
)


def _node_file_rows(path: StoragePath) -> list[dict[str, Any]]:
    """The rows of a data dir's own file: what Kafka reads from it, by the readers verify uses."""
    from ..logdir.kafka import checkpoints, files, node_files

    name, source = path.name, str(path)
    if name in checkpoints.CHECKPOINTS:
        text = files.read_text_file(path, checkpoints.MAX_SIZE)
        return [
            {"topic": e.topic, "partition": e.partition, "offset": e.offset}
            for e in checkpoints.parse_offset_checkpoint(text, name, source)
        ]
    text = files.read_text_file(path, node_files.MAX_SIZE)
    if name == node_files.META_PROPERTIES:
        meta = node_files.parse_meta_properties(text, source)
        row: dict[str, Any] = {
            "version": meta.version,
            "node_id": meta.node_id,
            "cluster_id": meta.cluster_id,
            "directory_id": meta.directory_id,
        }
        if meta.ignored:
            row["not_read"] = meta.ignored
        return [row]
    if name == node_files.QUORUM_STATE:
        return [node_files.parse_quorum_state(text, source)]
    return [{"clean_shutdown": True, "broker_epoch": node_files.parse_clean_shutdown(text, source)}]


def _snapshot_row(e: Any) -> dict[str, Any]:
    """A producer snapshot entry with the first sequence DumpLogSegments prints beside the last (the last
    minus the offset delta, wrapping below 0 to the top of int32 as Kafka's sequences do)."""
    row = e._asdict()
    last, delta = e.last_sequence, e.offset_delta
    first = last - delta if last >= delta else 0x7FFFFFFF - (delta - last) + 1
    out: dict[str, Any] = {}
    for k, v in row.items():
        if k == "last_sequence":
            out["first_sequence"] = first
        out[k] = v
    return out

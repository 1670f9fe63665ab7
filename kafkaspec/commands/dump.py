"""``kafkaspec dump``: print batches and records of segments, like Kafka's DumpLogSegments.

The command: its options (DumpLogSegments' and ours: several paths, byte and offset windows, payload and
value decoding, tiered copies) and what each PATH is. A partition's segments are printed by
:mod:`._dump_segments`, any other Kafka file (an index, a snapshot, a checkpoint) by :mod:`._dump_files`;
the line formats are :mod:`kafkaspec.render`'s.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..logdir.tiered.key_dir import add_key_dir_argument, private_keys
from ._dump_files import dump_file
from ._dump_habits import FORMATS as _FORMATS
from ._dump_habits import add_habit_arguments, chosen, settle
from ._dump_segments import dump_partition

if TYPE_CHECKING:
    from ..logdir import LogDir
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
"| offset: ..." line per record; control records show their marker type. A batch line
says "isvalid: true" when its CRC was checked (dump stops at the first bad batch, or with
--keep-going prints "isvalid: false computedCrc: N" and goes on); with --no-verify it
says nothing of the CRC.
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
        nargs="*",
        help="data dir, <topic>-<partition> dir, .log file, or an index/snapshot "
        "file; local, or an object-store URI (s3://bucket/prefix/, configured from the environment)",
    )
    p.add_argument("--version", action="version", version=f"kafkaspec dump {_version()}")
    p.add_argument(
        "--print-data",
        "--print-data-log",
        action="store_true",
        help="print keys, values and header values (--print-data-log: DumpLogSegments' name)",
    )
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
    p.add_argument(
        "--no-verify",
        action="store_true",
        help="skip CRC checks (a legacy wrapper's inner ones too); batch lines then say no isvalid",
    )
    p.add_argument(
        "--keep-going",
        action="store_true",
        help="as DumpLogSegments: print every batch, each with isvalid: true or false (and the CRC its "
        "bytes give), report each bad one on stderr and go on; exit 1 at the end if any was bad",
    )
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
    add_habit_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    problem = settle(args)
    if problem is not None:
        print(f"kafkaspec dump: {problem}", file=sys.stderr)
        return 2
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
        if args.left == 0:
            break
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
        return dump_file(path, out, args.json)
    log = open_log(
        path, tiered=args.tiered, remote_log_metadata=args.remote_log_metadata, keys=private_keys(args)
    )
    if not log.has_data():
        raise no_kafka_data(given)
    args.values = None
    if args.key_format or args.value_format:
        from kafkaspec.values import RegistryError, decoder

        schemas_log = log if args.schemas is None else open_log(as_path(args.schemas))
        if args.schemas is None and _needs_schemas(args):
            beside = _schemas_beside(given, log)
            if beside is not None:
                schemas_log = open_log(beside)
                print(
                    escape(
                        f"kafkaspec dump: schemas from {beside} (beside {given}; --schemas DIR to choose)"
                    ),
                    file=sys.stderr,
                )
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
    parts = [p for p in log.partitions() + log.checkpoints() if chosen(p, args)]
    if not parts and (args.topic is not None or args.partition is not None):
        print(escape(f"kafkaspec dump: {given}: {_no_such_partition(args)}"), file=sys.stderr)
        return 2
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
            if args.left == 0:  # -c: printed enough
                break
            try:
                status |= dump_partition(part, args, out, bar, done, total)
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


def _no_such_partition(args: argparse.Namespace) -> str:
    """What --topic / --partition asked for that PATH does not hold."""
    topics = "" if args.topic is None else f" of topic {', '.join(args.topic)}"
    numbers = "" if args.partition is None else f" numbered {', '.join(map(str, args.partition))}"
    return f"no partition{topics}{numbers}"


def _needs_schemas(args: argparse.Namespace) -> bool:
    """Whether --key-format / --value-format read schemas (a registry format, or auto)."""
    return bool({args.key_format, args.value_format} & {"auto", "avro", "protobuf", "json-schema"})


def _schemas_beside(given: str, log: LogDir) -> StoragePath | None:
    """The ``_schemas`` partition of the data dir a partition dir or segment PATH sits in, when PATH
    itself holds none (``dump logs/invoices-0 --value-format auto`` reads ``logs/_schemas-0``)."""
    from ..logdir.kafka.names import parse_partition_dir_name
    from ..logdir.store.storage import as_path, is_uri
    from ..values.schemas_topic import SCHEMAS_TOPIC

    if is_uri(given) or any(p.topic == SCHEMAS_TOPIC for p in log.partitions()):
        return None
    path = as_path(given)
    folder = path if path.is_dir() else path.parent
    if isinstance(parse_partition_dir_name(folder.name), str):
        return None
    found = sorted(
        (c for c in folder.parent.iterdir() if c.is_dir() and c.name.startswith(f"{SCHEMAS_TOPIC}-")),
        key=lambda c: c.name,
    )
    return found[0] if found else None

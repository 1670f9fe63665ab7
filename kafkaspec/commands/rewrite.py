"""``kafkaspec rewrite``: copy a log directory batch for batch, filtered, recompressed or converted."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kafkaspec.logdir import CopyReport, Row

    from ..logdir.write.rewrite import Where

EPILOG = """examples:
  kafkaspec rewrite backup/ restored/                          # the same batches, segments and indexes
  kafkaspec rewrite backup/ redacted/ --drop-key customer-42   # remove one customer's records
  kafkaspec rewrite backup/ out/ --topics orders,payments --where "len(value or b'') < 10000"
  kafkaspec rewrite backup/ old/ --to-magic 1 --compression gzip

--where is a Python expression over one data record: topic (str), partition (int),
offset (int), timestamp (int, ms), key and value (bytes or None) and headers (a list
of (str, bytes or None)); the record is kept when it is true. The expression runs as
your own code: it is Python, evaluated in this process with your own privileges, like
an awk program. Its short list of builtins (len, any, all, min, max, abs, int, str,
bytes, bool, set, tuple, list) is a convenience, not a sandbox: an expression can
still reach any module, os.system included. Data cannot reach it (records are its
variables, never its code); pass only an expression you wrote or have read.
Control records (transaction markers) are always kept, so every transaction keeps
its state; a batch that loses records keeps its offsets and producer sequence range
(empty if need be). --to-magic below 2 cannot hold headers, producer fields or
markers: what it drops is reported, as by convert.

The source must be whole: a corrupt entry or a partial batch (a segment cut short, a
torn tail) stops the rewrite naming file and byte, unless --skip-corrupt (then the
report lists every byte range left out, per partition). A source holding one
topic-partition twice (nested data dirs, e.g. two brokers' replicas) is refused,
naming both copies: rewrite each data dir to its own DST, or select topics.

The copy is staged in DST (.kafkaspec-rewrite-<pid>-<token>.staging) and moved into
place when complete. A run that is killed leaves that staging dir, which verify and
dump report (exit 1): DST is then not a complete copy. Running the rewrite again
removes a staging dir whose process is gone, and says so; it refuses one whose
process still runs, or one beside other entries (a run killed while moving in).

exit codes: 0 written, 1 the source has problems (corrupt or partial data, two copies of
a partition, or input that breaks Kafka's log invariants; DST is then removed), 2 bad
arguments, or DST not empty (or being written by another rewrite)
"""

_BUILTINS = {f.__name__: f for f in (len, any, all, min, max, abs, int, str, bytes, bool, set, tuple, list)}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "rewrite",
        help="copy a log directory batch for batch (filter, recompress, convert)",
        description="Copy SRC (data dir, partition dir or segment) to the data dir DST keeping "
        "batches, producers and transactions; optionally drop records, select topics, "
        "recompress or convert the message format.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("src", metavar="SRC", help="data dir, <topic>-<partition> dir, or .log file")
    p.add_argument(
        "dst",
        metavar="DST",
        help="data dir to write (must not exist or be empty; a killed run's staging dir is removed)",
    )
    p.add_argument(
        "--drop-key",
        action="append",
        default=[],
        metavar="KEY",
        help="drop every data record whose key is KEY (UTF-8); may be repeated",
    )
    p.add_argument(
        "--where",
        metavar="EXPRESSION",
        help="keep only data records for which this Python expression is true; it runs as your own "
        "code, with your own privileges (not a sandbox; see below)",
    )
    p.add_argument("--topics", metavar="T1,T2", help="copy only these topics")
    p.add_argument("--to-magic", type=int, choices=(0, 1, 2), help="convert to this message format")
    p.add_argument(
        "--compression",
        choices=("none", "gzip", "snappy", "lz4", "zstd"),
        help="recompress data batches with this codec",
    )
    p.add_argument(
        "--skip-corrupt",
        action="store_true",
        help="leave out corrupt entries and partial batches (a segment cut short, a torn tail) instead "
        "of stopping; the report lists each byte range left out",
    )
    p.set_defaults(func=run)


class WhereError(ValueError):
    """The --where expression failed on a record."""


def _predicate(args: argparse.Namespace) -> Where | None:
    drop = {k.encode() for k in args.drop_key}
    code = None
    if args.where is not None:
        code = compile(args.where, "--where", "eval")  # SyntaxError: reported by run()
    if not drop and code is None:
        return None
    env = {"__builtins__": _BUILTINS}

    def where(row: Row) -> bool:
        if row.key in drop:
            return False
        if code is None:
            return True
        try:
            return bool(eval(code, env, row._asdict()))  # the user's own expression, documented
        except Exception as exc:  # any failure of the expression, named with its record
            raise WhereError(
                f"--where failed on {row.topic}-{row.partition} offset {row.offset}: "
                f"{type(exc).__name__}: {exc}"
            ) from None

    return where


def run(args: argparse.Namespace) -> int:
    from kafkaspec.errors import KafkaFormatError
    from kafkaspec.logdir import copy

    name = "kafkaspec rewrite"
    try:
        where = _predicate(args)
    except SyntaxError as exc:
        print(f"{name}: --where: {exc.msg} at column {exc.offset}: {args.where!r}", file=sys.stderr)
        return 2
    topics = None if args.topics is None else {t.strip() for t in args.topics.split(",") if t.strip()}
    from kafkaspec.progress import Progress

    bar = Progress("rewrite")
    try:
        report = copy(
            args.src,
            args.dst,
            where=where,
            topics=topics,
            to_magic=args.to_magic,
            compression=args.compression,
            skip_corrupt=args.skip_corrupt,
            progress=bar,
        )
    except KafkaFormatError:  # the data's problem: exit 1 (kafkaspec.cli says it in one line)
        raise
    except (FileExistsError, ValueError) as exc:  # DST not empty, --where failing, a codec magic cannot hold
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    finally:
        bar.close()
    print(summary(report, args.to_magic))
    return 0


def summary(report: CopyReport, to_magic: int | None) -> str:
    """The lines ``rewrite`` prints: what was written, what was left out."""
    lines = [f"removed the staging dir of an interrupted rewrite: {s}" for s in report.removed_staging]
    lines += [
        f"wrote {report.partitions} partitions, {report.batches:,} batches, {report.records:,} records "
        f"({report.bytes / 1e6:,.1f} MB) to {report.path}"
    ]
    if report.dropped_records or report.emptied_batches or report.dropped_batches:
        lines.append(
            f"dropped {report.dropped_records:,} records; {report.emptied_batches:,} batches kept empty "
            f"(producer state), {report.dropped_batches:,} batches left out (no record left to keep, "
            "or empty batches the target format cannot hold)"
        )
    if report.left_out:
        lines.append(f"left out (--skip-corrupt): {len(report.left_out):,} byte ranges of the source:")
        lines += [f"  {s.partition}: {s.path} bytes {s.start}..{s.end}: {s.reason}" for s in report.left_out]
    if report.skipped_partitions:
        lines.append(f"not selected: {len(report.skipped_partitions)} partitions")
    if to_magic is not None:
        lines.append(
            f"conversion to magic {to_magic} dropped: {report.dropped_headers:,} headers, producer fields "
            f"of {report.dropped_producer_fields:,} batches, {report.dropped_control_batches:,} control "
            f"batches, {report.dropped_timestamps:,} timestamps"
        )
        if report.aborted_made_visible:
            lines.append(
                f"warning: {report.aborted_made_visible:,} batches of aborted or open transactions are "
                f"plain records in magic {to_magic} (a consumer will see them)"
            )
    return "\n".join(lines)

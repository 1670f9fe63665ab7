"""``kafkaspec verify``: check a log directory like DumpLogSegments --verify-index-only, plus CRCs."""

from __future__ import annotations

import argparse
import sys
import time

EPILOG = """examples:
  kafkaspec verify /var/lib/kafka/data
  kafkaspec verify logs/orders-0 --shallow
  kafkaspec verify logs/orders-0/00000000000000000000.log --json
  kafkaspec verify s3://bucket/backup/          # an object store (AWS_* environment variables)

Checks batch CRCs and record decoding, offset order within and across
segments, .index/.timeindex entries against the log (entry at a batch
start, naming its last offset / max timestamp; whole entries; nothing past the
end), .txnindex entries and abort markers both ways, producer snapshot CRCs,
leader-epoch-checkpoint and partition.metadata (UTF-8 text), and the directory:
log files that are not regular files or not named by a 20-digit offset, index
files without a segment, a directory with no segment.
Every problem names the file and byte position. A partial batch at the end of
the last segment (a write in progress) is a warning.

exit codes: 0 no errors, 1 errors found (or warnings with --strict), 2 bad path or arguments
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("verify", help="verify segments, indexes and checkpoints",
                       description="Verify a data dir, partition dir or segment file; report every problem.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("path", metavar="PATH", help="data dir, <topic>-<partition> dir, or .log file; local or an "
                   "object-store URI (s3://bucket/prefix/)")
    p.add_argument("--shallow", action="store_true", help="check CRCs and indexes only; do not decode records")
    p.add_argument("--json", action="store_true", help="one JSON object per problem")
    p.add_argument("--strict", action="store_true", help="warnings count as problems for the exit code")
    p.add_argument("--tiered", metavar="PREFIX",
                   help="the tiered-storage copy of PATH (a broker's data or partition dir): verify each partition's "
                        "whole history, and that the remote and local segments meet without a gap or overlap")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kafkaspec.logdir import open_log, verify_path
    from kafkaspec.logdir.layout import known_segments, no_kafka_data
    from kafkaspec.printable import escape, json_text
    from kafkaspec.progress import Progress

    started = time.perf_counter()
    log = open_log(args.path, tiered=args.tiered)
    if not log.has_data():
        raise no_kafka_data(args.path)
    segments = sum(len(known_segments(p)) for p in log.partitions())
    bar = Progress("verify")
    try:
        problems = verify_path(args.path, deep=not args.shallow, progress=bar, tiered=args.tiered)
    finally:
        bar.close()
    out = sys.stdout
    for p in problems:  # a path or a message may quote the data: escaped (kafkaspec.printable)
        if args.json:
            out.write(json_text(p._asdict()) + "\n")
        else:
            out.write(f"{escape(str(p))}\n")
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    summary = (f"verified {len(log.partitions())} partitions, {segments} segments in "
               f"{time.perf_counter() - started:.1f} s: {errors} errors, {warnings} warnings")
    print(summary, file=sys.stderr if args.json else sys.stdout)
    return 1 if errors or (args.strict and warnings) else 0

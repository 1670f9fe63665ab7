"""``kafkaspec verify``: check a log directory like DumpLogSegments --verify-index-only, plus CRCs."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING
from warnings import catch_warnings, simplefilter

from kafkaspec.errors import SkippedDirWarning

from ..logdir.tiered.key_dir import add_key_dir_argument, private_keys

if TYPE_CHECKING:
    from kafkaspec.logdir import LogDir

    from ..logdir.verify.verifier import Problem

EPILOG = """examples:
  kafkaspec verify /var/lib/kafka/data
  kafkaspec verify logs/orders-0 --shallow
  kafkaspec verify logs/orders-0/00000000000000000000.log --json
  kafkaspec verify s3://bucket/backup/          # an object store (AWS_* environment variables)
  kafkaspec verify /data/kafka-1 /data/kafka-2  # the log dirs of one node: their meta.properties agree

Checks batch CRCs and record decoding, offset order within and across
segments, .index/.timeindex entries against the log (entry at a batch
start, naming its last offset / max timestamp; whole entries; nothing past the
end), .txnindex entries and abort markers both ways, producer snapshot CRCs,
leader-epoch-checkpoint and partition.metadata (UTF-8 text), and the directory:
log files that are not regular files or not named by a 20-digit offset, index
files without a segment, a directory with no segment. In a data dir: meta.properties
(Kafka's rules for versions 0 and 1), the four offset checkpoint files (the count,
partitions that exist, each offset inside its partition's log), .kafka_cleanshutdown
(absent: a note that the last shutdown was not clean), and quorum-state in
__cluster_metadata-0.
Every problem names the file and byte position (or line). A partial batch at the end of
the last segment (a write in progress) is a warning; a note never changes the exit code.

exit codes: 0 no errors, 1 errors found (or warnings with --strict), 2 bad path or arguments
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "verify",
        help="verify segments, indexes and checkpoints",
        description="Verify a data dir, partition dir or segment file; report every problem.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "path",
        metavar="PATH",
        nargs="+",
        help="data dir, <topic>-<partition> dir, or .log file; local or an object-store URI "
        "(s3://bucket/prefix/); several data dirs: the log dirs of one node, whose meta.properties "
        "must agree (one cluster id, one node id, no directory id twice)",
    )
    p.add_argument(
        "--shallow", action="store_true", help="check CRCs and indexes only; do not decode records"
    )
    p.add_argument("--json", action="store_true", help="one JSON object per problem")
    p.add_argument("--strict", action="store_true", help="warnings count as problems for the exit code")
    p.add_argument(
        "--tiered",
        metavar="PREFIX",
        help="the tiered-storage copy of PATH (a broker's data or partition dir): verify each partition's "
        "whole history, and that the remote and local segments meet without a gap or overlap",
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


def run(args: argparse.Namespace) -> int:
    from kafkaspec.logdir import open_log, verify_path
    from kafkaspec.printable import escape, json_text
    from kafkaspec.progress import Progress

    from ..logdir.kafka.layout import known_segments, no_kafka_data
    from ..logdir.verify.verifier import verify_paths

    started = time.perf_counter()
    if args.tiered is not None and len(args.path) > 1:
        print(
            "kafkaspec verify: --tiered takes one PATH (the local log its tiered copy belongs to)",
            file=sys.stderr,
        )
        return 2
    from ..logdir.verify.verifier import same_directory_twice

    try:
        same_directory_twice(args.path)
    except ValueError as exc:
        print(escape(f"kafkaspec verify: {exc}"), file=sys.stderr)
        return 2
    keys = private_keys(args)
    partitions = segments = 0
    logs = []
    with catch_warnings():  # a directory passed over is one of the problems verify lists
        simplefilter("ignore", SkippedDirWarning)
        for given in args.path:
            log = open_log(given, tiered=args.tiered, remote_log_metadata=args.remote_log_metadata, keys=keys)
            logs.append(log)
            if not log.has_data():
                raise no_kafka_data(given)
            partitions += len(log.partitions())
            segments += sum(len(known_segments(p)) for p in log.partitions())
    bar = Progress("verify")
    try:
        if len(args.path) == 1:
            problems = verify_path(
                args.path[0],
                deep=not args.shallow,
                progress=bar,
                tiered=args.tiered,
                remote_log_metadata=args.remote_log_metadata,
                notes=True,
                keys=keys,
            )
        else:
            problems = verify_paths(
                args.path,
                deep=not args.shallow,
                progress=bar,
                notes=True,
                remote_log_metadata=args.remote_log_metadata,
                keys=keys,
            )
    finally:
        bar.close()
    problems = problems + [found for log in logs for found in _lineage_findings(log)]
    out = sys.stdout
    for p in problems:  # a path or a message may quote the data: escaped (kafkaspec.printable)
        if args.json:
            out.write(json_text(p._asdict()) + "\n")
        else:
            out.write(f"{escape(str(p))}\n")
    errors = sum(p.severity == "error" for p in problems)
    warnings = sum(p.severity == "warning" for p in problems)
    notes = len(problems) - errors - warnings
    summary = (
        f"verified {partitions} partitions, {segments} segments in "
        f"{time.perf_counter() - started:.1f} s: {errors} errors, {warnings} warnings"
        + (f", {notes} notes" if notes else "")
    )
    print(summary, file=sys.stderr if args.json else sys.stdout)
    return 1 if errors or (args.strict and warnings) else 0


def _lineage_findings(log: LogDir) -> list[Problem]:
    """Which source chose each tiered partition's live segments, where it was not the manifests (a note),
    and each ``__remote_log_metadata`` record Kafka's rules refuse (a warning: a broker goes on without it,
    and so do the readers), once per replayed topic."""
    from kafkaspec.errors import KafkaFormatError
    from kafkaspec.logdir import HistoryPartition, TieredPartition

    from ..logdir.verify.verifier import Problem

    found: list[Problem] = []
    replayed: set[int] = set()
    for part in log.partitions():
        remote = part.remote if isinstance(part, HistoryPartition) else part
        if not isinstance(remote, TieredPartition) or remote.remote_log is None:
            continue
        try:
            source = remote.lineage_source
        except KafkaFormatError:
            continue  # reported by the verifier
        if source != "manifests":
            found.append(Problem(str(remote.path), None, f"live segments chosen by {source}", "note"))
        if id(remote.remote_log) not in replayed:
            replayed.add(id(remote.remote_log))
            found += [
                Problem(
                    str(remote.remote_log.source),
                    None,
                    f"__remote_log_metadata offset {at}: {what}",
                    "warning",
                )
                for at, what in remote.remote_log.state.contradictions
            ]
    return found

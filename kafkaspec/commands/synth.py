"""``kafkaspec synth``: write a realistic sample Kafka data directory."""

from __future__ import annotations

import argparse
import math
import sys

EPILOG = """examples:
  kafkaspec synth build/demo/logs --size-mb 300 --seed 7 --force
  kafkaspec synth /tmp/small --size-mb 5

The same seed gives the same bytes. Topics: orders (idempotent, every codec,
duplicate header keys, an old magic 0/1 segment when legacy support is
installed), clicks, payments (transactions, some aborted), users (compacted:
tombstones, empty batches), audit (LogAppendTime).

exit codes: 0 written, 2 bad arguments, OUT exists and is not empty (without --force),
or OUT could not be written (a full disk: OUT is then incomplete)
"""


def _size_mb(text: str) -> float:
    """--size-mb: a finite number of megabytes above zero (not nan, not inf)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of megabytes, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number above 0, got {text!r}")
    return value


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "synth",
        help="write a realistic sample data directory",
        description="Write a deterministic, realistic Kafka data directory of about N MB.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "out", metavar="OUT", help="directory to create (a broker data dir: OUT/<topic>-<partition>/)"
    )
    p.add_argument("--size-mb", type=_size_mb, default=50, help="approximate size in MB (default 50)")
    p.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    p.add_argument("--force", action="store_true", help="replace OUT if it exists")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kafkaspec.logdir import synth
    from kafkaspec.progress import Progress

    bar = Progress("synth")
    try:
        report = synth(args.out, size_mb=args.size_mb, seed=args.seed, force=args.force, progress=bar)
    except FileExistsError as exc:
        print(f"kafkaspec synth: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # ENOSPC, EFBIG (a file size limit), EACCES, ...
        where = exc.filename or args.out
        print(
            f"kafkaspec synth: cannot write {where}: {exc.strerror or exc} ({args.out} is incomplete)",
            file=sys.stderr,
        )
        return 2
    finally:
        bar.close()
    legacy = "with" if report.legacy else "without (the legacy message formats are not available)"
    print(
        f"wrote {report.bytes / 1e6:,.1f} MB in {report.batches:,} batches, {report.partitions} partitions, "
        f"{legacy} magic 0/1 segments, to {report.path} in {report.seconds:.1f} s ({report.mb_per_s:,.0f} MB/s)"
    )
    return 0

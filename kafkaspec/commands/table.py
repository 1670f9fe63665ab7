"""``kafkaspec table compact|expire-snapshots|summary DEST --table iceberg|delta``: housekeeping of the
tables ``kafkaspec pipeline --table`` writes (:mod:`kafkaspec.tables.housekeeping`), and what they hold
(:mod:`kafkaspec.tables.summary`)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "table",
        help="housekeeping of Iceberg and Delta tables: compact small files, expire old versions; "
        "summary: what they hold",
        description="Compact the small data files of each table of DEST, or expire its old versions "
        "(Delta: and delete the files no version left references). The committed offsets are kept. "
        "summary: per table and topic, its rows, partitions and offsets, read back by Polars.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  kafkaspec table compact lake/ --table iceberg\n"
        "  kafkaspec table expire-snapshots lake/ --table delta --older-than-hours 24\n"
        "  kafkaspec table summary lake/ --table iceberg\n"
        "exit codes: 0 ok, 2 usage or input error",
    )
    p.add_argument("action", choices=("compact", "expire-snapshots", "summary"))
    p.add_argument("dest", help="the tables' destination, as given to pipeline --table")
    p.add_argument("--table", choices=("iceberg", "delta"), required=True, help="the tables' format")
    p.add_argument("--catalog-uri", default=None, help="an Iceberg REST catalog (default: DEST/catalog.db)")
    p.add_argument("--target-file-mb", type=int, default=128, help="compact: target file size (default 128)")
    p.add_argument(
        "--older-than-hours",
        type=float,
        default=168.0,
        help="expire-snapshots: versions older than this many hours go (default 168, a week)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..codec.extras import require

    for module in ("pyarrow", "pyiceberg" if args.table == "iceberg" else "deltalake"):
        require(module, "tables", "kafkaspec table")
    import os

    from ..printable import escape

    if "://" not in args.dest and not os.path.isdir(args.dest):
        raise FileNotFoundError(f"no tables here: {args.dest}")
    if "://" not in args.dest and args.catalog_uri is None and not os.listdir(args.dest):
        print(f"no tables in {escape(args.dest)}")  # and no catalog made in it, by a command that reads
        return 0
    from ..tables.housekeeping import compact, expire_snapshots

    if args.action == "summary":
        from ..tables.summary import format_summary, summarize

        rows = summarize(args.table, args.dest, catalog_uri=args.catalog_uri)
        print(format_summary(rows) if rows else f"no tables in {escape(args.dest)}")
        return 0
    if args.action == "compact":
        done = compact(
            args.table, args.dest, catalog_uri=args.catalog_uri, target_file_mb=args.target_file_mb
        )
        for t in done:
            print(f"{escape(t.name)}: {t.files_before} data files -> {t.files_after}")
    else:
        done = expire_snapshots(
            args.table, args.dest, older_than_hours=args.older_than_hours, catalog_uri=args.catalog_uri
        )
        for t in done:
            print(
                f"{escape(t.name)}: {t.expired} {'snapshots' if args.table == 'iceberg' else 'files'} expired"
            )
    if not done:
        print(f"no tables in {escape(args.dest)}")
    return 0

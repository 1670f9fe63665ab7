"""``kafkaspec review``: review tooling for protocol owners (overhead tables, schema diffs, drift
from Kafka's own message specs)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

OVERHEAD_EPILOG = """examples:
  # the Message v1 format, the KIP-98 proposal and the RecordBatch v2 Kafka shipped, side by side
  kafkaspec review overhead schemas/legacy/message_v1.yaml schemas/proposals/kip98_message_set_v2.yaml \\
      schemas/record_batch_v2.yaml --key-size 100 --value-size 1024 --batch-sizes 1,3,10,50,100 \\
      --labels "Old Format,New Format,RecordBatch v2"
  kafkaspec review overhead Message@1 RecordBatch --key-size 10 --value-size 100 --headers 2 --markdown

A schema is a file or Name@version. Only framing is counted: keys, values and
header keys/values are payload. Records are assumed uncompressed.
"""

DIFF_EPILOG = """examples:
  kafkaspec review diff schemas/legacy/message_v0.yaml schemas/legacy/message_v1.yaml
  kafkaspec review diff schemas/record_batch_v2.yaml --rev-old origin/main            # the edit in the work tree
  kafkaspec review diff schemas/record_v2.yaml --rev-old HEAD~3 --rev-new HEAD --markdown

Each change is compatible or breaking under docs/review-rules.md.
exit codes: 0 compatible, 1 a breaking change, 2 usage or input error
"""


KAFKA_SPECS_EPILOG = """examples:
  kafkaspec review kafka-specs ~/src/kafka                       # a Kafka source checkout
  kafkaspec review kafka-specs ./specs --schemas-dir schemas     # a folder of Kafka's JSON specs

Compares every message spec Kafka has for log-directory data (KRaft metadata records, the group,
transaction and share coordinators' records, KRaft control values, remote-log metadata) with
schemas/messages/, version by version: valid and flexible versions, and each field's name, type,
nullability, tag and default. Messages planned for later are listed as pending, not as drift.
exit codes: 0 in step, 1 drift (or a spec file that cannot be read), 2 usage or input error
"""


def register(sub) -> None:
    p = sub.add_parser(
        "review",
        help="check a change to a record format's schema: what changed, what it costs, Kafka's own specs",
        description="Check a change to the YAML schemas of Kafka's record formats before it ships:\n"
        "  diff         whether data written with the new schema still reads with the old one\n"
        "  overhead     how many bytes of framing each format adds to a batch\n"
        "  kafka-specs  whether the schemas still say what Kafka's own message specs say\n"
        "Run `kafkaspec review COMMAND --help` for each.",
        epilog="examples:\n  kafkaspec review diff schemas/record_v2.yaml --rev-old HEAD~1\n"
        "  kafkaspec review overhead Message@1 RecordBatch --key-size 10 --value-size 100\n"
        "  kafkaspec review kafka-specs ~/src/kafka",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rsub = p.add_subparsers(dest="review_command", metavar="REVIEW_COMMAND")

    o = rsub.add_parser(
        "overhead",
        help="bytes of framing per batch of each format, beside the keys and values it carries",
        description="How many bytes each format adds to a batch beyond its keys and values, for batches "
        "of several sizes: computed from the schemas alone, no data needed.",
        epilog=OVERHEAD_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    o.add_argument("schemas", nargs="+", metavar="SCHEMA", help="schema file or Name@version")
    o.add_argument("--key-size", type=int, default=0, help="key bytes per record (default 0)")
    o.add_argument("--value-size", type=int, default=0, help="value bytes per record (default 0)")
    o.add_argument(
        "--batch-sizes", default="1,3,10,50,100", help="comma-separated record counts (default 1,3,10,50,100)"
    )
    o.add_argument(
        "--headers", type=int, default=0, help="headers per record, where the format has them (default 0)"
    )
    o.add_argument("--header-key-size", type=int, default=8, help="bytes of each header key (default 8)")
    o.add_argument(
        "--header-value-size", type=int, default=16, help="bytes of each header value (default 16)"
    )
    o.add_argument("--labels", help="comma-separated column names, one per schema (default: Name vN)")
    o.add_argument("--markdown", action="store_true", help="print a Markdown table")
    o.add_argument(
        "--schemas-dir",
        type=Path,
        help="schema folder for Name@version arguments (default: ./schemas, "
        "else the schemas installed with kafkaspec)",
    )
    o.set_defaults(func=run_overhead)

    d = rsub.add_parser(
        "diff",
        help="what changed between two versions of a schema, and whether old readers still read it",
        description="List what changed between two schema files (or one file at two git "
        "revisions), each change marked compatible or breaking: whether data written with the new "
        "schema is still read by code written for the old one (the rules: docs/review-rules.md).",
        epilog=DIFF_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    d.add_argument("old", metavar="OLD", help="old schema file (or the file to compare at two revisions)")
    d.add_argument("new", metavar="NEW", nargs="?", help="new schema file (default: OLD)")
    d.add_argument("--rev-old", help="read OLD at this git revision")
    d.add_argument("--rev-new", help="read NEW at this git revision (default: the work tree)")
    d.add_argument("--markdown", action="store_true", help="print Markdown (for a pull request)")
    d.set_defaults(func=run_diff)

    k = rsub.add_parser(
        "kafka-specs",
        help="where the schemas of Kafka's own records differ from Kafka's JSON message specs",
        description="List what schemas/messages/ lacks or says differently from Kafka's own "
        "JSON message specs for log-directory data.",
        epilog=KAFKA_SPECS_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    k.add_argument(
        "path", metavar="PATH", type=Path, help="a Kafka source checkout, or a folder of its JSON specs"
    )
    k.add_argument(
        "--schemas-dir", type=Path, help="schema folder (default: ./schemas, else the installed schemas)"
    )
    k.set_defaults(func=run_kafka_specs)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def _error(message: str) -> int:
    print(f"kafkaspec review: {message}", file=sys.stderr)
    return 2


def run_overhead(args) -> int:
    from kafkaspec.review import overhead as ov  # keep CLI start-up light
    from kafkaspec.review.locate import ReviewInputError, resolve_all

    try:
        sizes = [int(x) for x in args.batch_sizes.split(",") if x.strip()]
    except ValueError:
        return _error(f"--batch-sizes must be comma-separated integers, got {args.batch_sizes!r}")
    if not sizes or min(sizes) < 0:
        return _error("--batch-sizes needs at least one count >= 0")
    labels = [x.strip() for x in args.labels.split(",")] if args.labels else None
    if labels and len(labels) != len(args.schemas):
        return _error(f"--labels names {len(labels)} columns for {len(args.schemas)} schemas")
    try:
        structs, schemas = resolve_all(args.schemas, args.schemas_dir)
    except ReviewInputError as exc:
        return _error(str(exc))
    payload = ov.Payload(
        args.key_size, args.value_size, args.headers, args.header_key_size, args.header_value_size
    )
    head, rows = ov.table(schemas, structs, payload, sizes, labels)
    print(ov.render_markdown(head, rows) if args.markdown else ov.render_text(head, rows))
    notes = []
    for s in structs:
        per = ov.overhead(schemas, s, payload, 1)
        unit = "per batch" if per.batched else "per entry (no batch header)"
        notes.append(
            f"{s.name} v{s.version}: {per.header} bytes {unit}, {per.per_record[0] if per.per_record else 0} "
            f"bytes for the first record"
        )
        if args.headers and not ov.supports_headers(schemas, s):
            notes.append(f"{s.name} v{s.version}: has no record headers; --headers ignored")
    note_text = f"framing only: {args.key_size}-byte keys, {args.value_size}-byte values"
    if args.headers:
        note_text += f", {args.headers} header(s) of {args.header_key_size}+{args.header_value_size} bytes"
    print()
    for line in [note_text + ", uncompressed", *notes]:
        print(f"- {line}" if args.markdown else line)
    return 0


def run_diff(args) -> int:
    from kafkaspec.review import diff as df
    from kafkaspec.review.locate import ReviewInputError, git_show, load_single

    old_path = Path(args.old)
    new_path = Path(args.new or args.old)
    if args.new is None and not (args.rev_old or args.rev_new):
        return _error("give NEW, or --rev-old/--rev-new to compare OLD at two git revisions")
    try:
        old_text = git_show(args.rev_old, old_path) if args.rev_old else None
        if args.rev_old and old_text is None:
            print(f"{old_path}: new file (not in {args.rev_old}); nothing to compare")
            return 0
        new_text = git_show(args.rev_new, new_path) if args.rev_new else None
        if args.rev_new and new_text is None:
            return _error(f"{new_path} does not exist at {args.rev_new}")
        if not args.rev_new and not new_path.exists():
            print(
                f"{new_path}: removed (compared with {args.rev_old or old_path}); readers of it lose their schema"
            )
            return 1
        old = load_single(old_path, old_text)
        new = load_single(new_path, new_text)
    except ReviewInputError as exc:
        return _error(str(exc))
    old_label = f"{old_path}{'@' + args.rev_old if args.rev_old else ''}"
    new_label = f"{new_path}{'@' + args.rev_new if args.rev_new else ''}"
    from kafkaspec.spec.message_model import Message

    if isinstance(old, Message) and isinstance(new, Message):
        from kafkaspec.review.message_diff import diff_messages

        result = diff_messages(old, new, f"{old.name} ({old_label})", f"{new.name} ({new_label})")
    elif isinstance(old, Message) or isinstance(new, Message):
        return _error("OLD and NEW must both be message schemas (kind: message) or neither")
    elif isinstance(old, dict) and isinstance(new, dict):
        result = df.diff_enums(old, new, old_label, new_label)
    elif isinstance(old, dict) or isinstance(new, dict):
        return _error("OLD and NEW must both be structure files or both enums files")
    else:
        result = df.diff_structs(
            old, new, f"{old.name} v{old.version} ({old_label})", f"{new.name} v{new.version} ({new_label})"
        )
    print(df.render_markdown(result) if args.markdown else df.render_text(result))
    return 1 if result.breaking else 0


def run_kafka_specs(args: argparse.Namespace) -> int:
    from kafkaspec.review.kafka_specs import SpecError, compare, read_specs
    from kafkaspec.review.locate import ReviewInputError, load_set, schema_root

    if not args.path.is_dir():
        return _error(
            f"{args.path}: not a directory (give a Kafka source checkout or a folder of its JSON specs)"
        )
    try:
        schemas = load_set(args.schemas_dir or schema_root())
    except ReviewInputError as exc:
        return _error(str(exc))
    try:
        facts = read_specs(args.path)
    except SpecError as exc:
        print(f"kafkaspec review: {exc}", file=sys.stderr)
        return 2 if "holds no JSON spec files" in str(exc) else 1
    except (OSError, UnicodeDecodeError) as exc:
        return _error(f"{args.path}: cannot read ({exc})")
    drift, pending, notes = compare(facts, schemas.messages)
    for d in drift:
        print(f"drift    {d}")
    for line in notes:
        print(f"note     {line}")
    for line in pending:
        print(f"pending  {line}")
    print(
        f"{len(facts)} Kafka message specs compared with {len(schemas.messages)} schemas: "
        f"{len(drift)} difference{'s' if len(drift) != 1 else ''}, {len(notes)} notes, {len(pending)} pending"
    )
    return 1 if drift else 0

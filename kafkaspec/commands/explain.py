"""``kafkaspec explain``: an annotated hex dump of Kafka data, field by field, from the schemas."""

from __future__ import annotations

import argparse
import os
import re
import sys

#: the most input bytes --html puts on one page (each byte and field is an element: a page of this
#: many bytes is about 50 MB), decompressed regions included
HTML_LIMIT = 256 * 1024
#: the most spans (fields, items, structures) --html reads for one page: it holds them all, so a batch
#: of a million records is refused before it is read whole
HTML_SPANS = 2 * HTML_LIMIT

EPILOG = f"""examples:
  kafkaspec explain logs/orders-0/00000000000000000000.log --at 4096 --count 1
  echo 000000000000002a0000004500000007... | kafkaspec explain -
  kafkaspec explain segment.log --json > fields.json
  kafkaspec explain segment.log --html segment.html      # hover a field to see its bytes
  kafkaspec explain 00000000000000000000.index           # .index, .timeindex, .txnindex, .snapshot by name
  kafkaspec explain leader-epoch-checkpoint              # also partition.metadata, quorum-state: line by line
  kafkaspec explain logs/meta.properties                 # and a data dir's own files: *-offset-checkpoint,
                                                         # .kafka_cleanshutdown
  kafkaspec explain request.bin --format produce-request-v0
  kafkaspec explain response.hex --format fetch-v10        # a .hex file is read as hex text (auto knows a
                                                         # fetch response by its envelope too)
  kafkaspec explain --format list                        # every format name

Every line is one span: its byte range (sN: in decompressed region N), the field's name
and type, its raw bytes, its value (enums and attribute bits by name, lengths, counts and
checksums with what they cover and whether they match, offsets and timestamps with their
absolute value) and the schema's doc line. Where decoding stops, the field, what it
expected and the byte are shown with the bytes around it.

An entry too large to hold (a batch of a million records) is written as it is read, in
memory that does not grow with its records: its structures' lines go out before their
children (a span not known yet reads N..?), and each ends with an "end of ..." line giving
its end and what was found after its line went out (the length and count that matched).
In --json such a structure's "children" come before its "end" and "notes".
--html holds the whole page: at most {HTML_LIMIT} bytes (decompressed included) and {HTML_SPANS}
fields; --count picks entries from a larger input.

exit codes: 0 every byte explained (a partial entry at the end, as in a segment being
written, is reported), 1 the data has problems (decoding stopped, a checksum or length
does not match), 2 bad path, format or arguments, a page too large for --html, or out
of memory
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "explain",
        help="annotated hex dump: every field, its bytes, value and doc",
        description="Decode Kafka data with the schemas and show every byte: a tree of structures and "
        "fields with byte ranges, raw bytes, values and doc lines.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "path",
        metavar="PATH",
        nargs="?",
        help="a file (segment, index, snapshot, request...; a .hex file holds hex text), or - for hex "
        "on stdin",
    )
    p.add_argument(
        "--at",
        type=_position,
        default=0,
        metavar="POSITION",
        help="byte position of the first entry (default 0)",
    )
    p.add_argument("--length", type=_position, metavar="N", help="explain at most N bytes from POSITION")
    p.add_argument("--count", type=_position, metavar="N", help="explain at most N entries")
    p.add_argument(
        "--format",
        default="auto",
        metavar="FORMAT",
        help="auto (default: by file name, else by the magic byte), batch (any log entry: message v0, v1 "
        "or record batch v2), message-v0, message-v1, record-batch-v2, wire-message, ... "
        "(--format list names them all)",
    )
    p.add_argument(
        "--decode",
        choices=("auto", "offsets", "transactions", "share", "metadata", "remote_log", "none"),
        default="auto",
        help="read records' keys and values as Kafka's own payloads, field by field (auto, the default: "
        "for __consumer_offsets, __transaction_state, __share_group_state, __cluster_metadata and "
        "__remote_log_metadata partitions and .checkpoint snapshots; KRaft control records' values "
        "always)",
    )
    output = p.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="the field tree with offsets as JSON")
    output.add_argument(
        "--html",
        metavar="FILE",
        help="write one self-contained page (hex beside the field tree; hover a field to see its bytes); "
        f"at most {HTML_LIMIT} bytes, decompressed included: pick entries with --count or --at/--length",
    )
    p.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the text output (auto: on a terminal, unless NO_COLOR is set)",
    )
    p.set_defaults(func=run)


def _position(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a byte count (decimal or 0x hex)") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


_HEX_NOISE = re.compile(r"\s+|0x|:|,")


def parse_hex(text: str, what: str = "standard input") -> bytes:
    """Hex digits (stdin, a ``.hex`` file): whitespace, ``0x`` prefixes, ``:`` and ``,`` between bytes are ignored."""
    digits = _HEX_NOISE.sub("", text)
    bad = re.search(r"[^0-9a-fA-F]", digits)
    if bad:
        raise ValueError(f"{what} is not hex: {bad.group()!r} at hex digit {bad.start()}")
    if len(digits) % 2:
        raise ValueError(f"{what} holds an odd number of hex digits ({len(digits)})")
    return bytes.fromhex(digits)


def run(args: argparse.Namespace) -> int:
    from kafkaspec.explain import UnknownFormat, explain, format_names
    from kafkaspec.explain.walk import resolve

    name = "kafkaspec explain"
    if args.format == "list":
        from kafkaspec.generated.trace import FORMATS

        for fmt in format_names():
            doc = FORMATS[fmt].doc.split(". ")[0] if fmt in FORMATS else ""
            print(f"{fmt:<28} {doc}")
        return 0
    if args.path is None:
        print(f"{name}: give a PATH (a file, or - for hex on stdin)", file=sys.stderr)
        return 2
    if args.path == "-":
        try:
            data = parse_hex(sys.stdin.read())
        except ValueError as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            return 2
        source = None
    else:
        if os.path.isdir(args.path):
            print(
                f"{name}: {args.path}: is a directory (give a segment, index or other file)", file=sys.stderr
            )
            return 2
        from . import _explain_files as textfiles

        if args.format == "auto" and textfiles.is_text_file(args.path):
            return _text_file(args)
        if args.path.endswith(".hex"):  # hex text, as on stdin; positions count the bytes it spells
            with open(args.path, "rb") as fh:
                spelled = fh.read().decode("ascii", errors="replace")
            try:
                data = parse_hex(spelled, args.path)
            except ValueError as exc:
                print(f"{name}: {exc}", file=sys.stderr)
                return 2
        else:
            with open(args.path, "rb") as fh:
                data = fh.read() if args.length is None else fh.read(args.at + args.length)
        source = args.path
    if args.at > len(data):
        print(f"{name}: --at {args.at} is past the end of the input ({len(data)} bytes)", file=sys.stderr)
        return 2
    window = len(data) - args.at if args.length is None else min(args.length, len(data) - args.at)
    if args.html and args.count is None and window > HTML_LIMIT:
        print(
            f"{name}: --html shows every byte and field on one page: pick at most {HTML_LIMIT} bytes with "
            f"--at/--length, or entries with --count (the input has {window} from byte {args.at})",
            file=sys.stderr,
        )
        return 2
    try:
        fmt = resolve(args.format, data, args.at, source)
    except UnknownFormat as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    options = {
        "at": args.at,
        "length": args.length,
        "count": args.count,
        "path": source,
        "decode": None if args.decode == "none" else args.decode,
    }
    if args.html:
        from kafkaspec.explain import page
        from kafkaspec.explain.bounded import TooLarge

        entries = (
            "the input" if args.count is None else f"{args.count} entr{'ies' if args.count != 1 else 'y'}"
        )
        try:
            expl = explain(data, fmt, **options, max_nodes=HTML_SPANS)
        except TooLarge:
            print(
                f"{name}: --html shows every byte and field on one page: {entries} from byte {args.at} hold more "
                f"than {HTML_SPANS} fields; pick fewer with --count or --at/--length",
                file=sys.stderr,
            )
            return 2
        shown = page.shown_bytes(expl)
        if shown > HTML_LIMIT:
            print(
                f"{name}: --html shows every byte and field on one page: {entries} from byte {args.at} hold "
                f"{shown} bytes (decompressed included), more than {HTML_LIMIT}; pick fewer with --count or "
                "--at/--length",
                file=sys.stderr,
            )
            return 2
        with open(args.html, "w", encoding="utf-8") as html_file:
            html_file.write(page.render(expl, title=source or "standard input"))
        print(f"{name}: wrote {args.html} ({_outcome(expl)})")
    elif args.json:
        from kafkaspec.explain import jsonout

        writer = jsonout.Writer(
            sys.stdout
        )  # entries (and a large one's records) are written and let go as they come
        writer.start(fmt)
        expl = explain(data, fmt, **options, sink=writer, keep=False)
        writer.finish(expl)
    else:
        from kafkaspec.explain import text

        colour = args.color == "always" or (
            args.color == "auto" and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        )
        lines = text.Writer(sys.stdout, text.Style(colour))  # as the JSON writer: written as read
        expl = explain(data, fmt, **options, sink=lines, keep=False)
        sys.stdout.write(text.render(expl, colour))
    return 0 if expl.ok else 1


def _text_file(args: argparse.Namespace) -> int:
    """Kafka's text files (leader-epoch-checkpoint, partition.metadata, quorum-state, meta.properties, the
    offset checkpoints, .kafka_cleanshutdown): each line or field and what it means; exit 1 when the
    file is not what Kafka writes."""
    import json

    from kafkaspec.errors import KafkaFormatError

    from ..logdir.kafka import node_files
    from ..logdir.kafka.files import read_text_file
    from . import _explain_files as textfiles

    name = os.path.basename(args.path)
    if args.html or args.at or args.length is not None or args.count is not None:
        print(
            f"kafkaspec explain: {args.path} is Kafka's {name}, a text file: it is explained whole, as text or "
            "--json (no --html, --at, --length or --count)",
            file=sys.stderr,
        )
        return 2
    try:
        text = read_text_file(args.path, textfiles.size_limit(name), encoding=node_files.encoding_of(name))
        lines = textfiles.explain_text(name, text, args.path)
    except KafkaFormatError as exc:
        if args.json:
            print(json.dumps({"format": name, "error": str(exc)}))
        else:
            print(f"{name}: {exc}")
        return 1
    if args.json:
        print(json.dumps({"format": name, "lines": [line._asdict() for line in lines]}, indent=1))
    else:
        sys.stdout.write(textfiles.render(name, lines))
    return 0


def _outcome(expl) -> str:
    if expl.failure is not None:
        return f"decoding stopped at byte {expl.failure.position}"
    if expl.problems:
        return f"{len(expl.problems)} problem{'s' * (len(expl.problems) > 1)}"
    return f"{expl.count} entries, every byte explained"

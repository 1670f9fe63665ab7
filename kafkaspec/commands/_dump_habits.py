"""``kafkaspec dump``'s options in the words of the tools Kafka users know: kcat's (``-t``-like topic and
partition filters, ``-o`` with an offset relative to the end, ``-c``, ``-f``) and DumpLogSegments'
(``--files``, ``--deep-iteration``, ``--key-decoder-class`` / ``--value-decoder-class``), each mapped onto
what dump already does (:mod:`.dump` registers them and calls :func:`settle` before reading).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kafkaspec.logdir import Partition

#: the formats of kafkaspec.values.decoder.FORMATS (spelled here so that --help needs no import)
FORMATS = (
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

#: DumpLogSegments' decoder classes (kafka.serializer.*, kafka.tools.*) and the --value-format each means
DECODER_CLASSES = {
    "StringDecoder": "string",
    "DefaultDecoder": "bytes",
    "IntegerDecoder": "int",
    "LongDecoder": "long",
}


def _kcat_offset(text: str) -> str | int:
    """``-o``'s value as kcat reads it: beginning, end, an offset, or -N (N before the end)."""
    if text in ("beginning", "end"):
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an offset: give beginning, end, an offset, or -N (N records before the end)"
        ) from None


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} must be a positive count")
    return value


def add_habit_arguments(p: argparse.ArgumentParser) -> None:
    """The kcat and DumpLogSegments options (see the module)."""
    p.add_argument("--topic", action="append", metavar="NAME", help="only this topic (repeatable)")
    p.add_argument(
        "--partition", action="append", type=int, metavar="N", help="only partition N (repeatable)"
    )
    p.add_argument(
        "-o",
        "--offset",
        type=_kcat_offset,
        metavar="OFFSET",
        help="where each partition starts, as kcat -o: beginning, end, an offset, or -N (the last N offsets)",
    )
    p.add_argument(
        "-c",
        "--count",
        type=_count,
        metavar="N",
        help="stop after N records (with --batches-only: N batches), as kcat -c",
    )
    p.add_argument(
        "-f",
        "--format",
        metavar="FMT",
        help="one line per record in this format, as kcat -f: %%t topic, %%p partition, %%o offset, "
        "%%k key, %%K key size, %%s value, %%S value size, %%T timestamp, %%h headers (k=v,...), %%%% a "
        "percent sign, \\n \\t \\\\ escapes; no batch lines, no control records",
    )
    p.add_argument(
        "--files",
        action="append",
        metavar="FILE[,FILE]",
        help="DumpLogSegments' name for PATH: comma-separated files, added to the PATHs",
    )
    p.add_argument(
        "--deep-iteration",
        action="store_true",
        help="DumpLogSegments' option, accepted: dump always reads the records inside every batch",
    )
    for part in ("key", "value"):
        p.add_argument(
            f"--{part}-decoder-class",
            metavar="CLASS",
            help=f"DumpLogSegments' option: kafka.serializer.StringDecoder and the like as --{part}-format "
            f"(string, bytes, int, long), or a --{part}-format name",
        )


def settle(args: argparse.Namespace) -> str | None:
    """Fold the habit options into dump's own (``--files`` into PATH, decoder classes into formats); a
    usage problem as one line, or None."""
    args.path = list(args.path) + [f for given in args.files or () for f in given.split(",") if f]
    if not args.path:
        return "give a PATH (a data dir, partition dir or segment file), or --files"
    if args.offset is not None and args.start_offset is not None:
        return "-o/--offset and --start-offset say the same thing: give one"
    for part in ("key", "value"):
        given = getattr(args, f"{part}_decoder_class")
        if given is None:
            continue
        fmt = DECODER_CLASSES.get(given.rsplit(".", 1)[-1], given)
        if fmt not in FORMATS:
            return (
                f"--{part}-decoder-class {given}: not one of DumpLogSegments' decoders "
                f"({', '.join(DECODER_CLASSES)}) nor a format ({', '.join(FORMATS)})"
            )
        if getattr(args, f"{part}_format") not in (None, fmt):
            return f"--{part}-decoder-class and --{part}-format differ: give one"
        setattr(args, f"{part}_format", fmt)
    if args.format is not None:
        from kafkaspec.render import compile_format

        try:
            args.line_format = compile_format(args.format)
        except ValueError as exc:
            return f"-f/--format: {exc}"
    else:
        args.line_format = None
    args.left = args.count  # records (or batches) still to print, across every PATH
    return None


def chosen(part: Partition, args: argparse.Namespace) -> bool:
    """Whether ``--topic`` / ``--partition`` keep ``part``."""
    return (args.topic is None or part.topic in args.topic) and (
        args.partition is None or part.partition in args.partition
    )


def start_offset(part: Partition, args: argparse.Namespace) -> int | None:
    """Where ``part`` starts: ``--start-offset``, or ``-o`` resolved against the partition's end."""
    given = args.offset
    if given is None or given == "beginning":
        return args.start_offset
    if isinstance(given, int) and given >= 0:
        return given
    end = end_offset(part)
    return end if given == "end" else max(0, end + int(given))


def end_offset(part: Partition) -> int:
    """The offset after the partition's last batch (its log end offset; 0 when it holds none)."""
    from kafkaspec.errors import KafkaFormatError

    for seg in reversed(part.segments()):
        last = None
        try:
            for batch in seg.iter_batches(seg.position_for_offset(1 << 62), verify=False):
                last = batch.last_offset
        except KafkaFormatError:  # a damaged tail: what was read before it
            pass
        if last is not None:
            return last + 1
    return 0

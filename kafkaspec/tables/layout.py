"""What the tables look like, whatever their format: their names, columns, partitioning, and the
committed offsets as stored in their metadata."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass

from ..arrow.schema import SCHEMA
from ..errors import UsageError
from .errors import TableError
from .source import Offsets

#: the table property (Iceberg snapshot summary, Delta commit info) holding the committed next offsets
OFFSETS_PROPERTY = "kafkaspec.offsets"
#: the table of ``--table-layout single``
SINGLE_TABLE = "records"
LAYOUTS = ("per-topic", "single")
TRANSFORMS = ("identity", "hour", "day", "month", "year")


@dataclass(frozen=True)
class PartitionField:
    """One partition field: a column and a transform of it (``day(timestamp)``, or a column as it is)."""

    column: str
    transform: str = "identity"

    @property
    def name(self) -> str:
        """The partition field's name (Iceberg) and the derived column's (Delta, which has no transforms)."""
        return self.column if self.transform == "identity" else f"{self.column}_{self.transform}"


_FIELD = re.compile(r"^\s*(?:(\w+)\(\s*(\w+)\s*\)|(\w+))\s*$")


def parse_partition_by(text: str | None, layout: str) -> list[PartitionField]:
    """``--partition-by``: comma-separated columns, each as it is or as ``day(timestamp)`` (hour, day,
    month, year); "" for none. Default: the day of the record timestamp, after the topic in one table."""
    if text is None:
        return ([PartitionField("topic")] if layout == "single" else []) + [
            PartitionField("timestamp", "day")
        ]
    out: list[PartitionField] = []
    for part in filter(str.strip, text.split(",")):
        m = _FIELD.match(part)
        transform, column = (m.group(1), m.group(2)) if m and m.group(1) else ("identity", m and m.group(3))
        if not m or transform not in TRANSFORMS or column not in SCHEMA.names:
            raise UsageError(
                f"--partition-by: {part.strip()!r} is not a column of the table ({', '.join(SCHEMA.names)}) "
                f"or {'/'.join(TRANSFORMS[1:])}(column)"
            )
        if transform != "identity" and column != "timestamp":
            raise UsageError(f"--partition-by: {transform}() applies to the timestamp column, not {column!r}")
        if column in UNPARTITIONABLE:
            raise UsageError(f"--partition-by: {column} holds lists, which no table is partitioned by")
        field = PartitionField(str(column), transform)
        if field in out or (transform != "identity" and any(f.transform != "identity" for f in out)):
            raise UsageError(
                f"--partition-by: {part.strip()!r} repeats a column or a time of the timestamp (Iceberg "
                "allows one of hour, day, month, year)"
            )
        out.append(field)
    return out


#: columns no partition value can be taken from
UNPARTITIONABLE = ("headers",)


def table_name(topic: str, layout: str) -> str:
    return SINGLE_TABLE if layout == "single" else topic


def encode_offsets(offsets: Offsets) -> str:
    return json.dumps({t: {str(p): o for p, o in sorted(ps.items())} for t, ps in sorted(offsets.items())})


def decode_offsets(text: str, where: str) -> Offsets:
    """The offsets a commit stored; anything else is a table whose metadata is not ours. Each a whole
    number as :func:`encode_offsets` writes it, a partition from 0 to 2^31-1 and an offset from 0 to
    2^63-1: ``int()`` took ``1.5`` as 1, ``true`` as 1 and ``" 0"`` as 0, and a run planned from them."""
    try:
        raw = json.loads(text)
        out = {
            str(t): {_whole(p, 0x7FFFFFFF): _whole(o, (1 << 63) - 1) for p, o in ps.items()}
            for t, ps in raw.items()
        }
    except (ValueError, TypeError, AttributeError, RecursionError):
        raise TableError(
            f"{where}: its {OFFSETS_PROPERTY} property is not the offsets kafkaspec stores"
        ) from None
    return out


def _whole(value: object, high: int) -> int:
    """A partition (a JSON key: its digits) or an offset (a JSON integer), from 0 to ``high``."""
    if isinstance(value, str) and high < 1 << 32 and re.fullmatch(r"[0-9]{1,10}", value):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise ValueError(value)
    return value


def check_columns(columns: list[tuple[str, str]], where: str) -> None:
    """A table's columns must start with ours (names in order): a table of other columns is not
    appended to."""
    names = [n for n, _ in columns]
    if names[: len(SCHEMA.names)] != SCHEMA.names:
        raise TableError(
            f"{where} is not a table kafkaspec wrote: its columns are {', '.join(names[:12])}"
            f"{', ...' if len(names) > 12 else ''}, not {', '.join(SCHEMA.names[:4])}, ..."
        )


def check_destination(dest: str, is_table_root: bool, what: str) -> str:
    """A local destination must be missing, an empty folder, or ``what`` already: never a file or a
    folder of other things (nothing is written there then); the run markers of :mod:`.leftovers` are ours."""
    if "://" in dest:
        return dest
    if os.path.exists(dest) and not os.path.isdir(dest):
        raise TableError(f"{dest}: not a folder, so not {what}")
    if os.path.isdir(dest) and not is_table_root and set(os.listdir(dest)) - {".kafkaspec-runs"}:
        it = _table_kind(dest) or "a folder that is not empty"
        raise TableError(f"{dest}: {it}, not {what}; nothing was written")
    os.makedirs(dest, exist_ok=True)
    return dest


def _table_kind(dest: str) -> str | None:
    """What kind of table folder ``dest`` is, when it is one of the other kinds (None: none known)."""
    if os.path.isfile(os.path.join(dest, "catalog.db")):
        return "an Iceberg warehouse (catalog.db: --table iceberg)"
    if os.path.isdir(os.path.join(dest, "_delta_log")):
        return "a Delta table itself (--table delta writes to the folder that holds it)"
    if os.path.isdir(os.path.join(dest, "metadata")) and any(
        n.endswith(".metadata.json") for n in os.listdir(os.path.join(dest, "metadata"))
    ):
        return "an Iceberg table's folder (--table iceberg writes to the warehouse, with its catalog)"
    if any(os.path.isdir(os.path.join(dest, n, "_delta_log")) for n in os.listdir(dest)):
        return "a folder of Delta tables (--table delta)"
    return None


def check_writable(paths: list[str], trees: list[str]) -> None:
    """Each of ``paths`` (a file or a folder), and every folder under each of ``trees``, that exists
    must be writable by this process: checked before a run writes anything, as the libraries meet a
    denied permission half-way, in several lines (delta-rs with a panic), after files are written."""
    found = [p for p in paths if os.path.exists(p)]
    for top in trees:
        found.extend(folder for folder, _, _ in os.walk(top))
    for path in found:
        if not os.access(path, os.W_OK | (os.X_OK if os.path.isdir(path) else 0)):
            raise TableError(
                f"{path}: permission denied (this user may not write there); nothing was written"
            )

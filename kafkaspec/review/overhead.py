"""Framing overhead per batch, computed from the schemas alone.

The size of every field is worked out from the model: fixed-width integers
have their width; varints are sized for the value they would hold (lengths and
counts are computed, offset deltas are the record's index, timestamp deltas
0, other fields their default); ``present_if`` fields count when their bits
say so (all flags default to 0). Payload is what the user supplied -- the
contents of fields named ``key``, ``value`` or ``payload``, and of each header's
key and value -- and everything else is framing.

A structure with an array of records (other than ``headers``) is a batch: its
framing is the header plus each record's framing. A structure without one is
a single entry (a Message v0/v1 MessageSet entry): a batch of n is n entries.
Records are assumed uncompressed, as in seed 004's "Space Comparison".
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby

from kafkaspec.spec import FIXED_TYPES, VAR_TYPES, Field, SchemaSet, Struct
from kafkaspec.spec.types import FIELD_TYPES

#: Field names whose contents are payload, and which size option gives their length.
PAYLOAD_ROLES = {"key": "key", "value": "value", "payload": "value"}
HEADERS = "headers"


@dataclass(frozen=True)
class Payload:
    """Sizes of the user data in each record."""

    key: int = 0
    value: int = 0
    headers: int = 0
    header_key: int = 8
    header_value: int = 16


@dataclass(frozen=True)
class Overhead:
    """Framing of one batch of ``len(per_record)`` records in one format."""

    schema: Struct
    batched: bool  # True: one header for the batch; False: one entry per record
    header: int  # framing bytes once per batch (0 when not batched)
    per_record: tuple[int, ...]  # framing bytes of each record, in order

    @property
    def total(self) -> int:
        return self.header + sum(self.per_record)

    def formula(self) -> str:
        """The sum written out as seed 004 does: ``34*3 = 102``, ``45 + 3*17 = 96``."""
        n = len(self.per_record)
        runs = [(k, len(list(g))) for k, g in groupby(self.per_record)]
        if not self.batched:
            terms = [f"{k}*{count}" for k, count in runs] or ["0"]
            return f"{' + '.join(terms)} = {self.total}"
        terms = [str(self.header)] + [f"{count}*{k}" for k, count in runs] if n else [str(self.header)]
        return f"{' + '.join(terms)} = {self.total}"


def varint_size(value: int, zigzag: bool, bits: int = 64) -> int:
    if zigzag:
        value = (value << 1) ^ (value >> (bits - 1))
    value &= (1 << 64) - 1
    size = 1
    while value >= 0x80:
        value >>= 7
        size += 1
    return size


def _var_size(ftype: str, value: int) -> int:
    t = FIELD_TYPES[ftype]
    return varint_size(value, zigzag=t.zigzag, bits=t.bits)


def _records_field(s: Struct) -> Field | None:
    return next((f for f in s.fields if f.type == "array" and f.name != HEADERS), None)


def _items(f: Field) -> str:
    """The item type of an array field (the loader requires it)."""
    assert f.items is not None, f.name
    return f.items


class Sizer:
    """Sizes structures of a schema set for a given payload."""

    def __init__(self, schemas: SchemaSet, payload: Payload):
        self.schemas = schemas
        self.payload = payload

    def size(self, s: Struct, index: int = 0, records: int = 0, role: str = "record") -> tuple[int, int]:
        """(total bytes, payload bytes) of ``s`` as the ``index``-th item holding ``records`` records."""
        values: dict[str, int] = {}
        for f in s.fields:
            values[f.name] = self._value(s, f, index, records, role)
        sizes: dict[str, tuple[int, int]] = {}
        suffix = 0
        for f in reversed(s.fields):
            if not self._present(s, f, values):
                sizes[f.name] = (0, 0)
                continue
            if f.length_of:
                values[f.name] = suffix
            total, data = self._field_size(s, f, values, index, records, role)
            sizes[f.name] = (total, data)
            suffix += total
        return sum(t for t, _ in sizes.values()), sum(d for _, d in sizes.values())

    @staticmethod
    def _present(s: Struct, f: Field, values: dict[str, int]) -> bool:
        for owner, bit, want in f.present_if:
            b = next(b for b in s.field(owner).bits if b.name == bit)
            if ((values[owner] >> b.lo) & ((1 << (b.hi - b.lo + 1)) - 1)) != want:
                return False
        return True

    def _count(self, f: Field, records: int, role: str) -> int:
        if f.name == HEADERS:
            return self.payload.headers if role == "record" else 0
        return records if role == "batch" else 0

    def _value(self, s: Struct, f: Field, index: int, records: int, role: str) -> int:
        if f.const is not None:
            return f.const
        if f.relative_to:
            return index if f.relative_to.default == "index" else 0
        if f.count_of:
            return self._count(s.field(f.count_of), records, role)
        if isinstance(f.default, int) and not isinstance(f.default, bool):
            return f.default
        return 0

    def _content(self, f: Field, role: str) -> int:
        which = PAYLOAD_ROLES.get(f.name)
        if which is None:
            return 0
        if role == "header":
            return self.payload.header_key if which == "key" else self.payload.header_value
        return self.payload.key if which == "key" else self.payload.value

    def _field_size(
        self, s: Struct, f: Field, values: dict[str, int], index: int, records: int, role: str
    ) -> tuple[int, int]:
        if f.fixed:
            return FIXED_TYPES[f.type][1], 0
        if f.type in VAR_TYPES:
            return _var_size(f.type, values[f.name]), 0
        if f.type in ("bytes", "string"):
            content = self._content(f, role)
            if f.length in FIXED_TYPES:
                prefix = FIXED_TYPES[f.length][1]
            elif f.length in VAR_TYPES:
                prefix = _var_size(f.length, content)
            else:
                prefix = 0
                if f.length is not None and f.length != "rest":
                    values[f.length] = content  # sized in the reversed pass, before the length field
            return prefix + content, content
        if f.type == "array":
            item = self.schemas.resolve(_items(f))
            count = self._count(f, records, role)
            item_role = "header" if f.name == HEADERS else "record"
            total = data = 0
            for i in range(count):
                t, d = self.size(item, index=i, role=item_role)
                total, data = total + t, data + d
            if f.count in FIXED_TYPES:
                total += FIXED_TYPES[f.count][1]
            elif f.count in VAR_TYPES:
                total += _var_size(f.count, count)
            return total, data
        nested = self.schemas.resolve(f.type)
        return self.size(nested, index=index, records=records, role=role)


def overhead(schemas: SchemaSet, s: Struct, payload: Payload, records: int) -> Overhead:
    """Framing bytes of a batch of ``records`` records of ``payload`` in format ``s``."""
    sizer = Sizer(schemas, payload)
    field = _records_field(s)
    if field is None:
        per = []
        for i in range(records):
            total, data = sizer.size(s, index=i, role="record")
            per.append(total - data)
        return Overhead(s, False, 0, tuple(per))
    header, _ = sizer.size(s, records=0, role="batch")
    item = schemas.resolve(_items(field))
    per = []
    for i in range(records):
        total, data = sizer.size(item, index=i, role="record")
        per.append(total - data)
    # the batch's own varint counts or lengths may grow with the records: charge that to the header
    whole_total, whole_data = sizer.size(s, records=records, role="batch")
    header += (whole_total - whole_data) - header - sum(per)
    return Overhead(s, True, header, tuple(per))


def supports_headers(schemas: SchemaSet, s: Struct) -> bool:
    field = _records_field(s)
    target = schemas.resolve(_items(field)) if field else s
    return any(f.name == HEADERS for f in target.fields)


def table(
    schemas: SchemaSet,
    structs: list[Struct],
    payload: Payload,
    batch_sizes: list[int],
    labels: list[str] | None = None,
) -> tuple[list[str], list[list[str]]]:
    """Header row and rows of the comparison table (seed 004's layout)."""
    labels = labels or [f"{s.name} v{s.version}" for s in structs]
    head = ["Batch Size"] + [f"{label} Overhead" for label in labels]
    rows = []
    for n in batch_sizes:
        rows.append([str(n)] + [overhead(schemas, s, payload, n).formula() for s in structs])
    return head, rows


def render_text(head: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(head, widths)).rstrip(), "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return "\n".join(lines)


def render_markdown(head: list[str], rows: list[list[str]]) -> str:
    lines = [
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---:" if i == 0 else "---" for i in range(len(head))) + "|",
    ]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)

"""Render the reference docs (docs/formats/*.md) from the validated schemas.

One page per structure version -- a field table, an RFC-style bit diagram of
the layout in the style of seed 002, attribute-bit tables, the enums it uses,
checksum and length coverage -- plus an index of every format by Kafka version
and a page of the shared enums. The output depends only on the schemas, so it
is checked in and diffed in CI like generated/.
"""

from __future__ import annotations

import re
from pathlib import Path

import jinja2

from kafkaspec.spec import FIXED_TYPES, PREFIX_TYPES, VAR_TYPES, Dispatch, Enum, Field, SchemaSet, Struct
from kafkaspec.spec.types import FIELD_TYPES

from .docs_message import render_message_docs
from .render import write
from .wire import fixed_prefix

TEMPLATES = Path(__file__).parent / "templates" / "docs"
ROW_BITS = 32
#: the size column of a varint field, and of each length or count prefix (from the type registry)
VAR_SIZES = {n: FIELD_TYPES[n].doc_size for n in VAR_TYPES}
PREFIX_SIZES = {n: FIELD_TYPES[n].doc_size for n in PREFIX_TYPES}
STATUS_NOTE = {
    "proposal": (
        "**Proposal -- never used on the wire.** Kept for review; its codec is a straight-line reader and "
        "writer (`kafkaspec.generated.<module>`), with no columnar or batched path."
    ),
    "legacy": "**Legacy format.** Superseded by a later version; kept so that old data and old peers can still be read.",
    "current": "",
}


def page_name(s: Struct) -> str:
    return f"{s.module}.md"


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version))


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


class DocWriter:
    def __init__(self, schemas: SchemaSet):
        self.schemas = schemas
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(TEMPLATES),
            undefined=jinja2.StrictUndefined,
            keep_trailing_newline=True,
            autoescape=False,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.filters["cell"] = _cell

    # -- pieces of a page -------------------------------------------------------
    def link(self, ref: str) -> str:
        s = self.schemas.resolve(ref)
        return f"[{s.name} v{s.version}]({page_name(s)})"

    def type_text(self, f: Field) -> str:
        if f.type in ("bytes", "string"):
            if f.length in PREFIX_SIZES:
                text = f"{f.type} ({f.length} length)"
            elif f.length == "rest":
                text = f"{f.type} (to the end)"
            else:
                text = f"{f.type} (length in `{f.length}`)"
        elif f.type == "array":
            if f.count in PREFIX_SIZES:
                how = f"{f.count} count"
            elif f.count:
                how = f"count in `{f.count}`"
            elif f.size == "rest":
                how = "to the end"
            else:
                how = f"byte size in `{f.size}`"
            text = f"array of {self.link(f.item_type)} ({how})"
        elif f.type in FIXED_TYPES or f.type in VAR_SIZES:
            text = f.type
        else:
            text = self.link(f.type)
        if f.const is not None:
            text += f" = {f.const}"
        if f.enum:
            text += f", enum [{f.enum}](enums.md#{f.enum.lower()})"
        return text

    def size_text(self, f: Field) -> str:
        if f.fixed:
            return FIELD_TYPES[f.type].doc_size
        if f.type in VAR_SIZES:
            return VAR_SIZES[f.type]
        if f.type in ("bytes", "string"):
            prefix = PREFIX_SIZES.get(f.prefix)
            return f"{prefix} + n" if prefix else "n"
        if f.type == "array":
            prefix = PREFIX_SIZES.get(f.count or "")
            return f"{prefix} + items" if prefix else "items"
        return "varies"

    @staticmethod
    def null_text(f: Field) -> str:
        if f.present_if:
            cond = " and ".join(f"`{o}.{b}` = {v}" for o, b, v in f.present_if)
            return f"optional: present when {cond}"
        if f.nullable:
            return "yes (count -1)" if f.type == "array" else "yes (length -1)"
        return "no"

    def doc_text(self, f: Field) -> str:
        text = f.doc
        extras = []
        if f.length_of:
            extras.append(f"Counts the bytes from `{f.length_of.start}` to the end.")
        if f.count_of:
            extras.append(f"Number of items in `{f.count_of}`.")
        if f.checksum:
            extras.append(f"{self.algorithm(f.checksum.algorithm)} over {self.coverage(f)}.")
        if f.relative_to:
            extras.append(f"Exposed as `{f.relative_to.as_name}` = `{f.relative_to.base}` + this delta.")
        if f.compressed_by:
            extras.append(f"Compressed with the codec in `{f.compressed_by.field}.{f.compressed_by.bit}`.")
        if f.has_default and f.default not in (None, [], 'b""'):
            extras.append(f"Default {f.default!r}.")
        return " ".join([text, *extras])

    @staticmethod
    def algorithm(name: str) -> str:
        return {"crc32": "CRC-32 (IEEE)", "crc32c": "CRC-32C (Castagnoli)"}[name]

    @staticmethod
    def coverage(f: Field) -> str:
        assert f.checksum is not None, f.name
        frm, to = f.checksum.start, f.checksum.end
        return f"`{frm}` to the end" if to == "end" else f"`{frm}` through `{to}`"

    def fields(self, s: Struct) -> list[dict]:
        offs = s.fixed_offsets()
        return [
            {
                "name": f.name,
                "type": self.type_text(f),
                "offset": str(offs[f.name]) if f.name in offs else "",
                "size": self.size_text(f),
                "null": self.null_text(f),
                "since": f.since or s.since,
                "doc": self.doc_text(f),
            }
            for f in s.fields
        ]

    def bit_tables(self, s: Struct) -> list[dict]:
        out = []
        for f in s.fields:
            if not f.bits:
                continue
            width = FIXED_TYPES[f.type][1] * 8 if f.fixed else 64
            rows = []
            used = 0
            for b in sorted(f.bits, key=lambda b: b.lo):
                used |= b.mask
                rows.append(
                    {
                        "bits": str(b.lo) if b.lo == b.hi else f"{b.lo}-{b.hi}",
                        "mask": f"0x{b.mask:0{max(2, width // 4)}x}",
                        "name": b.name,
                        "enum": f"[{b.enum}](enums.md#{b.enum.lower()})" if b.enum else "flag",
                        "since": b.since or f.since or s.since,
                        "doc": b.doc,
                    }
                )
            unused = [i for i in range(width) if not used >> i & 1]
            if unused:
                rows.append(
                    {
                        "bits": _ranges(unused),
                        "mask": "",
                        "name": "(unused)",
                        "enum": "",
                        "since": "",
                        "doc": "Zero when written; reserved for future use.",
                    }
                )
            out.append({"field": f.name, "width": width, "rows": rows})
        return out

    def enums_of(self, s: Struct) -> list[Enum]:
        names = sorted({n for f in s.fields for n in [f.enum, *(b.enum for b in f.bits)] if n})
        return [self.schemas.enums[n] for n in names]

    def coverage_rows(self, s: Struct) -> list[str]:
        offs = s.fixed_offsets()
        rows = []
        for f in s.fields:
            if f.checksum:
                start = f.checksum.start
                at = f" (from byte {offs[start]})" if start in offs and f.checksum.end == "end" else ""
                rows.append(
                    f"`{f.name}`: {self.algorithm(f.checksum.algorithm)} over {self.coverage(f)}{at}."
                )
            if f.length_of:
                start = f.length_of.start
                at = f" (from byte {offs[start]})" if start in offs else ""
                rows.append(f"`{f.name}`: counts the bytes from `{start}`{at} to the end.")
        return rows

    def diagram(self, s: Struct) -> list[str]:
        """The layout as 32-bit rows, in the RFC style of seed 002."""
        rows: list[list[tuple[str, int, bool]]] = []
        cur: list[tuple[str, int, bool]] = []
        col = 0

        def push(label: str, bits: int, var: bool) -> None:
            nonlocal cur, col
            cur.append((label, bits, var))
            col += bits
            if col == ROW_BITS:
                rows.append(cur)
                cur, col = [], 0

        def fixed(label: str, bits: int) -> None:
            # split at row ends; the pieces after the named one say "(cont.)"
            pieces, at = [], col
            while bits:
                take = min(bits, ROW_BITS - at)
                pieces.append(take)
                bits -= take
                at = (at + take) % ROW_BITS
            # the first piece wide enough carries the name (narrower ones before it show it cut short)
            named = next(
                (i for i, take in enumerate(pieces) if len(label) <= 2 * take - 1), pieces.index(max(pieces))
            )
            for i, take in enumerate(pieces):
                cont = f"{label} (cont.)" if len(label) + 8 <= 2 * take - 1 else "(cont.)"
                push(label if i <= named else cont, take, False)

        for f in s.fields:
            label = f.name.upper()
            if f.fixed and not f.present_if:
                fixed(label, FIXED_TYPES[f.type][1] * 8)
                continue
            prefix = f.length if f.type in ("bytes", "string") else f.count if f.type == "array" else None
            if fixed_prefix(prefix) and not f.present_if:
                # a fixed-width length or count prefix gets its own cell, like TOPIC_LENGTH in seed 002
                fixed(label + ("_COUNT" if f.type == "array" else "_LENGTH"), FIXED_TYPES[prefix][1] * 8)
            kind = f.type if f.type in VAR_SIZES else "variable"
            if f.present_if:
                kind += ", optional"
            push(f"{label} ({kind})", ROW_BITS - col, True)
        if cur:
            rows.append(cur)
        lines = [
            "  0                   1                   2                   3",
            "  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1",
        ]
        widths = [sum(b for _, b, _ in r) for r in rows]
        for i, row in enumerate(rows):
            lines.append(" " + _rule(max(widths[i], widths[i - 1] if i else 0)))
            text = " " + ("/" if row[0][2] else "|")
            for label, bits, var in row:
                room = 2 * bits - 1
                shown = label if len(label) <= room else label[: room - 1] + "~"
                text += shown.center(room) + ("/" if var else "|")
            lines.append(text)
        if rows:
            lines.append(" " + _rule(widths[-1]))
        return lines

    # -- pages --------------------------------------------------------------------
    def struct_page(self, s: Struct, root: Path) -> str:
        return self.env.get_template("struct.md.j2").render(
            s=s,
            source=s.path.relative_to(root.parent).as_posix(),
            status_note=STATUS_NOTE[s.status],
            fields=self.fields(s),
            diagram=self.diagram(s),
            bit_tables=self.bit_tables(s),
            enums=self.enums_of(s),
            coverage=self.coverage_rows(s),
            prefix=s.fixed_prefix,
            used_by=self.used_by(s),
            dispatched_by=self.dispatched_by(s),
        )

    def used_by(self, s: Struct) -> list[str]:
        out = []
        for other in self.sorted_structs():
            for f in other.fields:
                ref = f.items or (f.type if f.type[:1].isupper() else None)
                if ref and self.schemas.resolve(ref) is s:
                    out.append(f"{self.link(other.ref)} field `{f.name}`")
        return out

    def dispatched_by(self, s: Struct) -> list[str]:
        out = []
        for d in sorted(self.schemas.dispatches, key=lambda d: d.name):
            for value, ref in sorted(d.cases.items()):
                if self.schemas.resolve(ref) is s:
                    out.append(f"{d.name} (value {value} of the {d.type} at byte {d.offset})")
        return out

    def sorted_structs(self) -> list[Struct]:
        return sorted(self.schemas.structs.values(), key=lambda s: (s.name, s.version))

    def index_page(self) -> str:
        groups: dict[str, list[dict]] = {}
        for s in sorted(
            self.schemas.structs.values(), key=lambda s: (version_key(s.since), s.name, s.version)
        ):
            groups.setdefault(s.since, []).append(
                {
                    "link": f"[{s.name} v{s.version}]({page_name(s)})",
                    "status": s.status,
                    "prefix": s.fixed_prefix,
                    "summary": _first_sentence(s.doc),
                    "source": s.path.name,
                }
            )
        dispatches = []
        for d in sorted(self.schemas.dispatches, key=lambda d: d.name):
            dispatches.append(self._dispatch_row(d))
        return self.env.get_template("index.md.j2").render(
            groups=sorted(groups.items(), key=lambda kv: version_key(kv[0])),
            dispatches=dispatches,
            enums=sorted(self.schemas.enums.values(), key=lambda e: e.name),
        )

    def _dispatch_row(self, d: Dispatch) -> dict:
        return {
            "name": d.name,
            "on": f"{d.type} at byte {d.offset}",
            "cases": ", ".join(f"{v} → {self.link(ref)}" for v, ref in sorted(d.cases.items())),
            "since": d.since,
            "doc": d.doc,
        }

    def enums_page(self) -> str:
        return self.env.get_template("enums.md.j2").render(
            enums=sorted(self.schemas.enums.values(), key=lambda e: e.name),
        )


def _rule(bits: int) -> str:
    return "+" + "-+" * bits


def _ranges(bits: list[int]) -> str:
    """[7, 8, 9, 12] -> '7-9, 12'."""
    spans = [[bits[0], bits[0]]]
    for b in bits[1:]:
        if b == spans[-1][1] + 1:
            spans[-1][1] = b
        else:
            spans.append([b, b])
    return ", ".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in spans)


def _first_sentence(doc: str) -> str:
    m = re.match(r"(.+?\.)(\s|$)", doc)
    return _cell(m[1] if m else doc)


def render_docs(schemas: SchemaSet, root: Path) -> dict[str, str]:
    """{file name: Markdown} for docs/formats/."""
    writer = DocWriter(schemas)
    out = {page_name(s): writer.struct_page(s, root) for s in writer.sorted_structs()}
    out["index.md"] = writer.index_page()
    out["enums.md"] = writer.enums_page()
    out.update(render_message_docs(schemas, root))
    return out


def write_docs(pages: dict[str, str], out_dir: Path) -> list[str]:
    """Write the pages, remove stale ones; return the names that changed."""
    return write(pages, out_dir, "*.md")

"""An encoder of Kafka's message-spec payloads driven by the facts of Kafka's own JSON specs
(``tests/codecs/kafka_specs/facts-*.json``), never by our schemas or our codecs: the bytes it writes
say what Kafka's generated Java classes write, so decoding them checks ``schemas/messages/``.

The rules (from Kafka's protocol guide and its message generator): fields in spec order; a field is
on the wire in its ``versions`` (a field with only ``taggedVersions`` exists in those); in a flexible
version, a field whose ``taggedVersions`` holds the version goes into the tagged-field section at
the end of its structure (count, then tag, size and bytes per field, ascending tags) and is left out
when it holds its default. Classic strings, bytes and arrays have int16/int32/int32 lengths (-1:
null); flexible ones an unsigned varint of length + 1 (0: null). A nullable structure starts with an
int8 (-1 null, 1 present). A default of JSON ``null`` means "none given": Kafka's generator then uses
the type's default (the empty structure for a structure); the string ``"null"`` means null.

Values come back keyed by the field's name lowercased without underscores (``KRaftVersion`` ->
``kraftversion``) so that they compare with our snake_case names without sharing a naming rule.
"""

from __future__ import annotations

import functools
import json
import struct
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

FIXED = {
    "bool": "?",
    "int8": "b",
    "int16": "h",
    "uint16": "H",
    "int32": "i",
    "uint32": "I",
    "int64": "q",
    "float64": "d",
}
UNKNOWN_TAG = 1000  # a tag no Kafka revision uses, written to check it comes back untouched


def versions(spec: str | None) -> range:
    if spec in (None, "none", ""):
        return range(0)
    assert spec is not None
    if spec.endswith("+"):
        return range(int(spec[:-1]), 32768)
    lo, _, hi = spec.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def key(name: str) -> str:
    return name.replace("_", "").lower()


def uvarint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def field_versions(f: Mapping[str, Any]) -> range:
    return versions(f.get("versions") or f.get("taggedVersions"))


class Encoder:
    """Writes one message of one revision's facts. ``mode``: ``"full"`` sets every field (tagged ones
    to values other than their default, nullable ones non-null, arrays of two items) and adds an
    unknown tag to every flexible structure; ``"minimal"``: nulls, zeros, empty strings and arrays,
    tagged fields left out (so they must read back as their defaults)."""

    def __init__(self, facts: Mapping[str, Any], mode: str):
        self.facts = facts
        self.common = {s["name"]: s["fields"] for s in facts.get("commonStructs", [])}
        self.mode = mode
        self.n = 0

    def encode(self, version: int) -> tuple[bytes, dict[str, Any]]:
        flexible = version in versions(self.facts.get("flexibleVersions"))
        return self.struct(self.facts["fields"], version, flexible)

    # -- values
    def sample(self, ftype: str, name: str) -> Any:
        self.n += 1
        n = self.n
        if self.mode == "minimal":
            return {"bool": False, "float64": 0.0, "string": "", "bytes": b"", "uuid": uuid.UUID(int=0)}.get(
                ftype, 0
            )
        if ftype == "bool":
            return True
        if ftype in FIXED and ftype != "float64":
            bits = struct.calcsize(FIXED[ftype]) * 8
            unsigned = ftype.startswith("u")
            top = (1 << bits) - 1 if unsigned else (1 << (bits - 1)) - 1
            return top - n  # far from any default (-1, 0, 0x7fff...)
        if ftype == "float64":
            return 0.25 + n
        if ftype == "uuid":
            return uuid.UUID(bytes=bytes((n * 7 + i) % 256 for i in range(16)))
        if ftype == "string":
            return f"{name}-{n}-\u00e9"
        if ftype == "bytes":
            return bytes([n % 256, 0, 255])
        raise ValueError(f"unknown type {ftype}")

    def default(self, f: Mapping[str, Any], version: int, flexible: bool) -> Any:
        """What a field reads as when absent: its default, else the type's (Kafka's generator's rule)."""
        ftype, d = f["type"], f.get("default")
        if ftype.startswith("[]"):
            return None if d == "null" else []
        if ftype in FIXED:
            if d is None or d == "":
                return False if ftype == "bool" else 0.0 if ftype == "float64" else 0
            if ftype == "bool":
                return str(d).lower() == "true"
            return float(d) if ftype == "float64" else int(str(d), 0)
        if ftype in ("string", "bytes"):
            if d == "null":
                return None
            return ("" if ftype == "string" else b"") if d in (None, "") else d
        if ftype == "uuid":
            return uuid.UUID(int=0)
        if d == "null":
            return None
        fields = f.get("fields") or self.common[ftype]
        return {
            key(g["name"]): self.default(g, version, flexible) for g in fields if version in field_versions(g)
        }

    # -- writing
    def struct(
        self, fields: list[Mapping[str, Any]], version: int, flexible: bool
    ) -> tuple[bytes, dict[str, Any]]:
        out, value, tagged = bytearray(), {}, []
        for f in fields:
            if version not in field_versions(f):
                continue
            is_tagged = flexible and version in versions(f.get("taggedVersions"))
            if is_tagged and self.mode == "minimal":
                value[key(f["name"])] = self.default(f, version, flexible)
                continue
            nullable = version in versions(f.get("nullableVersions"))
            data, v = self.field(
                f, f["type"], version, flexible, nullable=nullable and self.mode == "minimal"
            )
            value[key(f["name"])] = v
            if is_tagged:
                tagged.append((int(f["tag"]), data))
            else:
                out += data
        if flexible:
            if self.mode == "full":
                tagged.append((UNKNOWN_TAG, b"\x01\x02"))
                value["unknowntaggedfields"] = [(UNKNOWN_TAG, b"\x01\x02")]
            out += uvarint(len(tagged)) + b"".join(
                uvarint(t) + uvarint(len(d)) + d for t, d in sorted(tagged)
            )
        return bytes(out), value

    def field(
        self,
        f: Mapping[str, Any],
        ftype: str,
        version: int,
        flexible: bool,
        nullable: bool,
        item: bool = False,
    ) -> tuple[bytes, Any]:
        """One value's bytes; ``nullable``: write null (minimal mode, where the field may be null);
        ``item``: an array's item (never null, no presence byte)."""
        if ftype.startswith("[]"):
            inner = ftype[2:]
            if nullable:
                return (b"\x00" if flexible else struct.pack(">i", -1)), None
            count = 0 if self.mode == "minimal" else 2
            head = uvarint(count + 1) if flexible else struct.pack(">i", count)
            parts, values = [head], []
            for _ in range(count):
                d, v = self.field(f, inner, version, flexible, False, item=True)
                parts.append(d)
                values.append(v)
            return b"".join(parts), values
        if ftype in FIXED:
            v = self.sample(ftype, f["name"])
            return struct.pack(">" + FIXED[ftype], v), v
        if ftype == "uuid":
            v = self.sample(ftype, f["name"])
            return v.bytes, v
        if ftype in ("string", "bytes"):
            if nullable:
                return (b"\x00" if flexible else struct.pack(">h" if ftype == "string" else ">i", -1)), None
            v = self.sample(ftype, f["name"])
            raw = v.encode() if ftype == "string" else v
            if flexible:
                head = uvarint(len(raw) + 1)
            else:
                head = struct.pack(">h" if ftype == "string" else ">i", len(raw))
            return head + raw, v
        fields = f.get("fields") or self.common[ftype]
        if nullable:
            return b"\xff", None
        data, value = self.struct(fields, version, flexible)
        present = not item and version in versions(f.get("nullableVersions"))
        return (b"\x01" + data if present else data), value


FACTS_DIR = Path(__file__).resolve().parent.parent / "codecs" / "kafka_specs"


@functools.cache
def facts(label: str) -> dict[str, Any]:
    """The messages of one revision's facts file (``facts-<label>.json``), by Kafka's name."""
    return json.loads((FACTS_DIR / f"facts-{label}.json").read_text())["messages"]


def record_type(name: str, label: str) -> int:
    """The record type (key version) of a coordinator key or value: its api key, else (4.0's "data"
    specs) the one version of its key."""
    msgs = facts(label)
    keyname = name[: -len("Value")] + "Key" if name.endswith("Value") else name
    k = msgs[keyname]
    if k.get("apiKey") is not None:
        return int(k["apiKey"])
    return versions(k["validVersions"]).start


def frame(label: str, name: str, version: int, body: bytes) -> tuple[str, bytes | None, bytes]:
    """The topic, key and value of a log record that carries this message's bytes, as Kafka frames
    them: a metadata record (frame version 1, api key, version: unsigned varints; the key is null;
    the storage module's records go to ``__remote_log_metadata``, framed the same way);
    a coordinator value under a minimal key of its record type (the key starts with the int16 record
    type, the value with its int16 version)."""
    f = facts(label)[name]
    if f.get("type") == "metadata":
        topic = (
            "__remote_log_metadata"
            if str(f.get("source", "")).startswith("storage/")
            else "__cluster_metadata"
        )
        return topic, None, uvarint(1) + uvarint(int(f["apiKey"])) + uvarint(version) + body
    keyname = name[: -len("Value")] + "Key"
    kfacts = facts(label)[keyname]
    rtype = record_type(name, label)
    kversion = 0 if kfacts.get("type") == "coordinator-key" else rtype
    kbody, _ = Encoder(kfacts, "full").encode(kversion)
    topic = (
        "__transaction_state"
        if name.startswith("TransactionLog")
        else "__share_group_state"
        if name.startswith(("ShareSnapshot", "ShareUpdate"))
        else "__consumer_offsets"
    )
    return topic, struct.pack(">h", rtype) + kbody, struct.pack(">h", version) + body


def mismatches(expected: Any, got: Any, path: str = "") -> list[str]:
    """Where a decoded value (normalized) differs from what the encoder wrote."""
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return [f"{path or 'value'}: expected a structure, got {got!r}"]
        out = []
        for k, v in expected.items():
            if k not in got:
                out.append(f"{path}{k}: missing from the decoded value")
            else:
                out += mismatches(v, got[k], f"{path}{k}.")
        if "unknowntaggedfields" not in expected and got.get("unknowntaggedfields"):
            out.append(
                f"{path}unknown_tagged_fields: {got['unknowntaggedfields']!r} (a known field left unknown)"
            )
        return out
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        return [m for i, (e, g) in enumerate(zip(expected, got)) for m in mismatches(e, g, f"{path}[{i}].")]
    if isinstance(expected, tuple) and isinstance(got, list | tuple):
        got = tuple(got)
    if expected != got or type(expected) is not type(got) and not isinstance(expected, tuple):
        return [f"{path.rstrip('.') or 'value'}: expected {expected!r}, got {got!r}"]
    return []


def normalized(value: Any) -> Any:
    """A decoded value (our snake_case names) keyed like the encoder's values."""
    if isinstance(value, dict):
        return {key(k): normalized(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalized(v) for v in value]
    return value

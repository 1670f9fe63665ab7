"""Compose golden vectors for the message-spec payloads from Kafka's own JSON message specs: the
byte layout comes from Kafka's field lists (versions, nullable, tagged and flexible versions), not
from our schemas or our encoders, so the vectors check that ``schemas/messages/`` says what Kafka
says. Run once against checkouts of Kafka; the output lines are data (``messages.jsonl``).

    python tests/codecs/vectors/compose_messages.py KAFKA_CHECKOUT[=LABEL] ... > new.jsonl

Each later checkout overrides an earlier one's files of the same name. A vector's value lists only
the fields on the wire in that version; the test compares those (the rest read as defaults).
The encoding rules (written here from Kafka's protocol guide): classic strings, bytes and arrays
are prefixed by int16/int32/int32 lengths (-1 = null); in flexible versions by an unsigned varint
of length + 1 (0 = null), and every structure ends with its tagged fields (count, then tag, size,
value per field). A nullable structure that is not tagged starts with an int8: -1 null, 1 present.
"""

from __future__ import annotations

import base64
import json
import re
import struct
import sys
import uuid
from pathlib import Path

FOLDERS = (
    "clients/src/main/resources/common/message",
    "metadata/src/main/resources/common/metadata",
    "group-coordinator/src/main/resources/common/message",
    "transaction-coordinator/src/main/resources/common/message",
    "share-coordinator/src/main/resources/common/message",
)
#: the files of clients/ that are payloads (the rest are requests and responses)
CLIENT_PAYLOADS = {
    "LeaderChangeMessage",
    "SnapshotHeaderRecord",
    "SnapshotFooterRecord",
    "KRaftVersionRecord",
    "VotersRecord",
    "ConsumerProtocolSubscription",
    "ConsumerProtocolAssignment",
}
#: Kafka 4.x names the type-0 offset commit key "Legacy"; ours is OffsetCommitKey version 0
ALIASES = {"LegacyOffsetCommitKey": "OffsetCommitKey"}
#: files composed from a revision other than the one the schema follows (docs/message-sources.md)
SKIP = {"LegacyOffsetCommitValue"}
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


def versions(spec: str | None) -> set[int]:
    if spec in (None, "none"):
        return set()
    if spec.endswith("+"):
        return set(range(int(spec[:-1]), 100))
    lo, _, hi = spec.partition("-")
    return set(range(int(lo), int(hi or lo) + 1))


def uvarint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def load(path: Path) -> dict:
    text = "\n".join(line for line in path.read_text().splitlines() if not line.strip().startswith("//"))
    return json.loads(text)


class Composer:
    def __init__(self, spec: dict):
        self.spec = spec
        self.common = {s["name"]: s["fields"] for s in spec.get("commonStructs", [])}
        self.counter = 0

    def sample(self, ftype: str, name: str, nullable: bool):
        """A value for a field: distinct numbers, the field's name as text, a null now and then."""
        self.counter += 1
        n = self.counter
        if nullable and n % 3 == 0:
            return None
        if ftype == "bool":
            return n % 2 == 1
        if ftype in ("int8", "int16", "uint16", "int32", "uint32", "int64"):
            return {
                "int8": 7 + n % 100,
                "int16": 300 + n,
                "uint16": 60000 + n,
                "int32": 70000 + n,
                "uint32": 3_000_000_000 + n,
                "int64": (1 << 40) + n,
            }[ftype]
        if ftype == "float64":
            return 1.5 + n
        if ftype == "uuid":
            return uuid.UUID(bytes=bytes((n + i) % 256 for i in range(16)))
        if ftype == "string":
            return f"{snake(name)}-{n}"
        if ftype == "bytes":
            return bytes([n % 256, 1, 2])
        raise ValueError(ftype)

    def struct(self, fields: list[dict], version: int, flexible: bool) -> tuple[bytes, dict]:
        out, value, tagged = b"", {}, []
        for f in fields:
            if version not in versions(f.get("versions") or f.get("taggedVersions")):
                continue
            name, ftype = f["name"], f["type"]
            nullable = version in versions(f.get("nullableVersions"))
            is_tagged = flexible and version in versions(f.get("taggedVersions"))
            if is_tagged and (
                ftype.startswith("[]") or ftype not in FIXED and ftype not in ("string", "bytes", "uuid")
            ):
                continue  # tagged structures and arrays: left at their default, so not written
            data, v = self.field(f, ftype, version, flexible, nullable)
            value[snake(name)] = v
            if is_tagged:
                tagged.append((f["tag"], data))
            else:
                out += data
        if flexible:
            out += uvarint(len(tagged)) + b"".join(
                uvarint(t) + uvarint(len(d)) + d for t, d in sorted(tagged)
            )
        return out, value

    def field(
        self, f: dict, ftype: str, version: int, flexible: bool, nullable: bool
    ) -> tuple[bytes, object]:
        if ftype.startswith("[]"):
            inner = ftype[2:]
            items = (
                None
                if nullable and self.sample("int8", "", True) is None
                else ([None, None] if inner in FIXED or inner in ("string", "bytes", "uuid") else [None])
            )
            if items is None:
                return (b"\x00" if flexible else struct.pack(">i", -1)), None
            head = uvarint(len(items) + 1) if flexible else struct.pack(">i", len(items))
            parts, values = [], []
            for _ in items:
                d, v = self.field(f, inner, version, flexible, False)
                parts.append(d)
                values.append(v)
            return head + b"".join(parts), values
        if ftype in FIXED or ftype in ("string", "bytes", "uuid"):
            v = self.sample(ftype, f["name"], nullable)
            if ftype in FIXED:
                return struct.pack(">" + FIXED[ftype], v), v
            if ftype == "uuid":
                return v.bytes, base64.urlsafe_b64encode(v.bytes).decode().rstrip("=")
            raw = None if v is None else (v.encode() if ftype == "string" else v)
            if raw is None:
                return (b"\x00" if flexible else struct.pack(">h" if ftype == "string" else ">i", -1)), None
            head = (
                uvarint(len(raw) + 1)
                if flexible
                else struct.pack(">h" if ftype == "string" else ">i", len(raw))
            )
            return head + raw, (v if ftype == "string" else base64.b64encode(raw).decode())
        fields = f.get("fields") or self.common[ftype]
        if nullable and self.sample("int8", "", True) is None:
            return struct.pack(">b", -1), None
        data, value = self.struct(fields, version, flexible)
        return (struct.pack(">b", 1) + data if nullable else data), value


def main(argv: list[str]) -> int:
    files: dict[str, tuple[Path, str]] = {}
    for arg in argv:
        root, _, label = arg.partition("=")
        for folder in FOLDERS:
            for path in sorted((Path(root) / folder).glob("*.json")):
                if folder.startswith("clients") and path.stem not in CLIENT_PAYLOADS:
                    continue
                files[path.stem] = (path, label or root)
    for name, (path, label) in sorted(files.items()):
        if name in SKIP:
            continue
        spec = load(path)
        flexible_versions = versions(spec.get("flexibleVersions"))
        # Kafka 4.x writes group records as "coordinator-key" files at version 0 with an apiKey; the
        # key's version on disk (our version) is the api key
        keyed = spec.get("type") == "coordinator-key"
        for version in sorted(versions(spec["validVersions"])):
            composer = Composer(spec)
            data, value = composer.struct(spec["fields"], version, version in flexible_versions)
            ours = spec["apiKey"] if keyed else version
            print(
                json.dumps(
                    {
                        "message": ALIASES.get(spec["name"], spec["name"]),
                        "version": ours,
                        "hex": data.hex(),
                        "value": value,
                        "present_only": True,
                        "note": f"composed by compose_messages.py from Kafka's {path.name} ({label}), "
                        f"version {version}",
                    }
                )
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Kafka's own JSON message specs as facts, and the drift between them and ``schemas/messages/``.
One module because the facts read from Kafka's JSON are what the comparison needs: the two change together.

Kafka describes every payload it writes to a log directory (KRaft metadata records, the group,
transaction and share coordinators' keys and values, the KRaft control values, the remote-log
metadata records) in JSON files inside its source tree. Our schemas were written from those files
by hand, so they drift when Kafka adds a version or a tagged field. This module reads the JSON
(:func:`read_specs`) into *facts*: only what decides the bytes (names, types, version ranges,
nullable and tagged versions, tags, defaults), no prose; :func:`compare` lists every difference
between those facts and the loaded :class:`~kafkaspec.spec.message_model.Message` models, version
by version. ``kafkaspec review kafka-specs PATH`` prints that list; the tests keep the facts of
named Kafka releases as data and run the same comparison.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from kafkaspec.spec.message_model import Message, MessageField, MessageStruct

#: the folders of a Kafka source tree that hold specs of log-directory data, and, for the client
#: folder (mostly requests and responses), the names that are payloads written to a log
FOLDERS: dict[str, frozenset[str] | None] = {
    "metadata/src/main/resources/common/metadata": None,
    "group-coordinator/src/main/resources/common/message": None,
    "transaction-coordinator/src/main/resources/common/message": None,
    "share-coordinator/src/main/resources/common/message": None,
    "storage/src/main/resources/message": None,
    "raft/src/main/resources/common/message": None,
    "clients/src/main/resources/common/message": frozenset(
        {
            "LeaderChangeMessage",
            "SnapshotHeaderRecord",
            "SnapshotFooterRecord",
            "KRaftVersionRecord",
            "VotersRecord",
            "ConsumerProtocolSubscription",
            "ConsumerProtocolAssignment",
        }
    ),
}
#: spec types that are requests and responses, never log data
_NOT_LOG_DATA = {"request", "response", "header"}
#: Kafka's spec name -> ours, where we name it differently (Kafka 4.x calls the type-0 offset key
#: and value "Legacy"; our OffsetCommitKey/Value carry both record types)
ALIASES = {"LegacyOffsetCommitKey": "OffsetCommitKey", "LegacyOffsetCommitValue": "OffsetCommitValue"}
#: Kafka messages our schemas do not describe yet, and where they are planned (a drift check
#: reports them as "pending", not as drift; remove a name here when its schema lands)
PENDING = {
    "ProducerSnapshot": "read by kafkaspec.logdir (the .snapshot file), not a message schema",
}
#: Kafka messages that reach the log directory as JSON files read by a hand-written reader, not as
#: message bytes: the reader's field table is compared with the spec instead of a schema
JSON_FILES = {"QuorumStateData": "quorum-state (kafkaspec.logdir.kafka.node_files.QUORUM_STATE_FIELDS)"}
#: the field attributes that are facts (the rest of Kafka's JSON is prose or Java naming)
_FIELD_FACTS = ("name", "type", "versions", "nullableVersions", "taggedVersions", "tag", "default")


class SpecError(ValueError):
    """A Kafka spec file that cannot be read: the message names the file."""


def _strip_comments(text: str) -> str:
    # Kafka's JSON carries // line comments (the licence header, notes between fields)
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def parse_spec(text: str, where: str) -> dict[str, Any]:
    """One spec file's JSON (comments allowed, as Kafka writes them); SpecError names ``where``."""
    try:
        spec = json.loads(_strip_comments(text))
    except json.JSONDecodeError as exc:
        raise SpecError(f"{where}: not JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:  # Kafka's specs nest a few levels; thousands is not a spec
        raise SpecError(f"{where}: not a Kafka message spec (nested too deeply to read)") from None
    if not isinstance(spec, dict) or not isinstance(spec.get("name"), str) or "validVersions" not in spec:
        raise SpecError(f"{where}: not a Kafka message spec (no name or validVersions)")
    for key in ("validVersions", "flexibleVersions"):
        _check_versions(spec.get(key), f"{where}: {spec['name']}.{key}")
    if spec.get("type") not in _NOT_LOG_DATA:
        _check_fields(spec.get("fields", []), f"{where}: {spec['name']}")
        for s in spec.get("commonStructs") or []:
            if not isinstance(s, dict) or not isinstance(s.get("name"), str):
                raise SpecError(f"{where}: commonStructs: each needs a name and fields")
            _check_fields(s.get("fields"), f"{where}: {s['name']}")
    return spec


_VERSION_TEXT = re.compile(r"^(none|\d+\+?|\d+-\d+)$")


def _check_versions(text: Any, where: str) -> None:
    if text is not None and not (isinstance(text, str) and _VERSION_TEXT.match(text)):
        raise SpecError(f"{where}: versions must look like '0+', '1-3', '2' or 'none', got {text!r}")


def _check_fields(fields: Any, where: str) -> None:
    """Each field has a name and a type and readable version ranges; SpecError names the field."""
    if not isinstance(fields, list):
        raise SpecError(f"{where}: 'fields' must be a list")
    for f in fields:
        if (
            not isinstance(f, dict)
            or not isinstance(f.get("name"), str)
            or not isinstance(f.get("type"), str)
        ):
            raise SpecError(f"{where}: a field needs a name and a type, got {f!r:.80}")
        at = f"{where}.{f['name']}"
        for key in ("versions", "nullableVersions", "taggedVersions"):
            _check_versions(f.get(key), f"{at} {key}")
        if f.get("versions") is None and f.get("taggedVersions") is None:
            raise SpecError(f"{at}: no versions")
        tag = f.get("tag")  # Kafka's files write it as a number, now and then as a string ("2")
        if f.get("taggedVersions") is not None and not (
            isinstance(tag, int)
            and not isinstance(tag, bool)
            and tag >= 0
            or isinstance(tag, str)
            and tag.isdigit()
        ):
            raise SpecError(f"{at}: a tagged field needs a tag (a non-negative integer)")
        if f.get("fields") is not None:
            _check_fields(f["fields"], at)


def _field_facts(field: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: field[k] for k in _FIELD_FACTS if k in field}
    if field.get("fields"):
        out["fields"] = [_field_facts(f) for f in field["fields"]]
    return out


def spec_facts(spec: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The facts of one spec: what decides its bytes, no prose."""
    out: dict[str, Any] = {
        "source": source,
        "type": spec.get("type"),
        "apiKey": spec.get("apiKey"),
        "validVersions": spec["validVersions"],
        "flexibleVersions": spec.get("flexibleVersions", "none"),
        "fields": [_field_facts(f) for f in spec.get("fields", [])],
    }
    common = spec.get("commonStructs") or []
    if common:
        out["commonStructs"] = [
            {
                "name": s["name"],
                "versions": s.get("versions", "0+"),
                "fields": [_field_facts(f) for f in s["fields"]],
            }
            for s in common
        ]
    return out


def is_log_data(spec: Mapping[str, Any], folder: str | None) -> bool:
    """Whether a spec describes data Kafka writes to a log directory (not a request or response)."""
    if spec.get("type") in _NOT_LOG_DATA:
        return False
    names = FOLDERS.get(folder) if folder is not None else None
    return names is None or spec["name"] in names


def facts_of_files(files: Iterable[tuple[str, str, str | None]]) -> dict[str, dict[str, Any]]:
    """Facts of ``(path, text, folder)`` spec files, by message name; requests and responses dropped."""
    out: dict[str, dict[str, Any]] = {}
    for path, text, folder in files:
        spec = parse_spec(text, path)
        if is_log_data(spec, folder):
            out[spec["name"]] = spec_facts(spec, path)
    return dict(sorted(out.items()))


#: Kafka's largest spec file is about 30 KB; anything this big is not one, and is not read whole
MAX_SPEC_BYTES = 4 << 20


def _spec_text(p: Path) -> str:
    """One spec file's text; SpecError names the file when it is not a readable UTF-8 file of sane size."""
    if not p.is_file():
        raise SpecError(f"{p}: not a regular file")
    with p.open("rb") as f:
        data = f.read(MAX_SPEC_BYTES + 1)
    if len(data) > MAX_SPEC_BYTES:
        raise SpecError(f"{p}: larger than {MAX_SPEC_BYTES:,} bytes: not a Kafka message spec")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(f"{p}: not UTF-8 text (byte {exc.start})") from None


def read_specs(path: Path) -> dict[str, dict[str, Any]]:
    """Facts of the log-data specs under ``path``: a Kafka source checkout (its spec folders) or a
    folder of JSON spec files (every ``*.json`` below it that is not a request or response)."""
    if not path.is_dir():
        raise SpecError(
            f"{path}: not a directory (give a Kafka source checkout or a folder of its JSON specs)"
        )
    folders = [f for f in FOLDERS if (path / f).is_dir()]
    files: list[tuple[str, str, str | None]] = []
    if folders:
        for folder in folders:
            files += [
                (str(p.relative_to(path)), _spec_text(p), folder)
                for p in sorted((path / folder).glob("*.json"))
            ]
    else:
        files = [(str(p.relative_to(path)), _spec_text(p), None) for p in sorted(path.rglob("*.json"))]
    if not files:
        raise SpecError(f"{path}: holds no JSON spec files")
    return facts_of_files(files)


# ---------------------------------------------------------------- comparison


def versions_of(spec: str | None) -> range:
    """Kafka's ``"0+"``, ``"1-3"``, ``"2"``, ``"none"`` as a range (``+`` open up to 32767)."""
    if spec in (None, "none", ""):
        return range(0)
    assert spec is not None
    if spec.endswith("+"):
        return range(int(spec[:-1]), 32768)
    lo, _, hi = spec.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def snake(name: str) -> str:
    """Kafka's camelCase/PascalCase field name as ours (``KRaftVersion`` -> ``kraft_version``)."""
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


_INT_TYPES = {"int8", "int16", "uint16", "int32", "uint32", "int64"}


def kafka_default(ftype: str, default: Any) -> Any:
    """A field's default as a value: Kafka's string form parsed (``"-1"``, ``"0x7fffffff"``,
    ``"true"``), else the type's default. ``"null"`` on a struct or array means "none given" (the
    empty structure or list), not null: Kafka's generator builds the empty one."""
    if ftype.startswith("[]"):
        return None if default == "null" else []
    if ftype in _INT_TYPES:
        return 0 if default in (None, "") else int(str(default), 0)
    if ftype == "float64":
        return 0.0 if default in (None, "") else float(default)
    if ftype == "bool":
        return str(default).lower() == "true" if default not in (None, "") else False
    if ftype in ("string", "bytes"):
        if default == "null":
            return None
        return "" if default in (None, "") else str(default)
    return None  # uuid, structures: no comparable literal


def _our_default(f: MessageField) -> Any:
    if f.type == "array":
        return None if f.has_default and f.default is None else []
    if f.type in _INT_TYPES:
        return int(f.default) if f.has_default and f.default is not None else 0
    if f.type == "float64":
        return float(f.default) if f.has_default else 0.0
    if f.type == "bool":
        return bool(f.default) if f.has_default else False
    if f.type in ("string", "bytes"):
        if f.has_default and f.default is None:
            return None
        if not f.has_default:
            return ""
        return f.default.decode() if isinstance(f.default, bytes) else str(f.default)
    return None


@dataclass(frozen=True, slots=True)
class Drift:
    """One difference: the message (Kafka's name), the version (None: the whole message), what."""

    message: str
    version: int | None
    what: str
    #: a field of ours only that is tagged: Kafka's writer of that revision never writes it, so its
    #: bytes still read (a note, not drift: our schema is newer than that revision)
    newer: bool = False

    def __str__(self) -> str:
        at = "" if self.version is None else f" v{self.version}"
        return f"{self.message}{at}: {self.what}"


def field_versions(f: Mapping[str, Any]) -> range:
    """A field's versions: ``versions``, else (a field only ever tagged) its ``taggedVersions``."""
    return versions_of(f.get("versions") or f.get("taggedVersions"))


def same_name(kafka: str, ours: str) -> bool:
    """Kafka's field name and ours name the same field (``KRaftVersion`` and ``kraft_version``)."""
    return kafka.replace("_", "").lower() == ours.replace("_", "").lower()


def _key(name: str) -> str:
    return name.replace("_", "").lower()


def _kafka_fields(fields: list[dict[str, Any]], version: int, flexible: bool) -> list[dict[str, Any]]:
    present = [f for f in fields if version in field_versions(f)]
    untagged = [f for f in present if not (flexible and version in versions_of(f.get("taggedVersions")))]
    tagged = sorted((f for f in present if f not in untagged), key=lambda f: int(f["tag"]))
    return untagged + tagged


def _compare_struct(
    name: str,
    version: int,
    ov: int,
    flexible: bool,
    path: str,
    kafka: list[dict[str, Any]],
    common: Mapping[str, list[dict[str, Any]]],
    ours: MessageStruct,
    structs: Mapping[str, MessageStruct],
    out: list[Drift],
) -> None:
    theirs = _kafka_fields(kafka, version, flexible)
    mine = ours.fields_in(ov)
    by_name = {_key(f.name): f for f in mine}
    kafka_names = [_key(f["name"]) for f in theirs]
    for f in theirs:
        fname = snake(f["name"])
        where = f"{path}{fname}"
        o = by_name.get(_key(f["name"]))
        if o is None:
            tag = version in versions_of(f.get("taggedVersions")) and flexible
            out.append(
                Drift(
                    name,
                    version,
                    f"missing field {where} ({f['type']}{', tag ' + str(f['tag']) if tag else ''})",
                )
            )
            continue
        _compare_field(name, version, ov, flexible, f"{path}{o.name}", f, common, o, structs, out)
    for o in mine:
        if _key(o.name) not in kafka_names:
            out.append(
                Drift(
                    name,
                    version,
                    f"field {path}{o.name} is ours only (not in Kafka's spec)",
                    newer=o.tagged_in(ov),
                )
            )
    order_k = [by_name[_key(f["name"])].name for f in theirs if _key(f["name"]) in by_name]
    order_o = [f.name for f in mine if _key(f.name) in kafka_names]
    if order_k != order_o:
        out.append(
            Drift(
                name,
                version,
                f"fields of {path or 'the message'} in another order: Kafka "
                f"{', '.join(order_k)}; ours {', '.join(order_o)}",
            )
        )


def _compare_field(
    name: str,
    version: int,
    ov: int,
    flexible: bool,
    where: str,
    f: Mapping[str, Any],
    common: Mapping[str, list[dict[str, Any]]],
    o: MessageField,
    structs: Mapping[str, MessageStruct],
    out: list[Drift],
) -> None:
    ftype: str = f["type"]
    inner = ftype[2:] if ftype.startswith("[]") else None
    ours_type = f"[]{o.items}" if o.type == "array" else o.type
    kafka_is_struct = (inner or ftype)[:1].isupper()
    if kafka_is_struct:
        same = ours_type.startswith("[]") == bool(inner) and o.struct is not None
    else:
        same = ours_type == ftype
    if not same:
        out.append(Drift(name, version, f"field {where}: type {ftype} in Kafka, {ours_type} in ours"))
        return
    nullable = version in versions_of(f.get("nullableVersions"))
    if nullable != o.nullable_in(ov):
        out.append(
            Drift(
                name,
                version,
                f"field {where}: {'nullable' if nullable else 'not nullable'} in Kafka, "
                f"{'nullable' if o.nullable_in(ov) else 'not nullable'} in ours",
            )
        )
    tagged = flexible and version in versions_of(f.get("taggedVersions"))
    if tagged != o.tagged_in(ov) or (tagged and int(f["tag"]) != o.tag):
        k = f"tag {f['tag']}" if tagged else "untagged"
        m = f"tag {o.tag}" if o.tagged_in(ov) else "untagged"
        out.append(Drift(name, version, f"field {where}: {k} in Kafka, {m} in ours"))
    if (not kafka_is_struct or inner) and ftype != "uuid":
        if kafka_default(ftype, f.get("default")) != _our_default(o):
            out.append(
                Drift(
                    name,
                    version,
                    f"field {where}: default {f.get('default', '(type default)')!r} in "
                    f"Kafka, {o.default if o.has_default else '(type default)'!r} in ours",
                )
            )
    elif (
        kafka_is_struct
        and not inner
        and tagged
        and f.get("default") != "null"
        and o.has_default
        and o.default is None
    ):
        # a JSON "null" default on a struct means "none given": Kafka's reader gives the empty structure
        out.append(
            Drift(
                name, version, f"field {where}: absent reads as an empty structure in Kafka, as null in ours"
            )
        )
    if kafka_is_struct:
        fields = f.get("fields") or common.get(inner or ftype)
        if fields is None:
            out.append(
                Drift(name, version, f"field {where}: Kafka's structure {inner or ftype} is not in the spec")
            )
            return
        assert o.struct is not None
        _compare_struct(
            name, version, ov, flexible, f"{where}.", fields, common, structs[o.struct], structs, out
        )


def our_version(facts: Mapping[str, Any], version: int) -> int:
    """The version our schema gives a Kafka version: a coordinator key's is its record type (api key)."""
    return int(facts["apiKey"]) if facts.get("type") == "coordinator-key" else version


class Comparison(NamedTuple):
    """What :func:`compare` found."""

    #: differences that make Kafka's bytes read wrongly or not at all (exit 1)
    drift: list[Drift]
    #: Kafka messages not described yet, with where they are planned (:data:`PENDING`)
    pending: list[str]
    #: differences that do not matter for reading that revision: tagged fields of ours it lacks,
    #: a layout that matches one of our earlier layouts (``layout_of``)
    notes: list[str]


def _compare_message(kname: str, f: Mapping[str, Any], ours: Message) -> list[Drift]:
    drift: list[Drift] = []
    common = {s["name"]: s["fields"] for s in f.get("commonStructs", [])}
    flexible = versions_of(f.get("flexibleVersions"))
    for v in versions_of(f["validVersions"]):
        ov = our_version(f, v)
        if ov not in ours.valid_versions:
            drift.append(Drift(kname, v, "missing version"))
            continue
        if (v in flexible) != ours.flexible(ov):
            drift.append(
                Drift(
                    kname,
                    v,
                    f"{'flexible' if v in flexible else 'not flexible'} in Kafka, "
                    f"{'flexible' if ours.flexible(ov) else 'not flexible'} in ours",
                )
            )
            continue
        if (
            f.get("type") == "metadata"
            and ours.family in ("metadata", "remote_log")
            and f.get("apiKey") not in ours.type_ids
        ):
            drift.append(
                Drift(kname, v, f"api key {f.get('apiKey')} in Kafka, {list(ours.type_ids)} in ours")
            )
        _compare_struct(kname, v, ov, v in flexible, "", f["fields"], common, ours.root, ours.structs, drift)
    return drift


def _compare_json_file(kname: str, f: Mapping[str, Any]) -> list[Drift]:
    """A JSON file's message (:data:`JSON_FILES`): its versions and each field's name, type, versions and
    nullable versions against the reader's table."""
    from ..logdir.kafka.node_files import QUORUM_STATE_FIELDS, QUORUM_STATE_VERSIONS

    valid = versions_of(f["validVersions"])
    drift = []
    if list(valid) != list(QUORUM_STATE_VERSIONS):
        drift.append(
            Drift(
                kname,
                None,
                f"valid versions {f['validVersions']} in Kafka, {list(QUORUM_STATE_VERSIONS)} "
                f"in {JSON_FILES[kname]}",
            )
        )
    ours = {q.name: q for q in QUORUM_STATE_FIELDS}
    for field in f["fields"]:
        q = ours.pop(field["name"], None)
        if q is None:
            drift.append(Drift(kname, None, f"field {field['name']} is not in {JSON_FILES[kname]}"))
            continue
        theirs = (
            [v for v in versions_of(field.get("versions")) if v in valid],
            [v for v in versions_of(field.get("nullableVersions")) if v in valid],
            field["type"],
        )
        if theirs != (list(q.versions), list(q.nullable_versions), q.type):
            drift.append(
                Drift(
                    kname,
                    None,
                    f"field {field['name']}: versions {theirs[0]}, nullable {theirs[1]}, "
                    f"type {theirs[2]} in Kafka; versions {list(q.versions)}, nullable "
                    f"{list(q.nullable_versions)}, type {q.type} in ours",
                )
            )
    drift += [Drift(kname, None, f"field {name} of ours is not in Kafka's spec") for name in ours]
    return drift


def compare(facts: Mapping[str, Mapping[str, Any]], messages: Mapping[str, Message]) -> Comparison:
    """Every difference between Kafka's facts and our messages (by name, through :data:`ALIASES`).
    A message of ours that Kafka no longer has is not drift (an older release may write it); a
    message of Kafka's that we lack is, unless :data:`PENDING` plans it. Where our newest layout
    differs but one of our earlier layouts of the message (``layout_of``) matches, that is a note."""
    result = Comparison([], [], [])
    for kname, f in facts.items():
        name = ALIASES.get(kname, kname)
        ours = messages.get(name)
        if kname in JSON_FILES:
            result.drift.extend(_compare_json_file(kname, f))
            continue
        if ours is None:
            if kname in PENDING:
                result.pending.append(f"{kname}: {PENDING[kname]}")
            else:
                result.drift.append(
                    Drift(kname, None, f"missing message ({f.get('type')}, api key {f.get('apiKey')})")
                )
            continue
        found = _compare_message(kname, f, ours)
        if any(not d.newer for d in found):
            for earlier in (m for m in messages.values() if m.layout_of == ours.name):
                if not any(not d.newer for d in _compare_message(kname, f, earlier)):
                    result.notes.append(
                        f"{kname}: the layout of our {earlier.name} (Kafka {earlier.kafka_releases})"
                    )
                    found = []
                    break
        result.drift.extend(d for d in found if not d.newer)
        result.notes.extend(f"{d} (tagged: this revision never writes it)" for d in found if d.newer)
    return result

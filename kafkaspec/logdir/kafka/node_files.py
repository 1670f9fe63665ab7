"""The node's own files in a data directory: ``meta.properties``, ``quorum-state``, ``.kafka_cleanshutdown``.
One module because the three readers share its bounded parsers (UUIDs, JSON under a depth cap) and errors.

These say who wrote the directory and how it was left, not what the partitions hold:

* ``meta.properties`` (every log dir of a node): a Java properties file, version 0 (ZooKeeper-era
  brokers: ``broker.id``, maybe ``cluster.id``) or 1 (KRaft: ``node.id`` and ``cluster.id`` required),
  maybe a ``directory.id`` (KIP-858), read by Kafka's ``MetaProperties`` rules;
* ``quorum-state`` (in ``__cluster_metadata-0/`` of a KRaft voter): one line of JSON, Kafka's
  ``QuorumStateData`` at data_version 0 or 1 (its fields: :data:`QUORUM_STATE_FIELDS`);
* ``.kafka_cleanshutdown``: present when the broker last stopped cleanly; Kafka 3.x+ writes
  ``{"version":0,"brokerEpoch":N}`` in it, older brokers an empty file.

Each reader is bounded (a size cap, digits counted before a number is converted, JSON nesting
checked before it is parsed) and its errors name the file and the line or field.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any, NamedTuple

from ...errors import KafkaFormatError
from .files import _shown

META_PROPERTIES = "meta.properties"
QUORUM_STATE = "quorum-state"
CLEAN_SHUTDOWN = ".kafka_cleanshutdown"

#: the largest of these files read: each is a few hundred bytes as Kafka writes it
MAX_SIZE = 1 << 20
#: JSON nested deeper than this is refused before it is parsed (Kafka's files nest two levels)
MAX_JSON_DEPTH = 16
_INT32 = (-(1 << 31), (1 << 31) - 1)
_INT64 = (-(1 << 63), (1 << 63) - 1)
_INT_TEXT = re.compile(r"[+-]?[0-9]+")


# -- meta.properties -------------------------------------------------------------


class MetaProperties(NamedTuple):
    """What a ``meta.properties`` says, as Kafka's ``MetaProperties`` reads it."""

    version: int
    #: ``node.id`` (version 1) or ``broker.id`` (version 0; may be absent)
    node_id: int | None
    cluster_id: str | None
    #: the log directory's own Uuid (KIP-858), in Kafka's base64 text
    directory_id: str | None
    #: every key and value, in file order, with its line number
    properties: list[tuple[str, str, int]]
    #: keys Kafka reads in other versions or not at all (named so that nothing is silently dropped)
    ignored: list[str]


def parse_properties(
    text: str, source: str | None = None, name: str = META_PROPERTIES
) -> list[tuple[str, str, int]]:
    """A Java properties file (``Properties.load``) as (key, value, line) triples, in file order.

    Comments (``#``, ``!``), blank lines, ``key=value`` / ``key: value`` / ``key value``, backslash
    escapes (``\\t``, ``\\n``, ``\\uXXXX``, ``\\=``...) and lines continued by a trailing backslash.
    A malformed ``\\u`` escape is an error naming the line, as Java's reader refuses it.
    """
    out: list[tuple[str, str, int]] = []
    natural = text.splitlines()
    i = 0
    while i < len(natural):
        start = i
        line = natural[i].lstrip(" \t\f")
        i += 1
        if not line or line[0] in "#!":
            continue
        while _continued(line) and i < len(natural):  # a logical line over several natural ones
            line = line[:-1] + natural[i].lstrip(" \t\f")
            i += 1
        if _continued(line):
            line = line[:-1]
        key, value = _split_property(line)
        where = f"{name} line {start + 1}"
        out.append((_unescape(key, where, source), _unescape(value, where, source), start + 1))
    return out


def _continued(line: str) -> bool:
    return (len(line) - len(line.rstrip("\\"))) % 2 == 1


def _split_property(line: str) -> tuple[str, str]:
    i = 0
    while i < len(line):
        c = line[i]
        if c == "\\":
            i += 2
            continue
        if c in "=: \t\f":
            break
        i += 1
    key, rest = line[:i], line[i:]
    rest = rest.lstrip(" \t\f")
    if rest[:1] in ("=", ":"):
        rest = rest[1:].lstrip(" \t\f")
    return key, rest


_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def _unescape(text: str, where: str, source: str | None) -> str:
    if "\\" not in text:
        return text
    out = []
    i = 0
    while i < len(text):
        c = text[i]
        if c != "\\" or i + 1 == len(text):
            out.append(c)
            i += 1
            continue
        n = text[i + 1]
        if n == "u":
            digits = text[i + 2 : i + 6]
            if len(digits) != 4 or not all(d in "0123456789abcdefABCDEF" for d in digits):
                raise KafkaFormatError(
                    f"{where}: malformed \\uxxxx escape {_shown(text[i : i + 6])}", None, source
                )
            out.append(chr(int(digits, 16)))
            i += 6
            continue
        out.append(_ESCAPES.get(n, n))
        i += 2
    return "".join(out)


def _java_int(value: str, key: str, where: str, bounds: tuple[int, int], source: str | None) -> int:
    """``Integer.parseInt`` / ``Long.parseLong`` of ``value``: digits counted before converting."""
    if not _INT_TEXT.fullmatch(value) or len(value.lstrip("+-").lstrip("0")) > 19:
        raise KafkaFormatError(
            f"{where}: {key} {_shown(value)} is not a base-10 number Kafka can read", None, source
        )
    number = int(value)
    if not bounds[0] <= number <= bounds[1]:
        raise KafkaFormatError(
            f"{where}: {key} {_shown(value)} is out of range ({bounds[0]}..{bounds[1]})", None, source
        )
    return number


def parse_uuid(text: str) -> bytes | None:
    """The 16 bytes of a Kafka ``Uuid`` in its text form (URL-safe base64, as ``Uuid.fromString`` takes
    it: at most 24 characters, padding optional), or None when Kafka would refuse it."""
    if len(text) > 24 or not re.fullmatch(r"[A-Za-z0-9_-]{22}(==)?", text):
        return None
    try:
        raw = base64.urlsafe_b64decode(text[:22] + "==")
    except (binascii.Error, ValueError):
        return None
    return raw if len(raw) == 16 else None


def reserved_directory_id(raw: bytes) -> bool:
    """Kafka's ``DirectoryId.reserved``: the first 100 Uuids (0..99) mean something (MIGRATING,
    UNASSIGNED, LOST...) and are never a directory's own id."""
    return raw[:8] == bytes(8) and int.from_bytes(raw[8:], "big", signed=True) in range(0, 100)


#: how Kafka reads meta.properties: ``Properties.load(InputStream)``, ISO-8859-1 (it writes the file through a
#: UTF-8 writer, so a non-ASCII character comes back as Kafka's reader sees it, never as an error)
META_PROPERTIES_ENCODING = "latin-1"


def encoding_of(name: str) -> str:
    """The encoding Kafka reads the node file ``name`` with (the JSON files are UTF-8)."""
    return META_PROPERTIES_ENCODING if name == META_PROPERTIES else "utf-8"


def parse_meta_properties(text: str, source: str | None = None) -> MetaProperties:
    """Parse ``meta.properties`` by Kafka's ``MetaProperties.Builder`` and ``MetaPropertiesEnsemble`` rules.

    ``version`` defaults to 0 and must be 0 or 1. Version 0 reads ``broker.id`` (optional), version 1
    ``node.id`` (required, an int32); version 1 requires ``cluster.id``. A ``directory.id`` must be a
    Uuid Kafka can read and not one of the 100 reserved ones. A key given twice keeps its last value,
    as Java's reader does (the first is listed in ``ignored``). Errors name the line and ``source``.
    """
    props = parse_properties(text, source)
    last: dict[str, tuple[str, int]] = {}
    ignored: list[str] = []
    for key, value, line in props:
        if key in last:
            ignored.append(f"{key} on line {last[key][1]} (given again on line {line}, which Kafka keeps)")
        last[key] = (value, line)

    def where(key: str) -> str:
        return f"{META_PROPERTIES} line {last[key][1]}" if key in last else META_PROPERTIES

    version = 0
    if "version" in last:
        value = last["version"][0].strip()
        version = _java_int(value, "version", where("version"), _INT32, source)
        if version not in (0, 1):
            raise KafkaFormatError(
                f"{where('version')}: unknown meta.properties version {version} (Kafka knows 0 and 1)",
                None,
                source,
            )
    id_key = "broker.id" if version == 0 else "node.id"
    node_id = None
    if id_key in last:
        node_id = _java_int(last[id_key][0], id_key, where(id_key), _INT32, source)
    elif version == 1:
        raise KafkaFormatError(
            f"{META_PROPERTIES}: version 1 requires node.id, and there is none", None, source
        )
    cluster_id = last["cluster.id"][0] if "cluster.id" in last else None
    if cluster_id is None and version == 1:
        raise KafkaFormatError(
            f"{META_PROPERTIES}: version 1 requires cluster.id, and there is none", None, source
        )
    directory_id = last["directory.id"][0] if "directory.id" in last else None
    if directory_id is not None:
        raw = parse_uuid(directory_id)
        if raw is None:
            raise KafkaFormatError(
                f"{where('directory.id')}: directory.id {_shown(directory_id)} is not a Kafka "
                "Uuid (22 characters of URL-safe base64 encoding 16 bytes)",
                None,
                source,
            )
        if reserved_directory_id(raw):
            raise KafkaFormatError(
                f"{where('directory.id')}: directory.id {directory_id} is one of the 100 "
                "Uuids Kafka reserves (DirectoryId.reserved): Kafka refuses it",
                None,
                source,
            )
    known = {"version", "cluster.id", "directory.id", id_key}
    for key in last:
        if key not in known:
            other = "node.id" if key == "broker.id" else "broker.id" if key == "node.id" else None
            why = f"version {version} reads {id_key}, not {key}" if other else "not a key Kafka reads"
            ignored.append(f"{key} on line {last[key][1]} ({why})")
    return MetaProperties(version, node_id, cluster_id, directory_id, props, ignored)


def format_meta_properties(meta: dict[str, str], date: str = "Thu Nov 26 10:00:00 UTC 2026") -> str:
    """The text Kafka's ``PropertiesUtils.writePropertiesFile`` writes (``Properties.store`` with an empty
    comment: a ``#`` line, a ``#<date>`` line, then ``key=value`` lines)."""
    return "#\n#" + date + "\n" + "".join(f"{k}={v}\n" for k, v in meta.items())


# -- JSON (quorum-state, .kafka_cleanshutdown) -------------------------------------


def _json_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in JSON text, outside strings: one pass, no recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def load_json(text: str, name: str, source: str | None) -> Any:
    """JSON text of one of Kafka's small files: nesting checked before parsing; a syntax error names
    the line and column, and the byte."""
    if _json_depth(text) > MAX_JSON_DEPTH:
        raise KafkaFormatError(
            f"{name}: JSON nested more than {MAX_JSON_DEPTH} levels deep (Kafka writes two)", None, source
        )
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise KafkaFormatError(
            f"{name} is not JSON: {exc.msg} (line {exc.lineno} column {exc.colno})",
            len(text[: exc.pos].encode("utf-8")),
            source,
        ) from None
    except ValueError as exc:  # NaN/Infinity, or an integer of more digits than int() converts
        raise KafkaFormatError(f"{name}: {exc}", None, source) from None


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


# -- quorum-state ----------------------------------------------------------------


class QuorumField(NamedTuple):
    """A field of Kafka's ``QuorumStateData`` as its JSON file holds it."""

    name: str  # Kafka's spec name (ClusterId)
    key: str  # the JSON key (clusterId)
    type: str  # Kafka's spec type
    versions: tuple[int, ...]
    nullable_versions: tuple[int, ...]
    meaning: str


#: QuorumStateData (raft/src/main/resources/common/message/QuorumStateData.json): valid versions 0-1;
#: a test compares this table with the facts of Kafka's spec at each release kept in tests/codecs
QUORUM_STATE_FIELDS = (
    QuorumField(
        "ClusterId", "clusterId", "string", (0,), (), "the cluster id (version 0; Kafka leaves it empty)"
    ),
    QuorumField(
        "LeaderId",
        "leaderId",
        "int32",
        (0, 1),
        (),
        "the replica id of the leader of the latest epoch this voter knows",
    ),
    QuorumField(
        "LeaderEpoch", "leaderEpoch", "int32", (0, 1), (), "the latest leader epoch this voter knows"
    ),
    QuorumField(
        "VotedId", "votedId", "int32", (0, 1), (), "the replica id this voter voted for in that epoch"
    ),
    QuorumField(
        "VotedDirectoryId",
        "votedDirectoryId",
        "uuid",
        (1,),
        (),
        "the log directory id of the replica voted for (version 1)",
    ),
    QuorumField("AppliedOffset", "appliedOffset", "int64", (0,), (), "unused (version 0)"),
    QuorumField(
        "CurrentVoters",
        "currentVoters",
        "[]Voter",
        (0,),
        (0,),
        "the voters' replica ids (version 0; from version 1 the voter set is in the log)",
    ),
)
QUORUM_STATE_VERSIONS = (0, 1)
#: the key FileQuorumStateStore adds beside the fields
DATA_VERSION = "data_version"


def parse_quorum_state(text: str, source: str | None = None) -> dict[str, Any]:
    """Parse ``quorum-state`` as Kafka's ``FileQuorumStateStore`` reads it: the first line is one JSON
    object with ``data_version`` 0 or 1 and every field of that version (Kafka's JSON converter
    requires them), each of its type; keys of other versions or unknown ones are ignored by Kafka and
    kept here. A second non-empty line is an error (Kafka writes one line and reads only the first).
    """
    lines = text.splitlines()
    extra = next((n for n, line in enumerate(lines[1:], start=2) if line.strip()), None)
    if extra is not None:
        raise KafkaFormatError(
            f"{QUORUM_STATE} line {extra}: Kafka writes one line of JSON and reads only the "
            "first; this line would be ignored",
            len("\n".join(lines[: extra - 1])) + 1,
            source,
        )
    if not text.strip():
        raise KafkaFormatError(f"{QUORUM_STATE} is empty (Kafka: 'File ended prematurely')", 0, source)
    state = load_json(text, QUORUM_STATE, source)
    if not isinstance(state, dict):
        raise KafkaFormatError(f"{QUORUM_STATE} holds a JSON {_json_type(state)}, not an object", 0, source)
    version = state.get(DATA_VERSION)
    if version is None:
        raise KafkaFormatError(f"{QUORUM_STATE} has no {DATA_VERSION} field", 0, source)
    if isinstance(version, bool) or not isinstance(version, int) or version not in QUORUM_STATE_VERSIONS:
        raise KafkaFormatError(
            f"{QUORUM_STATE} {DATA_VERSION} is {_shown(json.dumps(version))}, expected 0 or 1", 0, source
        )
    for field in QUORUM_STATE_FIELDS:
        if version not in field.versions:
            continue
        where = f"{QUORUM_STATE} field {field.key} (data_version {version})"
        if field.key not in state:
            raise KafkaFormatError(f"{where} is missing: Kafka requires it in this version", None, source)
        _check_type(state[field.key], field, version, where, source)
    return state


def _json_type(value: object) -> str:
    return {
        dict: "object",
        list: "array",
        str: "string",
        bool: "boolean",
        type(None): "null",
        int: "number",
        float: "number",
    }.get(type(value), type(value).__name__)


def _check_type(value: object, field: QuorumField, version: int, where: str, source: str | None) -> None:
    if value is None and version in field.nullable_versions:
        return
    kind = field.type
    if kind in ("int32", "int64"):
        lo, hi = _INT32 if kind == "int32" else _INT64
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise KafkaFormatError(f"{where} is {_shown(json.dumps(value))}, not an {kind}", None, source)
    elif kind == "string":
        if not isinstance(value, str):
            raise KafkaFormatError(f"{where} is a JSON {_json_type(value)}, not a string", None, source)
    elif kind == "uuid":
        if not isinstance(value, str) or parse_uuid(value) is None:
            raise KafkaFormatError(f"{where} is {_shown(json.dumps(value))}, not a Kafka Uuid", None, source)
    elif kind == "[]Voter":
        if not isinstance(value, list):
            raise KafkaFormatError(f"{where} is a JSON {_json_type(value)}, not an array", None, source)
        for i, voter in enumerate(value):
            got = voter.get("voterId") if isinstance(voter, dict) else None
            if isinstance(got, bool) or not isinstance(got, int) or not _INT32[0] <= got <= _INT32[1]:
                raise KafkaFormatError(f'{where} item {i} is not {{"voterId": <int32>}}', None, source)


# -- .kafka_cleanshutdown --------------------------------------------------------


def parse_clean_shutdown(text: str, source: str | None = None) -> int | None:
    """The broker epoch in ``.kafka_cleanshutdown``: None for the empty file of brokers before 3.x.

    Kafka 3.x+ writes ``{"version":0,"brokerEpoch":N}`` (``CleanShutdownFileHandler``). Content that is
    neither is an error here; Kafka itself still counts the shutdown clean (the file exists) but
    learns no broker epoch from it.
    """
    if not text.strip():
        return None
    content = load_json(text, CLEAN_SHUTDOWN, source)
    if not isinstance(content, dict):
        raise KafkaFormatError(
            f"{CLEAN_SHUTDOWN} holds a JSON {_json_type(content)}, not an object", 0, source
        )
    version = content.get("version")
    if version != 0 or isinstance(version, bool):
        raise KafkaFormatError(
            f"{CLEAN_SHUTDOWN} version is {_shown(json.dumps(version))}, expected 0", 0, source
        )
    epoch = content.get("brokerEpoch")
    if isinstance(epoch, bool) or not isinstance(epoch, int) or not _INT64[0] <= epoch <= _INT64[1]:
        raise KafkaFormatError(
            f"{CLEAN_SHUTDOWN} brokerEpoch is {_shown(json.dumps(epoch))}, not an int64", 0, source
        )
    return epoch

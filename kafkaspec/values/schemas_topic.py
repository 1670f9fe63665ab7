"""The Schema Registry's own topic, ``_schemas``, replayed into every subject, version and id, as the
registry's ``KafkaStoreReaderThread`` / ``KafkaStoreMessageHandler`` apply it.

Each record's key is JSON with ``keytype`` (``SCHEMA``, ``DELETE_SUBJECT``, ``CLEAR_SUBJECT``,
``CONFIG``, ``MODE``, ``NOOP``, ``CONTEXT``, ``ASSOC``), ``subject``, ``version`` and ``magic``. Only
the first three change which schemas exist:

* ``SCHEMA`` with a value (``subject``, ``version``, ``id``, ``schema``, ``schemaType``,
  ``references``, ``deleted``) registers a subject-version; ``deleted: true`` is a soft delete: the
  version stays readable by id but is no longer a subject's latest version.
* ``SCHEMA`` with a null value is a hard delete: the subject-version is gone, and so is the id once
  no subject-version holds it.
* ``DELETE_SUBJECT`` (value ``{"subject", "version"}``) soft-deletes versions 1..version;
  ``CLEAR_SUBJECT`` hard-deletes the subject's soft-deleted versions.
* any other tombstone, and the other key types, change no schema.

A schema whose id is already held by a different schema is not applied (the registry ignores it on
its followers). Every record that cannot be read as the registry writes it is not applied and is
reported (:attr:`SchemaStore.problems`) with where it was; it never stops the replay.

Sans-IO: :meth:`SchemaStore.apply` takes one record's key and value bytes; :func:`read_schemas`
feeds it the ``_schemas`` partitions of a log directory.
"""

from __future__ import annotations

import hashlib
import heapq
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

__all__ = ["SCHEMAS_TOPIC", "Reference", "Schema", "SchemaStore", "SchemaVersion", "read_schemas"]

#: the registry's default ``kafkastore.topic``
SCHEMAS_TOPIC = "_schemas"
#: the registry's schema types; a value without ``schemaType`` is Avro
SCHEMA_TYPES = ("AVRO", "JSON", "PROTOBUF")
_IGNORED_KEYTYPES = ("CONFIG", "MODE", "NOOP", "CONTEXT", "ASSOC")


class Reference(NamedTuple):
    """A schema's reference to another: the name it is imported under, and the subject-version."""

    name: str
    subject: str
    version: int


class Schema(NamedTuple):
    """One schema as ``GET /schemas/ids/{id}`` gives it."""

    id: int
    schema: str
    #: AVRO, JSON or PROTOBUF
    schema_type: str
    references: tuple[Reference, ...] = ()


@dataclass
class SchemaVersion:
    """One subject-version as the ``_schemas`` topic last wrote it."""

    subject: str
    version: int
    schema: Schema
    deleted: bool
    #: where the record that registered it is (segment and offset)
    where: str

    def to_json(self) -> dict[str, Any]:
        return {
            "subject": self.subject,
            "version": self.version,
            "id": self.schema.id,
            "schema_type": self.schema.schema_type,
            "deleted": self.deleted,
            "references": [r._asdict() for r in self.schema.references],
            "schema": self.schema.schema,
        }


class _Bad(Exception):
    """A record not as the registry writes it: the reason."""


def _json_object(data: bytes, what: str) -> dict[str, Any]:
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise _Bad(f"the {what} is not JSON ({exc})") from None
    except RecursionError:
        raise _Bad(f"the {what} is JSON nested deeper than Python's reader goes") from None
    if not isinstance(obj, dict):
        raise _Bad(f"the {what} is JSON but not an object")
    return obj


def _field(obj: dict[str, Any], name: str, kind: type, what: str, optional: bool = False) -> Any:
    v = obj.get(name)
    if v is None and optional:
        return None
    if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
        shown = (
            f"a JSON {'object' if isinstance(v, dict) else 'array'}"
            if isinstance(v, dict | list)
            else json.dumps(v)[:80]
        )
        raise _Bad(f"the {what}'s {name!r} is {shown}, not {'a string' if kind is str else 'an integer'}")
    return v


def _canonical(text: str) -> bytes | None:
    """A digest of ``text`` as JSON with whitespace and key order left out (the registry compares
    canonical forms), or None for text that is not JSON."""
    try:
        form = json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (ValueError, RecursionError):
        return None
    return hashlib.sha256(form.encode("utf-8", "surrogatepass")).digest()


@dataclass
class SchemaStore:
    """What the ``_schemas`` records say at the end of the log."""

    #: (subject, version) -> the subject-version, soft-deleted ones included
    versions: dict[tuple[str, int], SchemaVersion] = field(default_factory=dict)
    #: id -> {subject: version} of the subject-versions that hold it
    ids: dict[int, dict[str, int]] = field(default_factory=dict)
    #: (where, reason) of each record not applied
    problems: list[tuple[str, str]] = field(default_factory=list)
    #: records read, by key type (tombstones as "<keytype> tombstone")
    counts: dict[str, int] = field(default_factory=dict)
    #: how many partitions of the topic were read (0: there was none where the store was read from)
    partitions_read: int = 0
    #: subject -> {version: subject-version}: a subject's deletes touch its versions only
    _by_subject: dict[str, dict[int, SchemaVersion]] = field(default_factory=dict, repr=False)
    #: subject -> a min-heap of the versions registered live, stale entries included (skipped when
    #: popped): a DELETE_SUBJECT pops only what it deletes, so each registration is deleted at most once
    _live: dict[str, list[int]] = field(default_factory=dict, repr=False)
    #: subject -> the versions soft-deleted since its last CLEAR_SUBJECT (some maybe live again since):
    #: a CLEAR_SUBJECT looks at these, not at every version the subject has
    _soft: dict[str, set[int]] = field(default_factory=dict, repr=False)
    #: schema id -> :func:`_canonical` of the schema that holds it, worked out once (a record claiming a
    #: held id is compared with it: parsing the held text for each claim made replay N x S)
    _canon: dict[int, bytes | None] = field(default_factory=dict, repr=False)

    def apply(self, key: bytes | None, value: bytes | None, where: str = "") -> None:
        """Apply one ``_schemas`` record; a record that is not as the registry writes it is reported."""
        try:
            self._apply(key, value, where)
        except _Bad as exc:
            self.problems.append((where, str(exc)))

    def _apply(self, key: bytes | None, value: bytes | None, where: str) -> None:
        if key is None:
            raise _Bad("the key is null (every _schemas record has a JSON key)")
        k = _json_object(key, "key")
        keytype = k.get("keytype")
        if not isinstance(keytype, str):
            raise _Bad(f"the key has no keytype: {key[:80]!r}")
        kind = keytype + (" tombstone" if value is None else "")
        if keytype in _IGNORED_KEYTYPES:
            self.counts[kind] = self.counts.get(kind, 0) + 1
            return
        if keytype not in ("SCHEMA", "DELETE_SUBJECT", "CLEAR_SUBJECT"):
            raise _Bad(f"unknown keytype {keytype[:40]!r}")
        subject = _field(k, "subject", str, "key")
        if keytype == "SCHEMA":
            version = _field(k, "version", int, "key")
            if value is None:
                self._tombstone(subject, version)
            else:
                self._register(subject, version, _json_object(value, "value"), where)
        elif value is not None:  # a DELETE_SUBJECT or CLEAR_SUBJECT tombstone changes nothing
            v = _json_object(value, "value")
            if _field(v, "subject", str, "value") != subject:
                raise _Bad(f"the value's subject {v['subject'][:80]!r} is not the key's {subject[:80]!r}")
            if keytype == "DELETE_SUBJECT":
                self._delete_subject(subject, _field(v, "version", int, "value"))
            else:
                self._clear_subject(subject)
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def _register(self, subject: str, version: int, v: dict[str, Any], where: str) -> None:
        if _field(v, "subject", str, "value") != subject or _field(v, "version", int, "value") != version:
            raise _Bad(
                f"the value's subject-version {v['subject'][:80]!r} {v['version']} is not the key's "
                f"{subject[:80]!r} {version}"
            )
        schema_id = _field(v, "id", int, "value")
        text = _field(v, "schema", str, "value")
        schema_type = _field(v, "schemaType", str, "value", optional=True) or "AVRO"
        if schema_type not in SCHEMA_TYPES:
            raise _Bad(
                f"unknown schemaType {schema_type[:40]!r} (the registry's are {', '.join(SCHEMA_TYPES)})"
            )
        refs = v.get("references") or []
        if not isinstance(refs, list):
            raise _Bad("the value's references are not a list")
        references = []
        for r in refs:
            if not isinstance(r, dict):
                raise _Bad("a reference is not an object")
            references.append(
                Reference(
                    _field(r, "name", str, "reference"),
                    _field(r, "subject", str, "reference"),
                    _field(r, "version", int, "reference"),
                )
            )
        deleted = v.get("deleted", False)
        if not isinstance(deleted, bool):
            raise _Bad(f"the value's 'deleted' is {json.dumps(deleted)[:40]}, not true or false")
        holders = self.ids.get(schema_id)
        if holders:
            s0, v0 = next(iter(holders.items()))
            other = self.versions[(s0, v0)]
            if (s0, v0) != (subject, version) and not self._same_as_held(
                schema_id, other.schema.schema, text
            ):
                raise _Bad(
                    f"schema id {schema_id} is already {s0!r} version {v0}'s, with another schema "
                    "(the registry ignores it)"
                )
        old = self.versions.get((subject, version))
        if old is not None and old.schema.id != schema_id:
            self._unhold(old)
        sv = SchemaVersion(
            subject, version, Schema(schema_id, text, schema_type, tuple(references)), deleted, where
        )
        self.versions[(subject, version)] = sv
        self._by_subject.setdefault(subject, {})[version] = sv
        self.ids.setdefault(schema_id, {})[subject] = version
        if deleted:
            self._soft.setdefault(subject, set()).add(version)
        else:
            heapq.heappush(self._live.setdefault(subject, []), version)

    def _same_as_held(self, schema_id: int, held: str, text: str) -> bool:
        """``text`` is the schema that holds ``schema_id`` (``held``), ignoring JSON whitespace."""
        if held == text:
            return True
        if schema_id not in self._canon:
            self._canon[schema_id] = _canonical(held)
        mine = self._canon[schema_id]
        return mine is not None and mine == _canonical(text)

    def _delete_subject(self, subject: str, until: int) -> None:
        """Soft-delete the subject's versions 1..``until``."""
        live = self._live.get(subject)
        own = self._by_subject.get(subject, {})
        while live and live[0] <= until:
            sv = own.get(heapq.heappop(live))
            if sv is not None and not sv.deleted:
                sv.deleted = True
                self._soft.setdefault(subject, set()).add(sv.version)

    def _clear_subject(self, subject: str) -> None:
        """Hard-delete the subject's soft-deleted versions."""
        own = self._by_subject.get(subject, {})
        for ver in sorted(self._soft.pop(subject, ())):
            sv = own.get(ver)
            if sv is not None and sv.deleted:
                self._tombstone(subject, ver)

    def _unhold(self, sv: SchemaVersion) -> None:
        holders = self.ids.get(sv.schema.id, {})
        if holders.get(sv.subject) == sv.version:
            del holders[sv.subject]
        if not holders:
            self.ids.pop(sv.schema.id, None)
            self._canon.pop(sv.schema.id, None)

    def _tombstone(self, subject: str, version: int) -> None:
        old = self.versions.pop((subject, version), None)
        if old is not None:
            self._unhold(old)
            own = self._by_subject[subject]
            del own[version]
            if not own:  # what is left of the subject's heap and set is stale
                del self._by_subject[subject]
                self._live.pop(subject, None)
                self._soft.pop(subject, None)

    # -- lookups ---------------------------------------------------------------------------------

    def by_id(self, schema_id: int) -> Schema | None:
        """The schema registered under ``schema_id`` (soft-deleted versions too, as the registry serves
        them by id); None when no subject-version holds it."""
        holders = self.ids.get(schema_id)
        if not holders:
            return None
        s, v = next(iter(holders.items()))
        return self.versions[(s, v)].schema

    def version(self, subject: str, version: int) -> Schema | None:
        sv = self.versions.get((subject, version))
        return None if sv is None else sv.schema

    def latest(self, subject: str) -> SchemaVersion | None:
        """The subject's highest version not deleted, or None."""
        live = [sv for sv in self._by_subject.get(subject, {}).values() if not sv.deleted]
        return max(live, key=lambda sv: sv.version, default=None)

    def subjects(self) -> list[str]:
        return sorted(self._by_subject)

    def to_json(self) -> dict[str, Any]:
        """Each subject (sorted) with its versions; then the record counts and the problems."""
        by_subject: dict[str, list[dict[str, Any]]] = {}
        for (s, _), sv in sorted(self.versions.items()):
            by_subject.setdefault(s, []).append(sv.to_json())
        return {
            "subjects": [{"subject": s, "versions": vs} for s, vs in by_subject.items()],
            "record_counts": dict(sorted(self.counts.items())),
            "problems": [{"where": w, "problem": p} for w, p in self.problems],
        }


class _Segment(Protocol):
    @property
    def path(self) -> object: ...

    def iter_batches(self) -> Iterable[Any]: ...

    def close(self) -> None: ...


class _Partition(Protocol):
    @property
    def topic(self) -> object: ...

    def segments(self) -> Sequence[_Segment]: ...


class LogSource(Protocol):
    """What :func:`read_schemas` reads: a :class:`kafkaspec.logdir.LogDir` (named by its shape, so the
    value decoders sit below the log directories and import nothing of them)."""

    def partitions(self) -> Sequence[_Partition]: ...


def read_schemas(log: LogSource, topic: str = SCHEMAS_TOPIC) -> SchemaStore:
    """Replay the ``topic`` partitions of ``log`` (the registry uses one) in offset order.

    A batch that cannot be read is a problem of the store (its segment named); the records before it
    are applied."""
    from kafkaspec.errors import KafkaFormatError

    store = SchemaStore()
    for part in log.partitions():
        if part.topic != topic:
            continue
        store.partitions_read += 1
        for seg in part.segments():
            try:
                for batch in seg.iter_batches():
                    if batch.is_control:
                        continue
                    for r in batch:
                        store.apply(r.key, r.value, f"{seg.path} offset {r.offset}")
            except KafkaFormatError as exc:
                store.problems.append((str(seg.path), str(exc)))
            finally:
                seg.close()
    return store

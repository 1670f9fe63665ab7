"""``kafkaspec inspect metadata | offsets | remote-log | share-state | schemas | dead-letters | datadir``: summaries.
One module because it is one command: the replays live in the payloads and logdir layers, its text here.

``metadata`` replays the latest KRaft snapshot (``<offset>-<epoch>.checkpoint``) and the
``__cluster_metadata`` log after it into the cluster state at the end (like Kafka's metadata
shell); ``offsets`` prints the last committed offset per group, topic and partition from the
``__consumer_offsets`` partitions, with each group's stored state; ``remote-log`` replays
``__remote_log_metadata`` into the state of each remote (tiered) segment per topic partition;
``share-state`` prints each share-partition's state (KIP-932) from the ``__share_group_state``
partitions: the last snapshot and the updates after it;
``schemas`` lists the Schema Registry's subjects, versions and ids from its ``_schemas`` topic
(kafkaspec.values.schemas_topic); ``dead-letters`` the share groups' dead-letter records (KIP-1191)
by their ``__dlq.errors.*`` headers (kafkaspec.payloads.dead_letters); ``datadir`` what a data dir's
own files say.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from kafkaspec.printable import escape, finite, json_text

from ..logdir.tiered.key_dir import add_key_dir_argument, private_keys

if TYPE_CHECKING:
    from kafkaspec.logdir import Partition
    from kafkaspec.payloads import ClusterState, Decoded
    from kafkaspec.payloads.remote_log_state import RemoteLogState

    from ..logdir.store.fs import StoragePath
    from ..logdir.tiered.encryption import PrivateKeys

EPILOG = r"""examples:
  kafkaspec inspect metadata /var/lib/kafka/kraft-combined-logs
  kafkaspec inspect metadata /var/lib/kafka/data/__cluster_metadata-0 --json
  kafkaspec inspect offsets /var/lib/kafka/data
  kafkaspec inspect offsets /var/lib/kafka/data/__consumer_offsets-6 --json
  kafkaspec inspect datadir /var/lib/kafka/data             # its meta.properties, checkpoints, clean shutdown
  kafkaspec inspect remote-log /var/lib/kafka/data
  kafkaspec inspect remote-log /var/lib/kafka/data/__remote_log_metadata-3 --json
  kafkaspec inspect share-state /var/lib/kafka/data --json
  kafkaspec inspect schemas /var/lib/kafka/data --json
  kafkaspec inspect dead-letters /var/lib/kafka/data/dlq.orders-0

share-state shows, per share group, topic id and partition, the last ShareSnapshot and
the ShareUpdates written after it (their state batches as written, not merged), with
the start offset and leader epoch the updates moved them to.

schemas replays the Schema Registry's _schemas topic as the registry does: a soft
delete (deleted: true, or a DELETE_SUBJECT record) keeps the version readable by id
and marks it deleted; a hard delete (a null value) removes it. A record that is not as
the registry writes it (not JSON, a field missing, an id already another schema's) is
not applied and is reported on stderr with its segment and offset.

dead-letters reads the records of every topic but Kafka's own (or of the partition
given) and summarises those with __dlq.errors.* headers, which Kafka 4.4 writes when a
share group gives up on a record: per dead-letter topic, source partition and group, how
many, the source offsets they span, the highest delivery count, how many carry the
headers only (the original could not be fetched) and the causes. A record whose headers
do not read (a partition that is no number, a header missing) is counted and reported on
stderr with its segment and offset.

A metadata record that contradicts the records before it (a second id for a topic
name, a partition of a topic id never created, a change to a partition or broker that
does not exist, a transaction end with no beginning) is not applied and is reported
on stderr with its segment and offset (and in --json's "contradictions"). So is a
__remote_log_metadata event that Kafka's state-transition rules refuse (a segment update
with no metadata record before it, COPY_SEGMENT_FINISHED after DELETE_SEGMENT_STARTED, ...):
it is not applied, as a broker drops it.

Text output escapes what is not printable in names, hosts and values (control, format
and separator characters as \xNN, \uNNNN, \n, \t, \r; a backslash as \\). JSON is
always valid: a NaN or infinite quota value is the string "NaN", "Infinity" or "-Infinity".

exit codes: 0 ok, 1 a record could not be decoded or contradicts the log before it (reported;
the rest is still summarised), 2 bad path or no such partition under it
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "inspect",
        help="summarise Kafka's own topics (KRaft metadata, consumer offsets, remote log "
        "metadata, share group state)",
        description="Replay __cluster_metadata, __consumer_offsets, "
        "__remote_log_metadata or __share_group_state into what they say at the end.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "what",
        choices=("metadata", "offsets", "remote-log", "share-state", "schemas", "dead-letters", "datadir"),
        help="metadata: cluster state from the KRaft log; offsets: committed offsets per group; "
        "remote-log: the state of each tiered segment from __remote_log_metadata; "
        "share-state: the state of each share-partition; schemas: the Schema Registry's subjects, "
        "versions and ids from _schemas; dead-letters: share groups' dead-letter records by "
        "their __dlq.errors.* headers; datadir: what a data dir's own files say "
        "(meta.properties, clean shutdown, offset checkpoints, quorum-state, the bootstrap records)",
    )
    p.add_argument(
        "path",
        metavar="DIR",
        help="data dir, or the __cluster_metadata-0 / __consumer_offsets-N / "
        "__remote_log_metadata-N / __share_group_state-N / _schemas-0 dir; "
        "local, or an object-store URI (s3://bucket/prefix/, configured from the environment)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object instead of text")
    add_key_dir_argument(p)
    p.set_defaults(func=run)


class _Problems:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, where: str, reason: str) -> None:
        self.count += 1
        print(escape(f"kafkaspec inspect: {where}: {reason}"), file=sys.stderr)


def _records(
    part: Partition, segments: list, family: str, problems: _Problems, start: int | None = None
) -> Iterator[tuple[str, int, Decoded]]:
    """(segment path, offset, decoded) for the non-control records of ``segments``, from offset ``start``."""
    from kafkaspec.errors import KafkaFormatError
    from kafkaspec.logdir.kafka.files import is_metadata_checkpoint
    from kafkaspec.payloads import decode_as

    for seg in segments:
        try:
            batches = seg.iter_batches()
            footer = False  # the last batch read is a snapshot's footer
            for batch in batches:
                footer = batch.is_control and _footer(batch)
                if batch.is_control:
                    continue
                for r in batch:
                    if start is not None and r.offset < start:
                        continue
                    try:
                        yield str(seg.path), r.offset, decode_as(family, r.key, r.value)  # type: ignore[arg-type]
                    except KafkaFormatError as exc:
                        problems(f"{seg.path} offset {r.offset}", exc.reason)
            partial = getattr(batches, "partial", None)
            if partial is not None and is_metadata_checkpoint(seg.path):  # a log's last batch may be torn
                problems(
                    str(seg.path),
                    f"an incomplete batch at byte {partial.position} ({partial.size} bytes to the end): "
                    "a snapshot is written whole, so this one is damaged",
                )
            elif not footer and is_metadata_checkpoint(seg.path):
                problems(
                    str(seg.path),
                    f"no SNAPSHOT_FOOTER control record at its end (byte {seg.size}): the snapshot was not "
                    "written completely",
                )
        except KafkaFormatError as exc:
            problems(str(seg.path), str(exc))
        finally:
            seg.close()


def _footer(batch: Any) -> bool:
    """Whether a control batch is a KRaft snapshot's SNAPSHOT_FOOTER."""
    from kafkaspec.errors import KafkaFormatError
    from kafkaspec.generated.enums import ControlRecordType

    try:
        return bool(batch.control.type == ControlRecordType.SNAPSHOT_FOOTER)
    except KafkaFormatError:
        return False


#: the topic each summary replays
_TOPICS = {
    "metadata": "__cluster_metadata",
    "offsets": "__consumer_offsets",
    "remote-log": "__remote_log_metadata",
    "share-state": "__share_group_state",
    "schemas": "_schemas",
}


def _find(path: StoragePath, topic: str, keys: PrivateKeys | None) -> list[Partition]:
    from kafkaspec.logdir import open_log

    return [p for p in open_log(path, keys=keys).partitions() if p.topic == topic]


def run(args: argparse.Namespace) -> int:
    from ..logdir import Segment, open_log
    from ..logdir.kafka import files
    from ..logdir.store.storage import as_path

    path = as_path(args.path)  # a local path or an object-store URI (s3://bucket/prefix), as dump takes
    if args.what == "datadir":
        return _datadir(path, args.json)
    problems = _Problems()
    if args.what == "dead-letters":
        return _dead_letters(path, private_keys(args), args.json, problems)
    topic = _TOPICS[args.what]
    keys = private_keys(args)
    parts = _find(path, topic, keys)
    if not parts and args.what == "metadata":
        # a data dir formatted with static voters before Kafka 4.4 holds only bootstrap.checkpoint
        parts = [p for p in open_log(path, keys=keys).checkpoints() if p.partition < 0]
    if not parts:
        print(escape(f"kafkaspec inspect: {path}: no {topic} partition here"), file=sys.stderr)
        return 2
    if args.what == "schemas":
        from kafkaspec.values.schemas_topic import read_schemas

        store = read_schemas(open_log(path, keys=keys))
        for where, what in store.problems:
            problems(where, what)
        body = store.to_json()
        print(json_text(body, indent=1) if args.json else _schemas_text(body))
    elif args.what == "metadata":
        from kafkaspec.payloads.cluster_state import ClusterState

        state = ClusterState()
        found: list[dict[str, Any]] = []
        part = parts[0]
        bootstrap_only = part.partition < 0  # bootstrap.checkpoint: the records before log offset 0
        if bootstrap_only:
            snapshots = [s.path for s in part.segments()]
        else:
            snapshots = [p for p in part.checkpoint_paths() if p.name != files.BOOTSTRAP_CHECKPOINT]
        start = None
        if snapshots:
            latest = max(snapshots, key=lambda p: p.name)
            state.snapshot = str(latest)
            # the snapshot holds the records before this offset
            start = 0 if bootstrap_only else int(latest.name.split("-", 1)[0])
            for where, offset, record in _records(part, [Segment(latest)], "metadata", problems):
                _replay(state, record, where, offset, problems, found)
            # a snapshot's record offsets are its own, from 0: the state is at the last log offset it holds
            state.last_offset = start - 1
        for where, offset, record in _records(
            part, [] if bootstrap_only else part.segments(), "metadata", problems, start
        ):
            _replay(state, record, where, offset, problems, found)
        body = finite(state.to_json())
        body["contradictions"] = found  # the state's list, each with the file that holds the record
        print(json_text(body, indent=1) if args.json else _metadata_text(body))
    elif args.what == "remote-log":
        from kafkaspec.payloads.remote_log_state import RemoteLogState

        rstate = RemoteLogState()  # memory bounded by the segments (at most one event per segment and state)
        found = []
        for part in sorted(parts, key=lambda p: p.partition):
            for where, offset, record in _records(part, part.segments(), "remote_log", problems):
                _replay(rstate, record, where, offset, problems, found)
        body = rstate.to_json()
        body["contradictions"] = found
        print(json_text(body, indent=1) if args.json else _remote_log_text(body))
    elif args.what == "share-state":
        from kafkaspec.payloads.share_state import ShareState

        shares = ShareState()
        for part in parts:
            for _, offset, record in _records(part, part.segments(), "share", problems):
                shares.apply(record, offset)
        body = finite(shares.to_json())
        print(json_text(body, indent=1) if args.json else _share_text(body))
    else:
        from kafkaspec.payloads.group_state import GroupOffsets

        offsets = GroupOffsets()
        for part in parts:
            for _, offset, record in _records(part, part.segments(), "offsets", problems):
                offsets.apply(record, offset)
        body = finite(offsets.to_json())
        print(json_text(body, indent=1) if args.json else _offsets_text(body))
    return 1 if problems.count else 0


def _dead_letters(path: StoragePath, keys: PrivateKeys | None, as_json: bool, problems: _Problems) -> int:
    """``inspect dead-letters``: every record with ``__dlq.errors.*`` headers, outside Kafka's own topics."""
    from kafkaspec.errors import KafkaFormatError
    from kafkaspec.logdir import open_log
    from kafkaspec.payloads.dead_letters import DeadLetters, is_dead_letter

    letters = DeadLetters()
    for part in open_log(path, keys=keys).partitions():
        if part.topic.startswith("__"):  # Kafka's own topics are never a dead-letter topic
            continue
        for seg in part.segments():
            try:
                for batch in seg.iter_batches():
                    if batch.is_control:
                        continue
                    for r in batch:
                        if not is_dead_letter(r.headers):
                            continue
                        why = letters.apply(part.topic, r.headers, r.key is not None or r.value is not None)
                        if why is not None:
                            problems(f"{seg.path} offset {r.offset}", why)
            except KafkaFormatError as exc:
                problems(str(seg.path), str(exc))
            finally:
                seg.close()
    body = letters.to_json()
    print(json_text(body, indent=1) if as_json else _dead_letters_text(body))
    return 1 if problems.count else 0


def _dead_letters_text(s: dict[str, Any]) -> str:
    n = len(s["topics"])
    lines = [f"dead-letter records: {s['records']} in {n} topic{'' if n == 1 else 's'}"]
    for t in s["topics"]:
        lines.append(f"{t['topic']}:")
        for x in t["sources"]:
            count = "-" if x["max_delivery_count"] is None else x["max_delivery_count"]
            causes = ", ".join(f"{k} {v}" for k, v in x["causes"].items())
            lines.append(
                f"  {x['topic']}-{x['partition']}  group {x['group']}  {x['records']} records  source offsets "
                f"{x['first_offset']}..{x['last_offset']}  max delivery count {count}  headers only "
                f"{x['headers_only']}  causes: {causes}"
            )
    return "\n".join(map(escape, lines))


def _datadir(path: StoragePath, as_json: bool) -> int:
    """``inspect datadir``: the summary of a data dir's own files; exit 1 when one does not read."""
    from ..logdir.verify.summary import summarise

    if not path.is_dir():
        print(
            escape(f"kafkaspec inspect: {path}: not a directory (give a broker's data dir)"), file=sys.stderr
        )
        return 2
    body = summarise(path)
    for error in body["errors"]:
        print(escape(f"kafkaspec inspect: {error}"), file=sys.stderr)
    print(json_text(body, indent=1) if as_json else _datadir_text(body))
    return 1 if body["errors"] else 0


def _datadir_text(s: dict[str, Any]) -> str:
    lines = [f"data dir {s['data_dir']}: {s['partitions']} partitions"]
    m = s["meta_properties"]
    if m is None:
        lines.append("meta.properties: none")
    elif "error" in m:
        lines.append("meta.properties: cannot be read (see above)")
    else:
        who = "broker.id" if m["version"] == 0 else "node.id"
        lines.append(
            f"meta.properties: version {m['version']}  {who} {m['node_id']}  cluster.id {m['cluster_id']}  "
            f"directory.id {m['directory_id'] or '-'}"
        )
    c = s["clean_shutdown"]
    if not c["clean"]:
        lines.append("last shutdown: not clean (no .kafka_cleanshutdown), or the broker is running")
    else:
        lines.append(
            "last shutdown: clean"
            + (f", broker epoch {c['broker_epoch']}" if c["broker_epoch"] is not None else "")
        )
    for name, n in s["offset_checkpoints"].items():
        shown = (
            "none"
            if n is None
            else "cannot be read (see above)"
            if isinstance(n, dict)
            else f"{n} partitions"
        )
        lines.append(f"{name}: {shown}")
    q = s["quorum_state"]
    if q is not None and "error" not in q:
        lines.append(
            f"quorum-state: data_version {q['data_version']}  leader {q['leaderId']}  epoch "
            f"{q['leaderEpoch']}  voted {q['votedId']}"
        )
    b = s["bootstrap"]
    if b is not None:
        records = ", ".join(f"{k} {v}" for k, v in b["records"].items()) or "none"
        lines.append(f"{b['file']}: metadata.version level {b['metadata_version_level']}; records: {records}")
    return "\n".join(map(escape, lines))


def _diskless(p: dict[str, Any]) -> str:
    """Inkless's fields of a partition (kafkaspec.payloads.inkless), where it wrote them."""
    parts = []
    if "classic_to_diskless_start_offset" in p:
        parts.append(f"diskless from offset {p['classic_to_diskless_start_offset']}")
    if "diskless_leader_epoch" in p:
        parts.append(f"diskless leader epoch {p['diskless_leader_epoch']}")
    if "producer_states" in p:
        parts.append(f"producer states {len(p['producer_states'])}")
    return "".join(f"  {x}" for x in parts)


def _replay(
    state: ClusterState | RemoteLogState,
    record: Decoded,
    where: str,
    offset: int,
    problems: _Problems,
    found: list[dict[str, Any]],
) -> None:
    """Apply one metadata record; report each contradiction it (or the transaction it ends) holds,
    naming the segment and the offset of the record that contradicts, and add it to ``found``."""
    seen = len(state.contradictions)
    state.apply(record, offset)
    for at, what in state.contradictions[seen:]:
        # a record of a transaction is applied (and checked) at its end, which may be in a later segment
        file = where if at == offset else where.rsplit("/", 1)[0]  # (a path or a URI)
        problems(f"{file} offset {at}", what)
        found.append({"file": file, "offset": at, "problem": what})


def _endpoints(e: list[dict[str, Any]]) -> str:
    return ", ".join(f"{x['name']}://{x['host']}:{x['port']}" for x in e) or "-"


def _metadata_text(s: dict[str, Any]) -> str:
    lines = [
        (
            "metadata before log offset 0"  # the bootstrap records of the zero checkpoint alone
            if s["last_offset"] is not None and s["last_offset"] < 0
            else f"metadata at offset {s['last_offset']}"
        )
        + (f" (from snapshot {s['snapshot']})" if s["snapshot"] else "")
    ]
    if s["open_transaction"] is not None:
        lines.append(f"open metadata transaction from offset {s['open_transaction']} (not applied)")
    lines.append("features: " + (", ".join(f"{k}={v}" for k, v in s["features"].items()) or "-"))
    lines.append(f"brokers ({len(s['brokers'])}):")
    for b in s["brokers"]:
        flags = [f for f in ("fenced", "in_controlled_shutdown") if b.get(f)]
        lines.append(
            f"  {b['broker_id']}  epoch {b['broker_epoch']}  {_endpoints(b['end_points'])}  "
            f"rack {b['rack'] or '-'}  {' '.join(flags) or 'active'}  incarnation {b['incarnation_id']}"
        )
    lines.append(f"controllers ({len(s['controllers'])}):")
    for c in s["controllers"]:
        lines.append(
            f"  {c['controller_id']}  {_endpoints(c['end_points'])}  incarnation {c['incarnation_id']}"
        )
    lines.append(f"topics ({len(s['topics'])}):")
    for t in s["topics"]:
        lines.append(f"  {t['name']}  id {t['topic_id']}  partitions {len(t['partitions'])}")
        for p in t["partitions"]:
            lines.append(
                f"    {p['partition']}  leader {p['leader']}  epoch {p['leader_epoch']}  "
                f"replicas {p['replicas']}  isr {p['isr']}" + _diskless(p)
            )
    for c in s["configs"]:
        lines.append(
            f"config {c['resource_type']}:{c['resource_name'] or '<default>'}: "
            + ", ".join(f"{k}={v}" for k, v in c["configs"].items())
        )
    for q in s["quotas"]:
        entity = ",".join(f"{e['entity_type']}={e['entity_name'] or '<default>'}" for e in q["entity"])
        lines.append(f"quota {entity}: " + ", ".join(f"{k}={v}" for k, v in q["quotas"].items()))
    if s["acls"]:
        lines.append(f"acls: {len(s['acls'])}")
    if s["producer_ids"]:
        p = s["producer_ids"]
        lines.append(f"producer ids: next block from {p['next_producer_id']} (broker {p['broker_id']})")
    lines.append("records: " + ", ".join(f"{k} {v}" for k, v in s["record_counts"].items()))
    return "\n".join(map(escape, lines))


def _offsets_text(s: dict[str, Any]) -> str:
    lines = []
    for g in s["groups"]:
        st = g["state"]
        head = f"group {g['group']}"
        if st and "group_epoch" in st:  # a consumer (KIP-848) or share (KIP-932) group
            head += f"  {st['protocol_type']} group  epoch {st['group_epoch']}  members {len(st['members'])}"
        elif st:
            head += (
                f"  {st['protocol_type'] or '-'}  generation {st['generation']}  protocol {st['protocol'] or '-'}"
                f"  members {len(st['members'])}  leader {st['leader'] or '-'}"
            )
        lines.append(head)
        for m in (st or {}).get("members", []) if st and "group_epoch" in st else []:
            lines.append(
                f"  member {m['member_id']}  client {m['client_id']}  host {m['client_host']}"
                f"  epoch {m['member_epoch']}  subscribed {m['subscribed_topic_names']}"
            )
        for o in g["offsets"]:
            lines.append(
                f"  {o['topic']} {o['partition']}  offset {o['offset']}  leader epoch {o['leader_epoch']}"
                f"  committed {o['commit_timestamp']}  expires {o['expire_timestamp']}"
                f"  metadata " + ("null" if o["metadata"] is None else f"'{o['metadata']}'")
            )
    lines.append("records: " + ", ".join(f"{k} {v}" for k, v in s["record_counts"].items()))
    return "\n".join(map(escape, lines))


def _remote_log_text(s: dict[str, Any]) -> str:
    lines = [f"remote log metadata at offset {s['last_offset']}", f"partitions ({len(s['partitions'])}):"]
    for p in s["partitions"]:
        states: dict[str, int] = {}
        for seg in p["segments"]:
            states[seg["state"]] = states.get(seg["state"], 0) + 1
        lines.append(
            f"  {p['topic']}-{p['partition']}  topic id {p['topic_id']}  segments {len(p['segments'])}"
            + "".join(f"  {k} {v}" for k, v in sorted(states.items()))
            + (f"  partition {p['delete_state']}" if p["delete_state"] else "")
        )
        for seg in p["segments"]:
            epochs = ",".join(f"{e['leader_epoch']}@{e['offset']}" for e in seg["leader_epochs"]) or "-"
            lines.append(
                f"    {seg['segment_id']}  offsets {seg['start_offset']}..{seg['end_offset']}  {seg['state']}"
                f"  epochs {epochs}  size {seg['segment_size_in_bytes']}  broker {seg['broker_id']}"
                f"  event {seg['event_timestamp_ms']}"
                + ("" if seg["custom_metadata"] is None else f"  custom metadata {seg['custom_metadata']}")
            )
    lines.append("records: " + (", ".join(f"{k} {v}" for k, v in s["record_counts"].items()) or "-"))
    return "\n".join(map(escape, lines))


def _share_text(s: dict[str, Any]) -> str:
    lines = []
    for p in s["share_partitions"]:
        snap = p["snapshot"]
        lines.append(
            f"group {p['group']}  topic {p['topic_id']}  partition {p['partition']}  start offset "
            f"{p['start_offset']}  leader epoch {p['leader_epoch']}  state epoch {p['state_epoch']}"
            + (
                ""
                if p["delivery_complete_count"] in (None, -1)
                else f"  delivery complete {p['delivery_complete_count']}"
            )
        )
        if snap is None:
            lines.append("  no snapshot")
        else:
            lines.append(f"  snapshot epoch {snap['snapshot_epoch']}: {_runs(snap['state_batches'])}")
        for u in p["updates"]:
            lines.append(f"  update (start offset {u['start_offset']}): {_runs(u['state_batches'])}")
    lines.append("records: " + ", ".join(f"{k} {v}" for k, v in s["record_counts"].items()))
    return "\n".join(map(escape, lines))


#: KIP-932's delivery states, as the state batches store them
_DELIVERY = {0: "available", 2: "acknowledged", 4: "archived"}


def _runs(batches: list[dict[str, Any]]) -> str:
    return (
        ", ".join(
            f"{b['first_offset']}-{b['last_offset']} {_DELIVERY.get(b['delivery_state'], b['delivery_state'])}"
            f" x{b['delivery_count']}"
            for b in batches
        )
        or "-"
    )


def _schemas_text(s: dict[str, Any]) -> str:
    lines = []
    for subject in s["subjects"]:
        lines.append(f"subject {subject['subject']}")
        for v in subject["versions"]:
            refs = ", ".join(f"{r['name']} ({r['subject']} v{r['version']})" for r in v["references"])
            lines.append(
                f"  version {v['version']}  id {v['id']}  {v['schema_type']}"
                + ("  deleted" if v["deleted"] else "")
                + (f"  references {refs}" if refs else "")
            )
    lines.append("records: " + (", ".join(f"{k} {v}" for k, v in s["record_counts"].items()) or "-"))
    return "\n".join(map(escape, lines))

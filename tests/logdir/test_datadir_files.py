"""A broker data directory's own files, written as Kafka writes them, read and checked by ``verify``.

The bytes follow Kafka's writers (trunk d79bd502ec): ``PropertiesUtils.writePropertiesFile``
(``Properties.store`` with an empty comment: ``#``, ``#<date>``, ``key=value`` lines) for
``meta.properties``; ``CheckpointFile`` with ``OffsetCheckpointFile.Formatter`` (``0``, the count,
``topic partition offset``) for the four offset checkpoints; ``FileQuorumStateStore`` (one line of
``QuorumStateDataJsonConverter.write`` plus ``data_version``) for ``quorum-state``;
``CleanShutdownFileHandler`` (Jackson of ``{version, brokerEpoch}``) for ``.kafka_cleanshutdown``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.logdir import corrupt_middle_batch, write_partition
from support.timing import GROWTH, assert_linear

from kafkaspec.errors import KafkaFormatError
from kafkaspec.logdir.kafka import checkpoints, node_files
from kafkaspec.logdir.verify.verifier import verify_path, verify_paths

CLUSTER = "MkU3OEVBNTcwNTJENDM2Qg"
DIRECTORY = "xqYz9jS0QRuWvW0Y7eW8Ag"
OTHER_DIRECTORY = "b6vGbZfJRFuJ1mpqjH1nUw"
V0_QUORUM = (
    '{"clusterId":"","leaderId":1,"leaderEpoch":5,"votedId":-1,"appliedOffset":0,'
    '"currentVoters":[{"voterId":1},{"voterId":2},{"voterId":3}],"data_version":0}'
)
V1_QUORUM = (
    '{"leaderId":2,"leaderEpoch":7,"votedId":2,"votedDirectoryId":"xqYz9jS0QRuWvW0Y7eW8Ag","data_version":1}'
)


def checkpoint(entries: dict[tuple[str, int], int]) -> str:
    """``CheckpointFile.write``: version, size, then the formatter's line per entry, each ending in a newline."""
    return "0\n" + f"{len(entries)}\n" + "".join(f"{t} {p} {o}\n" for (t, p), o in entries.items())


def meta_v1(node_id: int = 1, cluster: str = CLUSTER, directory: str = DIRECTORY) -> str:
    return node_files.format_meta_properties(
        {"node.id": str(node_id), "directory.id": directory, "version": "1", "cluster.id": cluster}
    )


@pytest.fixture
def data_dir(tmp_path: Path) -> tuple[Path, int]:
    """A data dir as a cleanly stopped KRaft broker leaves it: partition t-0, its four checkpoints,
    meta.properties v1, .kafka_cleanshutdown; and t-0's log end offset."""
    root = tmp_path / "data"
    end = len(write_partition(root, batches=20))
    (root / "meta.properties").write_text(meta_v1())
    (root / "replication-offset-checkpoint").write_text(checkpoint({("t", 0): end}))
    (root / "recovery-point-offset-checkpoint").write_text(checkpoint({("t", 0): end}))
    (root / "log-start-offset-checkpoint").write_text(checkpoint({}))
    (root / "cleaner-offset-checkpoint").write_text(checkpoint({("t", 0): end // 2}))
    (root / ".kafka_cleanshutdown").write_text('{"version":0,"brokerEpoch":42}')
    (tmp_path / "canary").write_text("keep")
    return root, end


def _messages(problems):
    return [(Path(p.path).name, p.severity, p.message) for p in problems]


def test_a_data_dir_as_kafka_leaves_it_verifies_clean(data_dir):
    root, _ = data_dir
    assert verify_path(root, notes=True) == []


# -- the offset checkpoints -------------------------------------------------------


@pytest.mark.parametrize("name", sorted(checkpoints.CHECKPOINTS))
def test_an_offset_past_the_log_end_is_an_error_naming_file_and_line(data_dir, name):
    root, end = data_dir
    (root / name).write_text(checkpoint({("t", 0): end + 5}))
    found = _messages(verify_path(root))
    assert found == [
        (
            name,
            "error",
            f"line 3: t-0: offset {end + 5} is past the log end offset {end}: "
            f"{found[0][2].split(': ', 3)[3]}",
        )
    ]
    assert "(records lost, or the file is another log's)" in found[0][2]


def test_an_entry_for_a_partition_not_in_the_dir_is_an_error(data_dir):
    root, end = data_dir
    (root / "replication-offset-checkpoint").write_text(checkpoint({("t", 0): end, ("gone", 3): 7}))
    assert _messages(verify_path(root)) == [
        (
            "replication-offset-checkpoint",
            "error",
            "line 4: gone-3: no such partition directory in this data dir",
        )
    ]


@pytest.mark.parametrize("kind, severity", [("delete", "note"), ("future", "note"), ("stray", "warning")])
def test_an_entry_for_a_partition_being_deleted_or_moved_is_a_note(data_dir, kind, severity):
    """A running broker checkpoints a partition it has just moved to another log directory, or is
    deleting, until it next writes the file (tests/brokers/test_broker_moves.py saw it right after an
    ``alterReplicaLogDirs``): its own passing state, as the -delete and -future directories are. A
    -stray one waits for an operator: a warning."""
    root, end = data_dir
    (root / f"gone-3.0123456789abcdef0123456789abcdef-{kind}").mkdir()
    (root / "replication-offset-checkpoint").write_text(checkpoint({("t", 0): end, ("gone", 3): 7}))
    found = [m for m in _messages(verify_path(root, notes=True)) if m[0] == "replication-offset-checkpoint"]
    assert [(n, s) for n, s, _ in found] == [("replication-offset-checkpoint", severity)]
    assert f"the partition is only a -{kind} directory here" in found[0][2]


@pytest.mark.parametrize("kind, severity", [("delete", "note"), ("future", "note"), ("stray", "warning")])
def test_a_partition_directory_the_broker_is_deleting_or_moving_is_a_note(data_dir, kind, severity):
    """A running broker's data dir holds a -delete directory after every topic deletion, and a -future one
    while a partition moves between log dirs: nothing to warn of. A -stray one waits for an operator."""
    root, _ = data_dir
    write_partition(root / "x", topic="gone", partition=3, batches=2)
    (root / "x" / "gone-3").rename(root / f"gone-3.0123456789abcdef0123456789abcdef-{kind}")
    (root / "x").rmdir()
    found = _messages(verify_path(root, notes=True))
    assert [(n, s) for n, s, _ in found] == [(f"gone-3.0123456789abcdef0123456789abcdef-{kind}", severity)]
    assert found[0][2].startswith("not read: ")


def test_the_count_must_match_the_entries(data_dir):
    root, end = data_dir
    (root / "recovery-point-offset-checkpoint").write_text(f"0\n2\nt 0 {end}\n")
    assert _messages(verify_path(root)) == [
        (
            "recovery-point-offset-checkpoint",
            "error",
            "recovery-point-offset-checkpoint line 2 announces 2 entries but the file holds 1",
        )
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1\n0\n", "line 1: version is '1', expected 0"),
        ("0\n1\nt 0\n", "line 3: 't 0' is not 'topic partition offset'"),
        ("0\n2\nt 0 1\n\n", "line 4: '' is not 'topic partition offset'"),
        ("0\n1\nt -1 5\n", "line 3: partition '-1' is out of range"),
        ("0\n1\nt 0 -5\n", "line 3: offset '-5' is out of range"),
        (
            "0\n1\nt 0 " + "9" * 5000 + "\n",
            "line 3: offset '99999999999999999999'... (5000 characters) is out of range",
        ),
        ("0\n1\nt/x 0 5\n", "line 3: topic 't/x'"),
        ("0\n2\nt 0 1\nt 0 2\n", "line 4: t-0 is listed again (first on line 3)"),
    ],
)
def test_what_kafka_does_not_write_names_the_line(text, message):
    with pytest.raises(KafkaFormatError) as info:
        checkpoints.parse_offset_checkpoint(text, "cleaner-offset-checkpoint", "/x/cleaner-offset-checkpoint")
    assert message in str(info.value) and "/x/cleaner-offset-checkpoint" in str(info.value)


def test_empty_files_hold_no_entries_as_kafka_reads_them():
    assert checkpoints.parse_offset_checkpoint("", "replication-offset-checkpoint") == []
    assert checkpoints.parse_offset_checkpoint("0\n", "replication-offset-checkpoint") == []
    assert checkpoints.parse_offset_checkpoint("0\n0\n", "replication-offset-checkpoint") == []


def test_a_high_watermark_below_the_log_start_is_a_warning(data_dir):
    root, end = data_dir
    (root / "log-start-offset-checkpoint").write_text(checkpoint({("t", 0): 10}))
    (root / "replication-offset-checkpoint").write_text(checkpoint({("t", 0): 4}))
    assert _messages(verify_path(root)) == [
        (
            "replication-offset-checkpoint",
            "warning",
            "line 3: t-0: offset 4 is below the log start offset 10 (Kafka moves it up to the log start)",
        )
    ]


def test_parsing_a_checkpoint_is_linear_in_its_entries():
    def text(n: int) -> str:
        return checkpoint({(f"topic-{i % 97}", i): i * 3 for i in range(n)})

    small, large = text(5000), text(5000 * GROWTH)
    assert_linear(
        lambda: checkpoints.parse_offset_checkpoint(small, "x"),
        lambda: checkpoints.parse_offset_checkpoint(large, "x"),
        what="checkpoint entries",
    )


# -- meta.properties -------------------------------------------------------------


def test_meta_properties_v0_and_v1_as_kafka_writes_them():
    v1 = node_files.parse_meta_properties(meta_v1(node_id=3))
    assert (v1.version, v1.node_id, v1.cluster_id, v1.directory_id, v1.ignored) == (
        1,
        3,
        CLUSTER,
        DIRECTORY,
        [],
    )
    # a ZooKeeper-era broker: version 0, broker.id; cluster.id optional
    v0 = node_files.parse_meta_properties(
        "#\n#Tue Jan 02 10:00:00 UTC 2024\nversion=0\nbroker.id=7\ncluster.id=abc\n"
    )
    assert (v0.version, v0.node_id, v0.cluster_id, v0.directory_id) == (0, 7, "abc", None)
    # no version line is version 0, and nothing is required in it
    assert node_files.parse_meta_properties("").version == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("version=1\ncluster.id=x\n", "version 1 requires node.id"),
        ("version=1\nnode.id=1\n", "version 1 requires cluster.id"),
        ("version=2\n", "line 1: unknown meta.properties version 2"),
        ("version=one\n", "line 1: version 'one' is not a base-10 number"),
        ("version=1\ncluster.id=x\nnode.id=1 \n", "line 3: node.id '1 ' is not a base-10 number"),
        ("broker.id=99999999999\n", "line 1: broker.id '99999999999' is out of range"),
        (
            "version=1\ncluster.id=x\nnode.id=1\ndirectory.id=AAAAAAAAAAAAAAAAAAAAAA\n",
            "line 4: directory.id AAAAAAAAAAAAAAAAAAAAAA is one of the 100 Uuids Kafka reserves",
        ),
        ("version=1\ncluster.id=x\nnode.id=1\ndirectory.id=AAAAAAAAAAAAAAAAAAAAYw\n", "reserves"),  # 99
        (
            "version=1\ncluster.id=x\nnode.id=1\ndirectory.id=not-a-uuid\n",
            "line 4: directory.id 'not-a-uuid' is not",
        ),
        ("version=1\ncluster.id=x\\u12\nnode.id=1\n", "line 2: malformed \\uxxxx escape"),
    ],
)
def test_meta_properties_by_kafkas_rules(text, message):
    with pytest.raises(KafkaFormatError) as info:
        node_files.parse_meta_properties(text, "/d/meta.properties")
    assert message in str(info.value) and "/d/meta.properties" in str(info.value)


def test_java_properties_syntax():
    props = node_files.parse_properties("! comment\n  key1 = a\\\n    b\nkey2:c\\=d\nkey3 e\\u0041\n\n")
    assert props == [("key1", "ab", 2), ("key2", "c=d", 4), ("key3", "eA", 5)]


def test_keys_kafka_does_not_read_are_named_not_dropped(data_dir):
    root, _ = data_dir
    (root / "meta.properties").write_text(meta_v1() + "broker.id=1\nnode.id=2\n")
    meta = node_files.parse_meta_properties((root / "meta.properties").read_text())
    assert meta.node_id == 2  # the last node.id, as java.util.Properties keeps it
    assert [(n, s) for n, s, _ in _messages(verify_path(root))] == [("meta.properties", "warning")] * 2


def test_a_bad_meta_properties_is_an_error_in_verify(data_dir):
    root, _ = data_dir
    (root / "meta.properties").write_text("version=1\ncluster.id=x\n")
    assert _messages(verify_path(root)) == [
        ("meta.properties", "error", "meta.properties: version 1 requires node.id, and there is none")
    ]


def test_the_log_dirs_of_one_node_agree(tmp_path, data_dir):
    root, _ = data_dir
    second = tmp_path / "data2"
    write_partition(second, batches=3, topic="u")
    (second / "meta.properties").write_text(meta_v1(directory=OTHER_DIRECTORY))
    (second / ".kafka_cleanshutdown").write_text('{"version":0,"brokerEpoch":42}')
    assert verify_paths([root, second]) == []
    (second / "meta.properties").write_text(meta_v1(node_id=2, cluster="other", directory=DIRECTORY))
    found = _messages(verify_paths([root, second]))
    assert [m[2].split(":")[0] for m in found] == [
        "cluster.id other differs from MkU3OEVBNTcwNTJENDM2Qg in " + str(root),
        "node.id 2 differs from 1 in " + str(root),
        "directory.id xqYz9jS0QRuWvW0Y7eW8Ag is also the id of " + str(root),
    ]


# -- .kafka_cleanshutdown --------------------------------------------------------


def test_no_clean_shutdown_file_is_a_note_not_an_error(data_dir):
    root, _ = data_dir
    (root / ".kafka_cleanshutdown").unlink()
    assert verify_path(root) == []  # notes are no problem
    found = _messages(verify_path(root, notes=True))
    assert [(n, s) for n, s, _ in found] == [(".kafka_cleanshutdown", "note")]
    assert "last shutdown was not clean" in found[0][2]


def test_after_an_unclean_shutdown_the_note_names_what_recovery_rereads(data_dir):
    """Kafka's LogLoader re-reads, after an unclean shutdown, each partition's segments from the one holding
    its recovery point (from the first segment for a partition the checkpoint does not name): the note
    names them."""
    root, end = data_dir
    u_end = len(write_partition(root, topic="u", batches=3))
    (root / ".kafka_cleanshutdown").unlink()
    (root / "recovery-point-offset-checkpoint").write_text(checkpoint({("t", 0): end // 2}))
    found = _messages(verify_path(root, notes=True))
    assert [(n, s) for n, s, _ in found] == [(".kafka_cleanshutdown", "note")]
    assert found[0][2].endswith(
        f"past their recovery point: t-0 from offset {end // 2} (log end {end}), "
        "u-0 from its first segment (not in recovery-point-offset-checkpoint)"
    ), found[0][2]
    (root / "recovery-point-offset-checkpoint").write_text(checkpoint({("t", 0): end, ("u", 0): u_end}))
    found = _messages(verify_path(root, notes=True))
    assert "past their recovery point: none" in found[0][2], found[0][2]


def test_clean_shutdown_file_of_every_kafka_release():
    assert node_files.parse_clean_shutdown('{"version":0,"brokerEpoch":42}') == 42
    assert node_files.parse_clean_shutdown("") is None  # before Kafka 3.x: an empty file
    with pytest.raises(KafkaFormatError, match="brokerEpoch is 'null', not an int64"):
        node_files.parse_clean_shutdown('{"version":0}')


def test_clean_shutdown_content_kafka_cannot_read_is_a_warning(data_dir):
    root, _ = data_dir
    (root / ".kafka_cleanshutdown").write_text("{not json")
    found = _messages(verify_path(root))
    assert [(n, s) for n, s, _ in found] == [(".kafka_cleanshutdown", "warning")]
    assert "not JSON" in found[0][2] and "learns no broker epoch" in found[0][2]


# -- quorum-state ----------------------------------------------------------------


def test_quorum_state_versions_0_and_1():
    v0 = node_files.parse_quorum_state(V0_QUORUM)
    assert v0["currentVoters"] == [{"voterId": 1}, {"voterId": 2}, {"voterId": 3}]
    v1 = node_files.parse_quorum_state(V1_QUORUM)
    assert (v1["leaderId"], v1["votedDirectoryId"]) == (2, DIRECTORY)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"leaderId":2,"leaderEpoch":7,"votedId":2,"data_version":1}',
            "field votedDirectoryId (data_version 1) is missing",
        ),
        (V1_QUORUM.replace('"data_version":1', '"data_version":2'), "data_version is '2', expected 0 or 1"),
        (
            V1_QUORUM.replace('"leaderId":2', '"leaderId":2147483648'),
            "field leaderId (data_version 1) is '2147483648', not an int32",
        ),
        (V0_QUORUM.replace('{"voterId":1}', '{"id":1}'), "field currentVoters (data_version 0) item 0"),
        (V1_QUORUM + "\n{}", "line 2: Kafka writes one line of JSON"),
        ("[" * 100_000 + "]" * 100_000, "JSON nested more than 16 levels"),
        ("", "quorum-state is empty"),
    ],
)
def test_quorum_state_not_as_kafka_writes_it(text, message):
    with pytest.raises(KafkaFormatError) as info:
        node_files.parse_quorum_state(text, "/m/quorum-state")
    assert message in str(info.value) and "/m/quorum-state" in str(info.value)


def test_verify_reads_quorum_state_in_the_metadata_partition(data_dir):
    root, _ = data_dir
    meta = root / "__cluster_metadata-0"
    write_partition(root, batches=2, topic="__cluster_metadata")
    (meta / "quorum-state").write_text(V1_QUORUM)
    assert verify_path(root) == []
    (meta / "quorum-state").write_text(V1_QUORUM.replace('"votedId":2,', ""))
    assert [(n, s) for n, s, _ in _messages(verify_path(root))] == [("quorum-state", "error")]


def _facts() -> list[Path]:
    return sorted((Path(__file__).parents[1] / "codecs" / "kafka_specs").glob("facts-*.json"))


@pytest.mark.parametrize("facts", _facts(), ids=lambda p: p.stem)
def test_the_quorum_state_fields_are_those_of_kafkas_spec(facts):
    """The drift check for quorum-state: it is JSON, not message bytes, so instead of a schema the
    reader's field table is compared with Kafka's QuorumStateData at each release kept as facts."""
    spec = json.loads(facts.read_text())["messages"]["QuorumStateData"]
    assert spec["validVersions"] == "0-1"
    theirs = {f["name"]: (f["type"], f["versions"], f.get("nullableVersions")) for f in spec["fields"]}

    def versions(v: tuple[int, ...]) -> str:
        return str(v[0]) if len(v) == 1 and v[0] == max(node_files.QUORUM_STATE_VERSIONS) - 1 else f"{v[0]}+"

    ours = {
        f.name: (f.type, versions(f.versions), versions(f.nullable_versions) if f.nullable_versions else None)
        for f in node_files.QUORUM_STATE_FIELDS
    }
    assert ours == theirs


def test_the_drift_check_covers_quorum_state():
    """``kafkaspec review kafka-specs`` compares QuorumStateData with the reader's table: a field Kafka
    adds, or a version, is drift."""
    import copy

    from kafkaspec.review.kafka_specs import compare

    newest = json.loads(_facts()[-1].read_text())["messages"]
    assert compare({"QuorumStateData": newest["QuorumStateData"]}, {}).drift == []
    changed = copy.deepcopy(newest["QuorumStateData"])
    changed["validVersions"] = "0-2"
    changed["fields"].append({"name": "VotedEndpoint", "type": "string", "versions": "2+"})
    changed["fields"][1]["type"] = "int64"
    drift = [str(d) for d in compare({"QuorumStateData": changed}, {}).drift]
    assert drift[0].startswith("QuorumStateData: valid versions 0-2 in Kafka, [0, 1] in quorum-state")
    assert any(
        d.startswith(
            "QuorumStateData: field LeaderId: versions [0, 1, 2], nullable [], type int64 in "
            "Kafka; versions [0, 1], nullable [], type int32 in ours"
        )
        for d in drift
    )
    assert "QuorumStateData: field VotedEndpoint is not in quorum-state" in " ".join(drift)


def test_an_entry_for_a_partition_directory_without_segments_is_not_called_missing(data_dir):
    root, end = data_dir
    (root / "t-1").mkdir()
    (root / "replication-offset-checkpoint").write_text(checkpoint({("t", 0): end, ("t", 1): 0}))
    assert _messages(verify_path(root)) == [
        ("t-1", "error", "holds no segment (.log) file: not a Kafka partition directory")
    ]


def test_a_log_start_in_remote_storage_is_a_note_where_the_uploads_are_recorded(data_dir):
    """A tiered partition's log start offset (log-start-offset-checkpoint) is below its first local
    segment: local retention deleted what the broker uploaded. Where ``__remote_log_metadata`` beside it
    records uploads of the partition, that is how Kafka leaves it (a note); without, a warning."""
    import uuid

    from support import remote_log_records as rl

    root, _ = data_dir
    logs = sorted((root / "t-0").glob("*.log"))
    assert len(logs) >= 2
    for f in (root / "t-0").glob(logs[0].name[: -len(".log")] + ".*"):
        f.unlink()
    (root / "log-start-offset-checkpoint").write_text(checkpoint({("t", 0): 0}))
    first = int(logs[1].name[:20])

    def severities() -> list[tuple[str, str]]:
        return [
            (p.severity, p.message)
            for p in verify_path(root, notes=True)
            if Path(p.path).name == "log-start-offset-checkpoint"
        ]

    (found,) = severities()
    assert found[0] == "warning" and f"below the first segment's base offset {first}" in found[1], found
    topic_id, seg = uuid.uuid4(), uuid.uuid4()
    rl.write_topic(
        root,
        [
            rl.segment("t", topic_id, 0, seg, 0, first - 1, [(0, 0)]),
            rl.update("t", topic_id, 0, seg, rl.FINISHED),
        ],
    )
    (found,) = severities()
    assert found[0] == "note" and "the log starts in remote storage" in found[1], found
    assert "--tiered" in found[1]


def _corrupt_first_segment(root: Path) -> tuple[Path, int, int, int]:
    return corrupt_middle_batch(root / "t-0")


def test_a_corrupt_batch_past_the_recovery_point_says_what_kafkas_recovery_does(data_dir):
    """After an unclean shutdown Kafka's LogLoader re-reads the segments from the one holding the recovery
    point: at a batch whose CRC fails it truncates that segment there and deletes every later segment (the
    broker tests see Kafka do it). verify says so beside the corrupt entry, at its byte."""
    root, end = data_dir
    segment, pos, next_offset, later = _corrupt_first_segment(root)
    (root / ".kafka_cleanshutdown").unlink()
    (root / "recovery-point-offset-checkpoint").write_text(checkpoint({("t", 0): 0}))
    found = [p for p in verify_path(root) if p.path == str(segment) and p.position == pos]
    assert [p.severity for p in found] == ["error", "warning"], found
    assert found[1].message == (
        "the last shutdown was not clean and this segment is past t-0's recovery point 0: at the broker's "
        f"next start, Kafka's recovery truncates the segment to byte {pos} (the corrupt batch) and deletes "
        f"{'the segment' if later == 1 else f'the {later} segments'} after it; the log then ends at offset "
        f"{next_offset} "
        f"(offsets {next_offset}..{end - 1} gone)"
    )


def test_a_corrupt_batch_before_the_recovery_point_is_served_as_it_stands(data_dir):
    root, end = data_dir
    segment, pos, _, _ = _corrupt_first_segment(root)
    (root / ".kafka_cleanshutdown").unlink()
    found = [p for p in verify_path(root, notes=True) if p.path == str(segment) and p.position == pos]
    assert [p.severity for p in found] == ["error", "note"], found
    assert found[1].message == (
        f"this segment is before t-0's recovery point {end}: Kafka's recovery does not re-read it, "
        "and the broker serves the corrupt batch as it stands"
    )


def test_after_a_clean_shutdown_a_corrupt_batch_is_only_an_error(data_dir):
    root, _ = data_dir
    segment, pos, _, _ = _corrupt_first_segment(root)
    found = [p for p in verify_path(root, notes=True) if p.path == str(segment) and p.position == pos]
    assert [p.severity for p in found] == ["error"], found

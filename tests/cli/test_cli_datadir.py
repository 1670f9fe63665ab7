"""A data dir's own files through the CLI: ``dump`` and ``explain`` by name, ``verify`` (one or several
log dirs of a node), ``inspect datadir``; bad content is one line naming file and line, exit 1."""

from __future__ import annotations

import io
import json
import os
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from support.logdir import write_partition

from kafkaspec.cli import main

CLUSTER = "MkU3OEVBNTcwNTJENDM2Qg"
DIRECTORY = "xqYz9jS0QRuWvW0Y7eW8Ag"
CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "files" / "segments"


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def meta(node_id=1, cluster=CLUSTER, directory=DIRECTORY):
    # PropertiesUtils.writePropertiesFile: Properties.store(writer, "") writes "#", "#<date>", then the keys
    return f"#\n#Thu Nov 26 10:00:00 UTC 2026\nnode.id={node_id}\ndirectory.id={directory}\nversion=1\ncluster.id={cluster}\n"


@pytest.fixture
def data(tmp_path):
    root = tmp_path / "data"
    end = len(write_partition(root, batches=10))
    (root / "meta.properties").write_text(meta())
    (root / "replication-offset-checkpoint").write_text(f"0\n1\nt 0 {end}\n")
    (root / "recovery-point-offset-checkpoint").write_text(f"0\n1\nt 0 {end}\n")
    (root / ".kafka_cleanshutdown").write_text('{"version":0,"brokerEpoch":42}')
    (tmp_path / "canary").write_text("keep")
    return root, end


def test_dump_reads_each_file_by_name(data):
    root, end = data
    code, out, _ = run(
        "dump",
        root / "meta.properties",
        root / "replication-offset-checkpoint",
        root / ".kafka_cleanshutdown",
        "--json",
    )
    assert code == 0
    assert [json.loads(line) for line in out.splitlines()] == [
        {"version": 1, "node_id": 1, "cluster_id": CLUSTER, "directory_id": DIRECTORY},
        {"topic": "t", "partition": 0, "offset": end},
        {"clean_shutdown": True, "broker_epoch": 42},
    ]


def test_dump_of_a_bad_checkpoint_is_one_line_naming_file_and_line(data):
    root, end = data
    (root / "replication-offset-checkpoint").write_text(f"0\n1\nt 0 {end}\nt 1 {end}\n")
    code, out, err = run("dump", root / "replication-offset-checkpoint")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "line 2 announces 1 entries but the file holds 2" in err
    assert str(root / "replication-offset-checkpoint") in err and "Traceback" not in err


def test_explain_explains_each_line(data):
    root, end = data
    code, out, _ = run("explain", root / "meta.properties")
    assert code == 0
    assert "node.id=1" in out and "the node's id (version 1): the same in every log dir of the node" in out
    assert out.splitlines()[-1] == "meta.properties: 6 lines; every line explained"
    code, out, _ = run("explain", root / "replication-offset-checkpoint")
    assert code == 0 and f"t-0: {end} is the high watermark" in out
    code, out, _ = run("explain", root / ".kafka_cleanshutdown", "--json")
    assert code == 0 and json.loads(out)["lines"][1]["text"] == "42"


def test_explain_of_content_kafka_does_not_write_is_exit_1(data):
    root, _ = data
    (root / "meta.properties").write_text("version=1\nnode.id=1\n")
    code, out, err = run("explain", root / "meta.properties")
    assert code == 1 and "version 1 requires cluster.id" in out and err == ""


def test_verify_reports_a_checkpoint_past_the_log_end(data):
    root, end = data
    assert run("verify", root)[0] == 0
    (root / "replication-offset-checkpoint").write_text(f"0\n1\nt 0 {end + 100}\n")
    code, out, _ = run("verify", root)
    assert code == 1
    assert (
        f"error: {root / 'replication-offset-checkpoint'} at byte 4: line 3: t-0: offset {end + 100} is past "
        f"the log end offset {end}" in out
    )


def test_verify_says_the_last_shutdown_was_not_clean_as_a_note(data):
    root, _ = data
    (root / ".kafka_cleanshutdown").unlink()
    code, out, _ = run("verify", root, "--strict")
    assert code == 0
    assert (
        f"note: {root / '.kafka_cleanshutdown'}: no .kafka_cleanshutdown: the broker's last shutdown was not "
        "clean" in out
    )
    assert out.splitlines()[-1].endswith("0 errors, 0 warnings, 1 notes")


def test_verify_of_a_topic_being_deleted_is_one_note_and_no_warning(data):
    """As a running broker's data dir is after a topic deletion: the -delete directory said once, as a note."""
    root, _ = data
    write_partition(root / "x", topic="gone", batches=2)
    gone = root / "gone-0.0123456789abcdef0123456789abcdef-delete"
    (root / "x" / "gone-0").rename(gone)
    (root / "x").rmdir()
    code, out, err = run("verify", root, "--strict")
    assert code == 0, out + err
    assert out.splitlines()[:-1] == [
        f"note: {gone}: not read: a partition directory being deleted (-delete); its records are not read"
    ]
    assert out.splitlines()[-1].endswith("0 errors, 0 warnings, 1 notes")
    assert "warning" not in err, err


def test_verify_several_log_dirs_of_one_node(data, tmp_path):
    root, _ = data
    other = tmp_path / "data2"
    write_partition(other, batches=3, topic="u")
    (other / "meta.properties").write_text(meta(node_id=2, directory="b6vGbZfJRFuJ1mpqjH1nUw"))
    (other / ".kafka_cleanshutdown").write_text('{"version":0,"brokerEpoch":42}')
    code, out, _ = run("verify", root, other)
    assert code == 1
    assert f"error: {other / 'meta.properties'}: node.id 2 differs from 1 in {root}" in out
    assert "verified 2 partitions" in out


def test_inspect_datadir(data):
    root, end = data
    code, out, _ = run("inspect", "datadir", root, "--json")
    assert code == 0
    body = json.loads(out)
    assert body["meta_properties"] == {
        "version": 1,
        "node_id": 1,
        "cluster_id": CLUSTER,
        "directory_id": DIRECTORY,
    }
    assert body["clean_shutdown"] == {"clean": True, "broker_epoch": 42}
    assert body["offset_checkpoints"]["replication-offset-checkpoint"] == 1
    assert body["offset_checkpoints"]["cleaner-offset-checkpoint"] is None
    code, out, _ = run("inspect", "datadir", root)
    assert code == 0 and "node.id 1  cluster.id MkU3OEVBNTcwNTJENDM2Qg" in out


def test_inspect_datadir_with_a_file_that_does_not_read(data):
    root, _ = data
    (root / "meta.properties").write_text("version=7\n")
    code, out, err = run("inspect", "datadir", root)
    assert code == 1 and "meta.properties: cannot be read" in out
    assert "unknown meta.properties version 7" in err and "Traceback" not in err


@pytest.mark.skipif(not (CORPUS / "KafkaDemo").is_dir(), reason="the corpus is not here")
def test_a_real_kraft_dir_quorum_state_and_bootstrap():
    root = CORPUS / "KafkaDemo" / "kraft-combined-logs"
    code, out, _ = run("inspect", "datadir", root, "--json")
    assert code == 0
    body = json.loads(out)
    assert body["quorum_state"]["data_version"] == 0 and body["quorum_state"]["leaderId"] == 1
    assert body["bootstrap"] == {
        "file": "bootstrap.checkpoint",
        "records": {"FeatureLevelRecord": 1},
        "metadata_version_level": 14,
    }
    code, out, _ = run("dump", root / "bootstrap.checkpoint", "--decode")
    assert code == 0 and out.splitlines()[1] == "KRaft bootstrap snapshot"
    assert '"name":"metadata.version","feature_level":14' in out
    code, out, _ = run("dump", root / "__cluster_metadata-0" / "quorum-state", "--json")
    assert code == 0 and json.loads(out)["currentVoters"] == [{"voterId": 1}]


@pytest.mark.skipif(not (CORPUS / "KafkaDemo").is_dir(), reason="the corpus is not here")
def test_inspect_metadata_of_a_dir_formatted_with_static_voters(tmp_path):
    """Before Kafka 4.4, ``kafka-storage format`` with static voters writes ``bootstrap.checkpoint`` and no
    ``__cluster_metadata-0``: the metadata is what those bootstrap records say, before log offset 0."""
    source = CORPUS / "KafkaDemo" / "kraft-combined-logs"
    root = tmp_path / "formatted"
    root.mkdir()
    (root / "bootstrap.checkpoint").write_bytes((source / "bootstrap.checkpoint").read_bytes())
    (root / "meta.properties").write_text(meta(node_id=1, directory=DIRECTORY))
    code, out, err = run("inspect", "metadata", root, "--json")
    assert code == 0, err
    state = json.loads(out)
    assert state["last_offset"] == -1 and state["snapshot"] == str(root / "bootstrap.checkpoint")
    assert state["features"] == {"metadata.version": 14} and state["topics"] == []
    code, out, _ = run("inspect", "metadata", root)
    assert code == 0 and out.splitlines()[0].startswith("metadata before log offset 0")


@pytest.mark.hostile
def test_inspect_metadata_of_a_bootstrap_checkpoint_that_is_not_one(tmp_path):
    """Bytes that are no snapshot are an error naming the file (exit 1); a FIFO or a link loop in its
    place is not read (no hang): there is no metadata here (exit 2)."""
    garbage = tmp_path / "garbage"
    garbage.mkdir()
    (garbage / "bootstrap.checkpoint").write_bytes(bytes(range(256)) * 2)
    code, _, err = run("inspect", "metadata", garbage)
    assert code == 1 and str(garbage / "bootstrap.checkpoint") in err, err
    for name, make in (("fifo", os.mkfifo), ("loop", lambda p: os.symlink(p, p))):
        root = tmp_path / name
        root.mkdir()
        make(root / "bootstrap.checkpoint")
        code, _, err = run("inspect", "metadata", root)
        assert code == 2 and "no __cluster_metadata partition here" in err, err


@pytest.mark.hostile
@pytest.mark.skipif(not (CORPUS / "KafkaDemo").is_dir(), reason="the corpus is not here")
@pytest.mark.parametrize("name", ["bootstrap.checkpoint", "00000000000000000100-0000000001.checkpoint"])
def test_dump_and_verify_of_a_snapshot_ending_in_an_incomplete_batch(name, tmp_path):
    """As ``inspect metadata``: a KRaft snapshot is written whole, so a torn last batch is an error naming
    the file and byte (exit 1), not a log's torn tail (``dump`` said so on stdout and exited 0)."""
    whole = (CORPUS / "KafkaDemo" / "kraft-combined-logs" / "bootstrap.checkpoint").read_bytes()
    folder = tmp_path / "__cluster_metadata-0"
    folder.mkdir()
    for cut in (120, 200):  # inside the records' batch, inside the footer's
        snapshot = folder / name
        snapshot.write_bytes(whole[:cut])
        for argv in (("dump", snapshot), ("dump", snapshot, "--decode"), ("verify", snapshot)):
            code, out, err = run(*argv)
            said = err if argv[0] == "dump" else out  # verify lists its problems on stdout
            assert code == 1 and f"{snapshot} at byte " in said, (argv, cut, out, err)


@pytest.mark.hostile
@pytest.mark.skipif(not (CORPUS / "KafkaDemo").is_dir(), reason="the corpus is not here")
def test_inspect_metadata_of_a_snapshot_cut_between_batches(tmp_path):
    """A snapshot cut just before its footer ends in whole batches: its state read as fine (exit 0), the
    records the cut took missing; ``verify`` said it was not written completely, and now so does inspect."""
    whole = (CORPUS / "KafkaDemo" / "kraft-combined-logs" / "bootstrap.checkpoint").read_bytes()
    (tmp_path / "bootstrap.checkpoint").write_bytes(whole[:174])  # header and records, no footer
    code, _, err = run("inspect", "metadata", tmp_path)
    assert code == 1 and f"{tmp_path / 'bootstrap.checkpoint'}: no SNAPSHOT_FOOTER" in err, err

"""``kafkaspec explain`` edges (issue 22, CLI edges): --at off an entry start names the nearest entry starts;
a broker fetch response given without --format is read as one; Kafka's text files in a partition
directory (leader-epoch-checkpoint, partition.metadata, quorum-state) are explained line by line."""

from __future__ import annotations

import json
import re

import pytest
from support.corpus import CORPUS
from support.explain import run

SEGMENT = (
    CORPUS / "files" / "segments" / "Bheem6005-kafka" / "kafka-logs" / "cities-0" / "00000000000000000000.log"
    if CORPUS
    else None
)
FETCH = {
    ".kafka.0821": "fetch-response-payload-v0",
    ".kafka.0822": "fetch-response-payload-v0",
    ".kafka.0900": "fetch-response-payload-v0",
    ".hex": "fetch-response-frame-v10",
}
FETCH_FILES = (
    sorted(
        p
        for d in ("kafka-rust-test-data", "segmentio-kafka-go-fixtures")
        for p in (CORPUS / "files" / d).iterdir()
        if p.name.endswith(tuple(FETCH))
    )
    if CORPUS
    else []
)


def _starts(path) -> list[int]:
    """Where the segment's log entries start: each is its 12-byte offset and size, then size bytes."""
    data, at, out = path.read_bytes(), 0, []
    while at + 12 <= len(data):
        out.append(at)
        at += 12 + int.from_bytes(data[at + 8 : at + 12], "big")
    return out


# -- 1. --at off an entry start ----------------------------------------------------------------------------


@pytest.mark.parametrize("offset", [3, 5, 40])
def test_at_inside_an_entry_names_the_nearest_entry_starts(offset, corpus):
    starts = _starts(SEGMENT)
    assert len(starts) >= 3 and starts[0] == 0
    before, after = starts[0], starts[1]
    assert before < offset < after
    code, out, err = run("explain", SEGMENT, "--at", offset, "--count", 1)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    assert f"byte {offset} is not where a log entry starts" in err
    assert f"--at {before}" in err and f"--at {after}" in err


def test_at_inside_the_last_entry_says_none_follows(corpus, tmp_path):
    data = SEGMENT.read_bytes()
    starts = _starts(SEGMENT)
    cut = tmp_path / "00000000000000000000.log"
    cut.write_bytes(data[: starts[-1] + 30])  # the last entry cut short: as a segment being written
    canary = tmp_path / "canary"
    canary.write_text("keep")
    code, _, err = run("explain", cut, "--at", starts[-1] + 20)
    assert code == 2 and len(err.splitlines()) == 1
    assert f"--at {starts[-1]}" in err and "no entry starts after it" in err
    assert canary.read_text() == "keep"


def test_at_on_an_entry_start_is_explained(corpus):
    starts = _starts(SEGMENT)
    code, out, err = run("explain", SEGMENT, "--at", starts[1], "--count", 1)
    assert code == 0 and err == "" and out.splitlines()[0].lstrip().startswith(f"{starts[1]}..")


def test_at_with_a_format_is_taken_as_given(corpus):
    """--format says what is at --at: it is read from there, whatever the entries before it."""
    code, out, _ = run("explain", SEGMENT, "--at", 5, "--count", 1, "--format", "batch")
    assert code == 1 and "decoding stopped" in out


# -- 2. a fetch response without --format --------------------------------------------------------------------


def test_fetch_files_found(corpus):
    assert len(FETCH_FILES) >= 16


@pytest.mark.parametrize("path", FETCH_FILES, ids=[p.name for p in FETCH_FILES])
def test_fetch_response_without_format_is_read_as_one(path, corpus):
    code, out, err = run("explain", path)
    fmt = next(f for suffix, f in FETCH.items() if path.name.endswith(suffix))
    assert err == ""
    assert re.match(rf"1 {fmt} entry\b", out.splitlines()[-1]), out.splitlines()[-1]
    if "invalid_crc" in path.name:  # the one real CRC error of the corpus is still found, where it is
        assert code == 1 and "problem at byte 52" in out
    else:
        assert code == 0 and "every byte explained" in out.splitlines()[-1]


def test_unknown_bytes_suggest_the_fetch_formats():
    code, out, err = run("explain", "-", stdin="ff" * 40)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "--format fetch-v0" in err and "fetch-v10" in err


# -- 3. Kafka's text files by name ---------------------------------------------------------------------------


def test_partition_metadata_is_explained(corpus):
    path = CORPUS / "files" / "segments" / "LDI-POC" / "TestTopicPatient-0" / "partition.metadata"
    code, out, err = run("explain", path)
    assert code == 0 and err == ""
    assert re.search(r"line 1 +version: 0 +.*format version", out)
    assert re.search(r"line 2 +topic_id: B3_HiNPgSQ6oxG9ZZ6ED5A +.*topic id", out)
    assert out.splitlines()[-1] == "partition.metadata: 2 lines; every line explained"


def test_leader_epoch_checkpoint_is_explained(corpus):
    path = CORPUS / "files" / "segments" / "LDI-POC" / "__cluster_metadata-0" / "leader-epoch-checkpoint"
    code, out, err = run("explain", path)
    assert code == 0 and err == ""
    assert re.search(r"line 1 +0 +.*version", out)
    assert re.search(r"line 2 +1 +.*1 entry follows", out)
    assert re.search(r"line 3 +1 0 +.*leader epoch 1 starts at offset 0", out)
    assert out.splitlines()[-1] == "leader-epoch-checkpoint: 3 lines; every line explained"


def test_quorum_state_is_explained(corpus):
    path = (
        CORPUS
        / "files"
        / "segments"
        / "KafkaDemo"
        / "kraft-combined-logs"
        / "__cluster_metadata-0"
        / "quorum-state"
    )
    code, out, err = run("explain", path)
    assert code == 0 and err == ""
    assert re.search(r"leaderId +1 +.*leader", out)
    assert re.search(r"leaderEpoch +6 +.*epoch", out)
    assert re.search(r"votedId +-1 +.*no vote", out)
    assert re.search(r"data_version +0 +.*version", out)
    assert out.splitlines()[-1] == "quorum-state: 7 fields; every field explained"


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("leader-epoch-checkpoint", "0\n2\n1 0\n", "announces 2 entries but holds 1"),
        ("partition.metadata", "version: 0\ntopic_id: nope\n", "line 2: topic_id 'nope' is not a Kafka Uuid"),
        ("quorum-state", '{"leaderId": 1,', "not JSON"),
    ],
)
def test_bad_text_file_names_file_and_line(name, text, message, tmp_path):
    path = tmp_path / name
    path.write_text(text)
    canary = tmp_path / "canary"
    canary.write_text("keep")
    code, out, err = run("explain", path)
    assert code == 1 and message in out and str(path) in out, out
    assert canary.read_text() == "keep"


def test_text_file_as_json_and_refused_options(corpus):
    path = CORPUS / "files" / "segments" / "LDI-POC" / "TestTopicPatient-0" / "partition.metadata"
    code, out, err = run("explain", path, "--json")
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert (
        doc["format"] == "partition.metadata"
        and doc["lines"][1]["text"] == "topic_id: B3_HiNPgSQ6oxG9ZZ6ED5A"
    )
    code, out, err = run("explain", path, "--at", 3)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "a text file" in err


def test_text_file_control_characters_are_escaped(tmp_path):
    path = tmp_path / "quorum-state"
    # every field of version 0 (Kafka requires them), with control characters in a key and a value
    path.write_text(
        '{"\\u001b[31mred": 1, "clusterId": "\\u001b[0m", "leaderId": 1, "leaderEpoch": 1, "votedId": -1, '
        '"appliedOffset": 0, "currentVoters": null, "data_version": 0}'
    )
    code, out, _ = run("explain", path)
    assert code == 0 and "\x1b" not in out and "'\\x1b[31mred'" in out and "\\u001b[0m" in out


def test_finding_the_entry_starts_is_linear():
    """--at near the end of many small entries: the chain from byte 0 costs time linear in the entries."""
    from support.timing import GROWTH, assert_linear

    from kafkaspec.explain.walk import UnknownFormat, resolve

    entry = bytes(8) + (14).to_bytes(4, "big") + bytes(4) + bytes(10)  # a message v0 of 14 bytes: 26 in all
    small, large = entry * 4000, entry * int(4000 * GROWTH)

    def attempt(data: bytes):
        def go():
            with pytest.raises(UnknownFormat, match="is not where a log entry starts"):
                resolve("auto", data, len(data) - 5)

        return go

    assert_linear(attempt(small), attempt(large), what="the entry starts before --at")

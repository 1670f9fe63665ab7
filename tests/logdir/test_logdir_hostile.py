"""Hostile bytes in index, snapshot and checkpoint files: a KafkaFormatError or a value, nothing else."""

from __future__ import annotations

import io
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafkaspec import (
    CorruptRecordError,
    InvalidLengthError,
    InvalidMagicError,
    KafkaFormatError,
    TruncatedError,
)
from kafkaspec.logdir.kafka import files, indexes
from kafkaspec.logdir.kafka.snapshot import parse_snapshot
from kafkaspec.progress import Progress

#: version, crc and entry count: the fixed fields before a snapshot's entries
SNAPSHOT_HEAD = 10
EXAMPLES = min(int(os.environ.get("KAFKASPEC_FUZZ_EXAMPLES", "300")), 200)


def _names_position(exc: KafkaFormatError, size: int) -> None:
    assert exc.position is not None and 0 <= exc.position <= size, exc
    assert f"byte {exc.position}" in str(exc)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.binary(max_size=300))
def test_index_and_snapshot_bytes(data):
    # offset and time indexes have no checked field: any bytes parse (a partial tail and zeros are ignored)
    indexes.parse_offset_index(data, 0)
    indexes.parse_time_index(data, 0)
    # .txnindex: whole 34-byte entries, each starting with version 0; the first other version is named
    entries = len(data) // indexes.TXN_ENTRY_SIZE
    bad = next(
        (
            i
            for i in range(entries)
            if data[i * indexes.TXN_ENTRY_SIZE : i * indexes.TXN_ENTRY_SIZE + 2] != b"\0\0"
        ),
        None,
    )
    if bad is None:
        assert len(indexes.parse_txn_index(data)) == entries
    else:
        with pytest.raises(
            InvalidMagicError,
            match=r"entry \d+: aborted transaction version -?\d+; Kafka's TransactionIndex reads version 0 only",
        ) as info:
            indexes.parse_txn_index(data)
        assert info.value.position == bad * indexes.TXN_ENTRY_SIZE
        _names_position(info.value, len(data))
    # .snapshot: at least version (int16), crc (int32) and an entry count (int32); version 1; then the CRC-32C
    if len(data) < SNAPSHOT_HEAD:
        with pytest.raises(InvalidLengthError, match="cannot fit in the") as snap:
            parse_snapshot(data)
        _names_position(snap.value, len(data))
    elif data[:2] != b"\0\1":
        with pytest.raises(InvalidMagicError, match="ProducerSnapshot version is") as snap:
            parse_snapshot(data)
        _names_position(snap.value, len(data))
    else:
        try:
            parse_snapshot(data)
        except (TruncatedError, InvalidLengthError, CorruptRecordError) as exc:
            _names_position(exc, len(data))


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.text(max_size=80))
def test_text_files(text):
    for parse in (files.parse_leader_epoch_checkpoint, files.parse_partition_metadata):
        try:
            parse(text)
        except KafkaFormatError as exc:
            # text files have no finer error class: the syntax error itself, at a character position
            assert type(exc) is KafkaFormatError
            _names_position(exc, len(text))


def test_progress_bar_only_when_enabled():
    quiet = io.StringIO()
    bar = Progress("x", stream=quiet)  # a StringIO is not a terminal
    bar(5, 10)
    bar.close()
    assert quiet.getvalue() == ""
    shown = io.StringIO()
    bar = Progress("dump", stream=shown, enabled=True)
    bar(10, 10)
    bar.close()
    assert "dump [" in shown.getvalue() and "100.0%" in shown.getvalue()

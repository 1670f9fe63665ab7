"""Hostile bytes in index, snapshot and checkpoint files: a KafkaFormatError or a value, nothing else."""

from __future__ import annotations

import io
import os

from hypothesis import given, settings
from hypothesis import strategies as st

from kafkaspec import KafkaFormatError
from kafkaspec.logdir import files, indexes
from kafkaspec.logdir.snapshot import parse_snapshot
from kafkaspec.progress import Progress

EXAMPLES = min(int(os.environ.get("KAFKASPEC_FUZZ_EXAMPLES", "300")), 200)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.binary(max_size=300))
def test_index_and_snapshot_bytes(data):
    indexes.parse_offset_index(data, 0)
    indexes.parse_time_index(data, 0)
    for parse in (indexes.parse_txn_index, parse_snapshot):
        try:
            parse(data)
        except KafkaFormatError:
            pass


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.text(max_size=80))
def test_text_files(text):
    for parse in (files.parse_leader_epoch_checkpoint, files.parse_partition_metadata):
        try:
            parse(text)
        except KafkaFormatError:
            pass


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

"""``OUT/_published/<id>.json`` lists that lie, read by the incremental pipeline's recovery (without
Spark): a FIFO or a symbolic link in a list's place, a list of gigabytes, JSON nested deeper than
Python's parser recurses, a staging name with a line end, a batch number that is not its file's.
Each is refused in one ValueError naming the list, at once and without reading it whole."""

from __future__ import annotations

import json
import os

import pytest
from support.fifo import call_beside_fifo

from kafkaspec.spark.run import incremental
from kafkaspec.spark.run.incremental import PUBLISHED, recover

pytestmark = pytest.mark.hostile

GOOD = {"batch": 0, "offsets": None, "staging": None, "files": []}


def _out(tmp_path):
    out = tmp_path / "out"
    (out / PUBLISHED).mkdir(parents=True)
    (tmp_path / "canary").write_text("keep")
    return out


def _refused(out, match: str) -> None:
    with pytest.raises(ValueError, match=match) as err:
        recover(out)
    assert str(out / PUBLISHED / "0.json") in str(err.value)
    assert "\n" not in str(err.value)


def test_a_fifo_in_a_lists_place_is_refused_at_once(tmp_path):
    out = _out(tmp_path)
    fifo = out / PUBLISHED / "0.json"
    os.mkfifo(fifo)
    error = call_beside_fifo(lambda: recover(out), fifo, "recovery")
    assert isinstance(error, ValueError), error
    assert "not a regular file" in str(error) and str(fifo) in str(error)
    assert (tmp_path / "canary").read_text() == "keep"


def test_a_symbolic_link_in_a_lists_place_is_refused(tmp_path):
    out = _out(tmp_path)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(json.dumps(GOOD))
    (out / PUBLISHED / "0.json").symlink_to(elsewhere)
    _refused(out, "not a regular file")
    assert elsewhere.read_text() == json.dumps(GOOD)


def test_a_list_of_gigabytes_is_refused_by_its_size(tmp_path):
    out = _out(tmp_path)
    with open(out / PUBLISHED / "0.json", "wb") as fh:
        fh.truncate(incremental.MAX_MANIFEST_BYTES + 1)  # sparse: takes no disk
    _refused(out, "bytes")


def test_json_nested_past_the_parsers_recursion_is_refused_naming_the_list(tmp_path):
    out = _out(tmp_path)
    (out / PUBLISHED / "0.json").write_text("[" * 200_000 + "]" * 200_000)
    _refused(out, "not a published micro-batch's list")


@pytest.mark.parametrize("lie", [{"staging": "batch-0-0123456789ab\n"}, {"batch": True}, {"batch": 7}])
def test_a_list_that_is_not_its_own_is_refused(tmp_path, lie):
    out = _out(tmp_path)
    (out / PUBLISHED / "0.json").write_text(json.dumps({**GOOD, **lie}))
    _refused(out, "not a published micro-batch's list")


@pytest.mark.parametrize("name", ["00.json", "0.json\n", "1.json\n"])
def test_a_file_not_named_as_a_list_is_no_list_and_is_left(tmp_path, name):
    """A name that only looks like ``<id>.json`` (a leading zero, a line end) is not read as micro-batch
    ``<id>``'s list (there is none by that exact name: recovery failed on an assert)."""
    out = _out(tmp_path)
    (out / PUBLISHED / name).write_text(json.dumps(GOOD))
    assert recover(out) == 0
    assert (out / PUBLISHED / name).read_text() == json.dumps(GOOD)


def test_a_fifo_in_the_file_sinks_log_is_refused_at_once(tmp_path):
    """An OUT of Spark's file sink is adopted by reading ``records/_spark_metadata/<id>``: a FIFO there
    hung recovery as one in ``_published/`` did."""
    out = tmp_path / "out"
    log = out / "records" / "_spark_metadata"
    log.mkdir(parents=True)
    fifo = log / "0"
    os.mkfifo(fifo)
    error = call_beside_fifo(lambda: recover(out), fifo, "adopting the file sink's log")
    assert isinstance(error, ValueError), error
    assert "not a regular file" in str(error) and str(fifo) in str(error)

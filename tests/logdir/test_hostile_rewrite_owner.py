"""``kafkaspec rewrite`` into a destination that holds what looks like an interrupted run's staging dir:
its owner file is read to learn whose it is. A FIFO there (or a link to one) hung the rewrite before it
wrote anything; a name that only ends like a staging dir's (a line end after ``.staging``) was taken
for one. Such entries are not staging dirs of ours: the destination is refused as not empty, at once."""

from __future__ import annotations

import os

import pytest
from support.fifo import call_beside_fifo

from kafkaspec.logdir.store.staging import OWNER, is_staging_name, prepare

pytestmark = pytest.mark.hostile


def test_an_owner_file_that_is_a_fifo_is_not_read(tmp_path):
    dst = tmp_path / "dst"
    staged = dst / f".kafkaspec-rewrite-{os.getpid()}-0123456789ab.staging"
    staged.mkdir(parents=True)
    os.mkfifo(staged / OWNER)
    (tmp_path / "canary").write_text("keep")
    error = call_beside_fifo(lambda: prepare(dst), staged / OWNER, "prepare")
    assert isinstance(error, FileExistsError), error
    assert (staged / OWNER).exists() and (tmp_path / "canary").read_text() == "keep"


def test_a_name_with_a_line_end_after_staging_is_no_staging_dir():
    assert not is_staging_name(".kafkaspec-rewrite-1-0123456789ab.staging\n")
    assert is_staging_name(".kafkaspec-rewrite-1-0123456789ab.staging")

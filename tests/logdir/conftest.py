"""Fixtures for the log-directory tests."""

from __future__ import annotations

import pytest
from support.logdir import write_partition


@pytest.fixture
def small_partition(tmp_path):
    """A partition directory of 60 plain batches in every codec, and what was written to it."""
    written = write_partition(tmp_path)
    return tmp_path / "t-0", written

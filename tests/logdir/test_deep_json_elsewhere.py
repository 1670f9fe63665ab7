"""JSON nested thousands of levels deep where kafkaspec reads JSON that others may write: a publication's
marker in a store (anyone with write access to the bucket) and the Spark reader's offset options.
Python's reader raises RecursionError there, which escaped as itself (an executor's task failed with
no word of the marker; an option error named no option)."""

from __future__ import annotations

import pytest

from kafkaspec.logdir.store.publish import Marker
from kafkaspec.spark.read.options import OptionError, ReadOptions

pytestmark = pytest.mark.hostile

DEEP = "[" * 100_000 + "]" * 100_000


def test_a_deep_marker_is_read_as_the_text_of_an_old_marker():
    marker = Marker.decode(DEEP.encode())
    assert marker.objects is None and marker.job.startswith("[[[")


def test_deep_offsets_option_is_an_option_error():
    with pytest.raises(OptionError, match="option startingOffsets must be earliest, latest or JSON"):
        ReadOptions.parse({"startingOffsets": DEEP})


def test_deep_assign_option_is_an_option_error_shown_short():
    with pytest.raises(OptionError, match=r"option assign must be JSON .*\.\.\. \(200000 characters\)$"):
        ReadOptions.parse({"assign": DEEP})

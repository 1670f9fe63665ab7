"""A release that cannot be fetched fails in one line naming it and what failed (never a skip)."""

from __future__ import annotations

import pytest
from support.kafka_broker import CACHE, Unavailable, jars


def test_a_release_maven_cannot_fetch_is_one_line_naming_it():
    release = "0.0.0-kafkaspec-none"
    with pytest.raises(Unavailable) as info:
        jars(release)
    message = str(info.value)
    assert message.startswith(f"Kafka {release}: Maven could not fetch the broker's jars: ")
    assert "\n" not in message and "\x1b" not in message and release in message.split(": ", 2)[2]
    assert not (CACHE / release).exists()  # the half-made folder is removed, so the next run fetches again

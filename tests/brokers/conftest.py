"""One broker per release for the whole module run: started, given the workload, copied while it runs
(as a backup of a live broker is taken), stopped cleanly; the tests read both directories."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from support import kafka_workload
from support.kafka_broker import RELEASES, Broker
from support.kafka_workload import Row


@dataclass
class BrokerRun:
    release: str
    #: a copy of the data directory taken while the broker ran (active segments, preallocated indexes)
    live: Path
    #: the data directory after a clean stop
    stopped: Path
    #: what the broker served: read_uncommitted and read_committed consumers from the earliest offsets
    uncommitted: list[Row]
    committed: list[Row]
    #: {group: {(topic, partition): offset}} as the groups committed them, and as the admin API lists them
    group_offsets: dict[str, dict[tuple[str, int], int]]
    listed_offsets: dict[str, dict[tuple[str, int], int]]


@pytest.fixture(scope="session", params=RELEASES)
def broker_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerRun]:
    release = request.param
    home = tmp_path_factory.mktemp(f"kafka-{release}")
    broker = Broker(release, home / "broker", kafka_workload.BROKER_CONFIG)
    try:
        broker.start()
        group_offsets = kafka_workload.run(broker.bootstrap, release, broker.data)
        uncommitted = kafka_workload.served(broker.bootstrap, "read_uncommitted")
        committed = kafka_workload.served(broker.bootstrap, "read_committed")
        listed = kafka_workload.listed_offsets(broker.bootstrap)
        live = home / "live-copy"
        shutil.copytree(broker.data, live)
    finally:
        broker.stop()
    yield BrokerRun(release, live, broker.data, uncommitted, committed, group_offsets, listed)

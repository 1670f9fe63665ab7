"""One broker per release for the whole session, in phases: the workload; a copy of the data directory
taken while the broker runs (as a backup of a live broker is taken); more records, then a kill -9 and a
copy of the killed directory; a restart (Kafka recovers the segments past each recovery point); a clean
stop. The tests read the three directories and compare each with what the broker served for it.

The broker has tiered storage on (:mod:`support.kafka_tiered`): the topic ``tiered`` is given records
before the kill and after the restart (a new leader epoch), and its segments go to a local folder through
Kafka's own RemoteLogManager and ``LocalTieredStorage``; the tests read that folder with the stopped
broker's directory."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from support import kafka_groups, kafka_producers, kafka_tiered, kafka_workload
from support.kafka_broker import RELEASES, Broker
from support.kafka_workload import Row


@dataclass
class Served:
    """What the broker served: read_uncommitted and read_committed consumers from the earliest offsets."""

    uncommitted: list[Row]
    committed: list[Row]


@dataclass
class BrokerRun:
    release: str
    #: a copy of the data directory taken while the broker ran (active segments, preallocated indexes)
    live: Path
    #: a copy of the data directory right after a kill -9 (more records produced since the live copy)
    killed: Path
    #: the data directory after the restart and a clean stop
    stopped: Path
    #: what the broker served before the kill (for ``live``), and after the restart (for ``killed``, ``stopped``)
    before_kill: Served
    after_restart: Served
    #: {group: {(topic, partition): offset}} as the groups committed them (the streams group, where the release
    #: has one, everything it read), and as the admin API lists them
    group_offsets: dict[str, dict[tuple[str, int], int]]
    listed_offsets: dict[str, dict[tuple[str, int], int]]
    #: the broker's describe of topics, partitions and configs (:func:`kafka_workload.described`) just before
    #: the live copy, and before the clean stop
    described_live: dict[str, Any]
    described_stopped: dict[str, Any]
    #: the share group's acknowledgements {(partition, offset): [type of each delivery]}, and its start offsets
    #: as Kafka's kafka-share-groups lists them before the clean stop (None where no tool of the release lists them)
    share_acks: dict[tuple[int, int], list[int]]
    share_listed: dict[tuple[str, int], int] | None
    #: ``LocalTieredStorage``'s folder after the clean stop: the remote tier of :data:`kafka_tiered.TIERED`
    remote: Path
    #: what the broker served of :data:`kafka_tiered.TIERED` (from offset 0, most of it remote), last of all
    tiered: Served
    #: the remote ``.log`` whose upload was blocked before its COPY_SEGMENT_FINISHED (the broker killed
    #: then), uploaded again after the restart
    blocked: Path
    #: copies of the storage folder taken with ``live`` (just after it) and with ``killed``, and what the
    #: broker served of :data:`kafka_tiered.TIERED` just before the live copy (the same at the kill: the
    #: blocked upload stops the RemoteLogManager's copies of the topic, and nothing is produced to it)
    live_remote: Path
    killed_remote: Path
    tiered_before_kill: Served

    @property
    def uncommitted(self) -> list[Row]:
        return self.after_restart.uncommitted

    @property
    def committed(self) -> list[Row]:
        return self.after_restart.committed

    def served(self, which: str) -> Served:
        """What the broker served for the directory ``which`` (``live``, ``killed`` or ``stopped``)."""
        return self.before_kill if which == "live" else self.after_restart


def _served(bootstrap: str, topics: dict[str, int] = kafka_workload.TOPICS) -> Served:
    return Served(
        kafka_workload.served(bootstrap, "read_uncommitted", topics),
        kafka_workload.served(bootstrap, "read_committed", topics),
    )


@pytest.fixture(scope="session", params=RELEASES)
def broker_run(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[BrokerRun]:
    release = request.param
    home = tmp_path_factory.mktemp(f"kafka-{release}")
    remote = home / "remote"
    rsm_class, plugins = kafka_tiered.storage(release)
    broker = Broker(
        release,
        home / "broker",
        {**kafka_workload.broker_config(release), **kafka_tiered.broker_config(remote, rsm_class)},
        plugins,
    )
    live, killed = home / "live-copy", home / "killed-copy"
    live_remote, killed_remote = home / "live-remote", home / "killed-remote"
    try:
        broker.start()
        kafka_workload.enable_previews(broker.bootstrap, release)
        kafka_tiered.create_topic(broker.bootstrap)
        after = kafka_tiered.produce_tiered(broker.bootstrap, 0, kafka_tiered.ROUNDS)
        group_offsets = kafka_workload.run(broker.bootstrap, release, broker.data)
        share_acks: dict[tuple[int, int], list[int]] = {}
        if kafka_groups.has_share_groups(release):
            share_acks = kafka_groups.consume_in_share_group(broker.bootstrap, release)
        streams: tuple[str, ...] = ()
        if kafka_groups.has_streams_groups(release):
            group_offsets[kafka_groups.STREAMS_GROUP] = kafka_groups.run_streams_group(
                broker.bootstrap, release, home / "streams-state"
            )
            streams = (kafka_groups.STREAMS_GROUP,)
        before_kill = _served(broker.bootstrap)
        listed = kafka_groups.listed_offsets(broker.bootstrap, streams)
        groups = (kafka_groups.SHARE_GROUP,) if share_acks else ()
        described_live = kafka_workload.described(broker.bootstrap, groups)
        blocked = kafka_tiered.wait_blocked(remote, broker.data)
        tiered_before_kill = _served(broker.bootstrap, {kafka_tiered.TIERED: 1})
        shutil.copytree(broker.data, live)
        shutil.copytree(remote, live_remote)  # after the data: its metadata names no upload the copy lacks
        kafka_producers.produce_before_kill(broker.bootstrap)
        broker.kill()
        shutil.copytree(broker.data, killed)
        shutil.copytree(remote, killed_remote)
        broker.start()
        kafka_tiered.produce_tiered(broker.bootstrap, kafka_tiered.ROUNDS, kafka_tiered.ROUNDS, after)
        after_restart = _served(broker.bootstrap)
        described_stopped = kafka_workload.described(broker.bootstrap, groups)
        share_listed: dict[tuple[str, int], int] | None = {}
        if share_acks:
            share_listed = kafka_groups.listed_share_offsets(broker.bootstrap, release)
        kafka_tiered.wait_tiered(remote, broker.data, 2 * kafka_tiered.ROUNDS - 4)
        tiered = _served(broker.bootstrap, {kafka_tiered.TIERED: 1})
    finally:
        broker.stop()
    yield BrokerRun(
        release,
        live,
        killed,
        broker.data,
        before_kill,
        after_restart,
        group_offsets,
        listed,
        described_live,
        described_stopped,
        share_acks,
        share_listed,
        remote,
        tiered,
        blocked,
        live_remote,
        killed_remote,
        tiered_before_kill,
    )

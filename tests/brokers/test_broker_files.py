"""The rest of a broker's data directory: `verify` on a live copy, on a copy of a killed broker's and
after a clean stop, and every record of Kafka's internal topics and KRaft checkpoints decoded with no
error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from support.kafka_checks import decoded_kinds
from support.kafka_groups import SHARE_GROUP
from support.kafka_producers import BEFORE_KILL


def kafkaspec(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", *args], capture_output=True, text=True, timeout=300
    )


def test_verify_is_clean_after_a_clean_stop(broker_run):
    got = kafkaspec("verify", str(broker_run.stopped))
    assert got.returncode == 0, got.stdout + got.stderr
    assert " 0 errors, 0 warnings" in got.stdout + got.stderr


def test_verify_of_a_live_copy_finds_no_error(broker_run):
    """A copy taken while the broker runs has active segments with preallocated, zero-filled indexes:
    zeros are no entries. What is left are notes: the broker's last shutdown was not clean, and the
    deleted topic's -delete directories are not read."""
    got = kafkaspec("verify", str(broker_run.live))
    out = got.stdout + got.stderr
    assert " 0 errors, 0 warnings" in out, out
    assert got.returncode == 0, out


def test_verify_of_a_killed_broker_names_what_recovery_rereads(broker_run):
    """After a kill -9: no error, and the note on the missing .kafka_cleanshutdown names the partitions
    whose logs run past their recovery point, among them those written just before the kill."""
    got = kafkaspec("verify", str(broker_run.killed))
    out = got.stdout + got.stderr
    assert " 0 errors, 0 warnings" in out, out
    assert got.returncode == 0, out
    note = next(ln for ln in out.splitlines() if "no .kafka_cleanshutdown" in ln)
    for topic in BEFORE_KILL:
        assert f"{topic}-0 from " in note, note


def _internal(data: Path) -> list[Path]:
    names = (
        "__cluster_metadata-",
        "__consumer_offsets-",
        "__transaction_state-",
        "__share_group_state-",
        "__remote_log_metadata-",
    )
    found = [p for p in sorted(data.iterdir()) if p.name.startswith(names)]
    found += sorted(data.glob("__cluster_metadata-0/*.checkpoint")) + sorted(
        data.glob("bootstrap.checkpoint")
    )
    return found


def test_every_internal_record_decodes(broker_run):
    paths = _internal(broker_run.stopped)
    assert any(p.name == "__cluster_metadata-0" for p in paths)
    assert any(p.name.startswith("__transaction_state-") for p in paths)
    decoded = sum(decoded_kinds(paths).values())
    assert decoded > 100


def test_inspect_offsets_agrees_with_the_admin_api(broker_run):
    """Committed offsets of a classic group and of a KIP-848 consumer group, replayed from
    __consumer_offsets, against what the broker's admin API lists (and what the commits returned). The
    share group (KIP-932) is there too, with no committed offset: its progress is in __share_group_state."""
    got = kafkaspec("inspect", "offsets", "--json", str(broker_run.stopped))
    assert got.returncode == 0, got.stderr
    ours = {
        g["group"]: {(o["topic"], o["partition"]): o["offset"] for o in g["offsets"]}
        for g in json.loads(got.stdout)["groups"]
    }
    assert broker_run.listed_offsets == broker_run.group_offsets
    assert ours.pop(SHARE_GROUP, {}) == {}
    assert ours == broker_run.listed_offsets

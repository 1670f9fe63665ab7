"""The KRaft checkpoints Kafka's own storage tool writes, per release, read as the broker reads them:
with static voters, and with ``--standalone`` (a dynamic quorum, KIP-853), whose zero checkpoint opens
with one control batch of SNAPSHOT_HEADER, KRAFT_VERSION and KRAFT_VOTERS. From 4.4 on (KIP-1170) the
bootstrap records are in the zero checkpoint, and there is no ``bootstrap.checkpoint``.
Only the storage tool runs here (no broker starts): a few seconds per format."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support.kafka_broker import CLUSTER_ID, RELEASES, Broker, Unavailable

ZERO = "00000000000000000000-0000000000.checkpoint"


def kafkaspec(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", *args], capture_output=True, text=True, timeout=300
    )


def _format(release: str, home, standalone: bool):
    broker = Broker(release, home)
    home.mkdir(parents=True)
    args = []
    if standalone:
        del broker.config["controller.quorum.voters"]
        broker.config["controller.quorum.bootstrap.servers"] = f"127.0.0.1:{broker.controller_port}"
        args = ["--standalone"]
    config = broker._write_config()
    got = subprocess.run(
        broker._java("kafka.tools.StorageTool", "format", "-t", CLUSTER_ID, "-c", str(config), *args),
        capture_output=True,
        text=True,
        timeout=180,
    )
    if got.returncode:
        raise Unavailable(f"Kafka {release}: the storage tool failed: {(got.stderr or got.stdout)[-300:]}")
    return broker.data


@pytest.mark.parametrize("standalone", [False, True], ids=["static", "standalone"])
@pytest.mark.parametrize("release", RELEASES)
def test_a_formatted_data_dir_reads(tmp_path, release, standalone):
    data = _format(release, tmp_path / "home", standalone)
    (tmp_path / "canary").write_text("stays")
    newer = tuple(map(int, release.split(".")[:2])) >= (4, 4)
    zero = data / "__cluster_metadata-0" / ZERO
    assert (data / "bootstrap.checkpoint").exists() is not newer
    got = kafkaspec("verify", str(data))
    assert got.returncode == 0 and " 0 errors, 0 warnings" in got.stdout + got.stderr, got.stdout + got.stderr
    got = kafkaspec("inspect", "datadir", str(data), "--json")
    assert got.returncode == 0, got.stderr
    boot = json.loads(got.stdout)["bootstrap"]
    assert boot["file"] == (f"__cluster_metadata-0/{ZERO}" if newer else "bootstrap.checkpoint")
    assert boot["metadata_version_level"] and boot["records"]["FeatureLevelRecord"] >= 1
    got = kafkaspec("inspect", "metadata", str(data), "--json")
    assert got.returncode == 0, got.stderr
    state = json.loads(got.stdout)
    assert state["last_offset"] == -1  # the bootstrap records come before log offset 0
    if newer or not zero.exists():
        assert state["features"]["metadata.version"] == boot["metadata_version_level"]
    if zero.exists():
        got = kafkaspec("dump", str(zero), "--decode", "--json")
        assert got.returncode == 0, got.stderr
        records = [json.loads(line) for line in got.stdout.splitlines() if '"record"' in line]
        controls = [r.get("control_type") for r in records if "control_type" in r]
        assert controls[0] == "snapshot_header" and controls[-1] == "snapshot_footer"
        if standalone:
            assert controls[1:3] == ["kraft_version", "kraft_voters"]
        assert all(
            "decode_error" not in r and "unknown_tagged_fields" not in r["decoded"]["value"] for r in records
        )
        assert any(r["decoded"]["type"] == "FeatureLevelRecord" for r in records) is newer
    else:
        assert not standalone and not newer  # static voters before 4.4: bootstrap.checkpoint only
    assert (tmp_path / "canary").read_text() == "stays"

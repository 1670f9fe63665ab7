"""The broker's own view of its metadata against kafkaspec's replay of ``__cluster_metadata``:
``inspect metadata`` against the admin API's describe of topics, partitions and configs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any


def kafkaspec(*args: str) -> Any:
    got = subprocess.run([sys.executable, "-m", "kafkaspec.cli", *args], capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr
    return json.loads(got.stdout)


def _metadata(data: Path, with_leaders: bool) -> dict[str, Any]:
    """``inspect metadata --json`` in the shape of :func:`kafka_workload.described`."""
    body = kafkaspec("inspect", "metadata", "--json", str(data))
    keep = ("leader", "replicas", "isr") if with_leaders else ("replicas",)
    topics = {t["name"]: {"topic_id": t["topic_id"],
                          "partitions": {p["partition"]: {k: p[k] for k in keep} for p in t["partitions"]}}
              for t in body["topics"]}
    configs = {c["resource_name"]: c["configs"] for c in body["configs"] if c["resource_type"] == 2}
    defaults = next((c["configs"] for c in body["configs"] if c["resource_type"] == 4 and c["resource_name"] == ""), {})
    return {"topics": topics, "configs": {t: configs.get(t, {}) for t in topics}, "cluster_defaults": defaults,
            "other_configs": sorted(set(configs) - set(topics))}


def _broker(described: dict[str, Any], with_leaders: bool) -> dict[str, Any]:
    keep = ("leader", "replicas", "isr") if with_leaders else ("replicas",)
    topics = {n: {"topic_id": t["topic_id"], "partitions": {p: {k: v[k] for k in keep} for p, v in t["partitions"].items()}}
              for n, t in described["topics"].items()}
    return {"topics": topics, "configs": described["configs"], "cluster_defaults": described["cluster_defaults"],
            "other_configs": []}


def test_inspect_metadata_of_a_live_copy_agrees_with_the_brokers_describe(broker_run):
    """Topics (the deleted one gone), their ids, partitions with leader, replicas and ISR, the configs set
    on each topic and the cluster-wide defaults, as the broker described them just before the copy."""
    assert _metadata(broker_run.live, True) == _broker(broker_run.described_live, True)


def test_inspect_metadata_after_a_clean_stop_agrees_with_the_brokers_describe(broker_run):
    """After the clean stop the log ends with the broker's controlled shutdown (no leader, an empty ISR):
    leaders and ISRs are what the log says at its end, not what the running broker described."""
    assert _metadata(broker_run.stopped, False) == _broker(broker_run.described_stopped, False)


"""Issue 39 item 10 in the ``kafkalog`` source: the driver's registry deadline and budget reach the
executors with the read's options (their environment may not have them), as the storage settings do."""

from __future__ import annotations

import dataclasses
import pickle
import socket
import time

import pytest

from kafkaspec.spark.read.values import parse_formats

pytestmark = pytest.mark.hostile


def _options(**given: str):
    lower = {k.lower(): v for k, v in given.items()}
    return lower.get


def test_the_drivers_registry_settings_travel_with_the_read(monkeypatch):
    monkeypatch.setenv("KAFKASPEC_REGISTRY_TIMEOUT", "2.5")
    monkeypatch.setenv("KAFKASPEC_REGISTRY_BUDGET", "30")
    vc = parse_formats(
        _options(valueFormat="avro", schemaRegistryUrl="http://user:pw@127.0.0.1:9"), ValueError
    )
    monkeypatch.delenv("KAFKASPEC_REGISTRY_TIMEOUT")  # an executor without the driver's environment
    monkeypatch.delenv("KAFKASPEC_REGISTRY_BUDGET")
    client = pickle.loads(pickle.dumps(vc)).decoder().schemas.registry
    assert (client.timeout, client.budget) == (2.5, 30)


def test_without_settings_the_executor_decides(monkeypatch):
    monkeypatch.delenv("KAFKASPEC_REGISTRY_TIMEOUT", raising=False)
    monkeypatch.setenv("KAFKASPEC_REGISTRY_BUDGET", "not a number")
    vc = parse_formats(_options(valueFormat="avro", schemaRegistryUrl="http://127.0.0.1:9"), ValueError)
    assert (vc.registry_timeout, vc.registry_budget) == (None, None)
    monkeypatch.setenv("KAFKASPEC_REGISTRY_TIMEOUT", "4")
    client = vc.decoder().schemas.registry
    assert (client.timeout, client.budget) == (4, 60)


def test_the_tasks_of_one_read_in_one_worker_ask_a_silent_registry_once():
    """Each task builds its decoder from the shipped options; those of one run share the registry client
    (its answers, its budget, its failure), a stream's next micro-batch (``refresh``) gets a new one."""
    from kafkaspec.spark.read.values import refresh

    with socket.create_server(("127.0.0.1", 0), backlog=16) as silent:
        url = f"http://user:secret@127.0.0.1:{silent.getsockname()[1]}"
        vc = parse_formats(_options(valueFormat="avro", schemaRegistryUrl=url), ValueError)
        vc = dataclasses.replace(vc, registry_timeout=0.5)
        started = time.monotonic()
        tasks = [pickle.loads(pickle.dumps(vc)).decoder() for _ in range(6)]  # six tasks of one read
        errors = [
            t.decode("orders", b"\x00\x00\x00\x00" + bytes([i]) + b"\x02").error for i, t in enumerate(tasks)
        ]
        took = time.monotonic() - started
        assert took < 3, f"six tasks took {took:.1f} s with a 0.5 s deadline"
        assert (
            tasks[0].schemas.registry is tasks[5].schemas.registry and tasks[0].schemas.registry.requests == 1
        )
        assert all("secret" not in e and "127.0.0.1" in e for e in errors) and "not asked" in errors[5]
        later = refresh(vc, _NoLog())
        assert later.decoder().schemas.registry is not tasks[0].schemas.registry


class _NoLog:
    def partitions(self):
        return []

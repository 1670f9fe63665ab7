"""Issue 39 item 10 in the ``kafkalog`` source: the driver's registry deadline and budget reach the
executors with the read's options (their environment may not have them), as the storage settings do."""

from __future__ import annotations

import pickle

import pytest

from kafkaspec.spark.values import parse_formats

pytestmark = pytest.mark.hostile


def _options(**given: str):
    lower = {k.lower(): v for k, v in given.items()}
    return lower.get


def test_the_drivers_registry_settings_travel_with_the_read(monkeypatch):
    monkeypatch.setenv("KAFKASPEC_REGISTRY_TIMEOUT", "2.5")
    monkeypatch.setenv("KAFKASPEC_REGISTRY_BUDGET", "30")
    vc = parse_formats(_options(valueFormat="avro", schemaRegistryUrl="http://user:pw@127.0.0.1:9"), ValueError)
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

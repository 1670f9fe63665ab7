"""The Arrow parts of :mod:`kafkaspec.values` moved to :mod:`kafkaspec.arrow` in 0.15: the old module path
and ``ValueDecoder.arrow_type`` keep working for one release, each with a DeprecationWarning naming
the new place."""

from __future__ import annotations

import importlib
import json
import sys

import pytest

pa = pytest.importorskip("pyarrow")

from kafkaspec.arrow import value_types  # noqa: E402
from kafkaspec.values import Schemas, SchemaStore, ValueDecoder  # noqa: E402


def test_the_old_module_path_is_the_new_module_with_a_warning(monkeypatch):
    monkeypatch.delitem(sys.modules, "kafkaspec.values.arrow_types", raising=False)
    with pytest.warns(
        DeprecationWarning, match="kafkaspec.values.arrow_types moved to kafkaspec.arrow.value_types"
    ):
        old = importlib.import_module("kafkaspec.values.arrow_types")
    assert old is value_types
    assert old.avro_to_arrow is value_types.avro_to_arrow and old.MAX_TYPE_NODES == 100_000


def test_value_decoder_arrow_type_warns_and_gives_value_type():
    store = SchemaStore()
    schema = {"type": "record", "name": "R", "fields": [{"name": "n", "type": "long"}]}
    store.apply(
        json.dumps({"keytype": "SCHEMA", "subject": "t-value", "version": 1, "magic": 1}).encode(),
        json.dumps({"subject": "t-value", "version": 1, "id": 1, "schema": json.dumps(schema)}).encode(),
    )
    dec = ValueDecoder(Schemas(store))
    with pytest.warns(DeprecationWarning, match="use kafkaspec.arrow.value_types.value_type"):
        got = dec.arrow_type("t")
    assert got == value_types.value_type(dec, "t") == (pa.struct([("n", pa.int64())]), False)

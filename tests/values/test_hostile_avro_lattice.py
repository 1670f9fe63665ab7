"""Avro schemas whose named types share each other in a lattice: record ``R<k>_0`` defines
``R<k+1>_0`` and ``R<k+1>_1``, and ``R<k>_1`` refers to the same two by name. The paths through it
double with each level: the check for array items written in 0 bytes walked every path (20 levels,
4 KB: 3.4 s; 40 levels: years), and a record of nulls at the bottom made an empty body a value of
2^levels nulls (18 levels: 6.5 MB of JSON from 0 bytes). A wide graph of named types (N types, E
references) was checked for recursion from every type (N x E). Each is now linear in the schema,
and a datum of 0 bytes decodes into at most MAX_EMPTY_VALUES values (a schema that allows more is
an error of its records). Timed at 4x the schema (support/timing.py)."""

from __future__ import annotations

import json

import pytest
from support.timing import GROWTH, assert_linear

from kafkaspec.values import Schema
from kafkaspec.values.avro import MAX_EMPTY_VALUES, AvroReader

pytestmark = pytest.mark.hostile


def _lattice(levels: int, leaf: str = "null") -> dict:
    def layer(k: int) -> list:
        if k == levels:
            return [
                {"type": "record", "name": f"R{k}_{j}", "fields": [{"name": "n", "type": leaf}]}
                for j in (0, 1)
            ]
        below = layer(k + 1)
        return [
            {
                "type": "record",
                "name": f"R{k}_0",
                "fields": [{"name": "a", "type": below[0]}, {"name": "b", "type": below[1]}],
            },
            {
                "type": "record",
                "name": f"R{k}_1",
                "fields": [{"name": "a", "type": f"R{k + 1}_0"}, {"name": "b", "type": f"R{k + 1}_1"}],
            },
        ]

    return layer(0)[0]


def _wide(levels: int, width: int) -> dict:
    fields = []
    for k in range(levels, -1, -1):
        for j in range(width):
            own = (
                [{"name": "b", "type": "boolean"}]
                if k == levels
                else [
                    {"name": "a", "type": f"R{k + 1}_{j}"},
                    {"name": "b", "type": f"R{k + 1}_{(j + 1) % width}"},
                ]
            )
            fields.append(
                {"name": f"f{k}_{j}", "type": {"type": "record", "name": f"R{k}_{j}", "fields": own}}
            )
    return {"type": "record", "name": "Top", "fields": fields}


def _parse(schema: dict):
    def run():
        try:
            AvroReader(lambda subject, version: None).parsed(Schema(1, json.dumps(schema), "AVRO", ()))
        except ValueError:
            pass

    return run


def test_a_lattice_of_named_types_is_checked_in_linear_time():
    small, large = {"type": "array", "items": _lattice(5)}, {"type": "array", "items": _lattice(5 * GROWTH)}
    assert_linear(_parse(small), _parse(large), what="array items of a lattice of records")


def test_an_empty_body_never_decodes_into_more_than_the_bound():
    reader = AvroReader(lambda subject, version: None)
    with pytest.raises(ValueError, match=f"takes 0 bytes yet holds more than {MAX_EMPTY_VALUES} values"):
        reader.read(b"", Schema(1, json.dumps(_lattice(12)), "AVRO", ()), None)


def test_a_small_record_of_nulls_still_decodes():
    schema = {"type": "record", "name": "Z", "fields": [{"name": f"n{i}", "type": "null"} for i in range(3)]}
    reader = AvroReader(lambda subject, version: None)
    assert reader.read(b"", Schema(1, json.dumps(schema), "AVRO", ()), None) == {
        "n0": None,
        "n1": None,
        "n2": None,
    }


def test_a_wide_graph_of_named_types_is_checked_in_linear_time():
    assert_linear(_parse(_wide(40, 10)), _parse(_wide(80, 20)), what="a wide graph of named types")

"""A batch is built once with all its columns (:mod:`kafkaspec.arrow.columns`): the base columns kept, in
the order asked, then each added set's columns, in one RecordBatch of the schema said up front."""

from __future__ import annotations

import pytest

pa = pytest.importorskip("pyarrow")

from kafkaspec.arrow.columns import Assembly, assembled  # noqa: E402

BASE = pa.schema([("key", pa.binary()), ("value", pa.binary()), ("headers", pa.list_(pa.int32()))])


class _Lengths:
    def fields(self):
        return [pa.field("valueLength", pa.int32())]

    def __call__(self, rb):
        return [pa.array([None if v is None else len(v) for v in rb.column("value").to_pylist()], pa.int32())]


class _Twice:
    def fields(self):
        return [pa.field("key2", pa.binary()), pa.field("flag", pa.bool_())]

    def __call__(self, rb):
        return [rb.column("key"), pa.array([True] * rb.num_rows)]


def _batch():
    return pa.RecordBatch.from_arrays(
        [pa.array([b"a", None]), pa.array([b"xyz", None]), pa.array([[1], []], pa.list_(pa.int32()))],
        schema=BASE,
    )


def test_columns_kept_in_order_then_each_added_set():
    assembly = Assembly(BASE, [_Lengths(), _Twice()], columns=["value", "key"])
    assert assembly.schema.names == ["value", "key", "valueLength", "key2", "flag"]
    out = assembly(_batch())
    assert out.schema == assembly.schema
    assert out.to_pylist() == [
        {"value": b"xyz", "key": b"a", "valueLength": 3, "key2": b"a", "flag": True},
        {"value": None, "key": None, "valueLength": None, "key2": None, "flag": True},
    ]


def test_nothing_to_add_or_leave_out_passes_the_batches_as_they_are():
    rb = _batch()
    batches = iter([rb])
    assert assembled(batches, BASE) is batches
    assert Assembly(BASE)(rb) is rb
    assert Assembly(BASE, columns=["key", "value"])(rb).schema.names == ["key", "value"]

"""The batch path of Avro values to Arrow (``decode_column``: one fastavro reader per writer schema id,
values straight into the column) gives the same cells as :meth:`ValueDecoder.decode` record by record:
a random mix of good values of two schema versions, unknown ids, bad magic bytes, bodies cut short,
bytes left over, a negative union branch index and nulls. Errors keep their texts and are counted alike.
"""

from __future__ import annotations

import json
import struct

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st
from support.values import V1, V2, avro_bytes, framed, skey, sval

from kafkaspec.arrow.value_columns import decode_column
from kafkaspec.arrow.value_types import to_arrow_array, value_type
from kafkaspec.values import ValueDecoder
from kafkaspec.values.decoder import Schemas
from kafkaspec.values.schemas_topic import SchemaStore

GOOD1 = framed(1, avro_bytes(V1, {"id": 1, "coupon": None}))
GOOD2 = framed(2, avro_bytes(V2, {"id": 2, "currency": "USD"}))
CHOICES = [
    GOOD1,
    GOOD2,
    framed(1, avro_bytes(V1, {"id": 7, "coupon": "X"})),
    framed(99, b"\x02"),  # an unknown schema id
    b"\x01" + GOOD1[1:],  # a bad magic byte
    b"plain text",  # not framed at all
    b"\x00\x00",  # shorter than a frame
    GOOD1 + b"\x00",  # a byte left over
    GOOD2 + b"\x01\x02",  # bytes left over under the reader schema itself
    GOOD1[:-1],  # the body cut short
    framed(2, b"\x04"),  # the body ends inside the datum
    None,  # a tombstone
]


def _store() -> SchemaStore:
    store = SchemaStore()
    for sid, schema in ((1, V1), (2, V2)):
        store.apply(skey("orders-value", sid), sval("orders-value", sid, sid, json.dumps(schema)))
    return store


def _negative_union() -> bytes:
    """id 1, then the union's branch index -1 (zig-zag 1: Python's last branch, string) and an empty string."""
    return framed(1, b"\x02\x01\x00")


def _one_by_one(dec: ValueDecoder, raws: list[bytes | None]) -> tuple[list, list]:
    """The cells decode() gives record by record (the columns' reference)."""
    values, errors = [], []
    for b in raws:
        d = dec.decode("orders", b)
        if d.error is None and b is not None and d.format != "avro":
            values.append(None)
            errors.append(f"read as {d.format}, not avro like the topic's values")
            dec.errors[("orders", "value", f"read as {d.format}, not avro")] += 1
        else:
            values.append(None if d.error else d.value)
            errors.append(d.error)
    return values, errors


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([*CHOICES, "negative"]), max_size=40))
def test_batch_matches_decode_per_record(picks):
    raws = [_negative_union() if p == "negative" else p for p in picks]
    batch = ValueDecoder(Schemas(_store()))
    single = ValueDecoder(Schemas(_store()))
    column, errors = decode_column(batch, "orders", pa.array(raws, type=pa.binary()))
    want_values, want_errors = _one_by_one(single, raws)
    arrow_type, has_uuid = value_type(single, "orders")
    assert errors.to_pylist() == want_errors
    assert column.equals(to_arrow_array(want_values, arrow_type, has_uuid))
    assert batch.errors == single.errors
    assert sum(e is not None for e in want_errors) == sum(batch.errors.values())


def test_the_mix_names_every_kind_of_error():
    """The fixed mix: each bad value has its own reason, the good ones their fields, nothing dropped."""
    raws = [*CHOICES, _negative_union()]
    dec = ValueDecoder(Schemas(_store()))
    column, errors = decode_column(dec, "orders", pa.array(raws, type=pa.binary()))
    assert len(column) == len(raws) == len(errors)
    got = errors.to_pylist()
    assert got[0] is None and got[1] is None and got[2] is None and got[11] is None
    assert (
        column[0].as_py()["id"] == 1
        and column[1].as_py()["id"] == 2
        and column[2].as_py() == {"id": 7, "currency": "EUR"}
    )
    assert "unknown schema id 99" in got[3]
    assert all(got[i] for i in range(3, 11)) and got[12]
    assert "left over" in got[7] and "left over" in got[8]
    assert "union" in got[12] or "not what Avro writes" in got[12]
    assert struct.unpack(">i", raws[3][1:5])[0] == 99

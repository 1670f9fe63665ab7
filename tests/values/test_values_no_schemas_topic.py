"""A framed value read where no ``_schemas`` topic was found says so, instead of blaming the topic.

``dump DIR/orders-0 --value-format avro`` reads one partition: the ``_schemas`` topic beside it is not
read unless ``--schemas DIR`` names it. Every value then said "unknown schema id 1 (not in
_schemas)", as if the registry had lost the schema; the message now says no ``_schemas`` topic was read.
"""

from __future__ import annotations

import json

from support.values import V1, avro_bytes, framed, skey, sval

from kafkaspec import Record
from kafkaspec import values as kvalues
from kafkaspec.logdir import PartitionWriter, open_log


def _data(root):
    with PartitionWriter(root, "_schemas", 0) as w:
        w.append([Record(key=skey("orders-value", 1), value=sval("orders-value", 1, 1, json.dumps(V1)))])
    value = framed(1, avro_bytes(V1, {"id": 1, "coupon": None}))
    with PartitionWriter(root, "orders", 0) as w:
        w.append([Record(value=value)])
    return value


def test_no_schemas_topic_read_is_said(tmp_path):
    value = _data(tmp_path / "data")
    alone = kvalues.decoder(open_log(tmp_path / "data" / "orders-0"), value_format="avro").decode(
        "orders", value
    )
    assert alone.error == "unknown schema id 1 (no _schemas topic was read, and no registry was given)"
    whole = kvalues.decoder(open_log(tmp_path / "data"), value_format="avro").decode("orders", value)
    assert whole.error is None and whole.value == {"id": 1, "coupon": None}


def test_an_id_missing_from_a_schemas_topic_read_is_said_as_before(tmp_path):
    _data(tmp_path / "data")
    got = kvalues.decoder(open_log(tmp_path / "data"), value_format="avro").decode(
        "orders", framed(9, b"\x02")
    )
    assert got.error == "unknown schema id 9 (not in _schemas)"

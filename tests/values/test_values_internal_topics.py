"""``--value-format``/``value_format`` name the format of the data's topics, not of Kafka's own topics.

``dump DIR --value-format avro`` over a data dir also read the registry's own ``_schemas`` topic (JSON
records) and Kafka's ``__consumer_offsets`` as Avro: every one of their records got an error and the
command exited 1 on good data. Topics whose payloads are Kafka's or the registry's own (``__*``,
``_schemas``) keep their bytes (``--decode`` reads Kafka's), unless a format is given for them by name.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

from support.values import V1, avro_bytes, framed, skey, sval

from kafkaspec import Record
from kafkaspec import values as kvalues
from kafkaspec.cli import main
from kafkaspec.logdir import PartitionWriter, open_log


def _data(root):
    with PartitionWriter(root, "_schemas", 0) as w:
        w.append([Record(key=skey("orders-value", 1), value=sval("orders-value", 1, 1, json.dumps(V1)))])
    with PartitionWriter(root, "__consumer_offsets", 0) as w:
        w.append([Record(key=b"\x00\x01\x00\x01g", value=b"\x00\x03")])
    with PartitionWriter(root, "orders", 0) as w:
        w.append([Record(value=framed(1, avro_bytes(V1, {"id": 1, "coupon": None})))])
    (root.parent / "canary").write_text("keep")


def test_dump_of_a_data_dir_as_avro_leaves_kafkas_and_the_registrys_topics_alone(tmp_path):
    _data(tmp_path / "data")
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["dump", str(tmp_path / "data"), "--value-format", "avro", "--json"])
    rows = [json.loads(line) for line in out.getvalue().splitlines() if '"type":"record"' in line]
    assert (code, err.getvalue()) == (0, "")
    by_topic = {r["topic"]: r for r in rows}
    assert by_topic["orders"]["value_decoded"] == {"id": 1, "coupon": None}
    for topic in ("_schemas", "__consumer_offsets"):
        assert "value_error" not in by_topic[topic], by_topic[topic]
    assert (tmp_path / "canary").read_text() == "keep"


def test_a_format_named_for_such_a_topic_applies(tmp_path):
    _data(tmp_path / "data")
    dec = kvalues.decoder(
        open_log(tmp_path / "data"), value_format="avro", formats={"_schemas": ("json", "json")}
    )
    assert dec.format_of("_schemas") == "json" and dec.format_of("__consumer_offsets") == "bytes"
    assert dec.format_of("orders") == "avro"
    assert dec.decode("_schemas", sval("s", 1, 1, "{}")).value["subject"] == "s"

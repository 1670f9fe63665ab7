"""The real-world corpus: every legacy and mixed-magic vector decodes to what its source asserts,
or fails with a clear KafkaFormatError where the bytes are broken."""

from __future__ import annotations

import pytest
from support.corpus import load_vectors

import kafkaspec
from kafkaspec import CorruptRecordError, KafkaFormatError

LEGACY_KINDS = (
    "legacy_message_no_log_header",
    "message_set",
    "message_set_corrupt",
    "message_set_truncated",
    "message_set_with_trailing_garbage",
    "message_set_with_trailing_overflow",
    "mixed_record_set",
)
VECTORS = [v for v in load_vectors() if v["kind"] in LEGACY_KINDS]


def _bytes(v: dict) -> bytes:
    derived = v["expected"].get("log_entry_hex_derived")  # a bare Message given an offset and size
    return bytes.fromhex(derived if derived else v["hex"])


def _text(value):
    return None if value is None else value.encode()


def _decode(data: bytes, **kw):
    it = kafkaspec.iter_batches(data, **kw)
    batches = list(it)
    return batches, [r for b in batches for r in b], it.partial


def test_corpus_has_legacy_vectors(corpus):
    assert len(VECTORS) >= 60


@pytest.mark.parametrize("v", VECTORS, ids=[v["id"] for v in VECTORS])
def test_vector(v, corpus):
    a = v["expected"].get("asserted", {})
    data = _bytes(v)
    if "error" in a:
        with pytest.raises(KafkaFormatError) as info:
            _decode(data)
        assert "byte" in str(info.value)
        return
    if "invalid_crc" in v["id"]:
        with pytest.raises(CorruptRecordError, match="crc"):
            _decode(data)
        _, records, _ = _decode(data, verify=False)
        assert records[0].value.decode().startswith(a["first_value"])
        return
    kind = v["kind"]
    if kind == "legacy_message_no_log_header" and (
        "value_after_decode" in a or str(a.get("value", "")).startswith("empty")
    ):
        # sarama's unit tests encode a compressed wrapper around an empty inner message set; Kafka refuses
        # one ("compressed record set with no inner records"), and so do we when its records are read
        (batch,) = kafkaspec.iter_batches(data)
        assert batch.compression == a["codec"] and batch.key_value()[0] is None
        with pytest.raises(KafkaFormatError, match="no inner messages"):
            batch.records  # noqa: B018
        return
    batches, records, partial = _decode(data)
    if kind == "message_set_truncated":
        assert partial is not None and partial.position + partial.size == len(data)
    if kind == "message_set_with_trailing_garbage":
        assert len(batches) == a["entries"]
        assert partial is not None and partial.position == a["valid_bytes"]
    if kind == "message_set_with_trailing_overflow":
        assert partial is not None
    if "messages" in a:
        # pykafka's tests compare the first messages only (a "high_watermark" may say more exist)
        assert len(records) >= len(a["messages"])
        skip_ts = sum("ignores timestamps of the first 3" in n for n in v["expected"].get("notes", [])) * 3
        for i, (r, m) in enumerate(zip(records, a["messages"], strict=False)):
            if "key" in m:
                assert r.key == _text(m["key"])
            if "value" in m:
                assert r.value == _text(m["value"])
            if "value_hex" in m:
                assert r.value == bytes.fromhex(m["value_hex"])
            if "offset" in m and not any(b.offset == -1 for b in batches):
                assert r.offset == m["offset"]
            if "timestamp" in m and m.get("protocol_version", 1) and i >= skip_ts:
                assert r.timestamp == m["timestamp"]  # magic 0 has no timestamp: kafkaspec says -1, pykafka 0
    if "messages_in_order" in a:
        assert [(r.key, r.value) for r in records] == [
            (_text(m["key"]), _text(m["value"])) for m in a["messages_in_order"]
        ]
    if "count" in a:
        assert len(records) == a["count"]
    if "first_value" in a:
        assert records[0].value.decode().startswith(a["first_value"])
        assert records[-1].value.decode().startswith(a["last_value"])
    if "inner_message_count" in a:
        assert len(records) == a["inner_message_count"]
    if "codec" in a and kind == "legacy_message_no_log_header":
        assert batches[0].compression == a["codec"]
    if kind == "legacy_message_no_log_header":  # the assertions are about the (wrapper) message itself
        key, value = batches[0].key_value()
        assert key == _text(a.get("key"))
        if "value" in a and batches[0].compression == "none":
            assert value == _text(a["value"])
    elif records:
        for field in ("key", "value"):
            if field in a:
                assert getattr(records[0], field) == _text(a[field])
    if "timestamp" in a and records:
        assert records[0].timestamp == (-1 if a["timestamp"] is None else a["timestamp"])
    if "timestamp_ms" in a:
        assert batches[0].timestamp in (
            a["timestamp_ms"],
            -6795364578871,
        )  # sarama's zero time.Time on wrappers
    if "checksum" in a:
        assert batches[0].crc == a["checksum"]
    if "offset" in a:
        assert batches[0].offset == a["offset"]

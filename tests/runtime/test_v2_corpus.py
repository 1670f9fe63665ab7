"""The real-world corpus (../shared/corpus/vectors.jsonl): every magic-2 vector, and the magic-less
framing/codec ones, decode to what their source asserts; broken ones raise KafkaFormatError
or report a partial tail, never wrong data.

Magic 0/1 and mixed-magic vectors belong to the legacy-format tests and are left out here.
"""

from __future__ import annotations

import re
import struct

import crc32c
import pytest
from support.corpus import load_vectors
from support.corpus_norm import (
    actual_batch,
    actual_record,
    compare_record,
    from_kafka_python,
    normalise,
)
from support.corpus_norm import record as norm_record

from kafkaspec import CorruptRecordError, KafkaFormatError, iter_batches
from kafkaspec.codec.compression import SNAPPY, XERIAL_MAGIC, compress, decompress
from kafkaspec.codec.varint import encode_varint
from kafkaspec.generated import record_v2
from kafkaspec.generated.reference import record_v2 as record_v2_reference

ALL = load_vectors()
LEGACY_KINDS = {
    "message_set",
    "message_set_truncated",
    "message_set_with_trailing_garbage",
    "message_set_with_trailing_overflow",
    "mixed_record_set",
}
#: magic 2, or no magic at all (a codec payload, a framing-level corruption)
V2 = [v for v in ALL if v["magic"] == 2 or (v["magic"] is None and v["kind"] not in LEGACY_KINDS)]

#: asserted facts about the source library's own limits, not about the bytes (checked against kafka-python instead)
NOT_ABOUT_THE_BYTES = {
    "kafkajs-fetch-v4_response_snappy-p3": "kafkajs core has no snappy codec, so its test expects an error",
    "kafkajs-fetch-v4-mixed-formats-first-magic2-none": "kafkajs stops before the first magic-2 batch of a mixed fetch; the batch itself is valid",
}
#: transcription errors in the corpus' asserted values, proven from the bytes: id -> (record index, key, value, why)
CORPUS_ERRATA = {
    "rskafka-rdkafka-v2-null-key-2headers": (
        0,
        "value_len",
        103,
        "the value length varint is ce 01 = 103; 101 (0x65) is the length of the protobuf message nested inside",
    ),
}
#: where kafka-python's reading (the corpus' cross-check) is itself wrong: id -> why
KAFKA_PYTHON_WRONG: dict[str, str] = {}


def test_corpus_has_v2_vectors(corpus):
    kinds = {v["kind"] for v in V2}
    assert {
        "record_batch",
        "record_batches",
        "control_batch",
        "record_batch_crc_zeroed",
        "record_batch_truncated",
        "record_batches_with_trailing_garbage",
        "record_batch_mislabelled_codec",
        "record_body",
    } <= kinds
    assert len(V2) >= 65


def test_every_vector_is_tested_somewhere(corpus):
    """Nothing falls between this file and the legacy tests: each vector is magic 2, magic-less or legacy."""
    for v in ALL:
        assert v in V2 or v["magic"] in (0, 1) or isinstance(v["magic"], list) or v["kind"] in LEGACY_KINDS, (
            v["id"]
        )


_HEAD = struct.Struct(">qi")


def crcs_valid(data: bytes) -> bool:
    """Walk the entries with the framing alone and check every CRC-32C (independent of kafkaspec)."""
    pos = 0
    while pos + 61 <= len(data):
        _, length = _HEAD.unpack_from(data, pos)
        end = pos + 12 + length
        if end > len(data):
            break
        if int.from_bytes(data[pos + 17 : pos + 21], "big") != crc32c.crc32c(data[pos + 21 : end]):
            return False
        pos = end
    return True


def decode_all(data: bytes, verify: bool = True):
    it = iter_batches(data, verify=verify)
    batches = []
    for b in it:
        b.records  # noqa: B018 - force decoding (and decompression) now
        batches.append(b)
    return batches, it.partial


def check_batches(vec, batches, asserted_ok: bool = True):
    """Compare decoded batches with the normalised assertion and with kafka-python's reading."""
    vid = vec["id"]
    asserted = vec["expected"].get("asserted", {})
    if vid in CORPUS_ERRATA:
        index, key, value, _why = CORPUS_ERRATA[vid]
        records = [dict(r) for r in asserted["records"]]
        records[index][key] = value
        asserted = {**asserted, "records": records}
    e = normalise(asserted)
    if asserted_ok:
        if e.batch:
            got = actual_batch(batches[0])
            assert {k: got[k] for k in e.batch} == e.batch, vid
        if e.records is not None:
            b = batches[0]
            assert len(b.records) == len(e.records), f"{vid}: record count"
            for i, (want, r) in enumerate(zip(e.records, b.records)):
                compare_record(want, actual_record(b, r), f"{vid} record {i}")
                if "control" in want:
                    c, w = b.control, want["control"]
                    assert (c.version, c.type) == (w["control_version"], w["control_type"])
                    assert c.type_name == (
                        "abort" if w["abort"] else "commit" if w["commit"] else c.type_name
                    )
        flat = [(b, r) for b in batches for r in b.records]
        if e.all_records is not None:
            assert len(flat) == len(e.all_records), f"{vid}: record count over all batches"
            for i, (want, (b, r)) in enumerate(zip(e.all_records, flat)):
                compare_record(want, actual_record(b, r), f"{vid} message {i}")
        if e.total_records is not None:
            assert len(flat) == e.total_records, vid
        checks = dict(e.checks)
        framing = checks.pop("compressed_payload_framing", None)
        if framing is not None:
            assert framing.startswith("xerial") and vec["hex"][122:138] == XERIAL_MAGIC.hex()
        if "records_next_offset" in checks:
            assert batches[-1].last_offset + 1 == checks.pop("records_next_offset")
        if "partial" in checks:
            assert checks.pop("partial") is False
        assert not checks, f"{vid}: asserted keys with no check: {sorted(checks)}"
    # the corpus' cross-check: kafka-python's reading, where it managed one
    decoded = vec["expected"].get("decoded_kafka_python") or []
    if vid in KAFKA_PYTHON_WRONG or not decoded:
        return
    assert len(decoded) == len(batches), f"{vid}: batch count differs from kafka-python's"
    for kb, b in zip(decoded, batches):
        kp_batch, kp_records = from_kafka_python(kb)
        got = actual_batch(b)
        assert {k: got[k] for k in kp_batch} == kp_batch, f"{vid}: batch differs from kafka-python's reading"
        if "records_error" not in kb:
            mine = (
                [{k: actual_record(b, r)[k] for k in kp_records[0]} for r in b.records] if kp_records else []
            )
            assert mine == kp_records, f"{vid}: records differ from kafka-python's reading"


def _run(vec):
    data = bytes.fromhex(vec["hex"])
    kind = vec["kind"]
    asserted = vec["expected"].get("asserted", {})
    vid = vec["id"]

    if kind == "codec_payload":
        parts = re.findall(r"'(\w+)'\*(\d+)", asserted["decompressed_utf8"])
        assert parts, vid
        want = b"".join(text.encode() * int(n) for text, n in parts)
        assert decompress(SNAPPY, data) == want
        # the encoder assertion is about kafka-python's block size parameter; the framing header must match ours
        assert compress(SNAPPY, want, snappy_framing="xerial")[:16] == data[:16]
        return
    if kind == "message_set_corrupt":
        with pytest.raises(KafkaFormatError):
            decode_all(data)
        return
    if kind == "legacy_message_no_log_header":
        # a bare Message with magic 2 is no valid entry: framed as a log entry, it must be refused
        with pytest.raises(KafkaFormatError):
            decode_all(bytes.fromhex(vec["expected"]["log_entry_hex_derived"]))
        return
    if kind == "record_body":
        ctx = asserted["batch_context"]
        buf = encode_varint(len(data)) + data  # the source stores the record without its length varint
        (r,), end = record_v2.decode_record_array(
            buf, 0, 1, base_offset=ctx["firstOffset"], base_timestamp=ctx["firstTimestamp"]
        )
        assert end == len(buf)
        ref = record_v2_reference._record_rebase(
            record_v2_reference.record_construct.parse(buf), ctx["firstOffset"], ctx["firstTimestamp"]
        )
        assert ref == r
        got = {
            "offset": r.offset,
            "timestamp": r.timestamp,
            "attributes": r.attributes,
            "key": r.key,
            "value": r.value,
            "headers": [tuple(h) for h in r.headers],
        }
        want = norm_record({k: v for k, v in asserted.items() if k != "batch_context"})
        compare_record(want, got, vid)
        assert r.attributes == asserted["attributes"]
        return
    if kind == "record_batch_truncated":
        batches, partial = decode_all(data)
        assert len(batches) == asserted["num_records"] == 0
        assert partial is not None and (partial.position, partial.size) == (0, len(data))
        assert partial.needed == asserted["partial_batch_size"]
        return
    if kind == "record_batches_with_trailing_garbage":
        assert len(data) == asserted["size_in_bytes"]
        batches, partial = decode_all(data)
        assert len(batches) == asserted["batch_count"]
        assert partial is not None and partial.position == asserted["valid_bytes"]
        assert partial.size == len(data) - asserted["valid_bytes"]
        assert asserted["has_next_after_4"] is False
        check_batches(vec, batches, asserted_ok=False)
        return
    if kind == "record_batch_mislabelled_codec":
        facts = vec["expected"]["independent_facts"]
        (b,) = iter_batches(data)  # the header and CRC are fine ...
        assert (
            b.attributes,
            b.partition_leader_epoch,
            b.size - 12,
            b.records_count,
            b.base_timestamp,
            b.max_timestamp,
        ) == (
            facts["attributes"],
            facts["partition_leader_epoch"],
            facts["batch_length"],
            facts["records_count"],
            facts["first_timestamp"],
            facts["max_timestamp"],
        )
        with pytest.raises(KafkaFormatError):  # ... but the records are a zstd frame, not records
            b.records  # noqa: B018
        return

    valid = crcs_valid(data)
    if kind == "record_batch_crc_zeroed":
        assert not valid
    if not valid:
        with pytest.raises(CorruptRecordError):
            decode_all(data)
    batches, partial = decode_all(data, verify=valid)
    assert partial is None, f"{vid}: unexpected partial tail {partial}"
    fc = vec["expected"].get("framing_check", {})
    if fc.get("exact"):
        assert len(batches) == fc["entries"]
    if "error" in asserted and vid not in NOT_ABOUT_THE_BYTES:
        pytest.fail(f"{vid}: the source expects an error ({asserted['error']}) but kafkaspec decoded it")
    check_batches(vec, batches, asserted_ok=vid not in NOT_ABOUT_THE_BYTES and "error" not in asserted)


@pytest.mark.parametrize("vec", V2, ids=[v["id"] for v in V2])
def test_corpus_vector(vec, corpus):
    _run(vec)

"""A legacy wrapper's inner CRCs are checked by default and left be by ``decode_records(verify=False)``
(what ``dump --no-verify`` reads), the records being the same otherwise."""

from __future__ import annotations

import gzip

import pytest

from kafkaspec import iter_batches
from kafkaspec.errors import KafkaFormatError
from kafkaspec.generated import message_v1

pytestmark = pytest.mark.hostile


def _wrapper(bad_inner: int | None) -> bytes:
    inner = bytearray()
    for i in range(3):
        msg = bytearray(message_v1.encode_message(offset=i, timestamp=5, value=b"inner-%d" % i))
        if i == bad_inner:
            msg[message_v1.CRC_OFFSET] ^= 0xFF
        inner += msg
    return message_v1.encode_message(offset=2, attributes=1, timestamp=5, value=gzip.compress(bytes(inner)))


def test_inner_checksums_are_checked_unless_asked_not_to():
    (batch,) = iter_batches(_wrapper(1), verify=False)
    with pytest.raises(KafkaFormatError, match="crc"):
        batch.decode_records()
    (batch,) = iter_batches(_wrapper(1), verify=False)
    unchecked = batch.decode_records(verify=False)
    (good,) = iter_batches(_wrapper(None))
    assert [(r.offset, r.value) for r in unchecked] == [(r.offset, r.value) for r in good.records]
    assert batch.records is unchecked  # kept: iterating the batch does not decode it again

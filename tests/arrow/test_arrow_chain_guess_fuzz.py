"""The record chain's guess (``engine.chain._chain_template``) and the alike batches' walk (``walk._alike``)
under hostile bytes.

Batches of one records count and size (fixed-size keys and values, as producers often write them)
take both shortcuts: their chain of record lengths is guessed from the first batch's and checked from
the records' first bytes, and the batches themselves are found by their common length. Here such
batches get a few bytes changed inside their records (a length, a delta, a key length, a header count:
wherever the draw lands), their CRCs fixed so that the batch iterator takes them, and
``Partition.to_arrow()`` must give the per-record decoder's table, or its error at the same byte.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.settings import scaled

import kafkaspec
from kafkaspec import logdir
from kafkaspec.arrow import partitions
from kafkaspec.arrow.schema import SCHEMA
from kafkaspec.codec.crc import crc32c
from kafkaspec.errors import KafkaFormatError
from kafkaspec.records import BatchIterator

pytestmark = pytest.mark.hostile

TS = 1_700_000_000_000


def _alike(batches: int, per_batch: int, key: int, value: int, headers: int) -> bytearray:
    return bytearray(
        b"".join(
            kafkaspec.build_batch(
                [
                    kafkaspec.Record(
                        key=b"k" * key,
                        value=b"%0*d" % (value, b * per_batch + i),
                        timestamp=TS + i,
                        headers=[(f"h{j}", b"x") for j in range(headers)],
                    )
                    for i in range(per_batch)
                ],
                base_offset=b * per_batch,
            )
            for b in range(batches)
        )
    )


def _fix_crcs(data: bytearray) -> None:
    pos = 0
    while pos + 61 <= len(data):
        end = pos + 12 + int.from_bytes(data[pos + 8 : pos + 12], "big")
        data[pos + 17 : pos + 21] = crc32c(bytes(data[pos + 21 : end])).to_bytes(4, "big")
        pos = end


def _outcome(read) -> tuple[str, object]:
    try:
        return "table", read().combine_chunks()
    except KafkaFormatError as exc:
        return "error", (exc.reason, exc.position)


@scaled(3)
@given(
    shape=st.tuples(
        st.integers(2, 12), st.integers(1, 40), st.integers(0, 20), st.integers(3, 70), st.integers(0, 2)
    ),
    draw=st.data(),
)
def test_hostile_bytes_in_batches_of_one_shape(tmp_path_factory, shape, draw):
    data = _alike(*shape)
    size = len(data) // shape[0]
    assert size * shape[0] == len(data)  # every batch of one size (values of 3 digits or more)
    for _ in range(draw.draw(st.integers(1, 3))):
        batch = draw.draw(st.integers(0, shape[0] - 1))
        at = batch * size + draw.draw(st.integers(61, size - 1))  # inside a records region
        data[at] = draw.draw(
            st.sampled_from([0x00, 0x01, 0x02, 0x7F, 0x80, 0xFF, 0xFE, data[at] ^ 0x40, data[at] + 2 & 255])
        )
    _fix_crcs(data)
    tmp: Path = tmp_path_factory.mktemp("guess")
    (tmp / "canary").write_text("keep")
    part_dir = tmp / "t-0"
    part_dir.mkdir()
    (part_dir / "00000000000000000000.log").write_bytes(data)
    part = logdir.open_log(part_dir).partitions()[0]
    segment = str(part.segments()[0].path)
    got = _outcome(part.to_arrow)
    expected = _outcome(
        lambda: pa.Table.from_batches(
            [
                partitions._per_record(
                    list(BatchIterator(bytes(data))), topic="t", partition=0, segment=segment
                )
            ],
            schema=SCHEMA,
        )
    )
    assert got[0] == expected[0], (got, expected)
    if got[0] == "table":
        assert got[1].equals(expected[1])
    else:
        assert got[1] == expected[1]
    assert (tmp / "canary").read_text() == "keep"

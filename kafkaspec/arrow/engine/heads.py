"""The first stage: the heads of a run's v2 batches, read at once as numpy records, and their records
regions, decompressed one by one (C code in the codec libraries) and joined into one buffer.
"""

from __future__ import annotations

import numpy as np

from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.generated.record_batch_v2 import COMPRESSION_MASK, RECORD_BATCH_OVERHEAD

from ...codec.compression import decompress
from ...errors import KafkaFormatError
from ...generated.record_v2 import MIN_RECORD_SIZE
from .common import _INT32_LIMIT, _PAD, _Fail

#: a v2 batch head as a numpy record (big-endian fields at the schema's offsets): the heads of a run
#: are read with one gather instead of a Python loop over batches
HEAD_DTYPE = np.dtype(
    {
        "names": [
            "base_offset",
            "batch_length",
            "partition_leader_epoch",
            "magic",
            "crc",
            "attributes",
            "last_offset_delta",
            "base_timestamp",
            "max_timestamp",
            "producer_id",
            "producer_epoch",
            "base_sequence",
            "records_count",
        ],
        "formats": [">i8", ">i4", ">i4", "i1", ">u4", ">i2", ">i4", ">i8", ">i8", ">i8", ">i2", ">i4", ">i4"],
        "offsets": [
            v2.BASE_OFFSET_OFFSET,
            v2.BATCH_LENGTH_OFFSET,
            v2.PARTITION_LEADER_EPOCH_OFFSET,
            v2.MAGIC_OFFSET,
            v2.CRC_OFFSET,
            v2.ATTRIBUTES_OFFSET,
            v2.LAST_OFFSET_DELTA_OFFSET,
            v2.BASE_TIMESTAMP_OFFSET,
            v2.MAX_TIMESTAMP_OFFSET,
            v2.PRODUCER_ID_OFFSET,
            v2.PRODUCER_EPOCH_OFFSET,
            v2.BASE_SEQUENCE_OFFSET,
            v2.RECORDS_COUNT_OFFSET,
        ],
        "itemsize": RECORD_BATCH_OVERHEAD,
    }
)


def read_heads(arr: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """The heads of the batches at ``positions`` of ``arr`` (uint8), as :data:`HEAD_DTYPE` records."""
    return np.ndarray((max(len(arr) - RECORD_BATCH_OVERHEAD + 1, 0),), HEAD_DTYPE, arr, 0, (1,))[positions]


def records_regions(
    buf: bytes, positions: np.ndarray, heads: np.ndarray, max_decompressed: int
) -> tuple[bytes | memoryview, np.ndarray, np.ndarray, np.ndarray]:
    """(data, counts, starts, ends) of the batches at ``positions`` of ``buf`` with their ``heads``
    (checked): each batch's records region is ``data[starts:ends]`` and holds ``counts`` records. Data
    is the run's own bytes when no batch is compressed (no copy), else the regions joined, the
    compressed ones decompressed, followed by :data:`_PAD` zero bytes."""
    nb = len(positions)
    counts = heads["records_count"].astype(np.int64)
    lo = int(positions[0]) if nb else 0
    ends = positions + (v2.BATCH_LENGTH_END - lo) + heads["batch_length"]
    hi = int(ends[-1]) + lo if nb else 0
    starts = positions + (RECORD_BATCH_OVERHEAD - lo)
    attributes = heads["attributes"]
    compressed = np.flatnonzero(attributes & COMPRESSION_MASK)
    if not len(compressed):
        data: bytes | memoryview = memoryview(buf)[lo:hi]  # no copy
        size = hi - lo
    else:
        view = memoryview(buf)
        # the records regions joined: the run's own bytes only when some batch is not compressed
        pieces: list[bytes | memoryview] = [view[lo:hi]] if len(compressed) < nb else []
        size = hi - lo if pieces else 0
        # C code in the codec libraries, batch by batch (over Python ints: a numpy scalar a field costs
        # more than a small batch's decompression)
        joined: list[int] = []
        for region, stop, codec in zip(
            (positions[compressed] + RECORD_BATCH_OVERHEAD).tolist(),
            (ends[compressed] + lo).tolist(),
            (attributes[compressed] & COMPRESSION_MASK).tolist(),
        ):
            try:
                plain = decompress(
                    codec, view[region:stop], max_size=max_decompressed, position=region, magic=2
                )
            except KafkaFormatError:
                raise _Fail from None
            joined.append(size)
            pieces.append(plain)
            size += len(plain)
        starts[compressed] = joined
        ends[compressed] = [*joined[1:], size]
        pieces.append(bytes(_PAD))
        data = b"".join(pieces)
    # a count no records region can hold (each record takes MIN_RECORD_SIZE bytes at least) would size
    # the arrays by the count, not by the data: 2^31 records of a 100-byte batch asked for 16 GiB
    if size >= _INT32_LIMIT or (counts < 0).any() or (counts * MIN_RECORD_SIZE > ends - starts).any():
        raise _Fail
    return data, counts, starts, ends

"""Property: build_batch(magic=0/1) -> iter_batches gives the records back, for every legacy codec."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

import kafkaspec
from kafkaspec import Record

EXAMPLES = max(50, int(os.environ.get("KAFKASPEC_FUZZ_EXAMPLES", "300")) // 3)
BLOB = st.one_of(st.none(), st.binary(max_size=64))
RECORDS = st.lists(
    st.builds(
        Record,
        key=BLOB,
        value=BLOB,
        timestamp=st.integers(-1, (1 << 63) - 1),
        attributes=st.just(0),
        offset=st.none(),
        headers=st.just([]),
    ),
    min_size=1,
    max_size=20,
)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(
    records=RECORDS,
    magic=st.sampled_from([0, 1]),
    codec=st.sampled_from(["none", "gzip", "snappy", "lz4"]),
    base_offset=st.integers(0, 1 << 62),
    framing=st.sampled_from(["xerial", "raw"]),
)
def test_build_then_read(records, magic, codec, base_offset, framing):
    data = kafkaspec.build_batch(
        records, magic=magic, compression=codec, base_offset=base_offset, snappy_framing=framing
    )
    it = kafkaspec.iter_batches(data)
    got = [r for b in it for r in b]
    assert it.partial is None
    assert [(r.key, r.value) for r in got] == [(r.key, r.value) for r in records]
    assert [r.offset for r in got] == list(range(base_offset, base_offset + len(records)))
    assert [r.timestamp for r in got] == ([r.timestamp for r in records] if magic else [-1] * len(records))
    if not (codec == "snappy" and framing == "raw"):  # convert writes the Java client's xerial framing
        assert kafkaspec.convert(kafkaspec.convert(data, 2).data, magic).data == data

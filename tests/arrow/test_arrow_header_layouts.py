"""Headers whose layout varies from record to record, against the per-record decoder.

Producers write the same header names in the same order on every record, with a value whose length
varies (a service name). The engine reads such headers from the first record's layout, with the
varying lengths read where they are and the headers after them from a window taken there
(``header_columns._varied_layout``); which bytes vary is seen on a sample of the records and the rest
is checked on all of them. Each case below mixes layouts inside one batch (no headers, names of other
lengths, null values, empty names, a record unlike the sample's) and checks that the table is the
per-record decoder's, and which path read it.
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
from kafkaspec.arrow.engine import header_columns, headers
from kafkaspec.arrow.schema import SCHEMA
from kafkaspec.records import BatchIterator

TS = 1_700_000_000_000
SOURCES = [b"orders", b"billing", b"checkout", b"inventory", b"search-api", b"payments-v2", b"web-frontend"]


def _producer_headers(i: int) -> list[tuple[str, bytes | None]]:
    return [("trace-id", b"%016x" % (i * 7919)), ("source", SOURCES[i * 5 % 7]), ("v", b"%d" % (i % 2))]


def _same(tmp_path: Path, make, monkeypatch: pytest.MonkeyPatch, batches: int = 12, per_batch: int = 40):
    """The partition's table equals the per-record decoder's, every batch read by the engine."""
    data = b"".join(
        kafkaspec.build_batch([make(b * per_batch + i) for i in range(per_batch)], base_offset=b * per_batch)
        for b in range(batches)
    )
    (tmp_path / "canary").write_text("keep")
    part_dir = tmp_path / "t-0"
    part_dir.mkdir()
    (part_dir / "00000000000000000000.log").write_bytes(data)
    part = logdir.open_log(part_dir).partitions()[0]
    declined: list[int] = []
    real = partitions._per_record
    monkeypatch.setattr(partitions, "_per_record", lambda *a, **k: declined.append(1) or real(*a, **k))
    got = part.to_arrow()
    monkeypatch.setattr(partitions, "_per_record", real)
    expected = pa.Table.from_batches(
        [
            partitions._per_record(
                list(BatchIterator(data)), topic="t", partition=0, segment=str(part.segments()[0].path)
            )
        ],
        schema=SCHEMA,
    )
    assert not declined
    assert got.combine_chunks().equals(expected.combine_chunks())
    assert (tmp_path / "canary").read_text() == "keep"
    return got


@pytest.fixture
def layouts(monkeypatch) -> list[bool]:
    """Per call of the varied layout's reader: whether it read the headers (or left them to a field at a time)."""
    calls: list[bool] = []
    real = header_columns._varied_layout

    def recording(*args, **kwargs):
        got = real(*args, **kwargs)
        calls.append(got is not None)
        return got

    monkeypatch.setattr(headers, "_varied_layout", recording)
    return calls


def _record(i: int, hdrs: list[tuple[str, bytes | None]]) -> kafkaspec.Record:
    return kafkaspec.Record(key=b"k%d" % i, value=b"v" * (i % 40), timestamp=TS + i, headers=hdrs)


def test_producer_headers_read_from_the_first_records_layout(tmp_path, layouts, monkeypatch):
    names_made = header_columns._repeated.cache_info().misses
    table = _same(tmp_path, lambda i: _record(i, _producer_headers(i)), monkeypatch)
    assert layouts == [True]
    assert header_columns._repeated.cache_info().misses == names_made + 1  # the names: made, not copied
    assert table.column("headers")[13].as_py() == [
        {"key": "trace-id", "value": b"%016x" % (13 * 7919)},
        {"key": "source", "value": SOURCES[65 % 7]},
        {"key": "v", "value": b"1"},
    ]


@pytest.mark.parametrize(
    ("case", "read_by_layout"),
    [
        # one record unlike the sample's: the check over every record finds it, and the layout is read
        # again from the bytes that differ in any record (or the run is read a field at a time)
        ("a name of another length in one record", [True]),
        ("a name of the same length in one record", [True]),
        ("a value length of two varint bytes in one record", [False]),
        ("a null value in one record", [False]),
        ("names of several lengths", [True]),
        # records that are all alike but for the varying values
        ("empty names", [True]),
        ("two varying values, the first name empty", [True]),
        ("the varying value last", [True]),
        ("empty and null-free varying values", [True]),
    ],
)
def test_varied_layouts_in_one_batch(tmp_path, layouts, monkeypatch, case, read_by_layout):
    odd = 237  # a record no sample of 64 in 480 looks at (every 7th from the first)

    def make(i: int) -> kafkaspec.Record:
        hdrs = _producer_headers(i)
        if case == "a name of another length in one record" and i == odd:
            hdrs[0] = ("trace-ids", hdrs[0][1])
        elif case == "a name of the same length in one record" and i == odd:
            hdrs[1] = ("sourcf", hdrs[1][1])
        elif case == "a value length of two varint bytes in one record" and i == odd:
            hdrs[1] = ("source", b"s" * 70)
        elif case == "a null value in one record" and i == odd:
            hdrs[1] = ("source", None)
        elif case == "names of several lengths":
            hdrs[1] = ("s" * (1 + i % 5), hdrs[1][1])
        elif case == "empty names":
            hdrs = [("", value) for _, value in hdrs]
        elif case == "two varying values, the first name empty":
            hdrs = [("", SOURCES[i % 7]), ("id", b"%08d" % i), ("s", SOURCES[i * 3 % 7][: 1 + i % 4])]
        elif case == "the varying value last":
            hdrs = [hdrs[0], hdrs[2], hdrs[1]]
        elif case == "empty and null-free varying values":
            hdrs = [("a", b""), ("source", SOURCES[i % 7][: i % 3]), ("b", b"")]
        return _record(i, hdrs)

    _same(tmp_path, make, monkeypatch)
    assert layouts == read_by_layout


@pytest.mark.parametrize("case", ["no headers on some records", "a null value on some records"])
def test_mixed_header_counts_and_nulls_leave_the_layout(tmp_path, layouts, monkeypatch, case):
    """Layouts the varied reader does not take (counts that differ, nulls): the general paths read
    them, the same columns."""

    def make(i: int) -> kafkaspec.Record:
        hdrs = _producer_headers(i)
        if case == "no headers on some records" and i % 3 == 1:
            hdrs = []
        elif case == "a null value on some records" and i % 3 == 1:
            hdrs[2] = ("v", None)
        return _record(i, hdrs)

    _same(tmp_path, make, monkeypatch)
    assert not any(layouts)


#: per-record departures from the drawn layout (at a few drawn records)
_DEPARTURES = [
    "no headers",
    "another name",
    "a name of the same length",
    "empty name",
    "null value",
    "a value of two varint bytes",
    "one header more",
    "one header fewer",
]


@st.composite
def _layouts(draw) -> tuple[list[tuple[str, str]], dict[int, tuple[str, int]], int, int]:
    """A producer's header layout (names; each value of one length, of a few lengths or empty), the
    records that depart from it and how, and the batches' shape."""
    names = st.sampled_from(["trace-id", "source", "v", "", "id", "content-type", "x" * 40])
    kinds = st.sampled_from(["fixed", "varied", "varied", "empty"])
    layout = draw(st.lists(st.tuples(names, kinds), min_size=1, max_size=4))
    # over 128 records the engine's samples leave records out: departures past the first 64 mostly
    # fall outside them (so only the check over every record can find them)
    batches, per_batch = draw(st.sampled_from([(7, 40), (5, 60), (12, 40), (2, 70), (1, 7), (9, 1)]))
    odd = draw(
        st.dictionaries(
            st.integers(min(64, batches * per_batch - 1), batches * per_batch - 1) | st.integers(0, 63),
            st.tuples(st.sampled_from(_DEPARTURES), st.integers(0, len(layout) - 1)),
            min_size=1,
            max_size=3,
        )
    )
    return layout, odd, batches, per_batch


def _drawn_headers(i: int, layout, odd) -> list[tuple[str, bytes | None]]:
    hdrs: list[tuple[str, bytes | None]] = [
        (name, {"fixed": b"%016x" % (i * 7919), "varied": SOURCES[i * 5 % 7], "empty": b""}[kind])
        for name, kind in layout
    ]
    how, j = odd.get(i, (None, 0))
    name, value = hdrs[j]
    if how == "no headers":
        return []
    if how == "another name":
        hdrs[j] = (name + "-x", value)
    elif how == "a name of the same length":
        hdrs[j] = (name[:-1] + "~" if name else "~", value)
    elif how == "empty name":
        hdrs[j] = ("", value)
    elif how == "null value":
        hdrs[j] = (name, None)
    elif how == "a value of two varint bytes":
        hdrs[j] = (name, b"s" * 70)
    elif how == "one header more":
        hdrs.insert(j, ("extra", b"e"))
    elif how == "one header fewer":
        del hdrs[j]
    return hdrs


@scaled(3)
@given(drawn=_layouts())
def test_drawn_header_layouts_mixed_in_one_batch(tmp_path_factory, drawn):
    """Property: whatever the layout and the records that depart from it (no headers, names of
    other lengths, empty names, null values, longer values, counts that differ, wherever they fall
    against the samples), the engine's table is the per-record decoder's."""
    layout, odd, batches, per_batch = drawn
    tmp = tmp_path_factory.mktemp("layouts")
    data = b"".join(
        kafkaspec.build_batch(
            [
                _record(b * per_batch + i, _drawn_headers(b * per_batch + i, layout, odd))
                for i in range(per_batch)
            ],
            base_offset=b * per_batch,
        )
        for b in range(batches)
    )
    (tmp / "canary").write_text("keep")
    part_dir = tmp / "t-0"
    part_dir.mkdir()
    (part_dir / "00000000000000000000.log").write_bytes(data)
    part = logdir.open_log(part_dir).partitions()[0]
    expected = pa.Table.from_batches(
        [
            partitions._per_record(
                list(BatchIterator(data)), topic="t", partition=0, segment=str(part.segments()[0].path)
            )
        ],
        schema=SCHEMA,
    )
    assert part.to_arrow().combine_chunks().equals(expected.combine_chunks())
    assert (tmp / "canary").read_text() == "keep"

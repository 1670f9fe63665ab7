"""RecordBatch v2 build and parse: kafkaspec's fast path vs aiokafka (Cython), kafka-python and Construct.

Standard workload: one batch of 100 records, 6-byte random keys, 60-byte random
values, no headers, uncompressed; variants with zstd, lz4 and 3 headers per
record. "Parse" = verify the CRC and materialise offset, timestamp, key, value
and headers of every record.
"""

from __future__ import annotations

import os
import random
import struct
import timeit
from collections.abc import Callable
from itertools import chain, repeat
from operator import add, itemgetter, sub

from aiokafka.record import default_records as aio
from kafka.record import default_records as kp

import kafkaspec
from kafkaspec.codec.crc import crc32c
from kafkaspec.codec.varint import VARINT_BYTES, ZIGZAG_1
from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.generated.reference import record_batch_v2 as v2_reference

CODECS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}
WORKLOADS = [
    ("standard", "none", 0),
    ("zstd", "zstd", 0),
    ("lz4", "lz4", 0),
    ("3 headers", "none", 3),
    ("8 KB values", "none", 0),  # values of 8,000 bytes: large payloads, copied as few times as we can
]
#: the value size of a workload (the standard one's otherwise)
VALUE_SIZES = {"8 KB values": 8_000}
N = 100


def make_records(n: int, headers: int, seed: int = 1, value_size: int = 60):
    rnd = random.Random(seed)
    base_ts = 1_700_000_000_000
    out = []
    for i in range(n):
        hs = [(f"h{j}", rnd.randbytes(8)) for j in range(headers)]
        out.append((rnd.randbytes(6), rnd.randbytes(value_size), base_ts + i, hs))
    return out


def _best(fn, number: int, repeat: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def run(quick: bool = False) -> dict:
    number, repeat = (50, 3) if quick else (300, 7)
    return {
        "workloads": [
            _workload(name, codec, nheaders, number, repeat) for name, codec, nheaders in WORKLOADS
        ],
        "users": users(number, repeat),
        "floor": floors(quick),
        "header_floor": header_floors(quick),
    }


def users(number: int, repeat: int) -> dict:
    """The standard workload built the ways the README shows, from the same raw data as kafka-python's
    builder (key, value, timestamp per record): object construction is timed too."""
    raw = make_records(N, 0)
    keys, values, timestamps = [r[0] for r in raw], [r[1] for r in raw], [r[2] for r in raw]
    record = kafkaspec.Record

    def records():  # README, "API": one Record(key=..., value=..., timestamp=...) per record, then build_batch
        return kafkaspec.build_batch([record(key=k, value=v, timestamp=t) for k, v, t, _ in raw])

    def columns():  # README, "API": the columns form
        return kafkaspec.build_batch(keys=keys, values=values, timestamps=timestamps)

    def kp_build():
        b = kp.DefaultRecordBatchBuilder(2, 0, 0, -1, -1, -1, 1 << 22)
        for i, (k, v, t, h) in enumerate(raw):
            b.append(i, timestamp=t, key=k, value=v, headers=h)
        return b.build()

    def construct():  # the Record objects alone: a floor of the Record-object form with the build floor
        return [record(key=k, value=v, timestamp=t) for k, v, t, _ in raw]

    assert records() == columns()
    out = {}
    for _ in range(2):  # alternating rounds: the best of each, so load spikes hit both sides
        for name, fn, n in (
            ("records", records, number),
            ("columns", columns, number),
            ("construct", construct, number),
            ("kafka-python", kp_build, max(1, number // 5)),
        ):
            out[name] = min(out.get(name, float("inf")), _best(fn, n, repeat))
    return out


def header_floors(quick: bool = False) -> dict:
    """Lower bounds for the 3-header workload (100 records x 3 headers), measured in this run.

    parse: what any reader that returns the documented values must do at least, the cheapest way we
    know (C-level calls, as the decoder's runs of one shape do; positions known beforehand, no
    varint, no check): every record's header bytes unpacked by one ``Struct.iter_unpack`` (the
    lengths skipped as pad bytes), each header slot's key decoded once (one key per slot in every
    record), the ``Header`` tuples made and put into one list per record by ``map``.
    build: the whole records region the cheapest way known, from the same ``Record`` objects
    ``build_batch`` takes, as :mod:`kafkaspec.codec.shape_encode` writes records of one shape but with the
    shape known beforehand (no check that the records have it): their fields by one ``zip``, the
    header values slot by slot by ``map``; the constant pieces (lengths, header count and keys) and
    the offset deltas precomputed; timestamp deltas by a table lookup in a C-level ``map``; each
    record's length by adding its timestamp delta's width to a precomputed size; one join per record
    over the columns zipped side by side, one for the region; what the batch head needs from the
    records (their attributes read, the max timestamp) by C-level calls, and the CRC of the region.
    Left out: the rest of the batch head and every check.
    """
    raw = make_records(N, 3)
    data = b"".join(kafkaspec.generated.header_v2.encode_header_array(h) for *_, h in raw)
    spans, pos = [], 0
    for *_, hs in raw:
        one = []
        for k, v in hs:
            kb = k.encode()
            one.append((pos + 1, pos + 1 + len(kb), pos + 2 + len(kb), pos + 2 + len(kb) + len(v)))
            pos += 2 + len(kb) + len(v)
        spans.append(one)
    new, header = tuple.__new__, kafkaspec.Header
    layout = struct.Struct("<" + "".join(f"x{ke - ks}sx{ve - vs}s" for ks, ke, vs, ve in spans[0]))
    assert layout.size * N == len(data) and all(  # one layout for every record
        [(ke - ks, ve - vs) for ks, ke, vs, ve in one] == [(ke - ks, ve - vs) for ks, ke, vs, ve in spans[0]]
        for one in spans
    )

    def parse_floor():
        cols = list(zip(*layout.iter_unpack(data)))
        slots = [
            map(new, repeat(header), zip(repeat(cols[j][0].decode()), cols[j + 1]))
            for j in range(0, len(cols), 2)
        ]
        return list(map(list, zip(*slots)))

    assert parse_floor() == [[kafkaspec.Header(k, v) for k, v in h] for *_, h in raw]

    records = [kafkaspec.Record(key=k, value=v, timestamp=t, headers=h) for k, v, t, h in raw]
    region = bytes(kafkaspec.build_batch(records))[61:]
    build_floor = header_build_floor(records)
    assert build_floor()[0] == region
    number, rounds = (200, 3) if quick else (2000, 7)
    return {"parse": _best(parse_floor, number, rounds), "build": _best(build_floor, number, rounds)}


def header_build_floor(records: list) -> Callable[[], tuple]:
    """The 3-header build floor of :func:`header_floors` over ``records`` (N Records of 3 headers each,
    attributes 0, offsets None, one shape: the lengths of the first record's key, value and header
    values, its header keys, in every record): a function that writes their records region and
    returns it with what the batch head takes from the records."""
    varint, join, base, first = VARINT_BYTES.__getitem__, b"".join, records[0].timestamp, records[0]
    offs = list(map(varint, range(len(records))))
    # the shape's constant pieces (the lengths, the header count and keys), known beforehand: no check
    klen, vlen = varint(len(first.key)), varint(len(first.value))
    heads = [
        (varint(len(first.headers)) if j == 0 else b"")
        + varint(len(k.encode()))
        + k.encode()
        + varint(len(v))
        for j, (k, v) in enumerate(first.headers)
    ]
    size = 1 + len(klen) + len(first.key) + len(vlen) + len(first.value) + sum(map(len, heads))
    size += sum(len(v) for _, v in first.headers)
    sizes = [size + len(o) for o in offs]  # each record's size but its timestamp delta's width
    second = itemgetter(1)
    h0, h1, h2 = heads

    def build_floor():
        attributes, ts, _, keys, values, hs = zip(*records)
        v0, v1, v2 = (map(second, slot) for slot in zip(*hs))  # header values, slot by slot
        stamps = list(map(varint, map(sub, ts, repeat(base))))
        lengths = map(varint, map(add, sizes, map(len, stamps)))
        region = join(
            map(
                join,
                zip(
                    lengths,
                    repeat(b"\x00"),
                    stamps,
                    offs,
                    repeat(klen),
                    keys,
                    repeat(vlen),
                    values,
                    repeat(h0),
                    v0,
                    repeat(h1),
                    v1,
                    repeat(h2),
                    v2,
                ),
            )
        )
        # what the batch head takes from the records: any odd attributes, the max timestamp, the CRC
        return region, any(attributes), max(ts), crc32c(region)

    return build_floor


def standard_build_floor(keys: list, values: list, timestamps: list) -> Callable[[], bytes]:
    """The build floor of :func:`floors`: a function that writes the records' pieces but their lengths."""
    varint, base = VARINT_BYTES.__getitem__, timestamps[0]
    offs = list(map(varint, range(len(keys))))  # offset deltas: the same for every batch of N records

    def build_floor():
        stamps = map(varint, map(sub, timestamps, repeat(base)))
        klens, vlens = map(varint, map(len, keys)), map(varint, map(len, values))
        return b"".join(chain.from_iterable(zip(stamps, offs, klens, keys, vlens, values)))

    return build_floor


def _workload(name: str, codec: str, nheaders: int, number: int, repeat: int) -> dict:
    raw = make_records(N, nheaders, value_size=VALUE_SIZES.get(name, 60))
    records = [kafkaspec.Record(key=k, value=v, timestamp=t, headers=h) for k, v, t, h in raw]
    cid = CODECS[codec]

    def ks_build():
        return kafkaspec.build_batch(records, compression=codec)

    def aio_build():
        b = aio.DefaultRecordBatchBuilder(2, cid, 0, -1, -1, -1, 1 << 22)
        for i, (k, v, t, h) in enumerate(raw):
            b.append(i, timestamp=t, key=k, value=v, headers=h)
        return b.build()

    def kp_build():
        b = kp.DefaultRecordBatchBuilder(2, cid, 0, -1, -1, -1, 1 << 22)
        for i, (k, v, t, h) in enumerate(raw):
            b.append(i, timestamp=t, key=k, value=v, headers=h)
        return b.build()

    def cs_build():
        return v2_reference.record_batch_construct.build(
            v2.RecordBatch(
                base_offset=0,
                crc=0,
                attributes=cid,
                last_offset_delta=N - 1,
                base_timestamp=raw[0][2],
                max_timestamp=raw[-1][2],
                records=records,
            )
        )

    data = bytes(ks_build())

    def ks_parse():
        for batch in kafkaspec.iter_batches(data):
            for r in batch.records:
                r.offset, r.timestamp, r.key, r.value, r.headers  # noqa: B018

    def aio_parse():
        b = aio.DefaultRecordBatch(data)
        assert b.validate_crc()
        for r in b:
            r.offset, r.timestamp, r.key, r.value, r.headers  # noqa: B018

    def kp_parse():
        b = kp.DefaultRecordBatch(data)
        assert b.validate_crc()
        for r in b:
            r.offset, r.timestamp, r.key, r.value, r.headers  # noqa: B018

    def cs_parse():
        batch = v2_reference.record_batch_construct.parse(data)
        for r in batch.records:
            r.offset, r.timestamp, r.key, r.value, r.headers  # noqa: B018

    row = {"workload": name}
    for op, fns in (
        ("build", (ks_build, aio_build, kp_build, cs_build)),
        ("parse", (ks_parse, aio_parse, kp_parse, cs_parse)),
    ):
        row[op] = {
            "kafkaspec": _best(fns[0], number, repeat),
            "aiokafka": _best(fns[1], number, repeat),
            "kafka-python": _best(fns[2], max(1, number // 5), repeat),
            "construct": _best(fns[3], max(1, number // 20), 3),
        }
    return row


def floors(quick: bool = False) -> dict:
    """Lower bounds for any pure-Python codec on the standard workload, measured in this run.

    Each is a strict subset of the work, done the cheapest way we know, on the
    real batch:
    parse: the cheapest way we know is the one the decoder's runs of one shape use (C-level calls):
    the keys and values of each run of one layout (found beforehand) unpacked by one
    ``Struct.iter_unpack``, the Record tuples made by ``map`` from them and from offsets and
    timestamps known beforehand, and the five fields of each read as the parse benchmark does; no
    varint, no check, no CRC. ``parse+varints`` adds one table lookup per varint byte the record
    starts with (six; one strided slice and one ``map`` per byte position and run), still without
    branches or checks.
    build: per record, the timestamp delta and the key and value lengths, their
    varint bytes (offset deltas precomputed), all by C-level ``map`` calls, and
    one ``bytes.join`` of them with the keys and values; no record length, no
    attributes or header count, no batch head, no CRC.
    """
    raw = make_records(N, 0)
    records = [kafkaspec.Record(key=k, value=v, timestamp=t, headers=h) for k, v, t, h in raw]
    data = bytes(kafkaspec.build_batch(records))
    spans, pos = [], 61
    for r in records:  # record start, key and value positions, found once
        k = data.index(r.key, pos)
        spans.append((pos, k, k + len(r.key), k + len(r.key) + 1, k + len(r.key) + 1 + len(r.value)))
        pos = spans[-1][4] + 1
    assert [(data[a:b], data[c:d]) for _, a, b, c, d in spans] == [(r.key, r.value) for r in records]
    new, cls, empty = tuple.__new__, type(records[0]), ()
    z1 = ZIGZAG_1 * 2  # 256 entries: a lookup for any byte, at the cost of the real one-byte table
    runs, i = [], 0  # (start, records, Struct of the key and value) per run of one layout, found once
    while i < N:
        p, ks, ke, vs, ve = spans[i]
        j = i
        while j < N and (spans[j][1] - spans[j][0], spans[j][3] - spans[j][2]) == (ks - p, vs - ke):
            j += 1
        runs.append((p, j - i, struct.Struct(f"<{ks - p}x{ke - ks}s{vs - ke}x{ve - vs}s1x")))
        i = j
    view, stamps, offsets = memoryview(data), [r.timestamp for r in records], [r.offset for r in records]

    def parse_floor():
        keys, values = [], []
        for p, n, layout in runs:
            k, v = zip(*layout.iter_unpack(view[p : p + n * layout.size]))
            keys += k
            values += v
        for r in map(new, repeat(cls), zip(repeat(0), stamps, offsets, keys, values, repeat(empty))):
            r.offset, r.timestamp, r.key, r.value, r.headers  # noqa: B018

    def parse_varints_floor():
        keys, values = [], []
        for p, n, layout in runs:
            for at in range(p, p + 6):
                list(map(z1.__getitem__, data[at : p + n * layout.size : layout.size]))
            k, v = zip(*layout.iter_unpack(view[p : p + n * layout.size]))
            keys += k
            values += v
        for r in map(new, repeat(cls), zip(repeat(0), stamps, offsets, keys, values, repeat(empty))):
            r.offset, r.timestamp, r.key, r.value, r.headers  # noqa: B018

    unpacked = [k for p, n, layout in runs for k in layout.iter_unpack(view[p : p + n * layout.size])]
    assert unpacked == [(r.key, r.value) for r in records]

    build_floor = standard_build_floor(
        [r.key for r in records], [r.value for r in records], [r.timestamp for r in records]
    )

    number, rounds = (200, 3) if quick else (2000, 7)
    return {
        "parse": _best(parse_floor, number, rounds),
        "parse+varints": _best(parse_varints_floor, number, rounds),
        "build": _best(build_floor, number, rounds),
    }


def report(results: dict) -> str:
    lines = [
        f"RecordBatch v2, {N} records/batch, 6-byte keys, 60-byte values (the last row: 8,000 bytes), µs per record,"
        " best of repeats",
        f"{'workload':<11} {'op':<6} {'kafkaspec':>10} {'aiokafka':>9} {'kafka-py':>9} {'construct':>10}"
        f" {'ks/aio':>7} {'kp/ks':>7}",
    ]
    for row in results["workloads"]:
        for op in ("build", "parse"):
            t = row[op]
            us = {k: v / N * 1e6 for k, v in t.items()}
            lines.append(
                f"{row['workload']:<11} {op:<6} {us['kafkaspec']:>10.3f} {us['aiokafka']:>9.3f} "
                f"{us['kafka-python']:>9.3f} {us['construct']:>10.2f} "
                f"{t['kafkaspec'] / t['aiokafka']:>6.2f}x {t['kafka-python'] / t['kafkaspec']:>6.1f}x"
            )
    lines.append(
        "targets (standard): build ks/aio <= 1.25x and kp/ks >= 6x; parse ks/aio <= 2.5x and kp/ks >= 4x"
    )
    floor = results["floor"]
    if floor:
        std = results["workloads"][0]
        lines.append(
            "pure-Python lower bounds, standard workload (a strict subset of the work; see bench.v2.floors):"
        )
        for name, op, limit, kp_limit in (
            ("build", "build", 1.25, 6),
            ("parse", "parse", 2.5, 4),
            ("parse+varints", "parse", 2.5, 4),
        ):
            t = floor[name]
            lines.append(
                f"  {name:<14} {t / N * 1e6:.3f} µs/record = {t / std[op]['aiokafka']:.2f}x aiokafka (target <= {limit}x), "
                f"kafka-python {std[op]['kafka-python'] / t:.1f}x slower (target >= {kp_limit}x)"
            )
    users_ = results.get("users")
    if users_:
        kp_us = users_["kafka-python"] / N * 1e6
        lines.append(
            "building as users call it, standard workload, object construction timed (µs per record):"
        )
        for name, what in (
            ("records", "Record(key=, value=, timestamp=) per record + build_batch"),
            ("columns", "build_batch(keys=, values=, timestamps=)"),
        ):
            lines.append(
                f"  {what:<58} {users_[name] / N * 1e6:.3f}  kafka-python {kp_us:.3f}: "
                f"{users_['kafka-python'] / users_[name]:.2f}x faster (target >= 4x)"
            )
        if floor:
            best = users_["construct"] + floor["build"]
            lines.append(
                f"  floor of the Record form: making the Records alone {users_['construct'] / N * 1e6:.3f} + "
                f"the build floor {floor['build'] / N * 1e6:.3f} = {best / N * 1e6:.3f}, so at best "
                f"{users_['kafka-python'] / best:.2f}x"
            )
    hf = results.get("header_floor")
    if hf:
        row = next(r for r in results["workloads"] if r["workload"] == "3 headers")
        kp_us, floor = row["build"]["kafka-python"] / N * 1e6, hf["build"] / N * 1e6
        lines.append(
            f"3 headers build: kafkaspec {row['build']['kafka-python'] / row['build']['kafkaspec']:.2f}x faster than "
            f"kafka-python (target >= 3x); the records region and what the batch head needs, the cheapest way "
            f"known, {floor:.3f} µs/record, so at best {kp_us / floor:.2f}x (bench.v2.header_floors)"
        )
        for op in ("parse",):
            floor = (results["floor"][op] + hf[op]) / N * 1e6  # the standard floor + the header floor
            lines.append(
                f"3 headers {op}: kafkaspec {row[op]['kafka-python'] / row[op]['kafkaspec']:.2f}x faster than "
                f"kafka-python (target >= 3x); header floor {hf[op] / N / 3 * 1e6:.3f} µs/header, so at best "
                f"{floor:.3f} µs/record = {row[op]['kafka-python'] / N * 1e6 / floor:.2f}x (bench.v2.header_floors)"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    quick = bool(os.environ.get("BENCH_QUICK"))
    print(report(run(quick)))

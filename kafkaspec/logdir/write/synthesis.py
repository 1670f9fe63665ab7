"""``synth``: a realistic, deterministic Kafka data directory of a chosen size.
One module because every topic's recipe draws on one seed and one writer pool: reproducible only whole.

What it holds (all sizes scale with ``size_mb``):

- ``orders`` (3 partitions): an idempotent producer per partition, batches in every
  codec, headers with duplicate keys; on an upgraded cluster its first segment
  holds magic 0 and magic 1 messages (when :mod:`kafkaspec.message_set` is available).
- ``clicks`` (2 partitions): a plain producer (no producer id), small records, none/lz4.
- ``payments`` (2 partitions): two transactional producers interleaving transactions,
  about a quarter of them aborted; commit/abort markers and ``.txnindex`` files.
- ``users`` (1 partition, compacted): offset gaps, tombstones, empty batches that
  only keep a producer's sequence, batches with the delete-horizon bit.
- ``audit`` (1 partition): LogAppendTime, snappy, large values.

Beside them, the broker's ``*-offset-checkpoint`` files and ``meta.properties``.

Speed: each partition builds a pool of batches once; every append copies one and
re-stamps its base offset, timestamps and producer fields (only the CRC is
recomputed), so output runs at disk speed rather than at compression speed.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

from kafkaspec.generated.record_v2 import Record

from ...builder import build_batch
from ...records import iter_batches
from ..kafka import node_files
from ..kafka.batch_surgery import restamp_batch
from ..kafka.files import format_offset_checkpoint, is_skipped_dir, parse_partition_dir
from .writer import PartitionWriter

EPOCH_MS = 1_700_000_000_000
CODECS = ("zstd", "lz4", "snappy", "gzip", "none")


@dataclass
class SynthReport:
    path: Path
    bytes: int
    batches: int
    partitions: int
    seconds: float
    legacy: bool

    @property
    def mb_per_s(self) -> float:
        return self.bytes / 1e6 / self.seconds if self.seconds else 0.0


@dataclass
class _Template:
    raw: bytes
    base_ts: int
    span: int  # max - base timestamp
    count: int  # offsets the batch spans (last_offset_delta + 1)


def _template(records: list[Record], rng_ts: int, **kwargs: Any) -> _Template:
    raw = build_batch(records, **kwargs)
    ts = [r.timestamp for r in records] or [rng_ts]
    last_delta = kwargs.get("last_offset_delta")
    count = (len(records) if last_delta is None else last_delta + 1) or 1
    return _Template(raw, ts[0], max(ts) - ts[0], count)


def _order_value(rng: random.Random, i: int) -> bytes:
    return json.dumps(
        {
            "order_id": f"o-{rng.randrange(10**9):09d}",
            "customer": f"c-{rng.randrange(50_000)}",
            "items": [
                {
                    "sku": f"sku-{rng.randrange(5000)}",
                    "qty": rng.randint(1, 5),
                    "price": round(rng.uniform(1, 300), 2),
                }
                for _ in range(rng.randint(1, 6))
            ],
            "currency": rng.choice(["EUR", "USD", "GBP"]),
            "seq": i,
            "note": rng.choice(["", "gift", "express", "leave at door", "call first"]),
        },
        separators=(",", ":"),
    ).encode()


def _records(rng: random.Random, n: int, kind: str, start_ts: int) -> list[Record]:
    out = []
    ts = start_ts
    for i in range(n):
        ts += rng.randint(0, 40)
        if kind == "orders":
            headers: list[tuple[str, bytes | None]] = (
                [
                    ("trace-id", f"{rng.getrandbits(64):016x}".encode()),
                    ("source", b"web"),
                    ("retry", b"1"),
                    ("retry", b"2"),
                ]
                if rng.random() < 0.5
                else [("source", b"app")]
            )
            if rng.random() < 0.1:
                headers.append(("empty", None))
            out.append(
                Record(
                    key=f"c-{rng.randrange(50_000)}".encode(),
                    value=_order_value(rng, i),
                    timestamp=ts,
                    headers=headers,
                )
            )
        elif kind == "clicks":
            v = f'{{"page":"/p/{rng.randrange(2000)}","ref":"{rng.choice(["google", "direct", "mail"])}","ms":{rng.randrange(9000)}}}'
            out.append(Record(key=None, value=v.encode(), timestamp=ts))
        elif kind == "payments":
            payment = json.dumps(
                {
                    "payment": rng.randrange(10**8),
                    "amount": rng.randrange(1, 10**6),
                    "account": f"acc-{rng.randrange(9999)}",
                }
            ).encode()
            out.append(
                Record(
                    key=f"acc-{rng.randrange(9999)}".encode(),
                    value=payment,
                    timestamp=ts,
                    headers=[("txn", b"1")],
                )
            )
        elif kind == "audit":
            body = " ".join(
                rng.choice(["GET", "PUT", "user", "role", "grant", "deny", "/api/v1", "200", "403"])
                for _ in range(rng.randint(200, 1200))
            )
            out.append(Record(key=f"node-{rng.randrange(40)}".encode(), value=body.encode(), timestamp=ts))
    return out


def _compacted_template(rng: random.Random, start_ts: int) -> _Template:
    """Records surviving compaction: offset gaps, some tombstones; sometimes nothing (an empty batch)."""
    span = rng.randint(20, 200)
    if rng.random() < 0.08:
        return _template(
            [],
            start_ts,
            compression="none",
            last_offset_delta=span - 1,
            producer_id=0,
            producer_epoch=0,
            base_sequence=0,
        )
    offsets = sorted(rng.sample(range(span), rng.randint(1, min(span, 60))))
    recs = []
    ts = start_ts
    for o in offsets:
        ts += rng.randint(0, 50)
        tomb = rng.random() < 0.12
        value = (
            None
            if tomb
            else json.dumps({"name": f"user{rng.randrange(10**6)}", "tier": rng.randrange(4)}).encode()
        )
        recs.append(
            Record(key=f"user-{rng.randrange(1000):04d}".encode(), value=value, offset=o, timestamp=ts)
        )
    return _template(
        recs,
        start_ts,
        compression=rng.choice(["gzip", "none", "zstd"]),
        last_offset_delta=span - 1,
        producer_id=0,
        producer_epoch=0,
        base_sequence=0,
    )


def _legacy_supported() -> bool:
    try:
        raw = build_batch([Record(key=b"k", value=b"v", timestamp=EPOCH_MS)], magic=1)
        return len(list(iter_batches(raw))) == 1
    except Exception:  # the legacy codecs may not be installed yet
        return False


TOPICS = [  # name, partitions, share of the total size, kind
    ("orders", 3, 0.35, "orders"),
    ("clicks", 2, 0.20, "clicks"),
    ("payments", 2, 0.20, "payments"),
    ("users", 1, 0.10, "users"),
    ("audit", 1, 0.15, "audit"),
]


def synth(
    out: str | Path,
    *,
    size_mb: float = 50,
    seed: int = 7,
    force: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> SynthReport:
    """Write a sample data directory of about ``size_mb`` MB into ``out``; same seed, same bytes."""
    if isinstance(size_mb, bool) or not isinstance(size_mb, (int, float)) or not 0 < size_mb < 1e9:
        raise ValueError(f"size_mb must be a positive number of megabytes below 1e9, got {size_mb!r}")
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        if not force:
            raise FileExistsError(f"{out} exists and is not empty (use --force to replace it)")
        strangers = [p.name for p in out.iterdir() if not _replaceable(p)]
        if strangers:
            raise FileExistsError(
                f"refusing to replace {out}: it holds {', '.join(sorted(strangers)[:3])}, "
                "which is not part of a Kafka data directory"
            )
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    total = int(size_mb * 1_000_000)
    segment_bytes = max(1 << 20, min(1 << 30, total // 24))
    legacy = _legacy_supported()
    started = time.perf_counter()
    jobs = []
    for t_index, (topic, partitions, share, kind) in enumerate(TOPICS):
        for p in range(partitions):
            jobs.append(
                _PartitionJob(
                    str(out),
                    seed,
                    t_index,
                    topic,
                    p,
                    kind,
                    int(total * share / partitions),
                    segment_bytes,
                    legacy,
                )
            )
    workers = min(len(jobs), os.cpu_count() or 1) if total >= PARALLEL_BYTES else 1
    written = batches = 0
    end_offsets: dict[tuple[str, int], int] = {}
    if workers > 1:  # partitions are independent (each its own seeded generator): same bytes, in parallel
        for job, (n, b, end) in _run_in_processes(jobs, workers):
            written, batches = written + n, batches + b
            end_offsets[(job.topic, job.partition)] = end
            if progress:
                progress(written, total)
    else:
        for job in jobs:
            n, b, end = _write_partition(
                job, None if progress is None else partial(_shifted, progress, written, total)
            )
            written, batches = written + n, batches + b
            end_offsets[(job.topic, job.partition)] = end
            if progress:
                progress(written, total)
    n, b = _typed_topics(out, seed, end_offsets)
    written, batches = written + n, batches + b
    _broker_files(out, seed, end_offsets)
    return SynthReport(
        out, written, batches, len(jobs) + len(TYPED_TOPICS) + 1, time.perf_counter() - started, legacy
    )


#: the registry-framed typed topics (one partition each, a fixed number of records: they are small),
#: their value writers and the ``_schemas`` records of their schema versions
TYPED_TOPICS = ("invoices", "profiles", "shipments")
TYPED_RECORDS = 400


def _typed_topics(out: Path, seed: int, end_offsets: dict[tuple[str, int], int]) -> tuple[int, int]:
    """Write the Avro, JSON Schema and Protobuf topics and the ``_schemas`` topic that holds their
    schemas (one partition, keys and values as Schema Registry writes them); return (bytes, batches)."""
    from kafkaspec.values import typed_synth
    from kafkaspec.values.protobuf_synth import schema_records, shipment_value

    writers: dict[str, Callable[[random.Random, int], bytes]] = {
        "invoices": typed_synth.invoice_value,
        "profiles": typed_synth.profile_value,
        "shipments": shipment_value,
    }
    registered = (
        typed_synth.avro_schema_records("invoices", 200)
        + typed_synth.json_schema_records("profiles", 300)
        + schema_records("shipments", 100)
    )
    written = batches = 0
    clock = EPOCH_MS
    topics: list[tuple[str, list[tuple[bytes | None, bytes | None]]]] = [
        ("_schemas", [(k, v) for k, v in registered])
    ]
    for topic in TYPED_TOPICS:
        rng = random.Random(f"{seed}:{topic}:0")
        topics.append(
            (topic, [(f"k-{i % 50}".encode(), writers[topic](rng, i)) for i in range(TYPED_RECORDS)])
        )
    for topic, pairs in topics:
        with PartitionWriter(out, topic, 0, index_interval_bytes=4096, topic_id=_topic_id(seed, topic)) as w:
            for start in range(0, len(pairs), 50):
                recs = [
                    Record(key=k, value=v, timestamp=clock + j)
                    for j, (k, v) in enumerate(pairs[start : start + 50])
                ]
                raw = bytearray(build_batch(recs, compression="none"))
                w.append_batch(bytes(restamp_batch(raw, base_offset=w.next_offset, timestamp_shift=0)))
                clock += len(recs)
            written, batches = written + w.bytes_written, batches + w.batches_written
            end_offsets[(topic, 0)] = w.next_offset
    return written, batches


def _shifted(progress: Callable[[int, int], None], before: int, total: int, done: int) -> None:
    progress(before + done, total)


#: from this size on, partitions are written by a pool of processes (one per core)
PARALLEL_BYTES = 32_000_000


@dataclass(frozen=True)
class _PartitionJob:
    out: str
    seed: int
    t_index: int
    topic: str
    partition: int
    kind: str
    quota: int
    segment_bytes: int
    legacy: bool


def _run_in_processes(
    jobs: list[_PartitionJob], workers: int
) -> list[tuple[_PartitionJob, tuple[int, int, int]]]:
    """Run the jobs in ``workers`` fresh interpreters (not forked: the caller may hold threads; not
    multiprocessing's spawn: that re-runs the caller's main script), the larger shares first, each to
    the least loaded one; return each job with its (bytes, batches, next offset)."""
    shares: list[list[_PartitionJob]] = [[] for _ in range(workers)]
    loads = [0] * workers
    for job in sorted(jobs, key=lambda j: -j.quota):
        i = loads.index(min(loads))
        shares[i].append(job)
        loads[i] += job.quota
    code = "from kafkaspec.logdir.write.synthesis import _worker_main; _worker_main()"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in shares
    ]
    results: list[tuple[_PartitionJob, tuple[int, int, int]]] = []
    for proc, share in zip(procs, shares, strict=True):
        out, err = proc.communicate(json.dumps([asdict(j) for j in share]))
        if proc.returncode != 0:
            lines = err.strip().splitlines() or [f"exit status {proc.returncode}"]
            raise OSError(f"synth: a writer process failed: {lines[-1]}")
        results.extend((job, (n, b, end)) for job, (n, b, end) in zip(share, json.loads(out), strict=True))
    order = {id(j): i for i, j in enumerate(jobs)}
    return sorted(results, key=lambda r: order[id(r[0])])


def _worker_main() -> None:
    """A writer process of :func:`_run_in_processes`: jobs as JSON on stdin, results on stdout."""
    jobs = [_PartitionJob(**j) for j in json.load(sys.stdin)]
    print(json.dumps([_write_partition(j) for j in jobs]))


def _write_partition(
    job: _PartitionJob, progress: Callable[[int], None] | None = None
) -> tuple[int, int, int]:
    """Write one partition's share; return (bytes, batches, next offset)."""
    rng = random.Random(f"{job.seed}:{job.topic}:{job.partition}")
    batches = done = 0
    with PartitionWriter(
        Path(job.out),
        job.topic,
        job.partition,
        segment_bytes=job.segment_bytes,
        index_interval_bytes=4096,
        topic_id=_topic_id(job.seed, job.topic),
    ) as w:
        clock = EPOCH_MS + job.t_index * 1000 + job.partition * 10
        if job.kind == "orders" and job.legacy:
            clock, n, b = _legacy_segment(w, rng, clock, min(job.quota // 10, 4 << 20))
            done += n
            batches += b
        pump = _Pump(w, rng, job.kind, clock, job.seed)
        step = 0
        while done < job.quota:
            n, b = pump.step()
            done += n
            batches += b
            step += 1
            if progress and step % 64 == 0:
                progress(done)
        return done, batches, w.next_offset


def _broker_files(out: Path, seed: int, end_offsets: dict[tuple[str, int], int]) -> None:
    """The files a broker keeps beside its partition directories (offset checkpoints, meta.properties, the clean
    shutdown marker)."""

    checkpoint = format_offset_checkpoint
    (out / "recovery-point-offset-checkpoint").write_text(checkpoint(end_offsets))
    (out / "replication-offset-checkpoint").write_text(checkpoint(end_offsets))
    (out / "log-start-offset-checkpoint").write_text(checkpoint({k: 0 for k in end_offsets}))
    compacted = {k: o for k, o in end_offsets.items() if k[0] == "users"}
    (out / "cleaner-offset-checkpoint").write_text(checkpoint({k: o // 2 for k, o in compacted.items()}))
    (out / node_files.META_PROPERTIES).write_text(
        node_files.format_meta_properties(
            {
                "node.id": "1",
                "directory.id": _topic_id(seed, ".directory"),
                "version": "1",
                "cluster.id": _topic_id(seed, ".cluster"),
            }
        )
    )
    # as a broker leaves it when it stops cleanly (CleanShutdownFileHandler), so no recovery is due
    (out / node_files.CLEAN_SHUTDOWN).write_text('{"version":0,"brokerEpoch":1}')


_BROKER_FILES = {
    "meta.properties",
    "recovery-point-offset-checkpoint",
    "replication-offset-checkpoint",
    "log-start-offset-checkpoint",
    "cleaner-offset-checkpoint",
    "bootstrap.checkpoint",
    ".lock",
    ".kafka_cleanshutdown",
}


def _replaceable(path: Path) -> bool:
    """What --force may delete: partition directories, a broker's own files, hidden marker files."""
    if path.is_dir():
        return parse_partition_dir(path.name) is not None or is_skipped_dir(path.name)
    return path.name in _BROKER_FILES or path.name.startswith(".")


def _topic_id(seed: int, topic: str) -> str:
    import base64
    import hashlib

    return (
        base64.urlsafe_b64encode(hashlib.sha256(f"{seed}:{topic}".encode()).digest()[:16])
        .decode()
        .rstrip("=")
    )


def _legacy_segment(w: PartitionWriter, rng: random.Random, clock: int, quota: int) -> tuple[int, int, int]:
    """Magic 0 then magic 1 messages (plain and compressed wrappers) in the first segment, then roll."""
    w.leader_epoch = 0
    done = batches = 0
    while done < quota:
        magic = 0 if done < quota // 3 else 1
        n = rng.choice([1, 1, 5, 20])
        recs = _records(rng, n, "orders", clock)
        if magic == 0:
            recs = [Record(key=r.key, value=r.value) for r in recs]
        codec = "none" if n == 1 else rng.choice(["gzip", "snappy", "lz4"] if magic else ["gzip", "snappy"])
        w.append([r._replace(headers=[]) for r in recs], compression=codec, magic=magic)
        clock = max(clock, max((r.timestamp or clock) for r in recs))
        done, batches = w.bytes_written, w.batches_written
    w.roll()
    w.leader_epoch = 1
    return clock + 1000, done, batches


class _Pump:
    """Appends one unit of a topic's traffic per :meth:`step` from a pool of prebuilt batches."""

    POOL = 40

    def __init__(self, w: PartitionWriter, rng: random.Random, kind: str, clock: int, seed: int):
        self.w, self.rng, self.kind, self.clock = w, rng, kind, clock
        self.pid_base = 1000 + (seed % 1000) * 100 + w.partition * 10
        self.seq: dict[int, int] = {}
        self.pool = [self._build() for _ in range(self.POOL)]
        self.txn_pool = (
            [self._build(transactional=True) for _ in range(self.POOL)] if kind == "payments" else []
        )
        if kind == "users":
            self.pool = [_compacted_template(rng, clock) for _ in range(self.POOL)]
        self.epoch_every = 200
        self.steps = 0

    def _build(self, transactional: bool = False) -> _Template:
        rng, kind = self.rng, self.kind
        if kind == "orders":
            recs = _records(rng, rng.randint(5, 120), kind, self.clock)
            return _template(
                recs,
                self.clock,
                compression=CODECS[rng.randrange(5)],
                producer_id=0,
                producer_epoch=0,
                base_sequence=0,
            )
        if kind == "clicks":
            recs = _records(rng, rng.randint(20, 300), kind, self.clock)
            return _template(recs, self.clock, compression=rng.choice(["none", "lz4"]))
        if kind == "payments":
            recs = _records(rng, rng.randint(5, 60), kind, self.clock)
            return _template(
                recs,
                self.clock,
                compression="zstd",
                producer_id=0,
                producer_epoch=0,
                base_sequence=0,
                is_transactional=transactional,
            )
        if kind == "audit":
            recs = _records(rng, rng.randint(2, 12), kind, self.clock)
            appended = max(r.timestamp for r in recs) + rng.randint(
                1, 20
            )  # the broker's clock, after the producer's
            return _template(
                recs, self.clock, compression="snappy", timestamp_type="log_append", log_append_time=appended
            )
        return _compacted_template(rng, self.clock)

    def _put(self, t: _Template, producer: tuple[int, int] | None = None, attributes_or: int = 0) -> int:
        w = self.w
        self.clock += self.rng.randint(1, 500)
        prod = None
        if producer is not None:
            pid, epoch = producer
            seq = self.seq.get(pid, 0)
            self.seq[pid] = (seq + t.count) % (1 << 31)
            prod = (pid, epoch, seq)
        raw = restamp_batch(
            bytearray(t.raw),
            base_offset=w.next_offset,
            timestamp_shift=self.clock - t.base_ts,
            producer=prod,
            attributes_or=attributes_or,
        )
        self.clock += t.span
        w.append_batch(raw)
        return len(raw)

    def step(self) -> tuple[int, int]:
        """Append some batches; return (bytes, batches)."""
        rng, w = self.rng, self.w
        before, before_n = w.bytes_written, w.batches_written
        self.steps += 1
        if self.steps % self.epoch_every == 0:
            w.leader_epoch += 1  # a leader change now and then
        if self.kind == "orders":
            self._put(rng.choice(self.pool), (self.pid_base, 0))
        elif self.kind in ("clicks", "audit"):
            self._put(rng.choice(self.pool))
        elif self.kind == "users":
            t = rng.choice(self.pool)
            horizon = 0x40 if t.count and rng.random() < 0.05 else 0
            self._put(t, (self.pid_base + 5, 0), attributes_or=horizon)
        else:
            self._transactions()
        return w.bytes_written - before, w.batches_written - before_n

    def _transactions(self) -> None:
        """Two transactional producers interleaving transactions, some aborted."""
        rng, w = self.rng, self.w
        pids = [(self.pid_base + 1, 3), (self.pid_base + 2, 1)]
        rng.shuffle(pids)
        open_now = []
        for producer in pids:
            for _ in range(rng.randint(1, 3)):
                self._put(rng.choice(self.txn_pool), producer)
            open_now.append(producer)
            if rng.random() < 0.3:  # a non-transactional idempotent write in between
                self._put(rng.choice(self.pool), (self.pid_base + 3, 0))
        for pid, epoch in open_now:
            kind = "abort" if rng.random() < 0.25 else "commit"
            self.clock += rng.randint(1, 50)
            w.append_control(
                kind, producer_id=pid, producer_epoch=epoch, coordinator_epoch=2, timestamp=self.clock
            )

"""Log directories on an object store: the same work from a local S3 API server and from local disk.

Entry point: ``run(quick=False) -> dict`` and ``report(results) -> str`` (as in bench/v2.py);
``python -m bench.storage`` runs it alone.

Data: a ``kafkaspec synth`` directory of ``BENCH_STORAGE_MB`` MB (default 200; 30 with
``BENCH_QUICK``), uploaded to a moto S3 server started on 127.0.0.1 for the run (moto keeps
objects in its own process: the numbers are the cost of the S3 API path, HTTP and all, not of a
network).

1. Scan: every record of every partition (offset, timestamp, key, value, headers; CRCs checked)
   through ``logdir.open_log`` from ``s3://`` vs from the local directory. Ratio.
2. Seek: ``find_offset`` of random offsets in the largest segment, each through a fresh
   ``open_log``: requests and bytes fetched (index, entry check, one index interval).
3. Spark: ``spark.read.format("kafkalog").load(...)`` count plus a checksum column sum, local[2],
   from ``s3://`` vs local. Ratio.
"""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
import uuid

from bench.logdir import dataset
from kafkaspec import logdir

_ENV = {
    "AWS_ACCESS_KEY_ID": "AKIABENCH",
    "AWS_SECRET_ACCESS_KEY": "bench-secret",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_EC2_METADATA_DISABLED": "true",
}


def _server() -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    endpoint = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(f"{endpoint}/moto-api/data.json", timeout=2).read()
            return proc, endpoint
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("moto server did not start")


def _scan(path) -> tuple[float, int]:
    start = time.perf_counter()
    n = 0
    with logdir.open_log(path) as log:
        for part in log.partitions():
            for _, r in part.records():
                r.offset, r.timestamp, r.key, r.value, r.headers  # noqa: B018
                n += 1
    return time.perf_counter() - start, n


def _spark(path: str, spark) -> tuple[float, int, int]:
    from pyspark.sql import functions as F

    start = time.perf_counter()
    row = (
        spark.read.format("kafkalog")
        .load(path)
        .agg(
            F.count("*").alias("n"),
            F.sum(
                F.crc32(F.concat_ws("/", "topic", "partition", "offset", F.hex("key"), F.hex("value")))
            ).alias("c"),
        )
        .collect()[0]
    )
    return time.perf_counter() - start, int(row.n), int(row.c or 0)


def run(quick: bool = False) -> dict:
    from pyarrow import fs

    size_mb = int(os.environ.get("BENCH_STORAGE_MB", 30 if quick else 200))
    local = dataset(size_mb)
    proc, endpoint = _server()
    saved = {k: os.environ.get(k) for k in (*_ENV, "AWS_ENDPOINT_URL")}
    os.environ.update(_ENV, AWS_ENDPOINT_URL=endpoint)
    out: dict = {"size_mb": size_mb}
    try:
        s3 = fs.S3FileSystem(
            endpoint_override=endpoint,
            access_key=_ENV["AWS_ACCESS_KEY_ID"],
            secret_key=_ENV["AWS_SECRET_ACCESS_KEY"],
            region="us-east-1",
            allow_bucket_creation=True,
        )
        bucket = f"bench-{uuid.uuid4().hex[:8]}"
        s3.create_dir(bucket)
        t = time.perf_counter()
        fs.copy_files(
            str(local), f"{bucket}/logs", source_filesystem=fs.LocalFileSystem(), destination_filesystem=s3
        )
        out["upload_s"] = time.perf_counter() - t
        uri = f"s3://{bucket}/logs"
        _scan(local)  # warm the page cache
        out["local_scan_s"], out["records"] = min((_scan(local) for _ in range(2)), key=lambda r: r[0])
        out["s3_scan_s"], s3_records = min((_scan(uri) for _ in range(2)), key=lambda r: r[0])
        assert s3_records == out["records"], (s3_records, out["records"])

        segs = [s for p in logdir.open_log(local).partitions() for s in p.segments()]
        big = max(segs, key=lambda s: s.size)
        rel = big.path.relative_to(local)
        offsets = [b.last_offset for b in big.iter_batches(verify=False)]
        rng = random.Random(7)
        seeks = []
        for offset in rng.sample(offsets, min(50, len(offsets))):
            seg = logdir.open_log(f"{uri}/{rel}").segments()[0]
            stats = seg.path.store.stats
            stats.reset()
            found = seg.find_offset(offset)
            assert found is not None and found.base_offset <= offset <= found.last_offset
            seeks.append((stats.requests, stats.bytes))
        out["seek_segment_bytes"] = big.size
        out["seek_index_bytes"] = big.index_path.stat().st_size
        out["seek_requests_max"] = max(r for r, _ in seeks)
        out["seek_bytes_max"] = max(b for _, b in seeks)
        out["seek_bytes_mean"] = sum(b for _, b in seeks) / len(seeks)

        from kafkaspec.spark.session import build_session

        spark = build_session("local[2]", "kafkaspec bench storage", memory="1g")
        try:
            _spark(str(local), spark)  # warm the workers
            local_runs, s3_runs = [], []
            for _ in range(2):  # alternating, best of two each
                local_runs.append(_spark(str(local), spark))
                s3_runs.append(_spark(uri, spark))
            out["spark_local_s"], n_local, c_local = min(local_runs)
            out["spark_s3_s"], n_s3, c_s3 = min(s3_runs)
            assert (n_local, c_local) == (n_s3, c_s3), ((n_local, c_local), (n_s3, c_s3))
            out["spark_records"] = n_local
        finally:
            spark.stop()
    finally:
        proc.terminate()
        proc.wait()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return out


def report(r: dict) -> str:
    mb = r["size_mb"]
    return "\n".join(
        [
            f"## log directory on S3 (moto server on 127.0.0.1) vs local disk: {mb} MB synth, {r['records']:,} records",
            f"scan every record    local {r['local_scan_s']:7.2f} s   s3 {r['s3_scan_s']:7.2f} s   "
            f"s3/local {r['s3_scan_s'] / r['local_scan_s']:.2f}x   (upload took {r['upload_s']:.1f} s)",
            f"seek (50 offsets in a {r['seek_segment_bytes']:,}-byte segment, index {r['seek_index_bytes']:,} bytes): "
            f"at most {r['seek_requests_max']} requests and {r['seek_bytes_max']:,} bytes "
            f"(mean {r['seek_bytes_mean']:,.0f} bytes)",
            f"Spark count+checksum local {r['spark_local_s']:7.2f} s   s3 {r['spark_s3_s']:7.2f} s   "
            f"s3/local {r['spark_s3_s'] / r['spark_local_s']:.2f}x   ({r['spark_records']:,} records, local[2])",
        ]
    )


if __name__ == "__main__":
    print(report(run(quick=bool(os.environ.get("BENCH_QUICK")))))

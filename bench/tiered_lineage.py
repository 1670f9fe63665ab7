"""The cost of choosing a tiered partition's live lineage (issue 24, item 1): requests and seconds.

One partition of ``BENCH_LINEAGE_SEGMENTS`` segments (default 10,000; 1,000 with ``BENCH_QUICK``), one
small batch each, written in the tiered layout by ``write_tiered`` to a local prefix and to a moto S3
server started on 127.0.0.1 for the run; then one segment in ten copied under another segment id (a
re-upload). Measured: ``open_log(prefix).partitions()[0].segments()`` on a fresh store (the listing,
every manifest, one ``.indexes`` object for the leader-epoch checkpoint, and the choice), its requests
(``Store.stats``) and its seconds, locally and from ``s3://``; and that the choice kept one segment per
offset range and listed every copy.

``python -m bench.tiered_lineage`` runs it alone.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

from kafkaspec import Record, logdir
from kafkaspec.logdir import PartitionWriter
from kafkaspec.logdir.store.storage import as_path
from kafkaspec.logdir.tiered.segment import INDEXES_SUFFIX, MANIFEST_SUFFIX, kafka_uuid


def _source(root: Path, segments: int) -> None:
    with PartitionWriter(root, "t", 0) as w:
        for i in range(segments):
            if i % 1000 == 999:
                w.leader_epoch += 1
            w.append([Record(key=b"k%d" % i, value=b"v" * 20, timestamp=1_700_000_000_000 + i)])
            w.roll()


def _copies(folder: Path) -> int:
    stems = sorted({p.name.rsplit(".", 1)[0] for p in folder.iterdir()})
    n = 0
    for stem in stems[::10]:
        new = f"{stem[:20]}-{kafka_uuid(b'copy' + stem.encode())}"
        for suffix in (".log", INDEXES_SUFFIX, MANIFEST_SUFFIX):
            shutil.copyfile(folder / f"{stem}{suffix}", folder / f"{new}{suffix}")
        n += 1
    return n


def _choose(prefix: str | Path) -> tuple[float, int, int, int, str]:
    started = time.perf_counter()
    root = as_path(str(prefix))
    stats = getattr(root, "store", None)
    if stats is not None:
        stats.stats.reset()
    log = logdir.open_log(root)  # on root's store: a URI would get a store (and a request counter) of its own
    (part,) = log.partitions()
    live = part.segments()
    seconds = time.perf_counter() - started
    requests = stats.stats.requests if stats is not None else 0
    kinds = _by_kind(stats.stats) if stats is not None else ""
    return seconds, requests, len(live), len(log.unused_segments), kinds


def _by_kind(stats) -> str:
    """Requests by kind and by the object's suffix, and the most any one object was asked for."""
    from collections import Counter

    counts: Counter = Counter()
    per_object: Counter = Counter()
    for (kind, key), n in stats.by_key.items():
        suffix = next((s for s in (MANIFEST_SUFFIX, INDEXES_SUFFIX, ".log") if key.endswith(s)), "prefix")
        counts[kind, suffix] += n
        per_object[kind, key] += n
    most = max(per_object.values(), default=0)
    return (
        ", ".join(f"{kind} {suffix} {n}" for (kind, suffix), n in sorted(counts.items()))
        + f"; at most {most} of one kind on one object"
    )


def run(quick: bool = False) -> dict:
    from bench.storage import _ENV, _server

    segments = int(os.environ.get("BENCH_LINEAGE_SEGMENTS", 1000 if quick else 10_000))
    results: dict = {"segments": segments}
    with tempfile.TemporaryDirectory() as tmp:
        src, local = Path(tmp) / "src", Path(tmp) / "remote"
        _source(src, segments)
        logdir.write_tiered(src, local, compression=False)
        (folder,) = [p for t in local.iterdir() for p in t.iterdir()]
        results["copies"] = _copies(folder)
        results["local"] = _choose(local)
        proc, endpoint = _server()
        try:
            os.environ.update(_ENV, AWS_ENDPOINT_URL=endpoint)
            from pyarrow import fs

            s3 = fs.S3FileSystem(
                endpoint_override=endpoint,
                access_key=_ENV["AWS_ACCESS_KEY_ID"],
                secret_key=_ENV["AWS_SECRET_ACCESS_KEY"],
                region="us-east-1",
                allow_bucket_creation=True,
            )
            s3.create_dir("lineage")
            fs.copy_files(
                str(local),
                "lineage/tiered",
                source_filesystem=fs.LocalFileSystem(),
                destination_filesystem=s3,
                use_threads=True,
            )
            results["s3"] = _choose("s3://lineage/tiered/")
        finally:
            proc.terminate()
            proc.wait()
    return results


def report(results: dict) -> str:
    n, copies = results["segments"], results["copies"]
    lines = [f"tiered lineage: {n} segments + {copies} copies in one partition (one manifest each)"]
    for where in ("local", "s3"):
        seconds, requests, live, unused, kinds = results[where]
        lines.append(
            f"  {where:5}: {seconds:.2f} s, {requests} requests; {live} live, {unused} listed unused"
        )
        if kinds:
            lines.append(f"         {kinds}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(run(quick=bool(os.environ.get("BENCH_QUICK")))))

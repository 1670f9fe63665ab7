"""The runtime reader's answer (kafkaspec.logdir) and the data source's answer, as comparable rows."""

from __future__ import annotations

from kafkaspec import logdir
from kafkaspec.spark.read.options import ReadOptions


def runtime_rows(path, options: dict | None = None) -> list[tuple]:
    """What kafkaspec.logdir returns for ``path`` under the data source's ``options``."""
    opts = ReadOptions.parse(options or {})
    out = []
    with logdir.open_log(path) as log:
        for part in log.partitions():
            if not opts.wants(part.topic, part.partition):
                continue
            lo, hi = opts.offset_range(part.topic, part.partition)
            if lo == -1:
                continue
            if opts.ending_timestamp is not None:
                found = part.offset_for_timestamp(opts.ending_timestamp)
                if found is not None:
                    hi = found if hi is None else min(hi, found)
            for b, r in part.records(
                lo,
                hi,
                start_timestamp=opts.starting_timestamp,
                read_committed=opts.read_committed,
                include_control=opts.include_control,
                verify=opts.verify_crc,
            ):
                ts = None if b.magic == 0 else r.timestamp  # magic 0 has none: a null column
                out.append(
                    (
                        part.topic,
                        part.partition,
                        r.offset,
                        ts,
                        r.key,
                        r.value,
                        [tuple(h) for h in r.headers or ()],
                    )
                )
    return sorted(out, key=lambda row: row[:3])


def source_rows(spark, path, options: dict | None = None) -> list[tuple]:
    """What ``spark.read.format("kafkalog")`` returns, in the same shape."""
    from pyspark.sql import functions as F

    df = spark.read.format("kafkalog").options(**(options or {})).load(str(path))
    table = df.select(
        "topic", "partition", "offset", F.unix_millis("timestamp").alias("ts"), "key", "value", "headers"
    ).toArrow()
    out = [
        (
            r["topic"],
            r["partition"],
            r["offset"],
            r["ts"],
            r["key"],
            r["value"],
            [(h["key"], h["value"]) for h in r["headers"] or ()],
        )
        for r in table.to_pylist()
    ]
    return sorted(out, key=lambda row: row[:3])

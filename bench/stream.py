"""A growing log read as a Spark stream: trigger latency and the CPU each trigger costs.

One session on local[2], ``trigger(processingTime="100 milliseconds")``, a memory sink. A writer in the
driver appends one record at a time (flushed), at spread moments; a ``StreamingQueryListener`` takes the
end of the micro-batch that brought it (its progress: start + ``triggerExecution``), so the latency is
from the append to its row in the sink, with no polling job beside the stream to compete for the cores.
Reported: the median and p99 latency over the appends, the median of Spark's own split of a data trigger
(``durationMs``), and CPU seconds (user + system, the whole process tree: the JVM, the Python driver, the
source's planner process and the workers, dead children included) per data trigger and per idle second.

Beside it, in the same run, the floor: a Python data source that does nothing but count the bytes of a
file (:class:`FloorSource`: one stat per trigger, one row per appended byte) under the same session
settings: what any Python streaming source pays for a micro-batch in Spark. And without Spark, our
reader's own work for one record: ``latestOffset`` on an idle log, then ``latestOffset``, ``partitions``
and ``read`` after an append, in this process (what a trigger asks of kafkaspec).

``python -m bench.stream`` runs it (``BENCH_ONLY=stream make bench``); ``BENCH_STREAM_APPENDS`` sets the
number of appends per source (default 40, 12 with ``BENCH_QUICK``).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from pyspark.errors import PySparkNotImplementedError
from pyspark.sql.datasource import (
    DataSource,
    DataSourceStreamReader,
    InputPartition,
    SimpleDataSourceStreamReader,
)

from bench.proc_tree import in_tree, processes

TRIGGER = "100 milliseconds"
SOURCES = ("kafkalog", "floor", "floor-simple")


def tree_cpu(root: int) -> float:
    """CPU seconds used so far by ``root`` and its descendants, those that ended and were waited for
    included (their parents' ``cutime`` and ``cstime``): Spark's Python workers come and go."""
    procs = processes()
    return sum(procs[pid].cpu + procs[pid].waited for pid in in_tree(procs, root))


class FloorReader(DataSourceStreamReader):
    """Offsets: the size of one file (a stat per trigger); a micro-batch: a row per byte appended."""

    def __init__(self, path: str):
        self.path = path

    def initialOffset(self) -> dict:
        return {"size": 0}

    def latestOffset(self) -> dict:
        return {"size": os.path.getsize(self.path)}

    def partitions(self, start: dict, end: dict) -> list[InputPartition]:
        return [InputPartition((start["size"], end["size"]))] if end["size"] > start["size"] else []

    def read(self, partition: InputPartition):  # type: ignore[override]
        lo, hi = partition.value  # type: ignore[attr-defined]
        for offset in range(lo, hi):
            yield (offset,)

    def commit(self, end: dict) -> None:
        pass


class FloorSimpleReader(SimpleDataSourceStreamReader):
    """The floor read in the source's planner process on the driver (Spark's prefetch path for small
    streams): no task in a Python worker."""

    def __init__(self, path: str):
        self.path = path

    def initialOffset(self) -> dict:
        return {"size": 0}

    def read(self, start: dict) -> tuple[Iterator[tuple], dict]:
        size = os.path.getsize(self.path)
        return iter([(offset,) for offset in range(start["size"], size)]), {"size": size}

    def readBetweenOffsets(self, start: dict, end: dict) -> Iterator[tuple]:
        return iter([(offset,) for offset in range(start["size"], end["size"])])


class FloorSource(DataSource):
    @classmethod
    def name(cls) -> str:
        return "kafkaspec_bench_floor"

    def schema(self) -> str:
        return "offset long"

    def streamReader(self, schema):  # type: ignore[no-untyped-def]
        if self.options.get("simple"):
            raise PySparkNotImplementedError(
                errorClass="NOT_IMPLEMENTED", messageParameters={"feature": "simple"}
            )
        return FloorReader(self.options["path"])

    def simpleStreamReader(self, schema):  # type: ignore[no-untyped-def]
        return FloorSimpleReader(self.options["path"])


def _child(source: str, root: str, appends: int, idle_s: float) -> dict:
    """Runs in a child process: one session, one stream of ``source``, ``appends`` appends timed."""
    from pyspark.sql.streaming import StreamingQueryListener

    from kafkaspec import Record, logdir
    from kafkaspec.spark.session import build_session

    spark = build_session(
        "local[2]",
        "kafkaspec-bench-stream",
        memory="768m",
        shuffle_partitions=2,
        extra={"spark.ui.showConsoleProgress": "false"},
    )
    base = Path(root)
    if source == "kafkalog":
        w = logdir.PartitionWriter(base / "logs", "lat", 0)

        def append(i: int) -> None:
            w.append([Record(key=None, value=b"v%d" % i, timestamp=i)])
            w.segment.fh.flush()

        reader = spark.readStream.format("kafkalog").load(str(base / "logs"))
    else:
        spark.dataSource.register(FloorSource)
        grow = open(base / "floor.bin", "ab", buffering=0)

        def append(i: int) -> None:
            grow.write(b"x")

        reader = spark.readStream.format("kafkaspec_bench_floor").option("path", str(base / "floor.bin"))
        if source == "floor-simple":
            reader = reader.option("simple", "1")
        reader = reader.load()  # type: ignore[assignment]
    append(-1)
    progress: list[dict] = []
    arrived = threading.Condition()

    class Listener(StreamingQueryListener):
        def onQueryStarted(self, event: Any) -> None:
            pass

        def onQueryProgress(self, event: Any) -> None:
            with arrived:
                progress.append(json.loads(event.progress.json))
                arrived.notify_all()

        def onQueryIdle(self, event: Any) -> None:
            pass

        def onQueryTerminated(self, event: Any) -> None:
            pass

    spark.streams.addListener(Listener())
    query = (
        reader.writeStream.format("memory")  # type: ignore[attr-defined]
        .queryName("bench_" + source.replace("-", "_"))
        .option("checkpointLocation", str(base / "checkpoint"))
        .trigger(processingTime=TRIGGER)
        .start()
    )

    def data_after(k: int) -> dict:
        deadline = time.monotonic() + 300
        with arrived:
            while True:
                hit = [p for p in progress[k:] if p["numInputRows"] > 0]
                if hit:
                    return hit[0]
                assert query.exception() is None, query.exception()
                assert time.monotonic() < deadline, "no micro-batch within 300 s"
                arrived.wait(0.5)

    me = os.getpid()
    try:
        data_after(0)
        for i in range(3):  # warm up: the workers import, the JVM compiles the micro-batch's path
            k = len(progress)
            append(i)
            data_after(k)
        time.sleep(1)
        c0, t0 = tree_cpu(me), time.monotonic()
        time.sleep(idle_s)
        idle_cpu, idle_wall = tree_cpu(me) - c0, time.monotonic() - t0
        latencies, durations = [], []
        c0, t0 = tree_cpu(me), time.monotonic()
        for i in range(appends):
            time.sleep(0.25 + (i * 0.037) % 0.1)  # spread over the trigger period
            k = len(progress)
            append(i)
            appended = time.time()
            p = data_after(k)
            start = datetime.fromisoformat(p["timestamp"].replace("Z", "+00:00")).timestamp()
            latencies.append(start + p["durationMs"]["triggerExecution"] / 1000 - appended)
            durations.append(p["durationMs"])
        busy_cpu, busy_wall = tree_cpu(me) - c0, time.monotonic() - t0
    finally:
        query.stop()
        spark.stop()
    idle_rate = idle_cpu / idle_wall
    return {
        "latencies": latencies,
        "durations": {k: statistics.median(d.get(k, 0) for d in durations) for k in durations[0]},
        "idle_cpu_per_s": idle_rate,
        # the appends' CPU less what the idle triggers between them would have cost anyway
        "cpu_per_data_trigger": max(0.0, busy_cpu - idle_rate * busy_wall) / appends,
        "load": os.getloadavg()[0],
    }


def ours_alone(root: Path, rounds: int) -> dict:
    """Our reader's own work for a trigger, in this process (no Spark): CPU seconds of ``latestOffset`` on an
    idle log, and of ``latestOffset`` + ``partitions`` + ``read`` after a one-record append."""
    from pyspark.sql.streaming.datasource import ReadAllAvailable

    from kafkaspec import Record, logdir
    from kafkaspec.spark.read.options import ReadOptions
    from kafkaspec.spark.stream.reader import KafkaLogStreamReader

    w = logdir.PartitionWriter(root / "alone", "lat", 0)
    w.append([Record(key=None, value=b"first", timestamp=0)])
    w.segment.fh.flush()
    reader = KafkaLogStreamReader(str(root / "alone"), ReadOptions.parse({}))
    offset = reader.initialOffset()
    idle, data = [], []
    for i in range(rounds):
        c0 = time.process_time()
        offset = reader.latestOffset(offset, ReadAllAvailable())
        idle.append(time.process_time() - c0)
        w.append([Record(key=None, value=b"v%d" % i, timestamp=i)])
        w.segment.fh.flush()
        c0 = time.process_time()
        end = reader.latestOffset(offset, ReadAllAvailable())
        n = sum(b.num_rows for p in reader.partitions(offset, end) for b in reader.read(p))
        data.append(time.process_time() - c0)
        assert n == 1, n
        offset = end
    w.close()
    return {"idle_s": statistics.median(idle), "data_s": statistics.median(data)}


def run(quick: bool = False) -> dict:
    appends = int(os.environ.get("BENCH_STREAM_APPENDS", "12" if quick else "40"))
    out: dict[str, Any] = {"appends": appends}
    with tempfile.TemporaryDirectory(prefix="kafkaspec-bench-stream-") as tmp:
        out["ours_alone"] = ours_alone(Path(tmp), 50)
        for source in SOURCES:
            root = Path(tmp) / source
            for attempt in range(3):  # a Python process Spark starts must call back within 10 s: a busy
                # machine can miss it (the query then fails with "Python worker failed to connect back")
                shutil.rmtree(root, ignore_errors=True)
                root.mkdir()
                child = subprocess.run(
                    [sys.executable, "-m", "bench.stream", "--child", source, str(root), str(appends), "5"],
                    capture_output=True,
                    text=True,
                    env=dict(os.environ, PYSPARK_PYTHON=sys.executable, PYTHONPATH=str(Path.cwd())),
                )
                if child.returncode == 0 or "failed to connect back" not in child.stderr or attempt == 2:
                    break
            if child.returncode != 0:
                raise RuntimeError(f"bench.stream {source}: {child.stderr[-2000:]}")
            out[source] = json.loads(child.stdout.strip().splitlines()[-1])
    return out


def _p99(values: list[float]) -> float:
    ranked = sorted(values)
    return ranked[min(len(ranked) - 1, int(0.99 * len(ranked)))]


def report(results: dict) -> str:
    lines = [
        f"Streaming: append -> row in a memory sink, local[2], processingTime {TRIGGER}, "
        f"{results['appends']} one-record appends per source",
        f"  {'source':<9} {'median s':>8} {'p99 s':>6} {'CPU s/data trigger':>19} {'idle CPU s/s':>12}  "
        "Spark's split of a data trigger (median ms)",
    ]
    for source in SOURCES:
        r = results[source]
        split = ", ".join(f"{k} {v:.0f}" for k, v in sorted(r["durations"].items()) if v)
        lines.append(
            f"  {source:<9} {statistics.median(r['latencies']):>8.2f} {_p99(r['latencies']):>6.2f} "
            f"{r['cpu_per_data_trigger']:>19.3f} {r['idle_cpu_per_s']:>12.3f}  {split}  (load {r['load']:.1f})"
        )
    a = results["ours_alone"]
    lines += [
        "  floor: a Python source that stats one file (what any Python streaming source pays per micro-batch)",
        f"  our reader alone, no Spark: idle latestOffset {a['idle_s'] * 1e3:.2f} ms CPU, a one-record "
        f"trigger (latestOffset + partitions + read) {a['data_s'] * 1e3:.2f} ms CPU",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        print(json.dumps(_child(argv[1], argv[2], int(argv[3]), float(argv[4]))))
        return 0
    print(report(run(bool(os.environ.get("BENCH_QUICK")))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

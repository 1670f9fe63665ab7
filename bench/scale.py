"""The pipeline at scale: ``kafkaspec pipeline`` against its one-process floor, from 20 MB to 5 GB, and on
inputs of many partitions or many segments.

Entry point: ``run(quick=False) -> dict`` and ``report(results) -> str`` (as in bench/v2.py); ``python -m
bench.scale`` runs it alone. Knobs: ``BENCH_QUICK=1`` (20 and 200 MB; 10,000 segments), ``BENCH_SCALE=5000``
(adds a 5,000 MB input), ``BENCH_SCALE_MASTER`` (default ``local[2]``), ``BENCH_SCALE_MANY=0`` (skips the
many-partitions inputs).

Data: ``kafkaspec synth`` directories (seed 7), cached in ``build/bench/`` (:func:`bench.logdir.dataset`).
For each size, in one run and in turn: the floor, one process doing ``open_log(SRC).to_arrow_batches()``
and writing every batch with one ``pyarrow.parquet.ParquetWriter`` (snappy, as the pipeline), no Spark;
then ``kafkaspec pipeline SRC OUT --master local[2]`` as a user runs it. Each runs as a child process
whose whole tree (driver, JVM, Python workers) is measured: wall time, CPU seconds (this process is made
the tree's subreaper, so the JVM and the workers are counted even when their parent has gone first),
peak resident memory of the driver, of the JVM and of the Python workers (summed, and the largest one),
sampled every 0.2 s from /proc by a thread, and the pipeline's stages from its ``summary.json``
(``stage_seconds``: Spark's start, planning, the tasks, commit, summary, stop). In the tasks stage, who
kept the cores busy (:func:`busy`): the pipeline's CPU and the rest of the machine's (``/proc/stat``), and
the Python workers' time on a core, ready without one (a loaded machine) and asleep (a core the pipeline
left idle), from their ``schedstat``. Once per run, a bare
Spark session (the pipeline's settings) with one trivial job: Spark's own fixed cost.

Many partitions: 2,000 partitions of one segment each, and 100,000 segments of one batch in one
partition (10,000 with ``BENCH_QUICK``): planning alone in this process (the pipeline's options), and the
pipeline on them (its tasks, and the time per task outside the tasks' own work).

The results go into ``docs/performance.md`` (between the ``bench.scale`` markers) and the plot into
``docs/img/pipeline-scale.png``.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.logdir import ROOT, dataset
from bench.proc_tree import TICK, processes

SIZES = (20, 200, 1000)
QUICK_SIZES = (20, 200)
DOCS = ROOT / "docs" / "performance.md"
PLOT = ROOT / "docs" / "img" / "pipeline-scale.png"
BEGIN, END = "<!-- bench.scale: begin -->", "<!-- bench.scale: end -->"
MANY_PARTITIONS = 2000
MANY_SEGMENTS, QUICK_SEGMENTS = 100_000, 10_000
STAGES = ("start", "planning", "tasks", "commit", "summary", "stop")  # summary.json's stage_seconds, in order


# -- the process tree --------------------------------------------------------------------------------


class TreeSampler(threading.Thread):
    """Peak resident memory of ``root``'s tree by kind, sampled: ``driver`` (``root`` itself), ``jvm``
    (java), ``workers`` (the other Python processes: Spark's daemon and its workers; summed, and
    ``worker_max`` the largest one), and ``cpu`` by kind (each process's last sampled CPU seconds)."""

    def __init__(self, root: int, interval: float = 0.2, t0: float | None = None) -> None:
        super().__init__(daemon=True)
        self.root, self.interval = root, interval
        self.t0 = time.perf_counter() if t0 is None else t0
        self.peak = {"driver": 0, "jvm": 0, "workers": 0, "worker_max": 0}
        self.cpu: dict[int, tuple[str, float]] = {}
        #: per sample: seconds since ``t0``, the machine's busy CPU seconds, the tree's, and each Python
        #: worker's (on-CPU, run-queue wait) seconds: what :func:`busy` reads a stage's share of the cores from
        self.series: list[tuple[float, float, float, dict[int, tuple[float, float]]]] = []
        self.done = threading.Event()

    def sample(self) -> None:
        procs = processes()
        children: dict[int, list[int]] = {}
        for pid, proc in procs.items():
            children.setdefault(proc.parent, []).append(pid)
        rss = {"driver": 0, "jvm": 0, "workers": 0, "worker_max": 0}
        # the tree's orphans come to this process (the subreaper): its children are all the tree's
        stack = [self.root, *children.get(os.getpid(), [])]
        seen = set()
        while stack:
            pid = stack.pop()
            if pid in seen:
                continue
            seen.add(pid)
            stack.extend(children.get(pid, []))
            if pid not in procs:
                continue
            name, cpu, size = procs[pid].name, procs[pid].cpu, procs[pid].rss
            kind = (
                "driver"
                if pid == self.root
                else "jvm"
                if name == "java"
                else "workers"
                if name.startswith("python")
                else "other"
            )
            self.cpu[pid] = (kind, cpu)
            if kind == "other":
                continue
            rss[kind] += size
            if kind == "workers":
                rss["worker_max"] = max(rss["worker_max"], size)
        for k, v in rss.items():
            self.peak[k] = max(self.peak[k], v)
        workers = {}  # the Python workers: the children of Spark's daemon, itself the JVM's child
        for pid in seen:
            parent = procs[pid].parent if pid in procs else 0
            daemon = procs.get(parent)
            if (
                daemon is None
                or not daemon.name.startswith("python")
                or not procs[pid].name.startswith("python")
            ):
                continue
            if daemon.parent in procs and procs[daemon.parent].name == "java" and (w := _sched(pid)):
                workers[pid] = w
        tree = sum(cpu for _, cpu in self.cpu.values())
        self.series.append((time.perf_counter() - self.t0, _machine_busy(), tree, workers))

    def run(self) -> None:
        while not self.done.is_set():
            self.sample()
            self.done.wait(self.interval)

    def cpu_by_kind(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for kind, cpu in self.cpu.values():
            out[kind] = out.get(kind, 0.0) + cpu
        return out


def _machine_busy() -> float:
    """CPU seconds the whole machine has been busy since boot (``/proc/stat``: all but idle and iowait)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:9]]
    return (sum(fields) - fields[3] - fields[4]) / TICK


def _sched(pid: int) -> tuple[float, float] | None:
    """A process's (main thread's) seconds on a CPU and waiting on the run queue for one (schedstat)."""
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            on_cpu, waited, _ = f.read().split()
    except (OSError, ValueError):
        return None
    return int(on_cpu) / 1e9, int(waited) / 1e9


def busy(series: list[Any], start: float, end: float, cores: int) -> dict[str, float]:
    """Who kept the cores busy between ``start`` and ``end`` (seconds since the run's start), from a
    :class:`TreeSampler`'s series: ``ours`` (the tree's CPU seconds) and ``others`` (the rest of the
    machine's), each also as a fraction of ``cores`` x the span; ``waited``: the Python workers' seconds
    on the run queue (ready, with no core free: a shared machine's load); ``asleep``: the rest of the
    ``cores`` task slots' time, when no worker wanted a core (waiting for the JVM, the disk, the next
    task, or no task left to run)."""
    inside = [s for s in series if start <= s[0] <= end]
    if len(inside) < 2:
        return {}
    a, b = inside[0], inside[-1]
    span = b[0] - a[0]
    ours, machine = b[2] - a[2], b[1] - a[1]
    first: dict[int, tuple[float, float]] = {}
    last: dict[int, tuple[float, float]] = {}
    for s in inside:  # a worker's counters from its first sample in the span to its last
        for pid, v in s[3].items():
            first.setdefault(pid, v)
            last[pid] = v
    on_cpu = sum(last[pid][0] - first[pid][0] for pid in last)
    waited = sum(last[pid][1] - first[pid][1] for pid in last)
    others = max(machine - ours, 0.0)
    return {
        "span": span,
        "ours": ours,
        "others": others,
        "ours_fraction": ours / (cores * span),
        "others_fraction": others / (cores * span),
        "workers_on_cpu": on_cpu,
        "waited": waited,
        "asleep": max(cores * span - on_cpu - waited, 0.0),
    }


def _subreaper() -> None:
    """Make this process the subreaper of its descendants (Linux): a JVM or worker whose parent ended
    first is then reparented here and waited for by :func:`measured`, so its CPU time is counted."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER


def measured(argv: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run ``argv`` as a child; its wall seconds, the CPU seconds of its whole tree, peaks and stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    child = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env or dict(os.environ)
    )
    sampler = TreeSampler(child.pid, t0=t0)
    sampler.start()
    out, err = child.communicate()
    wall = time.perf_counter() - t0
    sampler.done.set()
    sampler.join()
    while True:  # the tree's orphans, reparented to this process
        try:
            os.wait()
        except ChildProcessError:
            break
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if child.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(argv)} exited {child.returncode}: {err.strip()[-2000:]}")
    # what the waits counted, or what was sampled (Spark's daemon lets its workers go unwaited: their
    # CPU time reaches no rusage then; sampling misses each process's last 0.2 s at most)
    sampled = sum(sampler.cpu_by_kind().values())
    cpu = max((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), sampled)
    return {
        "wall": wall,
        "cpu": cpu,
        "cpu_by_kind": sampler.cpu_by_kind(),
        "peak": sampler.peak,
        "series": sampler.series,
        "stdout": out,
    }


# -- the runs -----------------------------------------------------------------------------------------


def floor(src: str, out: str) -> dict[str, int]:
    """The floor, in this process: every batch of ``to_arrow_batches`` into one Parquet file."""
    import pyarrow.parquet as pq

    from kafkaspec.logdir import open_log

    rows = 0
    writer = None
    for rb in open_log(src).to_arrow_batches():
        if writer is None:
            writer = pq.ParquetWriter(out, rb.schema, compression="snappy")
        writer.write_batch(rb)
        rows += rb.num_rows
    if writer is not None:
        writer.close()
    return {"records": rows}


def _imported_then(x: int) -> int:
    import pyarrow as pa

    import kafkaspec.spark.run.onepass  # noqa: F401  (what a pipeline task imports)

    return pa.array([x]).to_pylist()[0]


def bare(master: str, arrow: bool = False) -> dict[str, float]:
    """Spark's own fixed cost, in this process: the pipeline's session, one trivial job, stop. ``arrow``:
    the job's tasks import the pipeline's task code (:mod:`kafkaspec.spark.run.onepass`: pyarrow and its
    Parquet writer, numpy, kafkaspec's engine) and make one Arrow array (which imports pandas when it is
    present), as the pipeline's workers do before their first range: what such a job costs doing nothing."""
    from kafkaspec.spark.session import quiet_session

    t0 = time.perf_counter()
    with tempfile.NamedTemporaryFile(suffix=".log") as log:
        spark = quiet_session(master, log.name, memory="1g")
        t1 = time.perf_counter()
        task = (lambda x: _imported_then(x)) if arrow else (lambda x: x)
        spark.sparkContext.parallelize(range(2), 2).map(task).collect()
        t2 = time.perf_counter()
        spark.stop()
    return {"start": t1 - t0, "job": t2 - t1, "stop": time.perf_counter() - t2}


def _input_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*.log"))


def _pipeline(src: Path, work: Path, master: str) -> dict[str, Any]:
    out = work / "pipeline-out"
    shutil.rmtree(out, ignore_errors=True)
    m = measured(
        [sys.executable, "-m", "kafkaspec", "pipeline", str(src), str(out), "--master", master, "--quiet"],
        env=dict(os.environ, PYSPARK_PYTHON=sys.executable),
    )
    summary = json.loads((out / "summary.json").read_text())
    shutil.rmtree(out, ignore_errors=True)
    m.pop("stdout")
    m["records"] = summary["records"]
    m["stages"] = stages = {k: summary["stage_seconds"][k] for k in STAGES if k in summary["stage_seconds"]}
    m["task_seconds"] = summary["task_seconds"]
    # the tasks stage's span, counted back from the end (the child's own clock starts after its imports)
    end = m["wall"] - sum(stages.get(k, 0.0) for k in ("commit", "summary", "stop"))
    m["tasks_busy"] = busy(m.pop("series"), end - stages.get("tasks", 0.0), end, _cores(master))
    return m


def _floor(src: Path, work: Path) -> dict[str, Any]:
    out = work / "floor.parquet"
    m = measured([sys.executable, "-m", "bench.scale", "--floor", str(src), str(out)])
    m.pop("series")
    out.unlink(missing_ok=True)
    m["records"] = json.loads(m.pop("stdout").strip().splitlines()[-1])["records"]
    return m


def many_dataset(kind: str, count: int) -> Path:
    """``partitions``: ``count`` partitions of one segment (20 standard batches each); ``segments``: one
    partition of ``count`` segments of one batch each. Made once, cached in ``build/bench/``."""
    from bench.spark import N, standard_batch
    from kafkaspec.logdir import PartitionWriter
    from kafkaspec.logdir.kafka.batch_surgery import restamp_batch

    root = ROOT / "build" / "bench" / f"scale-{count}-{kind}"  # not "<name>-<number>": a partition's name
    marker = root / ".complete"
    if marker.exists():
        return root
    shutil.rmtree(root, ignore_errors=True)
    print(f"bench.scale: writing {count:,} {kind} to {root} ...", file=sys.stderr)
    one = standard_batch()
    if kind == "partitions":
        for p in range(count):
            with PartitionWriter(root, "many", p) as w:
                for i in range(20):
                    w.append_batch(restamp_batch(bytearray(one), base_offset=i * N))
    else:
        with PartitionWriter(root, "long", 0, segment_bytes=len(one)) as w:
            for i in range(count):
                w.append_batch(restamp_batch(bytearray(one), base_offset=i * N))
    marker.write_text("ok\n")
    return root


def _planning(src: Path) -> dict[str, float]:
    from kafkaspec.spark.read.options import ReadOptions
    from kafkaspec.spark.read.planning import plan

    opts = ReadOptions.parse({"view": "batches", "isolationLevel": "read_committed"})
    t0, c0 = time.perf_counter(), time.process_time()
    tasks = plan(str(src), opts)
    return {"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0, "ranges": len(tasks)}


def _cores(master: str) -> int:
    return int(master[master.index("[") + 1 : -1]) if master.startswith("local[") else os.cpu_count() or 1


def run(quick: bool = False) -> dict[str, Any]:
    _subreaper()
    master = os.environ.get("BENCH_SCALE_MASTER", "local[2]")
    cores = _cores(master)
    sizes = list(QUICK_SIZES if quick else SIZES)
    if os.environ.get("BENCH_SCALE"):
        sizes.append(int(os.environ["BENCH_SCALE"]))
    result: dict[str, Any] = {
        "master": master,
        "cores": cores,
        "quick": quick,
        "load": os.getloadavg(),
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "sizes": [],
    }
    work = Path(tempfile.mkdtemp(prefix="kafkaspec-bench-scale-"))
    try:
        m = measured([sys.executable, "-m", "bench.scale", "--bare", master])
        m.pop("series")
        result["bare"] = {**json.loads(m.pop("stdout").strip().splitlines()[-1]), **m}
        m = measured([sys.executable, "-m", "bench.scale", "--bare-arrow", master])
        m.pop("series")
        result["bare_arrow"] = {**json.loads(m.pop("stdout").strip().splitlines()[-1]), **m}
        for i, size in enumerate(sizes):
            src = dataset(size)
            row: dict[str, Any] = {"size_mb": size, "bytes": _input_bytes(src)}
            # the order alternates from size to size, so that a drift in the machine's load hits both
            for name in ("floor", "pipeline") if i % 2 == 0 else ("pipeline", "floor"):
                row[name] = _floor(src, work) if name == "floor" else _pipeline(src, work, master)
            result["sizes"].append(row)
            print(f"bench.scale: {size} MB done", file=sys.stderr, flush=True)
        if os.environ.get("BENCH_SCALE_MANY", "1") != "0":
            result["many"] = []
            for kind, count in (
                ("partitions", MANY_PARTITIONS),
                ("segments", QUICK_SEGMENTS if quick else MANY_SEGMENTS),
            ):
                src = many_dataset(kind, count)
                p = _pipeline(src, work, master)
                result["many"].append(
                    {
                        "kind": kind,
                        "count": count,
                        "bytes": _input_bytes(src),
                        "plan": _planning(src),
                        "pipeline": p,
                    }
                )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    result["load_after"] = os.getloadavg()
    _write_docs(result)
    return result


# -- the report -----------------------------------------------------------------------------------------


def _mb(x: float) -> str:
    return f"{x / 1e6:,.0f}"


def _rows(results: dict[str, Any]) -> list[str]:
    cores = results["cores"]
    lines = [
        "| input | run | records | wall s | CPU s | MB/s per core | MB per CPU s | records/s per core "
        "| peak MB: driver / JVM / workers (largest) | stages, s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in results["sizes"]:
        mb = row["bytes"] / 1e6
        for name in ("floor", "pipeline"):
            r = row[name]
            k = 1 if name == "floor" else cores
            peak = r["peak"]
            stages = (
                " / ".join(f"{s} {v:.1f}" for s, v in r["stages"].items())
                + " (tasks' core-s: "
                + ", ".join(f"{s} {v:.1f}" for s, v in r["task_seconds"].items())
                + ")"
                if name == "pipeline"
                else "read+decode+write (one loop)"
            )
            lines.append(
                f"| {mb:,.0f} MB | {name} | {r['records']:,} | {r['wall']:.1f} | {r['cpu']:.1f} "
                f"| {mb / r['wall'] / k:.1f} | {mb / r['cpu']:.1f} | {r['records'] / r['wall'] / k:,.0f} "
                f"| {_mb(peak['driver'])} / {_mb(peak['jvm'])} / {_mb(peak['workers'])} ({_mb(peak['worker_max'])}) "
                f"| {stages} |"
            )
    return lines


def _marginal(results: dict[str, Any]) -> list[str]:
    """Time per extra MB between consecutive sizes: core-seconds (wall x cores) and CPU seconds."""
    cores, out = results["cores"], []
    sizes = results["sizes"]
    for a, b in zip(sizes, sizes[1:], strict=False):
        dmb = (b["bytes"] - a["bytes"]) / 1e6
        f_wall = (b["floor"]["wall"] - a["floor"]["wall"]) / dmb
        p_wall = (b["pipeline"]["wall"] - a["pipeline"]["wall"]) * cores / dmb
        f_cpu = (b["floor"]["cpu"] - a["floor"]["cpu"]) / dmb
        p_cpu = (b["pipeline"]["cpu"] - a["pipeline"]["cpu"]) / dmb
        out.append(
            f"{a['bytes'] / 1e6:,.0f} -> {b['bytes'] / 1e6:,.0f} MB: per extra MB the floor {f_wall * 1e3:.1f} ms, "
            f"the pipeline {p_wall * 1e3:.1f} core-ms ({1 / p_wall:.1f} MB/s per core = {f_wall / p_wall:.0%} of "
            f"the floor's {1 / f_wall:.1f}); CPU {f_cpu * 1e3:.1f} / {p_cpu * 1e3:.1f} ms per MB "
            f"(pipeline/floor {p_cpu / f_cpu:.2f}x)"
        )
    return out


def _busy_lines(results: dict[str, Any]) -> list[str]:
    """Per size, who kept the cores busy in the pipeline's tasks stage (:func:`busy`): a core left idle by
    the pipeline (its workers asleep) is told apart from one the machine's other processes held."""
    out = []
    for row in results["sizes"]:
        b = row["pipeline"].get("tasks_busy")
        if not b:
            continue
        out.append(
            f"{row['bytes'] / 1e6:,.0f} MB, the tasks stage ({b['span']:.1f} s sampled): the pipeline's CPU "
            f"{b['ours']:.1f} s = {b['ours_fraction']:.0%} of {results['cores']} cores, other processes' "
            f"{b['others']:.1f} s ({b['others_fraction']:.0%}); the Python workers {b['workers_on_cpu']:.1f} s "
            f"on a core, {b['waited']:.1f} s ready without one, {b['asleep']:.1f} s asleep (the JVM, the "
            "next task, the disk)"
        )
    return out


def report(results: dict[str, Any]) -> str:
    b = results["bare"]
    load = ", ".join(f"{x:.1f}" for x in results["load"])
    lines = [
        f"The pipeline at scale ({results['master']}, {results['date']}, load average {load} at the start, "
        f"{results['load_after'][0]:.1f} at the end; quick={results['quick']})",
        "",
        *_rows(results),
        "",
        *_marginal(results),
        *_busy_lines(results),
        f"Spark's own fixed cost (a bare session with the pipeline's settings, one trivial job, stop): "
        f"{b['wall']:.1f} s wall, {b['cpu']:.1f} CPU s (start {b['start']:.1f}, job {b['job']:.1f}, "
        f"stop {b['stop']:.1f}); peak MB driver / JVM {_mb(b['peak']['driver'])} / {_mb(b['peak']['jvm'])}",
    ]
    if "bare_arrow" in results:
        a = results["bare_arrow"]
        lines.append(
            f"The same with the pipeline's task code imported by the job's Python workers (kafkaspec's engine, "
            f"pyarrow, its Parquet writer) and one Arrow array made: {a['wall']:.1f} s wall, {a['cpu']:.1f} CPU s (start {a['start']:.1f}, "
            f"job {a['job']:.1f}, stop {a['stop']:.1f})"
        )
    for m in results.get("many", []):
        p, pl = m["pipeline"], m["plan"]
        tasks_core_s = p["stages"].get("tasks", 0.0) * results["cores"]
        own = sum(p["task_seconds"].values())
        lines.append(
            f"{m['count']:,} {m['kind']} ({m['bytes'] / 1e6:,.0f} MB): planning {pl['wall']:.1f} s wall, "
            f"{pl['cpu']:.1f} CPU s, {pl['ranges']:,} ranges; pipeline {p['wall']:.1f} s wall, {p['cpu']:.1f} CPU s, "
            f"stages "
            + " / ".join(f"{s} {v:.1f}" for s, v in p["stages"].items())
            + f"; outside the tasks' own work {(tasks_core_s - own) / max(pl['ranges'], 1) * 1e3:.1f} core-ms "
            f"per range"
        )
    return "\n".join(lines)


def _plot(results: dict[str, Any]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = results["sizes"]
    mb = [r["bytes"] / 1e6 for r in sizes]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for name, style in (("floor", "o-"), ("pipeline", "s-")):
        left.plot(mb, [r[name]["wall"] for r in sizes], style, label=f"{name}, wall")
        left.plot(mb, [r[name]["cpu"] for r in sizes], style[0] + "--", alpha=0.5, label=f"{name}, CPU")
    left.set_xlabel("input MB")
    left.set_ylabel("seconds")
    left.set_title(f"pipeline ({results['master']}) vs one-process floor")
    left.legend()
    for kind, label in (("driver", "driver"), ("jvm", "JVM"), ("workers", "Python workers (sum)")):
        right.plot(mb, [r["pipeline"]["peak"][kind] / 1e6 for r in sizes], "o-", label=label)
    right.plot(mb, [r["floor"]["peak"]["driver"] / 1e6 for r in sizes], "s--", label="floor")
    right.set_xlabel("input MB")
    right.set_ylabel("peak resident MB")
    right.set_title("peak memory")
    right.legend()
    for ax in (left, right):
        ax.set_xscale("log")
        ax.set_xticks(mb, [f"{x:,.0f}" for x in mb])
        ax.minorticks_off()
        ax.grid(True, alpha=0.3)
    load = results["load"][0]
    fig.suptitle(f"bench.scale {results['date']}, load {load:.1f}, quick={results['quick']}", fontsize=9)
    fig.tight_layout()
    PLOT.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(PLOT, dpi=80)
    plt.close(fig)


def _write_docs(results: dict[str, Any]) -> None:
    """The table between the markers of docs/performance.md, and the plot beside it."""
    _plot(results)
    text = DOCS.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        return
    body = report(results).split("\n")
    lines = [x if not x or x.startswith("|") else f"- {x}" for x in body[2:]]  # the figures as a list
    image = f"![the pipeline at scale]({PLOT.relative_to(DOCS.parent)})"
    block = "\n".join([BEGIN, "", body[0], "", *lines, "", image, "", END])
    head, rest = text.split(BEGIN, 1)
    DOCS.write_text(head + block + rest.split(END, 1)[1], encoding="utf-8")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--floor"]:
        print(json.dumps(floor(argv[1], argv[2])))
        return 0
    if argv[:1] in (["--bare"], ["--bare-arrow"]):
        print(json.dumps(bare(argv[1], arrow=argv[0] == "--bare-arrow")))
        return 0
    print(report(run(bool(os.environ.get("BENCH_QUICK")))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

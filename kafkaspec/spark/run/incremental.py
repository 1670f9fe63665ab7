"""``kafkaspec pipeline SRC OUT --incremental`` (and ``--follow``): append only what is new since the last run.
One module because the lock, the commit (staging, manifest, moves) and its recovery are one crash-safety case.

The job is a streaming query (:mod:`kafkaspec.spark.stream.reader`) whose micro-batches are published to
``OUT/records/`` (the ``kafkalog`` columns, partitioned by topic and partition) by
:func:`_write_batch`; ``OUT/_checkpoint/`` is the query's checkpoint, which records the offsets
read per topic-partition (the Kafka source's JSON), and ``OUT/summary.json`` says them too, with
the records this run appended. ``--incremental`` runs once over what is there now
(``trigger(availableNow=True)``) and stops; ``--follow`` keeps running, one micro-batch every
``--interval`` (``trigger(processingTime=...)``), until it is interrupted (Ctrl-C or SIGTERM),
and then stops cleanly. The next run, of either kind, starts where the checkpoint ends: an
hourly job over a synced backup reads the new data only, and a run killed half way is
finished by the next one.

Each offset reaches ``records/`` once, for every reader, not only Spark's: a micro-batch is written
to ``OUT/_staging/batch-<id>-<token>/`` (no reader looks there: its name starts with ``_``), its
files are listed in ``OUT/_published/<id>.json`` (written whole, by a rename: that is the commit),
and then each is moved into ``records/`` by a rename. A run killed before the list leaves only a
staging dir, which the next run removes; one killed after it has its moves finished by the next run
(before its query starts) and its micro-batch, which Spark replays with the same offsets, is not written
again. So ``records/`` never holds an offset twice nor a partial file; between a kill during the
moves and the next run it may lack some files of the micro-batch that was being moved. One run at a
time: OUT is locked (``flock``, released by the kernel when the process dies, so a killed run leaves
no stale lock), and a second run refuses before Spark starts. An OUT written by Spark's file sink
(``records/_spark_metadata/``) is adopted on the next run: files that its log does not
list (left by killed runs) are removed, then the log.

The batch audit (``OUT/batches/``) is the full pipeline's: an incremental OUT has none.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from ...errors import DataLossError, UsageError
from ...logdir.store import staging as locking  # its lock and its fsyncs

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.streaming import StreamingQuery

CHECKPOINT = "_checkpoint"
#: a micro-batch's files while they are written: ``_staging/batch-<id>-<token>/``
STAGING = "_staging"
#: the commit of a micro-batch to ``records/``: ``_published/<id>.json`` lists its files
PUBLISHED = "_published"
_STAGED = re.compile(r"batch-([0-9]+)-[0-9a-f]{12}")
#: a published list larger than this is no list of ours (one micro-batch's files' names take far less)
MAX_MANIFEST_BYTES = 16 << 20
#: the largest file of Spark's file sink log read when an OUT it wrote is adopted (a compacted one lists
#: every file the sink wrote)
MAX_SINK_LOG_BYTES = 1 << 30
_MANIFEST = re.compile(r"(0|[1-9][0-9]*)\.json")


class NotIncrementalError(UsageError):
    """OUT holds a full pipeline run, which has no checkpoint to continue from."""


class OutputBusyError(FileExistsError):
    """Another pipeline run holds OUT's lock."""


class OutputLock:
    """OUT locked for one run (created if missing): the ``flock`` of ``kafkaspec rewrite``
    (:class:`kafkaspec.logdir.store.staging.Lock`), which the kernel releases when the process ends, killed or
    not, so a stale lock never blocks. Taken before Spark starts, so a second run refuses at once."""

    def __init__(self, output: str):
        self.path = Path(output)
        self._created = not self.path.exists()
        self.path.mkdir(parents=True, exist_ok=True)
        try:
            self._lock = locking.Lock(self.path)
        except FileExistsError:
            raise OutputBusyError(
                f"{output}: another kafkaspec pipeline run is writing it (it holds the folder's "
                "lock); wait for it to end, or stop it"
            ) from None

    def release(self) -> None:
        """Unlock OUT; remove it if this run created it and wrote nothing (Spark did not start, say)."""
        if self._created:
            with contextlib.suppress(OSError):
                self.path.rmdir()
        self._lock.release()

    def __enter__(self) -> OutputLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


@dataclass
class IncrementalSummary:
    input: str
    output: str
    mode: str  # incremental | follow
    isolation_level: str = "read_committed"
    records: int = 0  # appended to OUT/records by this run
    micro_batches: int = 0  # this run's micro-batches that read something
    offsets: dict = field(default_factory=dict)  # the next offset per topic-partition: {"orders": {"0": 23}}
    seconds: float = 0.0
    #: uncommitted files found in records/ and removed (left by killed runs of Spark's file sink, which wrote OUTs before)
    removed_files: int = 0


def check_output(output: str) -> None:
    """Refuse (before Spark starts) an OUT that a full pipeline run wrote: it has no offsets to continue from."""
    out = Path(output)
    if (out / "records").exists() and not (out / CHECKPOINT).exists():
        raise NotIncrementalError(
            f"{output} holds a full pipeline run (no {CHECKPOINT}/ to continue from): give "
            "--incremental a new output folder, or run without --incremental to replace it"
        )


def run_incremental(
    spark: SparkSession,
    input_path: str,
    output: str,
    *,
    isolation_level: str = "read_committed",
    on_corruption: str = "skip",
    verify_crc: bool = True,
    split_size: str = "64m",
    follow: str | None = None,
    private_key_dir: str | None = None,
    lock: OutputLock | None = None,
    topics: str | None = None,
    fail_on_data_loss: bool = True,
) -> IncrementalSummary:
    """Append to ``output`` what ``input_path`` has beyond the checkpoint; ``follow``: a trigger interval
    (``"10 seconds"``) to keep going until interrupted; ``private_key_dir``: as for
    :func:`~.pipeline.run_pipeline`; ``lock``: OUT's lock, when the caller took it (before starting
    Spark); otherwise it is taken here; ``topics``: a ``subscribePattern`` (``pipeline --topics``);
    ``fail_on_data_loss``: the source's ``failOnDataLoss`` (``pipeline --no-fail-on-data-loss``: offsets
    deleted before the run read them are passed over, with a warning, instead of failing it). Returns the
    summary, also written to summary.json."""
    check_output(output)
    if lock is None:
        with OutputLock(output) as own:
            return run_incremental(
                spark,
                input_path,
                output,
                isolation_level=isolation_level,
                on_corruption=on_corruption,
                verify_crc=verify_crc,
                split_size=split_size,
                follow=follow,
                private_key_dir=private_key_dir,
                lock=own,
                topics=topics,
                fail_on_data_loss=fail_on_data_loss,
            )
    out = Path(output)
    removed = recover(out)
    summary = IncrementalSummary(
        str(input_path), str(out), "follow" if follow else "incremental", isolation_level
    )
    started = time.perf_counter()
    stream = (
        spark.readStream.format("kafkalog")
        .option("isolationLevel", isolation_level)
        .option("corruptionPolicy", on_corruption)
        .option("verifyCrc", str(verify_crc).lower())
        .option("splitSize", split_size)
        .option("failOnDataLoss", str(fail_on_data_loss).lower())
        .options(**({"tieredPrivateKeyDir": private_key_dir} if private_key_dir is not None else {}))
        .options(**({"subscribePattern": topics} if topics is not None else {}))
        .load(str(input_path))
    )
    writer = stream.writeStream.foreachBatch(lambda df, batch_id: _write_batch(out, df, batch_id)).option(
        "checkpointLocation", str(out / CHECKPOINT)
    )
    writer = writer.trigger(processingTime=follow) if follow else writer.trigger(availableNow=True)
    query = writer.start()
    try:
        if follow:
            _until_interrupted(query)
        else:
            query.awaitTermination()
    except Exception as failed:
        lost = _data_loss(failed)
        if lost is None:
            raise
        raise lost from None
    finally:
        if query.isActive:
            query.stop()
        recover(out)  # a micro-batch stopped during its moves (SIGTERM) is finished now
    exc = query.exception()
    if exc is not None:
        lost = _data_loss(exc)
        if lost is not None:
            raise lost
        raise RuntimeError(f"the incremental pipeline failed: {exc.desc if hasattr(exc, 'desc') else exc}")
    _progress(summary, query, out)
    summary.removed_files = removed
    summary.seconds = time.perf_counter() - started
    write_json(out / "summary.json", asdict(summary))
    return summary


_DATA_LOSS = re.compile(r"kafkaspec\.errors\.DataLossError: ([^\n]*)")


def _data_loss(failed: BaseException) -> DataLossError | None:
    """The source's DataLossError (``failOnDataLoss``: offsets retention deleted before the query read them,
    a log that went back) in the query's failure, which Spark reports as its own, our traceback in its
    text: raised as ours, so that the command line says it in one line (exit 1), as a table run its gap."""
    found = _DATA_LOSS.search(str(failed))
    if found is None:
        return None
    return DataLossError(
        found.group(1).replace(
            "set failOnDataLoss to false", "run again with --no-fail-on-data-loss (failOnDataLoss=false)"
        )
    )


def write_json(path: Path, value: Any) -> None:
    """Write ``path`` whole or not at all (a temporary file beside it, flushed, then renamed over it):
    a run killed while writing leaves the previous version."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(value, indent=2, sort_keys=True) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    locking.sync(path.parent)


#: one publisher at a time in this process: a micro-batch that Spark's stop left moving its files on
#: the callback's thread, and :func:`recover` at the end of the run
_publishing = threading.Lock()


def _write_batch(out: Path, df: DataFrame, batch_id: int) -> None:
    """The sink (``foreachBatch``): write the micro-batch to a staging dir, list its files in
    ``_published/<id>.json`` (the commit), move them into ``records/``. A micro-batch that Spark replays
    (killed before its checkpoint's commit) and that was published already is finished, not written again:
    Spark replays a micro-batch with the offsets its checkpoint logged, which the list records and checks."""
    offsets = _logged_offsets(out / CHECKPOINT, batch_id)
    with _publishing:
        manifest = _read_manifest(out / PUBLISHED / f"{batch_id}.json")
        if manifest is not None:
            if manifest["offsets"] is not None and manifest["offsets"] != offsets:
                raise RuntimeError(
                    f"{out / PUBLISHED / f'{batch_id}.json'}: micro-batch {batch_id} was published "
                    f"for other offsets than {out / CHECKPOINT} logs for it ({manifest['offsets']} "
                    f"vs {offsets}); was {CHECKPOINT}/ replaced?"
                )
            _publish(out, manifest)
            return
    staged = out / STAGING / f"batch-{batch_id}-{secrets.token_hex(6)}"
    df.write.partitionBy("topic", "partition").parquet(str(staged))
    files = sorted(p.relative_to(staged).as_posix() for p in staged.rglob("*.parquet"))
    locking.sync_tree(staged)
    with _publishing:
        (out / PUBLISHED).mkdir(exist_ok=True)
        manifest = {"batch": batch_id, "offsets": offsets, "staging": staged.name, "files": files}
        write_json(out / PUBLISHED / f"{batch_id}.json", manifest)
        _publish(out, manifest)
        for older in _manifests(out):  # Spark runs micro-batch N once N - 1 is committed in its checkpoint
            if older < batch_id:
                (out / PUBLISHED / f"{older}.json").unlink()


def recover(out: Path) -> int:
    """Before and after a run (OUT locked): finish the moves of every published micro-batch, drop the
    lists of those the checkpoint has committed, remove the staging dirs no list names (micro-batches
    a killed run did not get to publish) and adopt an OUT that Spark's file sink wrote. Returns the
    number of files removed from ``records/`` (uncommitted files a file sink's killed run left)."""
    removed = _adopt_file_sink(out)
    with _publishing:
        committed = _last_commit(out / CHECKPOINT)
        named = set()
        for batch_id in _manifests(out):
            path = out / PUBLISHED / f"{batch_id}.json"
            manifest = _read_manifest(path)
            assert manifest is not None
            _publish(out, manifest)
            if committed is not None and batch_id <= committed:
                path.unlink()
            elif manifest["staging"] is not None:
                named.add(manifest["staging"])
        if (out / STAGING).is_dir():
            for p in (out / STAGING).iterdir():
                if _STAGED.fullmatch(p.name) and p.name not in named and not p.is_symlink():
                    # a killed run's JVM may still be ending: what it writes meanwhile goes with the next run
                    shutil.rmtree(p, ignore_errors=True)
        if (out / PUBLISHED).is_dir():
            for p in (out / PUBLISHED).glob(".*.tmp"):
                p.unlink()
    return removed


def _publish(out: Path, manifest: dict) -> None:
    """Move a published micro-batch's files from its staging dir into ``records/``, those not moved yet
    (each by one rename: it is in one place or the other), then remove the staging dir."""
    staged = out / STAGING / manifest["staging"] if manifest["staging"] is not None else None
    records = out / "records"
    parents = set()
    for rel in manifest["files"]:
        target = records / rel
        source = staged / rel if staged is not None else None
        if source is not None and source.is_file():
            if target.exists() or target.is_symlink():
                raise FileExistsError(
                    f"{target} exists: micro-batch {manifest['batch']} cannot publish its file "
                    "of that name (from another run?)"
                )
            target.parent.mkdir(parents=True, exist_ok=True)
            os.rename(source, target)
            parents.add(target.parent)
        elif not target.is_file():
            raise FileNotFoundError(
                f"{out / PUBLISHED}/{manifest['batch']}.json lists {rel}, which is neither "
                f"staged nor in {records}: the output was changed by hand"
            )
    for parent in parents:
        locking.sync(parent)
    if staged is not None and staged.is_dir():
        shutil.rmtree(staged)


def _read_manifest(path: Path) -> dict | None:
    """A published micro-batch's list, or None when there is none. One that this module did not write
    (names outside its staging dir or ``records/``) is refused, naming it."""
    try:
        data = _read_small(path, MAX_MANIFEST_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ValueError(f"{path}: not a published micro-batch's list: {exc.strerror or exc}") from None
    try:
        manifest = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as exc:
        raise ValueError(
            f"{path}: not a published micro-batch's list: "
            f"{'nested too deep' if isinstance(exc, RecursionError) else exc}"
        ) from None
    name = _MANIFEST.fullmatch(path.name)
    ok = (
        isinstance(manifest, dict)
        and type(manifest.get("batch")) is int
        and (name is None or manifest["batch"] == int(name[1]))
        and isinstance(manifest.get("files"), list)
        and "offsets" in manifest
        and (
            manifest.get("staging") is None
            or (isinstance(manifest["staging"], str) and _STAGED.fullmatch(manifest["staging"]) is not None)
        )
        and all(
            isinstance(f, str)
            and f.endswith(".parquet")
            and not f.startswith("/")
            and ".." not in f.split("/")
            for f in manifest["files"]
        )
    )
    if not ok:
        raise ValueError(f"{path}: not a published micro-batch's list (written by hand?)")
    return manifest


def _read_small(path: Path, limit: int) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes: a symbolic link, a FIFO (opened
    without blocking, then refused by fstat) or a larger file is an OSError saying so, not read."""
    import errno
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OSError(errno.EINVAL, "not a regular file (a symbolic link)") from None
        raise
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        if st.st_size > limit:
            raise OSError(errno.EFBIG, f"{st.st_size:,} bytes, more than {limit:,}")
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"more than {limit:,} bytes")
    return data


def _manifests(out: Path) -> list[int]:
    folder = out / PUBLISHED
    if not folder.is_dir():
        return []
    return sorted(int(m[1]) for m in (_MANIFEST.fullmatch(p.name) for p in folder.iterdir()) if m)


def _last_commit(checkpoint: Path) -> int | None:
    commits = [int(p.name) for p in (checkpoint / "commits").glob("[0-9]*") if p.name.isdigit()]
    return max(commits) if commits else None


def _logged_offsets(checkpoint: Path, batch_id: int) -> Any:
    """The offsets the checkpoint logged for micro-batch ``batch_id`` (before Spark ran it), or None."""
    try:
        lines = (checkpoint / "offsets" / str(batch_id)).read_text().splitlines()
    except FileNotFoundError:
        return None
    return json.loads(lines[2]) if len(lines) > 2 else None


def _adopt_file_sink(out: Path) -> int:
    """An OUT that Spark's Parquet file sink wrote (``records/_spark_metadata/``, the log of the files
    each micro-batch committed, which only Spark's readers consult) becomes one this module writes:
    the Parquet files the log does not list (a killed run's, or a concurrent run's that lost) are
    removed, a micro-batch the log committed but the checkpoint did not is recorded as published (so
    that Spark's replay of it writes nothing), and the log goes last. Returns the files removed."""
    log = out / "records" / "_spark_metadata"
    if not log.is_dir():
        return 0
    added: dict[str, int] = {}
    deleted: set[str] = set()
    entries = sorted(
        (int(p.name.split(".")[0]), p) for p in log.iterdir() if re.fullmatch(r"[0-9]+(\.compact)?", p.name)
    )
    for batch_id, path in entries:
        try:
            text = _read_small(path, MAX_SINK_LOG_BYTES).decode("utf-8")
            lines = [json.loads(line) for line in text.splitlines()[1:]]
            names = [(str(e["path"]).rsplit("/", 1)[-1], e.get("action")) for e in lines]
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise ValueError(
                f"{path}: not a log of Spark's file sink ({why}); records/ cannot be adopted"
            ) from None
        for name, action in names:
            if action == "delete":
                deleted.add(name)
            elif not path.name.endswith(".compact") or name not in added:
                added[name] = batch_id
    listed = {n: b for n, b in added.items() if n not in deleted}
    removed = 0
    files: dict[int, list[str]] = {}
    for p in sorted((out / "records").rglob("*.parquet")):
        if log in p.parents:
            continue
        if p.name in listed:
            files.setdefault(listed[p.name], []).append(p.relative_to(out / "records").as_posix())
            continue
        p.unlink()
        crc = p.with_name(f".{p.name}.crc")
        if crc.is_file():
            crc.unlink()
        removed += 1
    last, committed = (entries[-1][0] if entries else None), _last_commit(out / CHECKPOINT)
    if last is not None and (committed is None or last > committed):
        (out / PUBLISHED).mkdir(exist_ok=True)
        write_json(
            out / PUBLISHED / f"{last}.json",
            {
                "batch": last,
                "offsets": _logged_offsets(out / CHECKPOINT, last),
                "staging": None,
                "files": files.get(last, []),
            },
        )
    shutil.rmtree(log)
    return removed


def _until_interrupted(query: StreamingQuery) -> None:
    """Wait for the query until Ctrl-C or SIGTERM, then stop it (the running micro-batch is committed or
    replayed by the next run). The signals set a flag the wait loop reads: raised in the middle of a call
    to the JVM, an exception would break the gateway's connection, and the stop with it. A second signal
    while it stops goes to the handler there was before (the command's: :mod:`.interrupts`, which ends
    at once)."""
    stopping: list[int] = []
    previous: dict[int, Any] = {}

    def stop(signum: int, frame: FrameType | None) -> None:
        before = previous.get(signum)
        if stopping and callable(before):
            before(signum, frame)
        stopping.append(signum)

    previous.update({sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)})
    try:
        while query.isActive and not stopping:
            query.awaitTermination(1)
        if query.isActive:
            query.stop()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _progress(summary: IncrementalSummary, query: StreamingQuery, out: Path) -> None:
    for p in query.recentProgress:
        rows = int(p.get("numInputRows") or 0)
        summary.records += rows
        summary.micro_batches += 1 if rows else 0
    summary.offsets = last_offsets(out / CHECKPOINT)


def last_offsets(checkpoint: Path) -> dict:
    """The offsets of the checkpoint's last committed micro-batch (``commits/N`` with ``offsets/N``):
    the Kafka source's JSON, or {} before the first (the batch marks beside the topics are the source's
    own business, not offsets)."""
    from ..read.options import MARKS_KEY  # imports pyspark: only when a run has ended

    commits = [int(p.name) for p in (checkpoint / "commits").glob("[0-9]*") if p.name.isdigit()]
    if not commits:
        return {}
    lines = (checkpoint / "offsets" / str(max(commits))).read_text().splitlines()
    # offsets/N: a version line, the batch's metadata, then one line per source
    return {t: ps for t, ps in json.loads(lines[2]).items() if t != MARKS_KEY} if len(lines) > 2 else {}


def format_summary(s: IncrementalSummary) -> str:
    parts = ", ".join(f"{t}-{p} {o}" for t, ps in sorted(s.offsets.items()) for p, o in sorted(ps.items()))
    return "\n".join(
        [
            f"kafkaspec pipeline --{s.mode}: {s.input} -> {s.output.rstrip('/')}",
            f"  appended {s.records:,} records in {s.micro_batches} micro-batch{'es' if s.micro_batches != 1 else ''} "
            f"to {s.output.rstrip('/')}/records/ ({s.isolation_level}) in {s.seconds:.1f} s",
            f"  next offsets: {parts or 'none yet'} (recorded in {s.output.rstrip('/')}/{CHECKPOINT}/ and summary.json)",
        ]
        + (
            [
                f"  removed {s.removed_files:,} uncommitted file{'s' if s.removed_files != 1 else ''} that killed runs had "
                f"left in {s.output.rstrip('/')}/records/"
            ]
            if s.removed_files
            else []
        )
    )

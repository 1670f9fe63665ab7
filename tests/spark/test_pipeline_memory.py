"""The pipeline's memory is flat in its input: each process of the job (the driver, the JVM, each Python
worker) holds a bounded amount whatever the input's size, because the records go from a task's byte
range to its Parquet file a batch at a time and only counts go back to the driver (:mod:`kafkaspec.spark.run.onepass`).

The design's promise, checked here: the driver and each Python worker under 1 GB, the JVM under its
heap (``--memory``) plus 512 MB. ``make test`` runs the pipeline on a 4 MB and a 64 MB input in the
shared session: the larger run's peaks must not rise with the input (a worker that kept what it read
would hold 30 MB or more of input each, twice that as Arrow). ``make test-scale``
(``KAFKASPEC_SCALE_TEST=1``) runs ``kafkaspec pipeline`` on 1 GB as a user does and checks the bounds
on each of its processes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from support.tree_memory import peaks, reset, tree

from kafkaspec.logdir import synth
from kafkaspec.spark.run.pipeline import run_pipeline

pytestmark = [pytest.mark.spark]

MB = 1 << 20
GB = 1 << 30
#: how far a peak may rise from the small input to the large one (seen: 2-30 MB, allocators' noise)
RISE = 64 * MB


def _peaks_of_run(spark, src: Path, out: Path):
    reset(tree())
    run_pipeline(spark, str(src), str(out), split_size="1m")
    return peaks()


def test_pipeline_memory_does_not_grow_with_the_input(spark, tmp_path):
    small, large = tmp_path / "small", tmp_path / "large"
    synth(small, size_mb=4)
    synth(large, size_mb=64)
    a = _peaks_of_run(spark, small, tmp_path / "out-small")
    b = _peaks_of_run(spark, large, tmp_path / "out-large")
    assert a.workers and b.workers, "no Python worker seen in the job's process tree"
    assert b.worker - a.worker < RISE, (a, b)
    assert b.driver - a.driver < RISE, (a, b)
    assert b.driver < GB and b.worker < GB, b


class _Watch(threading.Thread):
    """The largest peak of each kind over a child's tree, read every half second until it ends."""

    def __init__(self, root: int) -> None:
        super().__init__(daemon=True)
        self.root, self.done = root, threading.Event()
        self.driver = self.jvm = self.worker = 0

    def run(self) -> None:
        while not self.done.wait(0.5):
            p = peaks(self.root)
            self.driver, self.jvm, self.worker = (
                max(self.driver, p.driver),
                max(self.jvm, p.jvm),
                max(self.worker, p.worker),
            )


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("KAFKASPEC_SCALE_TEST", "0") in ("", "0"),
    reason="1 GB through the pipeline (~3 min); set KAFKASPEC_SCALE_TEST=1 or run `make test-scale`",
)
def test_pipeline_memory_on_one_gigabyte(tmp_path):
    src = os.environ.get("KAFKASPEC_SCALE_INPUT")
    if not src:
        src = str(tmp_path / "in")
        synth(src, size_mb=1000)
    out = tmp_path / "out"
    canary = tmp_path / "canary"
    canary.write_text("stays\n")
    child = subprocess.Popen(
        [sys.executable, "-m", "kafkaspec", "pipeline", src, str(out), "--master", "local[2]", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYSPARK_PYTHON=sys.executable),
    )
    watch = _Watch(child.pid)
    watch.start()
    _, err = child.communicate(timeout=3600)
    watch.done.set()
    watch.join()
    assert child.returncode == 0, err[-2000:]
    assert (out / "records" / "_SUCCESS").exists() and canary.exists()
    assert watch.driver and watch.jvm and watch.worker, vars(watch)
    assert watch.driver < GB, f"driver peak {watch.driver / MB:.0f} MB"
    assert watch.jvm < GB + 512 * MB, f"JVM peak {watch.jvm / MB:.0f} MB (heap 1g)"
    assert watch.worker < GB, f"a Python worker's peak {watch.worker / MB:.0f} MB"

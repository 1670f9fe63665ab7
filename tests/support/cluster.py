"""A throwaway Spark standalone cluster on 127.0.0.1: one master and N workers from the installed pyspark."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class StandaloneCluster:
    """``with StandaloneCluster(workdir, workers=2) as url:`` starts the daemons and always stops them."""

    def __init__(
        self, workdir: Path, workers: int = 2, cores: int = 1, memory: str = "768m", timeout: float = 90.0
    ):
        import pyspark

        self.spark_home = Path(pyspark.__file__).parent
        self.workdir = Path(workdir)
        self.workers, self.cores, self.memory, self.timeout = workers, cores, memory, timeout
        self.procs: list[subprocess.Popen] = []
        self.port = _free_port()
        self.url = f"spark://127.0.0.1:{self.port}"

    def _env(self) -> dict:
        env = dict(
            os.environ,
            SPARK_HOME=str(self.spark_home),
            SPARK_LOCAL_IP="127.0.0.1",
            PYSPARK_PYTHON=sys.executable,
            SPARK_NO_DAEMONIZE="1",
            SPARK_LOG_DIR=str(self.workdir / "logs"),
            SPARK_WORKER_DIR=str(self.workdir / "work"),
        )
        return env

    def _start(self, name: str, *args: str) -> Path:
        log = self.workdir / f"{name}.log"
        fh = open(log, "wb")  # closed with the process
        cmd = [str(self.spark_home / "bin" / "spark-class"), *args]
        self.procs.append(
            subprocess.Popen(
                cmd, stdout=fh, stderr=subprocess.STDOUT, env=self._env(), start_new_session=True
            )
        )
        fh.close()
        return log

    def _wait_for(self, log: Path, text: str) -> None:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if log.exists() and text in log.read_text(errors="replace"):
                return
            if any(p.poll() is not None for p in self.procs):
                raise RuntimeError(
                    f"a Spark daemon exited early; see {log}:\n{log.read_text(errors='replace')[-3000:]}"
                )
            time.sleep(0.5)
        raise TimeoutError(f"no {text!r} in {log} after {self.timeout:.0f} s")

    def __enter__(self) -> str:
        self.workdir.mkdir(parents=True, exist_ok=True)
        try:
            master = self._start(
                "master",
                "org.apache.spark.deploy.master.Master",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--webui-port",
                str(_free_port()),
            )
            self._wait_for(master, "I have been elected leader")
            for i in range(self.workers):
                log = self._start(
                    f"worker-{i}",
                    "org.apache.spark.deploy.worker.Worker",
                    self.url,
                    "--host",
                    "127.0.0.1",
                    "--cores",
                    str(self.cores),
                    "--memory",
                    self.memory,
                    "--webui-port",
                    str(_free_port()),
                    "--work-dir",
                    str(self.workdir / f"work-{i}"),
                )
                self._wait_for(log, "Successfully registered with master")
        except BaseException:
            self.stop()
            raise
        return self.url

    def stop(self) -> None:
        """Stop every daemon this object started (their process groups), then reap them."""
        for p in reversed(self.procs):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for p in self.procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(timeout=10)
        self.procs.clear()

    def __exit__(self, *exc) -> None:
        self.stop()


if __name__ == "__main__":  # python tests/spark/cluster.py WORKDIR: start, print the URL, wait for Ctrl-C
    with StandaloneCluster(Path(sys.argv[1] if len(sys.argv) > 1 else "build/cluster")) as url:
        print(url, flush=True)
        try:
            signal.pause()
        except KeyboardInterrupt:
            pass

"""Apache Kafka brokers for the tests: a release's jars from Maven Central, and a single-node KRaft
broker+controller on 127.0.0.1 that a test starts, stops, kills and restarts.

The jars of each release (``kafka_2.13``, ``kafka-storage``, ``kafka-tools`` and what they load) are
copied by Maven (``tests/support/kafka/pom.xml``) into ``.tools/kafka/<release>/`` once and kept there
(git-ignored). A broker is formatted with Kafka's own storage tool and started as the scripts start it
(``kafka.Kafka server.properties``), with free ports and a fresh log directory under the test's temp dir.

:data:`RELEASES` is what ``KAFKA_VERSIONS`` names (comma-separated; ``make test`` runs the oldest and the
newest, ``make test-brokers`` all five). A release that cannot be had raises :class:`Unavailable`, one
line naming the release and what failed: the tests fail on it, they are never skipped.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
POM = Path(__file__).resolve().parent / "kafka" / "pom.xml"
CACHE = REPO / ".tools" / "kafka"
#: every release the broker suite knows; the default of ``make test-brokers``
ALL_RELEASES = ("4.0.2", "4.1.2", "4.2.2", "4.3.1", "4.4.0")
#: the releases this run tests (``KAFKA_VERSIONS``; by default the oldest and the newest)
RELEASES = tuple(v.strip() for v in os.environ.get("KAFKA_VERSIONS", "4.0.2,4.4.0").split(",") if v.strip())
#: the cluster id every test broker is formatted with (any 16 bytes, base64)
CLUSTER_ID = "a2Fma2FzcGVjLXRlc3RzLQ"
#: how long a broker may take to answer after its start
START_TIMEOUT = 120.0


class Unavailable(RuntimeError):
    """A release's broker cannot be had on this machine: the message names the release and why."""


def jars(release: str) -> Path:
    """The folder of ``release``'s jars, fetched by Maven on first use."""
    folder = CACHE / release
    done = folder / ".complete"
    if done.exists():
        return folder
    if not shutil.which("mvn"):
        raise Unavailable(f"Kafka {release}: mvn is not on PATH (install Maven) to fetch the broker's jars")
    if not shutil.which("java"):
        raise Unavailable(f"Kafka {release}: java is not on PATH (install a JDK 17+)")
    if folder.exists():
        shutil.rmtree(folder)  # a half-copied folder of ours, from a fetch that died
    folder.mkdir(parents=True)
    got = maven_copy_dependencies(POM, folder, f"-Dkafka.version={release}")
    if got.returncode or not any(folder.glob("kafka_2.13-*.jar")):
        shutil.rmtree(folder)
        text = re.sub(r"\x1b\[[0-9;]*m", "", got.stdout + got.stderr)
        lines = [ln for ln in text.splitlines() if "ERROR" in ln] or [f"exit {got.returncode}"]
        raise Unavailable(f"Kafka {release}: Maven could not fetch the broker's jars: {lines[0][:300]}")
    done.write_text(release + "\n")
    return folder


def maven_copy_dependencies(pom: Path, folder: Path, *properties: str) -> subprocess.CompletedProcess[str]:
    """``mvn dependency:copy-dependencies`` of ``pom``'s dependencies into ``folder`` (``properties``:
    ``-Dname=value`` settings the pom reads)."""
    return subprocess.run(
        [
            "mvn",
            "-q",
            "-B",
            "-Dstyle.color=never",
            "-f",
            str(pom),
            *properties,
            "dependency:copy-dependencies",
            f"-DoutputDirectory={folder}",
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )


def maven_copy(artifact: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """``mvn dependency:copy`` of one ``artifact`` (``group:name:version[:jar:classifier]``) into ``folder``."""
    return subprocess.run(
        [
            "mvn",
            "-q",
            "-B",
            "-Dstyle.color=never",
            "dependency:copy",
            f"-Dartifact={artifact}",
            f"-DoutputDirectory={folder}",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=folder.parent,
    )


def classpath(release: str) -> str:
    return str(jars(release) / "*")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Broker:
    """One KRaft node (broker and controller) of ``release`` with its data in ``home/data``.

    ``start()`` formats the log directory on first use; ``stop()`` shuts it down cleanly (SIGTERM, as
    ``kafka-server-stop`` does), ``kill()`` with SIGKILL; both can be followed by ``start()`` again.
    ``config`` adds or overrides server properties; ``plugins`` are jars the broker loads beside its own
    (a RemoteStorageManager's).
    """

    def __init__(
        self,
        release: str,
        home: Path,
        config: dict[str, str] | None = None,
        plugins: tuple[Path, ...] = (),
    ) -> None:
        self.release = release
        self.plugins = plugins
        self.home = home
        self.data = home / "data"
        self.port = free_port()
        self.controller_port = free_port()
        self.bootstrap = f"127.0.0.1:{self.port}"
        self.config = {
            "process.roles": "broker,controller",
            "node.id": "1",
            "controller.quorum.voters": f"1@127.0.0.1:{self.controller_port}",
            "listeners": f"PLAINTEXT://127.0.0.1:{self.port},CONTROLLER://127.0.0.1:{self.controller_port}",
            "advertised.listeners": f"PLAINTEXT://127.0.0.1:{self.port}",
            "controller.listener.names": "CONTROLLER",
            "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
            "inter.broker.listener.name": "PLAINTEXT",
            "log.dirs": str(self.data),
            "num.partitions": "1",
            "offsets.topic.replication.factor": "1",
            "offsets.topic.num.partitions": "2",
            "transaction.state.log.replication.factor": "1",
            "transaction.state.log.min.isr": "1",
            "transaction.state.log.num.partitions": "2",
            "share.coordinator.state.topic.replication.factor": "1",
            "share.coordinator.state.topic.min.isr": "1",
            "group.initial.rebalance.delay.ms": "0",
            **(config or {}),
        }
        self.process: subprocess.Popen[bytes] | None = None
        self._log = home / "broker.out"

    def _write_config(self) -> Path:
        path = self.home / "server.properties"
        path.write_text("".join(f"{k}={v}\n" for k, v in self.config.items()))
        return path

    def _java(self, main: str, *args: str) -> list[str]:
        return [
            "java",
            "-Xmx768m",
            "-XX:+UseSerialGC",
            "-Djava.awt.headless=true",
            "-cp",
            ":".join([classpath(self.release), *map(str, self.plugins)]),
            main,
            *args,
        ]

    def format(self) -> None:
        config = self._write_config()
        got = subprocess.run(
            self._java("kafka.tools.StorageTool", "format", "-t", CLUSTER_ID, "-c", str(config)),
            capture_output=True,
            text=True,
            timeout=120,
        )
        if got.returncode:
            raise Unavailable(
                f"Kafka {self.release}: the storage tool could not format {self.data}: "
                f"{(got.stderr or got.stdout).strip().splitlines()[-1:]}"
            )

    def start(self) -> None:
        self.home.mkdir(parents=True, exist_ok=True)
        if not (self.data / "meta.properties").exists():
            self.format()
        config = self._write_config()
        with open(self._log, "ab") as out:
            self.process = subprocess.Popen(
                self._java("kafka.Kafka", str(config)),
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + START_TIMEOUT
        while not self._answers():
            if self.process.poll() is not None:
                raise Unavailable(
                    f"Kafka {self.release}: the broker exited ({self.process.returncode}) at start: "
                    f"{self.tail()}"
                )
            if time.monotonic() > deadline:
                self.kill()
                raise Unavailable(
                    f"Kafka {self.release}: the broker did not answer within {START_TIMEOUT:.0f} s"
                )
            time.sleep(0.5)

    def _answers(self) -> bool:
        """The broker answers a metadata request (its listener alone opens before it serves)."""
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
        except OSError:
            return False
        try:
            from confluent_kafka.admin import AdminClient

            md = AdminClient({"bootstrap.servers": self.bootstrap, "log_level": 0}).list_topics(timeout=2)
            return bool(md.brokers)
        except Exception:
            return False

    def tail(self, lines: int = 5) -> str:
        text = self._log.read_text(errors="replace") if self._log.exists() else ""
        return " | ".join(text.strip().splitlines()[-lines:])

    def stop(self) -> None:
        """A clean shutdown: the broker writes ``.kafka_cleanshutdown`` and trims its indexes."""
        self._end(signal.SIGTERM, 120)

    def kill(self) -> None:
        """An unclean end (SIGKILL): at the next start Kafka recovers the segments past each recovery point."""
        self._end(signal.SIGKILL, 30)

    def _end(self, sig: signal.Signals, wait: float) -> None:
        if self.process is None or self.process.poll() is not None:
            self.process = None
            return
        os.killpg(self.process.pid, sig)
        try:
            self.process.wait(wait)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(30)
        self.process = None

    def __enter__(self) -> Broker:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill() if exc[0] is not None else self.stop()

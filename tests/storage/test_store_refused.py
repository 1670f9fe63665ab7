"""A store's endpoint that refuses connections (nothing listens on its port) is one line, exit 2, within
``KAFKASPEC_STORAGE_TIMEOUT`` and a small bound, on every store (issue 42, item 10). Before, gcsfs
retried six times with waits of 1, 2, 4, 8 and 16 s whatever the timeout (about 35 s at a 2 s timeout)
and printed about 50 lines of its retry logging and two tracebacks before the message.

A server that accepts and never answers is tests/storage/test_store_timeouts.py's. Each case runs the
CLI in a process of its own (a client that hangs fails the test at the guard instead of holding the run).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest
from support.stores import endpoint_settings

pytestmark = pytest.mark.hostile

TIMEOUT = 2
#: beyond the CLI's own start (measured beside, the machine may be loaded): each request's three attempts
#: wait under half the timeout in all, and a command makes a few requests before it gives up; gcsfs's
#: own waits alone were 31 s per request
BOUND = 6 * TIMEOUT
GUARD = 90

_CLEARED = (
    "AWS_ENDPOINT_URL",
    "AWS_ENDPOINT_URL_S3",
    "STORAGE_EMULATOR_HOST",
    "AZURE_STORAGE_CONNECTION_STRING",
    "AZURE_STORAGE_ACCOUNT_NAME",
    "AZURE_STORAGE_ACCOUNT",
    "AZURE_STORAGE_ACCOUNT_KEY",
    "AZURE_STORAGE_KEY",
    "AZURE_STORAGE_BLOB_ENDPOINT",
)


def _refusing_endpoint() -> str:
    """http://127.0.0.1:<port> where nothing listens (a port just bound and released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def _settings(scheme: str, endpoint: str) -> tuple[dict[str, str], str]:
    if scheme == "s3":
        env = {
            "AWS_ENDPOINT_URL_S3": endpoint,
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_REGION": "us-east-1",
        }
        return env, "s3://some-bucket/backup"
    return endpoint_settings(scheme, endpoint)


@pytest.mark.parametrize("scheme", ["s3", "gs", "az", "abfs"])
@pytest.mark.parametrize("command", ["dump", "verify"])
def test_a_refused_connection_is_one_line_within_the_timeout(scheme, command):
    settings, uri = _settings(scheme, _refusing_endpoint())
    env = {k: v for k, v in os.environ.items() if k not in _CLEARED}
    env.update(settings, KAFKASPEC_STORAGE_TIMEOUT=str(TIMEOUT))
    started = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", command, "no-such-path"], env=env, capture_output=True
    )
    startup = time.monotonic() - started
    started = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "kafkaspec.cli", command, uri],
            env=env,
            capture_output=True,
            text=True,
            timeout=GUARD,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{command} {uri} gave no error within {GUARD} s of a refused connection")
    elapsed = time.monotonic() - started
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(f"kafkaspec {command}: {uri}: "), proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "refused" in proc.stderr, proc.stderr
    assert elapsed - startup < BOUND, f"{elapsed:.1f} s (start {startup:.1f} s) for a refused connection"

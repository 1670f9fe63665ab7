"""A store's server that stops answering is an error within ``KAFKASPEC_STORAGE_TIMEOUT``, on every store
(S3's own case is tests/storage/test_s3_logdir.py::test_a_server_that_stops_answering_times_out).

The server is a real one: a TCP listener on 127.0.0.1 that accepts every connection and never answers
(``support.s3.SilentServer``). Each case runs the CLI in a process of its own, so a client that hangs
fails the test at the guard below instead of holding the whole run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from support.s3 import SilentServer
from support.stores import AZURE_KEY, endpoint_settings

#: far above what a bounded client needs with a 1 s timeout (a few retries), far below an unbounded one's
#: minutes (pyarrow's Azure client took 246 s on a silent endpoint)
GUARD = 60

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


@pytest.mark.parametrize("scheme", ["gs", "az", "abfs", "abfss"])
@pytest.mark.parametrize("command", ["dump", "verify"])
def test_a_silent_server_is_an_error_naming_the_uri(scheme, command):
    silent = SilentServer()
    settings, uri = endpoint_settings(scheme, silent.endpoint)
    env = {k: v for k, v in os.environ.items() if k not in _CLEARED}
    env.update(settings, KAFKASPEC_STORAGE_TIMEOUT="1")
    try:
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
            pytest.fail(
                f"{command} {uri} gave no error within {GUARD} s of a silent server (timeout set to 1 s)"
            )
        elapsed = time.monotonic() - started
    finally:
        silent.close()
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(f"kafkaspec {command}: {uri}: no answer from "), proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "KAFKASPEC_STORAGE_TIMEOUT" in proc.stderr and AZURE_KEY not in proc.stderr
    assert elapsed < GUARD

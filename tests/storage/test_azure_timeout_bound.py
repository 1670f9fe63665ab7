"""A store's server that stops answering is an error within a bound set by ``KAFKASPEC_STORAGE_TIMEOUT``,
not merely "eventually" (``test_store_timeouts.py`` checks the message, under a generous guard).

The bound: ``4 * timeout`` (three attempts, each up to the timeout, and short waits between them) plus
the CLI's own start-up and exit, measured here on the same machine just before (a run with no store
at all, importing the same client libraries), doubled because the machine is shared and a burst of
load may slow one run and not the other. A client that retries a silent server with waits of its own
(the Azure SDK's seconds-long back-offs: 11 s at a 1 s timeout) goes past it.

The server is a real TCP listener on 127.0.0.1 that accepts every connection and never answers; it
counts the connections, so the tests also see that a request is still retried (three attempts), not
merely cut short.
"""

from __future__ import annotations

import http.server
import os
import socket
import subprocess
import sys
import threading
import time

import pytest
from support.stores import endpoint_settings

TIMEOUT = 1.0
#: the allowed attempts and waits, in timeouts (an unbounded client: minutes; the SDK's defaults: 11 s)
FACTOR = 4
#: a hung client fails the test here rather than holding the run
GUARD = 120

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
    "KAFKASPEC_STORAGE_TIMEOUT",
)


class CountingSilentServer:
    """A TCP listener that accepts every connection, never answers, and counts the connections."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.endpoint = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.accepted: list[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:  # closed
                return
            self.accepted.append(conn)  # held open, unanswered

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self._thread.join(5)
        for conn in self.accepted:
            conn.close()


def _env(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _CLEARED}
    env.update(settings)
    return env


#: the CLI run on a local path that does not exist, after importing every store client: its start-up,
#: imports and exit, with no request to any store
_NO_STORE = (
    "import sys, runpy, pyarrow.fs, adlfs, gcsfs, azure.storage.blob.aio; "
    "sys.argv = ['kafkaspec', sys.argv[1], sys.argv[2]]; runpy.run_module('kafkaspec.cli', run_name='__main__')"
)


def _startup(command: str, missing: str) -> float:
    """Seconds the CLI takes to start, fail on a local path and exit (no network)."""
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", _NO_STORE, command, missing],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=GUARD,
    )
    elapsed = time.monotonic() - started
    assert proc.returncode in (1, 2) and missing in proc.stderr and "Traceback" not in proc.stderr, (
        proc.stderr
    )
    return elapsed


@pytest.mark.parametrize(
    ("command", "scheme"),
    [("dump", "az"), ("dump", "abfs"), ("dump", "abfss"), ("verify", "az"), ("dump", "gs"), ("verify", "gs")],
)
def test_a_silent_server_is_an_error_within_a_few_timeouts(command, scheme, tmp_path):
    startup = _startup(command, str(tmp_path / "no-such-dir"))
    silent = CountingSilentServer()
    settings, uri = endpoint_settings(scheme, silent.endpoint)
    try:
        started = time.monotonic()
        try:
            proc = subprocess.run(
                [sys.executable, "-m", "kafkaspec.cli", command, uri],
                env=_env(**settings, KAFKASPEC_STORAGE_TIMEOUT=f"{TIMEOUT:g}"),
                capture_output=True,
                text=True,
                timeout=GUARD,
            )
        except subprocess.TimeoutExpired:
            pytest.fail(
                f"{command} {uri} gave no error within {GUARD} s of a silent server (timeout {TIMEOUT:g} s)"
            )
        elapsed = time.monotonic() - started
        attempts = len(silent.accepted)
    finally:
        silent.close()
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(f"kafkaspec {command}: {uri}: no answer from "), proc.stderr
    bound = FACTOR * TIMEOUT + 2 * startup
    assert elapsed < bound, (
        f"{command} {uri}: the error came after {elapsed:.1f} s, over {bound:.1f} s "
        f"({FACTOR} x the {TIMEOUT:g} s timeout + twice the CLI's {startup:.1f} s start-up); "
        f"{attempts} connection(s)"
    )
    if scheme != "gs":  # the Azure client still retries a request that got no answer: three attempts
        assert attempts == 3, f"{attempts} connection(s) to the silent server, expected 3 attempts"


class BusyServer:
    """An HTTP server on 127.0.0.1 that answers every request at once with 503 (server busy), counting them."""

    def __init__(self) -> None:
        requests: list[str] = []

        class Busy(http.server.BaseHTTPRequestHandler):
            def _busy(self) -> None:
                requests.append(self.path)
                self.send_response(503, "Server Busy")
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_GET = do_HEAD = do_PUT = _busy

            def log_message(self, *args: object) -> None:
                pass

        self.requests = requests
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Busy)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize("scheme", ["az", "abfs"])
def test_a_busy_server_is_still_retried_within_the_bound(scheme, tmp_path):
    """A transient answer (HTTP 503) is retried: three attempts of the one request, the waits between
    them capped by the timeout, and then a one-line error naming the URI."""
    startup = _startup("dump", str(tmp_path / "no-such-dir"))
    busy = BusyServer()
    settings, uri = endpoint_settings(scheme, busy.endpoint)
    try:
        started = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "kafkaspec.cli", "dump", uri],
            env=_env(**settings, KAFKASPEC_STORAGE_TIMEOUT=f"{TIMEOUT:g}"),
            capture_output=True,
            text=True,
            timeout=GUARD,
        )
        elapsed = time.monotonic() - started
    finally:
        busy.close()
    assert proc.returncode in (1, 2) and proc.stderr.startswith(f"kafkaspec dump: {uri}: "), proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert len(busy.requests) == 3 and len(set(busy.requests)) == 1, busy.requests
    assert elapsed < FACTOR * TIMEOUT + 2 * startup, f"{elapsed:.1f} s for three answers of 503"


@pytest.mark.parametrize("timeout", [0.2, 1.0, 30.0, 300.0])
def test_the_azure_waits_between_attempts_stay_under_half_the_timeout(timeout):
    """The waits before the two retries: the SDK's own (1 s + 2**n, jittered by 1 s: 2-4 s, then 4-6 s)
    when the timeout leaves room for them, else at most a quarter of the timeout each; a raised
    timeout keeps the SDK's waits."""
    from kafkaspec.logdir.store import clients as store_clients

    policy = store_clients._bounded_retry()(timeout)
    assert policy.total_retries == store_clients.AZURE_ATTEMPTS - 1 == 2
    for _ in range(200):
        waits = [policy.get_backoff_time({"count": n}) for n in (1, 2)]
        assert sum(waits) <= timeout / 2, waits
        if timeout >= 24:  # room for the SDK's own waits
            assert 2 <= waits[0] <= 4 and 4 <= waits[1] <= 6, waits
        else:
            assert all(w <= timeout / 4 for w in waits), waits

"""Registry URLs whose password holds a character that ends the host part (``/``, ``?``, ``#``),
not percent-encoded: a URL parser then reads the rest of the password as a path, a query or a
fragment, and the password's first part as a host or port. Such a URL is refused before any request,
in one line that prints no part of the credentials; the user is told to percent-encode them.
"""

from __future__ import annotations

import subprocess
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread

import pytest

from kafkaspec.values import RegistryClient, RegistryError

pytestmark = pytest.mark.hostile

SECRET_A, SECRET_B = "zq9k", "xk7w"


@pytest.mark.parametrize("cut", ["/", "?", "#"])
def test_a_password_with_an_unencoded_delimiter_is_refused_without_printing_it(cut):
    url = f"http://user:{SECRET_A}{cut}{SECRET_B}@127.0.0.1:1/"
    with pytest.raises(RegistryError) as err:
        RegistryClient(url, timeout=0.5, budget=1)
    message = str(err.value)
    assert SECRET_A not in message and SECRET_B not in message, message
    assert "percent-encode" in message and "127.0.0.1:1" in message, message


def test_a_password_read_as_a_port_sends_nothing_to_the_host_before_it():
    """``http://127.0.0.1:<port>/<secret>@registry/``: user 127.0.0.1, password ``<port>/<secret>``;
    parsed, a request to 127.0.0.1:<port> whose path carries the rest of the password."""
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            seen.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]
        url = f"http://127.0.0.1:{port}/{SECRET_A}@registry.invalid/"
        with pytest.raises(RegistryError) as err:
            RegistryClient(url, timeout=2, budget=2).by_id(1)
        assert SECRET_A not in str(err.value)
    finally:
        server.shutdown()
        server.server_close()
    assert seen == [], seen


def test_dump_refuses_it_in_one_line_with_exit_2(tmp_path):
    from kafkaspec import Record
    from kafkaspec.logdir import PartitionWriter

    with PartitionWriter(tmp_path / "data", "orders", 0) as w:
        w.append([Record(key=None, value=b"\x00\x00\x00\x00\x01x")])
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "kafkaspec.cli",
            "dump",
            str(tmp_path / "data" / "orders-0"),
            "--value-format",
            "auto",
            "--registry",
            f"http://user:{SECRET_A}/{SECRET_B}@127.0.0.1:1/",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2, (run.returncode, run.stderr)
    assert SECRET_A not in run.stderr + run.stdout and SECRET_B not in run.stderr + run.stdout, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr, run.stderr

"""A Schema Registry that answers what no registry writes: JSON nested thousands of levels deep.

The answer was parsed with RecursionError escaping (the decoder, and a dump using it, stopped); it is
now a RegistryError naming the URL path, like any answer that is not a schema.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from kafkaspec.values import RegistryClient, RegistryError

pytestmark = pytest.mark.hostile


class _Deep(BaseHTTPRequestHandler):
    def do_GET(self):
        data = b"[" * 100_000 + b"]" * 100_000
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def test_a_deeply_nested_answer_is_a_registry_error():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Deep)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        client = RegistryClient(f"http://127.0.0.1:{server.server_address[1]}")
        with pytest.raises(RegistryError, match=r"/schemas/ids/1: the answer is not JSON"):
            client.by_id(1)
    finally:
        server.shutdown()
        server.server_close()

"""Issue 39 items 2 and 10: what a Schema Registry, or whoever answers in its name, can make the client do.

Item 2: with ``http://user:pass@A/`` and A answering 302 to host B, urllib copied the ``Authorization``
header to B and used B's answer. Credentials now go to the configured origin only: a redirect to
another scheme, host or port is refused, an error naming both URLs; within the origin it is followed.

Item 10: ``timeout=10`` bounded each socket read, not the request (a server dripping a byte every 4 s
took 82 s), and a silent registry cost a timeout per schema id. Each request now has a total deadline,
all requests of a client a budget, and a registry that failed is not asked again: the records get an
error naming it (never its credentials).

Every server here is a real one on 127.0.0.1, in a thread of the test.
"""

from __future__ import annotations

import datetime
import ipaddress
import json
import socket
import ssl
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from support.values import framed

from kafkaspec.values import (
    Reference,
    RegistryClient,
    RegistryError,
    Schema,
    Schemas,
    SchemaStore,
    ValueDecoder,
)

pytestmark = pytest.mark.hostile

AUTH = "Basic dXNlcjpzZWNyZXQ="  # user:secret
SCHEMA = json.dumps({"schema": '"string"'}).encode()


class _Server(BaseHTTPRequestHandler):
    """Records each request's path and Authorization header; ``answer`` decides what to send."""

    seen: list[tuple[str, str | None]]

    def do_GET(self):
        self.seen.append((self.path, self.headers.get("Authorization")))
        self.answer()

    def answer(self):
        self.send_response(200)
        self.send_header("Content-Length", str(len(SCHEMA)))
        self.end_headers()
        self.wfile.write(SCHEMA)

    def log_message(self, *args):
        pass


@contextmanager
def serve(answer=None, tls: ssl.SSLContext | None = None) -> Iterator[tuple[int, list]]:
    """A server on 127.0.0.1 (TLS with ``tls``): its port and the (path, Authorization) it was sent."""
    seen: list = []
    attrs = {"seen": seen}
    if answer is not None:
        attrs["answer"] = answer
    server = ThreadingHTTPServer(("127.0.0.1", 0), type("H", (_Server,), attrs))
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], seen
    finally:
        server.shutdown()
        server.server_close()


def redirect_to(location: str):
    def answer(self):
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    return answer


# -- item 2: credentials follow no redirect to another origin ---------------------------------------


@pytest.mark.parametrize("host_b", ["127.0.0.1", "localhost"])
def test_a_redirect_to_another_origin_is_refused_and_never_sent_the_credentials(host_b):
    with (
        serve() as (port_b, seen_b),
        serve(redirect_to(f"http://{host_b}:{port_b}/schemas/ids/1")) as (port_a, seen_a),
    ):
        client = RegistryClient(f"http://user:secret@127.0.0.1:{port_a}/")
        with pytest.raises(RegistryError) as exc:
            client.by_id(1)
        with pytest.raises(
            RegistryError, match="not asked"
        ):  # a registry that redirects away is not asked again
            client.by_id(2)
    assert seen_a == [("/schemas/ids/1", AUTH)]
    assert seen_b == []  # not followed: B never saw the request, let alone the header
    assert str(exc.value) == (
        f"http://127.0.0.1:{port_a}/schemas/ids/1: redirected to http://{host_b}:{port_b}/schemas/ids/1, another "
        f"origin than the registry's http://127.0.0.1:{port_a}: not followed (credentials go to the configured "
        "registry only)"
    )


def test_a_redirect_to_another_host_name_on_the_same_port_is_refused():
    """127.0.0.1 and localhost reach the same server here, but are not the same origin."""

    def answer(self):
        redirect_to(f"http://localhost:{self.server.server_address[1]}/schemas/ids/1")(self)

    with serve(answer) as (port, seen):
        with pytest.raises(
            RegistryError, match=f"redirected to http://localhost:{port}/schemas/ids/1, another origin"
        ):
            RegistryClient(f"http://user:secret@127.0.0.1:{port}").by_id(1)
    assert seen == [("/schemas/ids/1", AUTH)]  # asked once, the redirect not followed


def test_a_redirect_within_the_origin_is_followed_with_the_credentials():
    moved: list = []

    def answer(self):
        if self.path.startswith("/old/"):
            moved.append(self.path)
            redirect_to(self.path.replace("/old/", "/new/"))(self)
        else:
            _Server.answer(self)

    with serve(answer) as (port, seen):
        client = RegistryClient(f"http://user:secret@127.0.0.1:{port}/old")
        assert client.by_id(7).schema == '"string"'
    assert seen == [("/old/schemas/ids/7", AUTH), ("/new/schemas/ids/7", AUTH)]


def test_an_ipv6_registry_keeps_its_origin_and_its_brackets():
    class V6(ThreadingHTTPServer):
        address_family = socket.AF_INET6

    def answer(self):
        if self.path.startswith("/old/"):
            redirect_to(f"http://[::1]:{self.server.server_address[1]}/new/schemas/ids/1")(self)
        else:
            _Server.answer(self)

    seen: list = []
    try:
        server = V6(("::1", 0), type("H", (_Server,), {"seen": seen, "answer": answer}))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        client = RegistryClient(f"http://user:secret@[::1]:{port}/old")
        assert client.by_id(1).schema == '"string"' and client.name == f"http://[::1]:{port}/old"
    finally:
        server.shutdown()
        server.server_close()
    assert seen == [("/old/schemas/ids/1", AUTH), ("/new/schemas/ids/1", AUTH)]


def test_a_redirect_to_userinfo_or_another_scheme_is_refused():
    with serve() as (port_b, seen_b):
        for location in (
            f"http://evil@127.0.0.1:{port_b}/x",
            f"ftp://127.0.0.1:{port_b}/x",
            "file:///etc/passwd",
        ):
            with serve(redirect_to(location)) as (port_a, _):
                with pytest.raises(RegistryError) as exc:
                    RegistryClient(f"http://user:secret@127.0.0.1:{port_a}").by_id(1)
            assert "secret" not in str(exc.value) and "evil" not in str(exc.value)
            assert "redirected to" in str(exc.value) or "HTTP 302" in str(exc.value)
        assert seen_b == []


def _self_signed(tmp_path) -> tuple[ssl.SSLContext, str]:
    """A TLS context for 127.0.0.1 and the CA file a client must trust for it."""
    pytest.importorskip("cryptography", reason="cryptography makes the test's self-signed certificate")
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert_file, key_file)
    return ctx, str(cert_file)


def test_https_redirected_down_to_http_is_refused(tmp_path, monkeypatch):
    tls, ca = _self_signed(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", ca)  # the client's default context trusts the test's certificate
    with serve() as (port_b, seen_b):
        with serve(redirect_to(f"http://127.0.0.1:{port_b}/schemas/ids/1"), tls=tls) as (port_a, seen_a):
            client = RegistryClient(f"https://user:secret@127.0.0.1:{port_a}")
            with pytest.raises(RegistryError) as exc:
                client.by_id(1)
            # the same downgrade at the same port number: another scheme, another origin
            with serve(redirect_to(f"http://127.0.0.1:{port_a}/schemas/ids/2"), tls=tls) as (port_c, _):
                with pytest.raises(RegistryError, match="another origin"):
                    RegistryClient(f"https://user:secret@127.0.0.1:{port_c}").by_id(2)
    assert seen_a == [("/schemas/ids/1", AUTH)] and seen_b == []
    assert (
        f"https://127.0.0.1:{port_a}/schemas/ids/1: redirected to http://127.0.0.1:{port_b}/schemas/ids/1"
        in str(exc.value)
    )
    assert "secret" not in str(exc.value)


def test_https_within_the_origin_works(tmp_path, monkeypatch):
    tls, ca = _self_signed(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", ca)
    with serve(tls=tls) as (port, seen):
        assert RegistryClient(f"https://user:secret@127.0.0.1:{port}").by_id(3).schema == '"string"'
    assert seen == [("/schemas/ids/3", AUTH)]


# -- item 10: a deadline per request, a budget per run, a failed registry asked once --------------


def drip(pause: float, total: int = 40, headers_too: bool = False):
    """An answer sent one byte every ``pause`` seconds (the headers too, with ``headers_too``)."""

    def answer(self):
        head = f"HTTP/1.0 200 OK\r\nContent-Length: {total}\r\n\r\n".encode()
        if not headers_too:
            self.wfile.write(head)
            self.wfile.flush()
            head = b""
        for b in head + b" " * total:
            try:
                self.wfile.write(bytes([b]))
                self.wfile.flush()
            except OSError:
                return
            time.sleep(pause)

    return answer


@pytest.mark.parametrize("headers_too", [False, True], ids=["body", "status-and-headers"])
def test_a_dripping_server_is_cut_off_at_the_request_deadline(headers_too):
    """One byte every 0.25 s: each read is quick, the answer would take 10 s; the deadline is 1 s."""
    with serve(drip(0.25, headers_too=headers_too)) as (port, _):
        client = RegistryClient(f"http://user:secret@127.0.0.1:{port}", timeout=1)
        started = time.monotonic()
        with pytest.raises(RegistryError) as exc:
            client.by_id(1)
        took = time.monotonic() - started
    assert took < 4, f"the request took {took:.1f} s with a 1 s deadline"
    assert str(exc.value) == (
        f"http://127.0.0.1:{port}/schemas/ids/1: no complete answer within 1 s "
        "(KAFKASPEC_REGISTRY_TIMEOUT sets it)"
    )


@contextmanager
def silent() -> Iterator[int]:
    """A port that takes connections (the kernel's backlog) and never answers."""
    sock = socket.create_server(("127.0.0.1", 0), backlog=64)
    try:
        yield sock.getsockname()[1]
    finally:
        sock.close()


def _closed_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as s:
        return s.getsockname()[1]


def test_a_silent_registry_costs_one_timeout_for_six_ids_and_each_record_names_it():
    with silent() as port:
        client = RegistryClient(f"http://user:secret@127.0.0.1:{port}/", timeout=1)
        dec = ValueDecoder(Schemas(SchemaStore(), client), value_format="auto")
        started = time.monotonic()
        got = [dec.decode("orders", framed(sid, b"\x02")) for sid in range(1, 7)]
        took = time.monotonic() - started
    assert took < 5, f"six ids took {took:.1f} s with a 1 s deadline"
    assert client.requests == 1
    for d in got:
        assert d.value is None and d.raw is not None and d.error is not None
        assert f"http://127.0.0.1:{port}" in d.error and "secret" not in d.error
    assert got[0].error == (
        f"schema id 1: http://127.0.0.1:{port}/schemas/ids/1: no complete answer within "
        "1 s (KAFKASPEC_REGISTRY_TIMEOUT sets it)"
    )
    assert got[1].error.startswith(
        f"schema id 2: http://127.0.0.1:{port}/schemas/ids/2: not asked: the registry "
        f"failed earlier in this run (http://127.0.0.1:{port}/schemas/ids/1: no complete"
    )
    assert sum(dec.errors.values()) == 6


@pytest.mark.parametrize("kind", ["refused", "HTTP 500", "HTTP 401"])
def test_a_registry_that_failed_is_not_asked_again(kind):
    def status(code):
        def answer(self):
            self.send_response(code)
            self.send_header("Content-Length", "0")
            self.end_headers()

        return answer

    if kind == "refused":
        port, seen = _closed_port(), None
        ctx = None
    else:
        ctx = serve(status(int(kind.split()[1])))
        port, seen = ctx.__enter__()
    try:
        client = RegistryClient(f"http://user:secret@127.0.0.1:{port}", timeout=2)
        errors = []
        for sid in range(1, 7):
            with pytest.raises(RegistryError) as exc:
                client.by_id(sid)
            errors.append(str(exc.value))
        with pytest.raises(RegistryError, match="not asked"):
            client.version("orders-value", 1)
    finally:
        if ctx is not None:
            ctx.__exit__(None, None, None)
    assert client.requests == 1
    if seen is not None:
        assert [p for p, _ in seen] == ["/schemas/ids/1"]
        assert kind in errors[0]
    assert all(f"127.0.0.1:{port}" in e and "secret" not in e for e in errors)


def test_a_missing_id_is_no_failure_of_the_registry():
    def answer(self):
        self.send_response(404)
        body = b'{"error_code":40403,"message":"Schema not found"}'
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    with serve(answer) as (port, seen):
        client = RegistryClient(f"http://127.0.0.1:{port}")
        assert [client.by_id(i) for i in range(1, 4)] == [None, None, None]
    assert len(seen) == 3


def test_the_run_has_a_budget_across_requests():
    """Answers of 0.3 s each within a 1 s budget: a few are asked, the one running when the budget ends is
    cut there, and none is asked after it."""

    def slow(self):
        time.sleep(0.3)
        _Server.answer(self)

    with serve(slow) as (port, seen):
        client = RegistryClient(f"http://127.0.0.1:{port}", timeout=5, budget=1)
        started = time.monotonic()
        outcomes = []
        for sid in range(1, 11):
            try:
                client.by_id(sid)
                outcomes.append("ok")
            except RegistryError as exc:
                outcomes.append(str(exc))
        took = time.monotonic() - started
    assert took < 3, f"ten ids took {took:.1f} s with a 1 s budget"  # not ten answers of 0.3 s
    assert outcomes[0] == "ok" and client.spent <= 1 + 1e-6 and client.requests == len(seen) <= 4
    failed = outcomes.index(next(o for o in outcomes if o != "ok"))
    assert "KAFKASPEC_REGISTRY_BUDGET" in outcomes[failed]
    assert all("not asked" in o for o in outcomes[failed + 1 :]) and client.requests <= failed + 1


def test_the_timeouts_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("KAFKASPEC_REGISTRY_TIMEOUT", "1.5")
    monkeypatch.setenv("KAFKASPEC_REGISTRY_BUDGET", "7")
    client = RegistryClient("http://127.0.0.1:9")
    assert (client.timeout, client.budget) == (1.5, 7)
    for bad in ("soon", "0", "-3", "nan", "inf"):
        monkeypatch.setenv("KAFKASPEC_REGISTRY_TIMEOUT", bad)
        assert RegistryClient("http://127.0.0.1:9").timeout == 10  # the default
    assert RegistryClient("http://127.0.0.1:9", timeout=0.5, budget=2).timeout == 0.5


REFERRING = {
    "AVRO": (
        json.dumps({"type": "record", "name": "Order", "fields": [{"name": "m", "type": "shop.Money"}]}),
        "shop.Money",
        b"\x02",
    ),
    "PROTOBUF": (
        'syntax = "proto3"; import "money.proto"; message Order { Money m = 1; }',
        "money.proto",
        b"\x00\x0a\x00",
    ),
    "JSON": (
        json.dumps({"type": "object", "properties": {"m": {"$ref": "money.json"}}}),
        "money.json",
        b"{}",
    ),
}


@pytest.mark.parametrize("kind", sorted(REFERRING))
def test_a_reference_the_failed_registry_cannot_give_is_an_error_of_the_record(kind):
    """Not an exception out of decode(): the writer schema is in _schemas, its reference only in the
    registry; the error names the schema, the reference and the registry, for each kind of schema."""
    text, name, body = REFERRING[kind]
    store = SchemaStore()
    store.apply(
        b'{"keytype":"SCHEMA","subject":"orders-value","version":1,"magic":1}',
        json.dumps(
            {
                "subject": "orders-value",
                "version": 1,
                "id": 1,
                "deleted": False,
                "schema": text,
                "schemaType": kind,
                "references": [Reference(name, "money", 1)._asdict()],
            }
        ).encode(),
    )
    assert store.by_id(1) == Schema(1, store.by_id(1).schema, kind, (Reference(name, "money", 1),))
    with silent() as port:
        client = RegistryClient(f"http://user:secret@127.0.0.1:{port}", timeout=1)
        dec = ValueDecoder(Schemas(store, client))
        got = [dec.decode("orders", framed(1, body)) for _ in range(3)]
    assert client.requests == 1
    assert all(d.value is None and f"127.0.0.1:{port}/subjects/money/versions/1" in d.error for d in got), got
    assert all(d.error.startswith("schema id 1 references 'money' version 1: ") for d in got), got[0].error
    assert all("secret" not in d.error for d in got)


def test_a_reference_answered_with_no_schema_is_asked_once():
    """A registry that answers, but not a schema: an error of that subject-version, cached as a miss is."""

    def answer(self):
        self.send_response(200)
        self.send_header("Content-Length", "8")
        self.end_headers()
        self.wfile.write(b"not json")

    with serve(answer) as (port, seen):
        client = RegistryClient(f"http://127.0.0.1:{port}")
        for _ in range(5):
            with pytest.raises(RegistryError, match="/subjects/money/versions/1: the answer is not JSON"):
                client.version("money", 1)
        assert client.failure is None  # the registry answered: other subjects are still asked
        with pytest.raises(RegistryError, match="/subjects/other/versions/1"):
            client.version("other", 1)
    assert [p for p, _ in seen] == ["/subjects/money/versions/1", "/subjects/other/versions/1"]

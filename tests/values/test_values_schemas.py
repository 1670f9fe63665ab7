"""The Schema Registry's ``_schemas`` topic read from a log directory (issue 26 item 1): every subject,
version and id, soft and hard deletes applied as the registry's KafkaStoreMessageHandler applies them,
records the registry would not write reported (never applied, never stopping the replay), a registry
URL as a second source (cached), and ``inspect schemas`` in text and JSON.
"""

from __future__ import annotations

import io
import json
import os
import threading
from contextlib import redirect_stderr, redirect_stdout
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from support.values import skey, sval

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.logdir import PartitionWriter, open_log
from kafkaspec.values import RegistryClient, Schemas, SchemaStore, read_schemas

AVRO_V1 = json.dumps({"type": "record", "name": "Order", "fields": [{"name": "id", "type": "long"}]})
AVRO_V2 = json.dumps(
    {
        "type": "record",
        "name": "Order",
        "fields": [{"name": "id", "type": "long"}, {"name": "note", "type": "string", "default": ""}],
    }
)


def write_schemas(root, records) -> None:
    """A ``_schemas-0`` partition holding ``records`` ((key, value) pairs) in order, one per batch."""
    with PartitionWriter(root, "_schemas", 0) as w:
        for k, v in records:
            w.append([Record(key=k, value=v)])


HISTORY = [
    (skey("orders-value", 1), sval("orders-value", 1, 1, AVRO_V1)),
    (skey("orders-value", 2), sval("orders-value", 2, 2, AVRO_V2)),
    (
        json.dumps({"keytype": "CONFIG", "subject": None, "magic": 0}).encode(),
        b'{"compatibilityLevel":"BACKWARD"}',
    ),
    (json.dumps({"keytype": "NOOP", "magic": 0}).encode(), None),
    # a subject soft-deleted as a whole (DELETE /subjects/gone), then its versions cleared
    (skey("gone-value", 1), sval("gone-value", 1, 3, AVRO_V1 + " ")),
    (skey("soft-value", 1), sval("soft-value", 1, 4, '{"type":"string"}')),
    (
        json.dumps({"keytype": "DELETE_SUBJECT", "subject": "soft-value", "magic": 0}).encode(),
        b'{"subject":"soft-value","version":1}',
    ),
    # a version soft-deleted then hard-deleted (DELETE .../versions/1?permanent=true)
    (skey("gone-value", 1), sval("gone-value", 1, 3, AVRO_V1 + " ", deleted=True)),
    (skey("gone-value", 1), None),
    (skey("people-value", 1), sval("people-value", 1, 5, '{"type":"object"}', schema_type="JSON")),
    (
        skey("people-value", 2),
        sval("people-value", 2, 6, '{"type":"object","properties":{}}', schema_type="JSON", deleted=True),
    ),
]


def test_schemas_topic_replayed_as_the_registry_does(tmp_path):
    write_schemas(tmp_path, HISTORY)
    store = read_schemas(open_log(tmp_path))
    assert store.problems == []
    assert store.subjects() == ["orders-value", "people-value", "soft-value"]
    assert store.latest("orders-value").schema.id == 2
    assert store.by_id(1).schema == AVRO_V1 and store.by_id(1).schema_type == "AVRO"
    # soft deletes: readable by id, never a subject's latest
    assert store.by_id(4) is not None and store.latest("soft-value") is None
    assert store.by_id(6).schema_type == "JSON" and store.latest("people-value").schema.id == 5
    # the hard delete removes the subject-version and, held by nothing else, the id
    assert store.by_id(3) is None and ("gone-value", 1) not in store.versions
    assert store.counts == {
        "CONFIG": 1,
        "DELETE_SUBJECT": 1,
        "NOOP tombstone": 1,
        "SCHEMA": 7,
        "SCHEMA tombstone": 1,
    }


def test_clear_subject_hard_deletes_only_the_soft_deleted_versions():
    store = SchemaStore()
    store.apply(skey("s", 1), sval("s", 1, 10, AVRO_V1, deleted=True))
    store.apply(skey("s", 2), sval("s", 2, 11, AVRO_V2))
    store.apply(b'{"keytype":"CLEAR_SUBJECT","subject":"s","magic":0}', b'{"subject":"s"}')
    assert store.by_id(10) is None and store.by_id(11) is not None
    assert list(store.versions) == [("s", 2)]


def test_an_id_held_by_two_subjects_survives_one_hard_delete():
    store = SchemaStore()
    store.apply(skey("a", 1), sval("a", 1, 7, AVRO_V1))
    store.apply(skey("b", 1), sval("b", 1, 7, AVRO_V1))
    store.apply(skey("a", 1), None)
    assert store.by_id(7).schema == AVRO_V1
    store.apply(skey("b", 1), None)
    assert store.by_id(7) is None


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        (None, b"{}", "the key is null"),
        (b"\xff\xfe", b"{}", "the key is not JSON"),
        (b"[1]", b"{}", "the key is JSON but not an object"),
        (b'{"subject":"s"}', b"{}", "the key has no keytype"),
        (b'{"keytype":"SCHEMAS","subject":"s"}', b"{}", "unknown keytype 'SCHEMAS'"),
        (skey("s", 1), b"not json", "the value is not JSON"),
        (
            skey("s", 1),
            b'{"subject":"s","version":1,"schema":"x"}',
            "the value's 'id' is null, not an integer",
        ),
        (skey("s", 1), b'{"subject":"s","version":1,"id":true,"schema":"x"}', "the value's 'id' is true"),
        (skey("s", 1), b'{"subject":"t","version":1,"id":1,"schema":"x"}', "is not the key's 's' 1"),
        (skey("s", 1), sval("s", 1, 1, "x", schema_type="THRIFT"), "unknown schemaType 'THRIFT'"),
        (
            skey("s", 1),
            b'{"subject":"s","version":1,"id":1,"schema":"x","deleted":"yes"}',
            "not true or false",
        ),
        (
            skey("s", 1),
            b'{"subject":"s","version":1,"id":1,"schema":"x","references":[{"name":"n"}]}',
            "the reference's 'subject' is null",
        ),
    ],
)
def test_a_record_the_registry_would_not_write_is_reported_not_applied(key, value, reason):
    store = SchemaStore()
    store.apply(skey("ok", 1), sval("ok", 1, 99, AVRO_V1), "seg offset 0")
    store.apply(key, value, "seg offset 1")
    store.apply(skey("ok", 2), sval("ok", 2, 98, AVRO_V2), "seg offset 2")
    assert len(store.problems) == 1
    where, what = store.problems[0]
    assert where == "seg offset 1" and reason in what
    assert sorted(store.ids) == [98, 99]  # nothing invented, the replay went on


def test_an_id_already_another_schemas_is_refused_as_the_registry_does():
    store = SchemaStore()
    store.apply(skey("a", 1), sval("a", 1, 5, AVRO_V1), "x offset 0")
    store.apply(skey("b", 1), sval("b", 1, 5, AVRO_V2), "x offset 1")
    assert store.by_id(5).schema == AVRO_V1 and ("b", 1) not in store.versions
    assert store.problems == [
        (
            "x offset 1",
            "schema id 5 is already 'a' version 1's, with another schema (the registry ignores it)",
        )
    ]


def _cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = main(list(args))
    return rc, out.getvalue(), err.getvalue()


def test_inspect_schemas_text_and_json(tmp_path):
    write_schemas(tmp_path, HISTORY)
    rc, out, err = _cli("inspect", "schemas", str(tmp_path))
    assert (rc, err) == (0, "")
    assert "subject orders-value\n  version 1  id 1  AVRO\n  version 2  id 2  AVRO\n" in out
    assert "subject soft-value\n  version 1  id 4  AVRO  deleted\n" in out
    assert "gone-value" not in out
    rc, out, err = _cli("inspect", "schemas", str(tmp_path), "--json")
    body = json.loads(out)
    assert rc == 0 and [s["subject"] for s in body["subjects"]] == [
        "orders-value",
        "people-value",
        "soft-value",
    ]
    assert body["subjects"][1]["versions"][1] == {
        "subject": "people-value",
        "version": 2,
        "id": 6,
        "schema_type": "JSON",
        "deleted": True,
        "references": [],
        "schema": '{"type":"object","properties":{}}',
    }


def test_inspect_schemas_names_each_bad_record_and_exits_1(tmp_path):
    write_schemas(tmp_path, [HISTORY[0], (b"junk", b"{}"), HISTORY[1]])
    rc, out, err = _cli("inspect", "schemas", str(tmp_path))
    assert rc == 1 and "Traceback" not in err
    assert err.count("\n") == 1 and "_schemas-0/00000000000000000000.log offset 1: the key is not JSON" in err
    assert "version 2  id 2" in out


def test_inspect_schemas_without_the_topic_is_exit_2(tmp_path):
    (tmp_path / "canary").write_text("keep")
    rc, _, err = _cli("inspect", "schemas", str(tmp_path))
    assert rc == 2 and "no _schemas partition here" in err and (tmp_path / "canary").exists()


class _Registry(BaseHTTPRequestHandler):
    """Serves GET /schemas/ids/{id} and /subjects/{s}/versions/{v} from a SchemaStore, as the registry does."""

    store: SchemaStore
    paths: list[str]
    auth: list[str | None]

    def do_GET(self):
        self.paths.append(self.path)
        self.auth.append(self.headers.get("Authorization"))
        parts = self.path.strip("/").split("/")
        schema = None
        if parts[:2] == ["schemas", "ids"]:
            schema = self.store.by_id(int(parts[2]))
        elif parts[0] == "subjects" and len(parts) == 4:
            schema = self.store.version(parts[1], int(parts[3]))
        if schema is None:
            self.send_response(404)
            self.end_headers()
            self.wfile.write(b'{"error_code":40403,"message":"Schema not found"}')
            return
        body = {
            "id": schema.id,
            "schema": schema.schema,
            "references": [r._asdict() for r in schema.references],
        }
        if schema.schema_type != "AVRO":
            body["schemaType"] = schema.schema_type
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/vnd.schemaregistry.v1+json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def registry(tmp_path):
    """A registry on 127.0.0.1 serving what the ``_schemas`` topic of HISTORY holds."""
    write_schemas(tmp_path / "registry-data", HISTORY)
    handler = type(
        "H",
        (_Registry,),
        {"store": read_schemas(open_log(tmp_path / "registry-data")), "paths": [], "auth": []},
    )
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://user:secret@127.0.0.1:{server.server_address[1]}", handler.paths, handler.auth
    finally:
        server.shutdown()
        server.server_close()


def test_registry_url_second_source_cached(registry):
    url, paths, auth = registry
    client = RegistryClient(url)
    schemas = Schemas(SchemaStore(), client)  # nothing in _schemas: every id from the registry
    assert schemas.by_id(2).schema == AVRO_V2 and schemas.by_id(6).schema_type == "JSON"
    assert schemas.by_id(3) is None  # hard-deleted: 404
    for _ in range(100):
        schemas.by_id(2)
        schemas.by_id(3)
    assert paths == ["/schemas/ids/2", "/schemas/ids/6", "/schemas/ids/3"]
    assert schemas.version("orders-value", 1).id == 1
    assert set(auth) == {"Basic dXNlcjpzZWNyZXQ="}  # user:secret


def test_registry_unreachable_is_one_error_without_credentials():
    from kafkaspec.values import RegistryError

    client = RegistryClient("http://user:secret@127.0.0.1:9/", timeout=2)
    with pytest.raises(RegistryError) as exc:
        client.by_id(1)
    assert "secret" not in str(exc.value) and "127.0.0.1:9/schemas/ids/1" in str(exc.value)
    with pytest.raises(RegistryError, match="must be http"):
        RegistryClient("file:///etc/passwd")


def _many_subjects(n: int) -> list[tuple[bytes, bytes]]:
    """n subjects of one version each, each then deleted and cleared: 3n records."""
    out = []
    for i in range(n):
        s = f"s{i}"
        out.append((skey(s, 1), sval(s, 1, i + 1, '"string"')))
    for i in range(n):
        s = f"s{i}"
        out.append(
            (
                json.dumps({"keytype": "DELETE_SUBJECT", "subject": s}).encode(),
                json.dumps({"subject": s, "version": 1}).encode(),
            )
        )
        out.append(
            (
                json.dumps({"keytype": "CLEAR_SUBJECT", "subject": s}).encode(),
                json.dumps({"subject": s}).encode(),
            )
        )
    return out


def test_replay_is_linear_in_the_records():
    """DELETE_SUBJECT and CLEAR_SUBJECT touch the subject's versions, not every version of the store."""
    from support.timing import GROWTH, assert_linear

    scale = float(os.environ.get("KAFKASPEC_ADVERSARIAL_SCALE", "1"))
    small, large = _many_subjects(int(1500 * scale)), _many_subjects(int(1500 * scale * GROWTH))

    def replay(records):
        store = SchemaStore()
        for k, v in records:
            store.apply(k, v)
        assert not store.versions and not store.problems

    assert_linear(lambda: replay(small), lambda: replay(large), what="_schemas replay")

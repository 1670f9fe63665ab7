"""``schemaRegistryUrl`` end to end through the ``kafkalog`` source (issue 26): no ``_schemas`` topic
in the directory, a registry served by the test on localhost (basic auth from the URL's user-info),
the executors asking it; the credentials never appear in an error, the plan or the decoded rows."""

from __future__ import annotations

import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from support.values import V1, avro_bytes, framed

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter

SECRET = "s3cr3t-pw"
AUTH = "Basic " + base64.b64encode(f"reader:{SECRET}".encode()).decode()


class _Registry(BaseHTTPRequestHandler):
    asked: list[str] = []

    def do_GET(self):
        type(self).asked.append(self.path)
        if self.headers.get("Authorization") != AUTH:
            code, body = 401, b'{"error_code": 401}'
        elif self.path == "/schemas/ids/1":
            code, body = 200, json.dumps({"schema": json.dumps(V1)}).encode()
        elif self.path == "/schemas/ids/5":
            code, body = 500, b'{"error_code": 500}'
        else:
            code, body = 404, b'{"error_code": 40403}'
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def registry():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Registry)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://reader:{SECRET}@127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("registry-only")
    with PartitionWriter(root, "orders", 0) as w:
        w.append(
            [
                Record(key=b"1", value=framed(1, avro_bytes(V1, {"id": 1, "coupon": "X"}))),
                Record(key=b"2", value=framed(9, b"\x02")),  # an id the registry does not hold
                Record(key=b"3", value=framed(5, b"\x02")),
            ]
        )  # an id the registry fails on
    return root


def test_executors_decode_with_the_registry_and_no_credentials_show(spark, data, registry, capfd):
    df = (
        spark.read.format("kafkalog")
        .option("subscribe", "orders")
        .option("valueFormat", "avro")
        .option("schemaRegistryUrl", registry)
        .load(str(data))
    )
    rows = df.orderBy("offset").select("value_decoded", "value_error").collect()
    assert "/schemas/ids/1" in _Registry.asked
    decoded = [
        json.loads(r.value_decoded) if isinstance(r.value_decoded, str) else r.value_decoded for r in rows
    ]
    first = decoded[0] if isinstance(decoded[0], dict) else decoded[0].asDict()
    assert first == {"id": 1, "coupon": "X"}
    assert rows[0].value_error is None
    assert "unknown schema id 9" in rows[1].value_error
    assert "HTTP 500" in rows[2].value_error and "/schemas/ids/5" in rows[2].value_error
    plan = df._jdf.queryExecution().toString()
    for text in (rows[1].value_error, rows[2].value_error, plan, str(df.schema)):
        assert SECRET not in text and "reader:" not in text, text
    out, err = capfd.readouterr()  # what the driver, the JVM and the Python workers logged meanwhile
    assert SECRET not in out + err


def test_a_bad_registry_url_fails_without_its_credentials(spark, data):
    from pyspark.errors import PySparkException

    with pytest.raises((PySparkException, Exception)) as got:
        (
            spark.read.format("kafkalog")
            .option("subscribe", "orders")
            .option("valueFormat", "avro")
            .option("schemaRegistryUrl", f"ftp://reader:{SECRET}@127.0.0.1:1/")
            .load(str(data))
            .collect()
        )
    assert "registry URL must be http(s)" in str(got.value), str(got.value)[:2000]
    assert SECRET not in str(got.value)

"""The kafkalog source reads a bucket written under two key pairs, the keys given as reader options (paths
on the driver): the executors get the keys in their tasks, and no plan or error shows key material."""

from __future__ import annotations

import os

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from support.s3 import ACCESS_KEY, SECRET_KEY
from support.spark import source_rows

from kafkaspec import logdir

pytestmark = pytest.mark.spark


def _pair(directory, name):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    (directory / f"{name}.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def test_spark_reads_rotated_key_pairs_from_reader_options(spark, s3_env, s3_server, local_logs, tmp_path):
    assert not any(
        k.startswith("KAFKASPEC_TIERED_PRIVATE_KEY") for k in os.environ
    )  # only the options give keys
    keys = tmp_path / "keys"
    keys.mkdir()
    public = {"old": _pair(keys, "old"), "new": _pair(keys, "new")}
    uri = f"s3://{s3_server.new_bucket()}/tiered"
    logdir.write_tiered(
        local_logs,
        uri,
        chunk_size=900,
        key_pair=lambda t, p, base: ("old", public["old"]) if base < 30 else ("new", public["new"]),
    )
    s3 = {
        "s3.endpoint": s3_server.endpoint,
        "s3.accessKey": ACCESS_KEY,
        "s3.secretKey": SECRET_KEY,
        "s3.region": "us-east-1",
    }  # Spark's Python workers do not see this test's environment
    options = {**s3, "tieredPrivateKeyDir": str(keys), "splitSize": "1k"}
    assert source_rows(spark, uri, options) == source_rows(spark, local_logs)
    secret = (keys / "new.pem").read_text().splitlines()[1]
    df = spark.read.format("kafkalog").options(**options).load(uri)
    assert secret not in df._jdf.queryExecution().toString()
    only_old = {**s3, "tieredPrivateKey.old": str(keys / "old.pem")}
    with pytest.raises(Exception) as info:  # Spark wraps the worker's error
        spark.read.format("kafkalog").options(**only_old).load(uri).count()
    text = str(info.value)
    assert "key pair 'new', for which no private key" in text and ".rsm-manifest" in text
    assert secret not in text


def test_the_pipeline_reads_rotated_key_pairs_from_its_key_directory(spark, local_logs, tmp_path):
    """``kafkaspec pipeline --tiered-private-key-dir`` (``run_pipeline(private_key_dir=)``): the tasks get
    the keys, every record is written once, and the summary names no key."""
    import json

    from kafkaspec.spark.run.pipeline import run_pipeline

    assert not any(k.startswith("KAFKASPEC_TIERED_PRIVATE_KEY") for k in os.environ)
    keys = tmp_path / "keys"
    keys.mkdir()
    public = {"old": _pair(keys, "old"), "new": _pair(keys, "new")}
    remote = tmp_path / "tiered"
    logdir.write_tiered(
        local_logs,
        remote,
        chunk_size=900,
        key_pair=lambda t, p, base: ("old", public["old"]) if base < 30 else ("new", public["new"]),
    )
    with logdir.open_log(local_logs) as log:
        expected = sum(1 for p in log.partitions() for _ in p.records())
    summary = run_pipeline(spark, str(remote), str(tmp_path / "out"), private_key_dir=str(keys))
    assert summary.records == expected and not summary.corrupt, summary
    secret = (keys / "new.pem").read_text().splitlines()[1]
    assert secret not in json.dumps(summary.__dict__, default=str)

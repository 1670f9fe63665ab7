"""Errors of the GCS and Azure stores, as of S3's (tests/storage/test_s3_logdir.py): one line naming the
URI, no credential in it, exit 2."""

from __future__ import annotations

import pytest
from support.s3 import SilentServer
from support.stores import AZURE_KEY, start_azure

from kafkaspec.cli import main


def test_azure_wrong_key_is_access_denied_in_one_line_without_the_key(monkeypatch, capsys):
    server = start_azure()
    try:
        bucket = server.new_bucket()
        wrong = "d3Jvbmcta2V5LWZvci10aGUta2Fma2FzcGVjLXRlc3RzLTAwMDAwMDAwMDAwMDAwMDA="
        monkeypatch.setenv("AZURE_STORAGE_CONNECTION_STRING", server.connection_string(wrong))
        uri = server.uri(bucket, "backup")
        code = main(["dump", uri])
        out, err = capsys.readouterr()
        assert code == 2, err
        assert err.count("\n") == 1 and uri in err and "access denied" in err, err
        assert wrong not in out + err and AZURE_KEY not in out + err
    finally:
        server.stop()


# (and test_store_timeouts.py: every GCS and Azure scheme, dump and verify, each in a process of its own)
@pytest.mark.parametrize("kind", ["gcs", "azure"])
def test_a_server_that_never_answers_times_out_in_one_line(kind, monkeypatch, capsys):
    silent = SilentServer()
    try:
        monkeypatch.setenv("KAFKASPEC_STORAGE_TIMEOUT", "2")
        if kind == "gcs":
            monkeypatch.setenv("STORAGE_EMULATOR_HOST", silent.endpoint)
            uri = "gs://some-bucket/backup"
        else:
            monkeypatch.setenv(
                "AZURE_STORAGE_CONNECTION_STRING",
                f"AccountName=devstoreaccount1;AccountKey={AZURE_KEY};"
                f"BlobEndpoint={silent.endpoint}/devstoreaccount1",
            )
            uri = "abfs://some-container@devstoreaccount1.dfs.core.windows.net/backup"
        code = main(["dump", uri])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and uri in err, err
        assert "no answer from" in err, err
    finally:
        silent.close()

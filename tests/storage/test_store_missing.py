"""Missing objects and refused requests on every store (S3: moto, GCS: gcp-storage-emulator, Azure: Azurite):
one line naming the URI, exit 2, the same words on each store.

Missing buckets and prefixes are in test_s3_logdir.py (parametrised the same way); wrong credentials are
S3's ``test_wrong_credentials_are_refused_with_a_clear_error_and_no_secret`` and Azure's
``test_stores_errors.py``. GCS has none: neither gcp-storage-emulator nor fake-gcs-server checks
credentials or answers HTTP 403 (docs/storage.md says so among the limits).
"""

from __future__ import annotations

import errno

import pytest

from kafkaspec import logdir
from kafkaspec.cli import main
from kafkaspec.logdir.store.storage import StorageError

SEGMENT = "orders-0/00000000000000000000.log"


def _run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", ["dump", "verify"])
@pytest.mark.parametrize(
    "name",
    [
        "orders-0/00000000000000000099.log",
        "orders-0/00000000000000000099.index",
        "orders-0/00000000000000000099.timeindex",
    ],
)
def test_a_missing_object_is_one_line_naming_it(store_env, store_logs, capsys, command, name):
    uri = f"{store_logs}/{name}"
    code, out, err = _run(capsys, command, uri)
    assert code == 2, out + err
    assert err == f"kafkaspec {command}: {uri}: no such file or directory\n", err


def test_an_object_deleted_after_the_listing_is_an_error_naming_it(
    store_env, store_server, local_logs, capsys
):
    bucket = store_server.new_bucket()
    uri = store_server.upload(local_logs, bucket, "backup")
    log = logdir.open_log(uri)
    segment = next(s for p in log.partitions() if p.name == "orders-0" for s in p.segments())
    store_server.filesystem().delete_file(f"{bucket}/backup/{SEGMENT}")  # listed, then gone
    with pytest.raises(StorageError) as info:
        list(segment.iter_batches())
    assert info.value.errno == errno.ENOENT and info.value.filename == f"{uri}/{SEGMENT}", info.value
    assert "no such object" in str(info.value)


def test_dump_of_a_prefix_whose_object_vanished_mid_way_exits_2_naming_it(
    store_env, store_server, local_logs, capsys, monkeypatch
):
    """The CLI's face of the case above: the listing shows the segment, the read finds it gone."""
    bucket = store_server.new_bucket()
    uri = store_server.upload(local_logs, bucket, "backup")
    from kafkaspec.logdir.store import storage

    real_list = storage.Store.list
    deleted = []

    def list_then_delete(self, key):
        listing = real_list(self, key)
        if key == f"{bucket}/backup/orders-0" and not deleted:  # once, right after the first listing
            store_server.filesystem().delete_file(f"{bucket}/backup/{SEGMENT}")
            deleted.append(key)
        return listing

    monkeypatch.setattr(storage.Store, "list", list_then_delete)
    code, out, err = _run(capsys, "dump", f"{uri}/orders-0")
    assert code == 2, err
    assert err.count("\n") == 1 and f"{uri}/{SEGMENT}" in err and "no such object" in err, err

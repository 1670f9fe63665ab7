"""meta.properties is read as Kafka reads it: ``Properties.load(InputStream)``, ISO-8859-1.

Kafka writes the file through a UTF-8 writer and reads it back as Latin-1 (``PropertiesUtils``), so a
byte that is not UTF-8 (a comment, a key Kafka ignores, edited by hand on a Latin-1 system) is no
problem for the broker. It was for us: every reader refused the whole file as "not UTF-8 text" and
learnt neither the node id nor the cluster id.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

from support.logdir import write_partition

from kafkaspec.cli import main
from kafkaspec.logdir.verify.summary import summarise
from kafkaspec.logdir.verify.verifier import verify_path

META = (
    b"#\n#Thu Nov 26 10:00:00 CET 2026 caf\xe9\n"
    b"node.id=4\ndirectory.id=xqYz9jS0QRuWvW0Y7eW8Ag\nversion=1\ncluster.id=MkU3OEVBNTcwNTJENDM2Qg\n"
    b"owner=Ren\xe9\n"
)


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def _data_dir(tmp_path):
    root = tmp_path / "data"
    write_partition(root, batches=3)
    (root / "meta.properties").write_bytes(META)
    (root / ".kafka_cleanshutdown").write_text('{"version":0,"brokerEpoch":42}')
    (tmp_path / "canary").write_text("keep")
    return root


def test_verify_reads_a_latin1_meta_properties_as_kafka_does(tmp_path):
    root = _data_dir(tmp_path)
    found = [(p.severity, p.message) for p in verify_path(root)]
    assert found == [("warning", "not read by Kafka: owner on line 7 (not a key Kafka reads)")]


def test_inspect_datadir_shows_its_ids(tmp_path):
    root = _data_dir(tmp_path)
    assert summarise(root)["meta_properties"] == {
        "version": 1,
        "node_id": 4,
        "cluster_id": "MkU3OEVBNTcwNTJENDM2Qg",
        "directory_id": "xqYz9jS0QRuWvW0Y7eW8Ag",
    }


def test_explain_shows_the_line_as_kafka_reads_it(tmp_path):
    root = _data_dir(tmp_path)
    code, out, err = run("explain", root / "meta.properties", "--json")
    assert (code, err) == (0, "")
    assert "owner=René" in json.dumps(json.loads(out), ensure_ascii=False)
    assert (tmp_path / "canary").read_text() == "keep"

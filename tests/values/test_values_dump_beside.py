"""``dump <data dir>/<topic>-<n> --value-format auto`` reads the ``_schemas`` topic beside the partition
(saying which on stderr), and in ``auto`` a value that is not registry-framed in a topic whose
``<topic>-value`` subject exists is flagged, as the pipeline's typed column flags it."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

from support.values import V1, avro_bytes, framed, skey, sval

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.logdir import PartitionWriter


def _cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = main(list(map(str, args)))
    return rc, out.getvalue(), err.getvalue()


def _logs(root):
    with PartitionWriter(root, "_schemas", 0) as w:
        w.append([Record(key=skey("invoices-value", 1), value=sval("invoices-value", 1, 1, json.dumps(V1)))])
    with PartitionWriter(root, "invoices", 0) as w:
        w.append(
            [
                Record(value=framed(1, avro_bytes(V1, {"id": 1, "coupon": "C"})), timestamp=1),
                Record(value=b"plain text, not framed", timestamp=2),
            ]
        )
    with PartitionWriter(root, "notes", 0) as w:  # no subject: plain bytes are what it holds
        w.append([Record(value=b"plain text", timestamp=3)])
    (root.parent / "canary").write_text("stays")
    return root


def _rows(out):
    return [r for r in map(json.loads, out.splitlines()) if r["type"] == "record"]


def test_a_partition_dir_reads_the_schemas_beside_it(tmp_path):
    logs = _logs(tmp_path / "logs")
    rc, out, err = _cli("dump", logs / "invoices-0", "--value-format", "auto", "--json")
    rows = _rows(out)
    assert rows[0]["value_decoded"] == {"id": 1, "coupon": "C"}, rows[0]
    assert str(logs / "_schemas-0") in err and err.count("\n") == 1, err
    assert rc == 1  # the unframed value below


def test_auto_flags_an_unframed_value_where_the_subject_exists(tmp_path):
    logs = _logs(tmp_path / "logs")
    rc, out, _ = _cli("dump", logs / "invoices-0", "--value-format", "auto", "--json")
    assert rc == 1
    assert "not avro" in _rows(out)[1]["value_error"], _rows(out)[1]
    rc, out, _ = _cli("dump", logs / "notes-0", "--value-format", "auto", "--json")
    assert rc == 0 and "value_error" not in _rows(out)[0]


def test_a_segment_file_reads_the_schemas_beside_its_partition(tmp_path):
    logs = _logs(tmp_path / "logs")
    rc, out, err = _cli("dump", logs / "invoices-0" / "00000000000000000000.log", "--value-format", "auto")
    assert 'valueDecoded: {"id":1,"coupon":"C"}' in out and "_schemas-0" in err


def test_given_schemas_are_read_without_a_note(tmp_path):
    logs = _logs(tmp_path / "logs")
    rc, out, err = _cli("dump", logs / "invoices-0", "--schemas", logs, "--value-format", "auto")
    assert err == "" and 'valueDecoded: {"id":1,"coupon":"C"}' in out

"""``kafkaspec review kafka-specs PATH`` (issue 23, part 5): Kafka's JSON specs against schemas/messages/.

The spec files are written by the test into its own tmp_path, from the kept facts of Kafka trunk
d79bd502ec (``tests/codecs/kafka_specs/``), with the ``//`` comment lines Kafka's files carry.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from kafkaspec.cli import main

ROOT = Path(__file__).resolve().parents[2]
FACTS = json.loads((ROOT / "tests" / "codecs" / "kafka_specs" / "facts-trunk-d79bd502ec.json").read_text())


def _write_checkout(root: Path, edit=None) -> Path:
    """Kafka's spec files as a source checkout lays them out (``source`` is each file's path)."""
    for name, f in FACTS["messages"].items():
        spec = {k: v for k, v in f.items() if k != "source"}
        spec["name"] = name
        if edit:
            edit(name, spec)
        path = root / f["source"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            "// Licensed to the Apache Software Foundation (ASF)\n" + json.dumps(spec, indent=2) + "\n"
        )
    # a request beside them is not log data: ignored
    (root / "clients/src/main/resources/common/message/FetchRequest.json").write_text(
        json.dumps(
            {"apiKey": 1, "type": "request", "name": "FetchRequest", "validVersions": "0-17", "fields": []}
        )
    )
    return root


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["review", "kafka-specs", *args, "--schemas-dir", str(ROOT / "schemas")])
    return code, out.getvalue(), err.getvalue()


def test_in_step_with_trunk(tmp_path):
    code, out, err = _run(str(_write_checkout(tmp_path / "kafka")))
    assert code == 0, out + err
    assert "0 differences, 0 notes" in out and "drift" not in out
    assert "pending  ProducerSnapshot: read by kafkaspec.logdir" in out and "FetchRequest" not in out
    assert "ShareSnapshotKey" not in out and "ConsumerProtocolSubscription" not in out  # described: compared


def test_a_folder_of_json_specs_and_drift(tmp_path):
    checkout = _write_checkout(
        tmp_path / "kafka",
        edit=lambda name, spec: spec.update(validVersions="0-5") if name == "RegisterBrokerRecord" else None,
    )
    flat = tmp_path / "specs"
    flat.mkdir()
    for p in (checkout / "metadata").rglob("*.json"):
        (flat / p.name).write_bytes(p.read_bytes())
    code, out, err = _run(str(flat))
    assert code == 1, out + err
    assert "drift    RegisterBrokerRecord v5: missing version" in out
    assert "1 difference," in out


def test_bad_input(tmp_path):
    code, out, err = _run(str(tmp_path / "nowhere"))
    assert code == 2 and "not a directory" in err and "Traceback" not in err and err.count("\n") == 1
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = _run(str(empty))
    assert code == 2 and "holds no JSON spec files" in err
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "TopicRecord.json").write_text('{"name": "TopicRecord", "validVersions": "0", ')
    code, out, err = _run(str(broken))
    assert code == 1 and "TopicRecord.json: not JSON" in err and "Traceback" not in err


def test_a_spec_that_lies_is_named(tmp_path):
    """A field with no type, a bad version range, a tagged field with no tag: the file and field named."""
    for body, expected in [
        ({"fields": [{"name": "Id", "versions": "0+"}]}, "TopicRecord: a field needs a name and a type"),
        (
            {"fields": [{"name": "Id", "type": "int32", "versions": "0-x"}]},
            "TopicRecord.Id versions: versions must",
        ),
        (
            {"fields": [{"name": "Id", "type": "int32", "versions": "0+", "taggedVersions": "0+"}]},
            "TopicRecord.Id: a tagged field needs a tag",
        ),
        ({"validVersions": "zero"}, "TopicRecord.validVersions: versions must"),
    ]:
        d = tmp_path / str(len(list(tmp_path.iterdir())))
        d.mkdir()
        spec = {
            "apiKey": 2,
            "type": "metadata",
            "name": "TopicRecord",
            "validVersions": "0",
            "flexibleVersions": "0+",
            "fields": [],
        }
        spec.update(body)
        (d / "TopicRecord.json").write_text(json.dumps(spec))
        code, out, err = _run(str(d))
        assert code == 1 and f"TopicRecord.json: {expected}" in err and "Traceback" not in err, err

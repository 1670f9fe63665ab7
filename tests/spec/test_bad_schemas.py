"""Every schema in tests/spec/bad_schemas/ is rejected with exactly the message in its .expected file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kafkaspec.spec import SchemaError, load

HERE = Path(__file__).parent / "bad_schemas"
ENUMS = Path(__file__).resolve().parents[2] / "schemas" / "enums.yaml"
CASES = sorted(HERE.glob("*.yaml"))


def test_every_case_has_an_expected_message():
    yamls = {p.stem for p in CASES}
    expected = {p.stem for p in HERE.glob("*.expected")}
    assert yamls == expected
    assert len(yamls) >= 11


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_bad_schema_is_rejected(path, tmp_path):
    shutil.copy(ENUMS, tmp_path / "enums.yaml")
    shutil.copy(path, tmp_path / path.name)
    with pytest.raises(SchemaError) as exc:
        load(tmp_path)
    assert str(exc.value) == path.with_suffix(".expected").read_text(encoding="utf-8").strip()


def test_the_enums_alone_are_valid(tmp_path):
    """The harness itself: the copied enums load, so each failure above is the case's own."""
    shutil.copy(ENUMS, tmp_path / "enums.yaml")
    schemas = load(tmp_path)
    assert {"CompressionType", "TimestampType", "ControlRecordType"} <= set(schemas.enums)
    assert not schemas.structs

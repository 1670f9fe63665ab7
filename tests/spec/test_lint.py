"""The schema lint: every rule has a failing fixture with its exact message; the real schemas pass."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kafkaspec.spec import SchemaError, lint_problems, load

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "lint_fixtures"
CASES = sorted(FIXTURES.glob("*.yaml"))


def expected(path: Path) -> str:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# expect: "), f"{path.name} must start with '# expect: <message>'"
    return first.removeprefix("# expect: ")


@pytest.mark.parametrize("fixture", CASES, ids=[c.stem for c in CASES])
def test_fixture_is_rejected_with_its_message(fixture: Path, tmp_path: Path) -> None:
    # each fixture is loaded beside the real shared enums and the fixtures' support enums
    shutil.copy(REPO / "schemas" / "enums.yaml", tmp_path)
    shutil.copy(FIXTURES / "_support" / "support_enums.yaml", tmp_path)
    shutil.copy(fixture, tmp_path)
    with pytest.raises(SchemaError) as err:
        load(tmp_path)
    assert str(err.value) == expected(fixture)


def test_support_enums_alone_are_valid(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "_support" / "support_enums.yaml", tmp_path)
    assert set(load(tmp_path).enums) == {"OnlyOne", "Wide"}


def test_every_lint_rule_has_a_fixture() -> None:
    names = {c.stem for c in CASES}
    for rule in (
        "field_missing_since",
        "field_missing_doc",
        "bit_missing_doc",
        "field_not_snake_case",
        "enum_gap",
        "enum_too_wide_for_bits",
        "enum_one_bit_incomplete",
        "checksum_range_not_a_field",
        "length_range_not_a_field",
        "length_names_non_integer",
        "discriminator_wrong_offset",
    ):
        assert rule in names


def test_the_real_schemas_pass_the_lint() -> None:
    schemas = load(REPO / "schemas", lint=False)
    assert lint_problems(schemas) == []


def test_lint_is_part_of_load(tmp_path: Path) -> None:
    fixture = FIXTURES / "field_missing_since.yaml"
    shutil.copy(fixture, tmp_path)
    with pytest.raises(SchemaError) as err:
        load(tmp_path)
    assert str(err.value) == expected(fixture)
    assert load(tmp_path, lint=False).structs  # the structural checks alone accept it
    assert lint_problems(load(tmp_path, lint=False)) == [expected(fixture)]

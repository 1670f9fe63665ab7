"""`kafkaspec review diff` on message-spec schemas: a version bump of one file is classified."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from kafkaspec.cli import main

SCHEMA = Path(__file__).resolve().parents[2] / "schemas" / "messages" / "offset_commit_value.yaml"


def _diff(tmp_path, edit):
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    text = SCHEMA.read_text(encoding="utf-8")
    (old / SCHEMA.name).write_text(text, encoding="utf-8")
    (new / SCHEMA.name).write_text(edit(text), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["review", "diff", str(old / SCHEMA.name), str(new / SCHEMA.name)])
    return code, out.getvalue() + err.getvalue()


def test_a_new_version_and_a_new_tag_are_compatible(tmp_path):
    def bump(text):
        return text.replace('valid_versions: "0-4"', 'valid_versions: "0-5"') + (
            "  - {name: owner_id, type: uuid, versions: 5+, doc: Owner id.}\n"
            "  - {name: note, type: string, versions: 4+, tagged_versions: 4+, tag: 1, doc: A note.}\n"
        )

    code, out = _diff(tmp_path, bump)
    assert code == 0, out
    assert "compatible  version  v5" in out and "new fields: OffsetCommitValue.owner_id  [M2]" in out
    assert "tagged field 1 (string)  [M3]" in out and "verdict: COMPATIBLE (0 breaking, 2 compatible)" in out


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            lambda t: t.replace(
                '  - name: metadata\n    type: string\n    versions: "0+"',
                '  - name: metadata\n    type: string\n    versions: "1+"',
            ),
            "BREAKING    layout  OffsetCommitValue v0  untagged fields [offset int64, metadata string, commit_timestamp int64]"
            " -> [offset int64, commit_timestamp int64]  [M1]",
        ),
        (
            lambda t: (
                t.split("  - name: topic_id")[0]
                .replace('valid_versions: "0-4"', 'valid_versions: "0-3"')
                .replace('flexible_versions: "4+"', 'flexible_versions: "none"')
            ),
            "BREAKING    removed  v4  version 4 dropped (valid_versions 0-4 -> 0-3)  [M4]",
        ),
        (
            lambda t: t.replace('flexible_versions: "4+"', 'flexible_versions: "3+"'),
            "BREAKING    flexible  v3  flexible False -> True  [M1]",
        ),
    ],
)
def test_changing_an_existing_version_is_breaking(tmp_path, edit, expected):
    code, out = _diff(tmp_path, edit)
    assert code == 1
    assert expected in out


def test_a_rename_and_doc_edit_are_compatible(tmp_path):
    code, out = _diff(
        tmp_path,
        lambda t: t.replace("name: commit_timestamp", "name: committed_at").replace(
            "When the offset was committed (ms).", "Commit time (ms)."
        ),
    )
    assert code == 0, out
    assert "renamed  OffsetCommitValue v0.commit_timestamp  commit_timestamp -> committed_at  [N1]" in out

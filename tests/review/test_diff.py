"""Schema diffs: the change lists and verdicts of real pairs, the within-version rules, the CLI."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from kafkaspec.cli import main
from kafkaspec.review.diff import diff_enums, diff_structs, render_markdown, render_text
from kafkaspec.review.locate import load_single

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = REPO / "schemas"
V0 = SCHEMAS / "legacy" / "message_v0.yaml"
V1 = SCHEMAS / "legacy" / "message_v1.yaml"
V2 = SCHEMAS / "record_batch_v2.yaml"
DRAFT = SCHEMAS / "proposals" / "kip98_message_set_v2.yaml"
COMPAT, BREAK = False, True


def wire_changes(old: Path, new: Path) -> tuple[str, list[tuple]]:
    """(verdict, changes other than doc/since edits) -- doc text may be reworded freely."""
    d = diff_structs(load_single(old), load_single(new))
    return d.verdict, [
        (c.kind, c.field, c.breaking, c.rule) for c in d.changes if c.kind not in ("doc", "since")
    ]


def test_message_v0_to_v1_is_compatible() -> None:
    verdict, changes = wire_changes(V0, V1)
    assert changes == [
        ("added", "timestamp", COMPAT, "V3"),
        ("const", "magic", COMPAT, "V3"),
        ("bits", "attributes.timestamp_type", COMPAT, "V3"),
        ("shifted", "key", COMPAT, "V3"),
    ]
    assert verdict == "compatible"


PREFIX_BREAKS = [
    ("added", "partition_leader_epoch", BREAK, "V2"),
    ("moved", "crc", BREAK, "V2"),
    ("checksum", "crc", BREAK, "V2"),
]


def test_message_v1_to_record_batch_v2_breaks_the_prefix_rule() -> None:
    verdict, changes = wire_changes(V1, V2)
    assert verdict == "breaking"
    assert [c for c in changes if c[2]] == PREFIX_BREAKS
    assert ("renamed", "base_offset", COMPAT, "N1") in changes
    assert ("renamed", "batch_length", COMPAT, "N1") in changes  # counts from byte 12 in both
    assert ("retyped", "attributes", COMPAT, "V3") in changes
    assert ("bits", "attributes.has_delete_horizon", COMPAT, "V3") in changes
    assert {c[1] for c in changes if c[0] == "removed"} == {"timestamp", "key", "value"}
    assert {c[1] for c in changes if c[0] == "added"} == {
        "partition_leader_epoch",
        "last_offset_delta",
        "base_timestamp",
        "max_timestamp",
        "producer_id",
        "producer_epoch",
        "base_sequence",
        "records_count",
        "records",
    }


def test_draft_to_record_batch_v2() -> None:
    verdict, changes = wire_changes(DRAFT, V2)
    assert verdict == "breaking"
    assert [c for c in changes if c[2]] == PREFIX_BREAKS
    assert changes[:3] == [
        ("status", "", COMPAT, "D1"),
        ("renamed", "base_offset", COMPAT, "N1"),
        ("renamed", "batch_length", COMPAT, "N1"),
    ]
    assert {c[1] for c in changes if c[0] == "removed"} == {
        "offset_delta",
        "pid",
        "epoch",
        "sequence",
        "messages",
    }
    assert ("shifted", "max_timestamp", COMPAT, "V3") in changes
    assert ("bits", "attributes.is_control", COMPAT, "V3") in changes


def test_draft_message_to_record_v2_has_no_magic_so_is_free() -> None:
    verdict, changes = wire_changes(
        SCHEMAS / "proposals" / "kip98_message_v2.yaml", SCHEMAS / "record_v2.yaml"
    )
    assert verdict == "compatible"
    assert {c[3] for c in changes} <= {"V4", "D1", "N1"}
    assert ("removed", "crc", COMPAT, "V4") in changes
    assert ("present", "key", COMPAT, "V4") in changes


# -- within a version -------------------------------------------------------------------


def edited(tmp_path: Path, source: Path, old: str, new: str) -> Path:
    text = source.read_text(encoding="utf-8")
    assert old in text, old
    target = tmp_path / source.name
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return target


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "    type: int16\n    default: -1\n",
            "    type: int32\n    default: -1\n",
            [
                ("retyped", "producer_epoch", BREAK, "W1"),
                ("shifted", "base_sequence", BREAK, "W1"),
                ("shifted", "records_count", BREAK, "W1"),
                ("shifted", "records", BREAK, "W1"),
            ],
        ),
        ("    const: 2\n", "    const: 3\n", [("const", "magic", BREAK, "W2")]),
        ("algorithm: crc32c", "algorithm: crc32", [("checksum", "crc", BREAK, "W2")]),
        (
            "{name: has_delete_horizon, bit: 6,",
            "{name: has_delete_horizon, bit: 7,",
            [("bits", "attributes.has_delete_horizon", BREAK, "W3")],
        ),
        (
            "      - {name: is_control, bit: 5, doc: The batch holds exactly one control record.}\n",
            "",
            [("bits", "attributes.is_control", BREAK, "W3")],
        ),
        (
            "  - name: base_sequence\n",
            "  - name: first_sequence\n",
            [("renamed", "first_sequence", COMPAT, "N1")],
        ),
        (
            "    doc: Producer epoch, -1 when unused.",
            "    doc: Producer epoch; -1 when the producer has none.",
            [("doc", "producer_epoch", COMPAT, "D1")],
        ),
    ],
    ids=["retype", "const", "checksum", "bit-moved", "bit-removed", "rename", "doc-only"],
)
def test_within_a_version(tmp_path: Path, old: str, new: str, expected: list) -> None:
    d = diff_structs(load_single(V2), load_single(edited(tmp_path, V2, old, new)))
    assert [(c.kind, c.field, c.breaking, c.rule) for c in d.changes] == expected
    assert d.verdict == ("breaking" if expected[0][2] else "compatible")


def test_adding_a_bit_in_unused_positions_is_compatible(tmp_path: Path) -> None:
    new = edited(
        tmp_path,
        V2,
        "      - {name: has_delete_horizon",
        '      - {name: is_future_flag, bit: 7, since: "9.9.0", doc: New.}\n      - {name: has_delete_horizon',
    )
    d = diff_structs(load_single(V2), load_single(new))
    assert [(c.kind, c.field, c.breaking, c.rule) for c in d.changes] == [
        ("bits", "attributes.is_future_flag", COMPAT, "W3")
    ]


def test_inserting_a_field_shifts_the_ones_after_it(tmp_path: Path) -> None:
    new = edited(
        tmp_path,
        V2,
        "  - name: producer_id\n",
        '  - name: spare\n    type: int32\n    since: "9.9.0"\n    doc: New.\n  - name: producer_id\n',
    )
    d = diff_structs(load_single(V2), load_single(new))
    got = [(c.kind, c.field, c.breaking, c.rule, c.detail) for c in d.changes]
    assert got[0] == ("added", "spare", BREAK, "W1", "added int32 at byte 43")
    assert ("shifted", "producer_id", BREAK, "W1", "position byte 43 -> 47") in got
    assert ("shifted", "records_count", BREAK, "W1", "position byte 57 -> 61") in got


def test_moving_a_field_within_a_version(tmp_path: Path) -> None:
    text = V2.read_text(encoding="utf-8")
    a = text.index("  - name: producer_epoch\n")
    b = text.index("  - name: base_sequence\n")
    c = text.index("  - name: records_count\n")
    swapped = text[:a] + text[b:c] + text[a:b] + text[c:]
    new = tmp_path / V2.name
    new.write_text(swapped, encoding="utf-8")
    d = diff_structs(load_single(V2), load_single(new))
    assert [(c.kind, c.field, c.breaking, c.rule, c.detail) for c in d.changes] == [
        ("moved", "producer_epoch", BREAK, "W1", "moved after base_sequence (byte 51 -> 55)"),
        ("shifted", "base_sequence", BREAK, "W1", "position byte 53 -> 51"),
    ]


@pytest.mark.parametrize(
    ("source", "old", "new", "expected"),
    [
        (
            SCHEMAS / "record_v2.yaml",
            "default: index}",
            "default: base}",
            (
                "relative",
                "offset_delta",
                BREAK,
                "W2",
                "relative_to ('base_offset', 'offset', 'index') -> ('base_offset', 'offset', 'base')",
            ),
        ),
        (
            V2,
            "compressed_by: attributes.compression",
            "compressed_by: attributes.timestamp_type",
            (
                "compressed",
                "records",
                BREAK,
                "W2",
                "compressed_by ('attributes', 'compression') -> ('attributes', 'timestamp_type')",
            ),
        ),
        (
            V2,
            "discriminator: {field: magic, offset: 16}",
            "discriminator: {field: magic, offset: 12}",
            ("discriminator", "", BREAK, "V1", "discriminator ('magic', 16) -> ('magic', 12)"),
        ),
        (
            V2,
            "algorithm: crc32c, from: attributes",
            "algorithm: crc32c, from: last_offset_delta",
            (
                "checksum",
                "crc",
                BREAK,
                "W2",
                "checksum crc32c over attributes..end -> crc32c over last_offset_delta..end",
            ),
        ),
    ],
    ids=["relative", "compressed", "discriminator", "checksum-range"],
)
def test_reference_changes_show_both_sides(
    tmp_path: Path, source: Path, old: str, new: str, expected: tuple
) -> None:
    d = diff_structs(load_single(source), load_single(edited(tmp_path, source, old, new)))
    assert [(c.kind, c.field, c.breaking, c.rule, c.detail) for c in d.changes] == [expected]


def test_proposal_edits_within_a_version_are_compatible(tmp_path: Path) -> None:
    new = edited(tmp_path, DRAFT, "    type: int16\n    since", "    type: int32\n    since")
    d = diff_structs(load_single(DRAFT), load_single(new))
    assert d.changes and all(not c.breaking and c.rule in ("P1", "D1") for c in d.changes)


def test_enum_diffs(tmp_path: Path) -> None:
    old = load_single(SCHEMAS / "enums.yaml")
    text = (SCHEMAS / "enums.yaml").read_text(encoding="utf-8")
    added = tmp_path / "a" / "enums.yaml"
    added.parent.mkdir()
    added.write_text(
        text.replace(
            "      - {name: zstd, value: 4,",
            "      - {name: brotli, value: 5, doc: Hypothetical.}\n      - {name: zstd, value: 4,",
        )
    )
    d = diff_enums(old, load_single(added), "old", "new")
    assert [(c.kind, c.field, c.breaking) for c in d.changes] == [("added", "CompressionType.brotli", False)]
    renumbered = tmp_path / "b" / "enums.yaml"
    renumbered.parent.mkdir()
    renumbered.write_text(text.replace("{name: zstd, value: 4,", "{name: zstd, value: 5,"))
    d = diff_enums(old, load_single(renumbered), "old", "new")
    assert [(c.kind, c.field, c.breaking, c.rule) for c in d.changes] == [
        ("renumbered", "CompressionType.zstd", True, "E1")
    ]


# -- rendering and the command line ---------------------------------------------------------


def test_render_text_and_markdown() -> None:
    d = diff_structs(load_single(V1), load_single(V2))
    text = render_text(d)
    assert "BREAKING" in text and "verdict: BREAKING (3 breaking" in text
    assert "V2: every field before the magic byte keeps its position, width and meaning" in text
    md = render_markdown(d)
    assert md.startswith("### Schema diff: `Message v1` → `RecordBatch v2`")
    assert "| **breaking** | moved | `crc` | moved after magic (byte 12 -> 17) | V2 |" in md


def test_cli_exit_codes(capsys) -> None:
    assert main(["review", "diff", str(V0), str(V1)]) == 0
    assert main(["review", "diff", str(V1), str(V2), "--markdown"]) == 1
    out = capsys.readouterr().out
    assert "verdict: COMPATIBLE" in out and "**verdict: BREAKING" in out
    assert main(["review", "diff", str(V0)]) == 2
    assert "give NEW, or --rev-old/--rev-new" in capsys.readouterr().err
    assert main(["review", "diff", str(V0), str(SCHEMAS / "enums.yaml")]) == 2
    assert "OLD and NEW must both be structure files or both enums files" in capsys.readouterr().err


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        [
            "git",
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.invalid",
            "-c",
            "commit.gpgsign=false",
            *args,
        ],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def test_cli_at_git_revisions(tmp_path: Path, capsys, monkeypatch) -> None:
    repo = tmp_path / "repo"
    (repo / "schemas").mkdir(parents=True)
    schema = repo / "schemas" / V2.name
    shutil.copy(V2, schema)
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "one")
    schema.write_text(V2.read_text().replace("    const: 2\n", "    const: 7\n"))
    _git(repo, "commit", "-q", "-am", "two")
    monkeypatch.chdir(repo)
    assert main(["review", "diff", str(schema), "--rev-old", "HEAD~1", "--rev-new", "HEAD"]) == 1
    assert "constant 2 -> 7" in capsys.readouterr().out
    schema.write_text(
        V2.read_text()
        .replace("    const: 2\n", "    const: 7\n")
        .replace("doc: Producer epoch, -1 when unused.", "doc: Producer epoch (-1 when unused).")
    )
    assert main(["review", "diff", str(schema), "--rev-old", "HEAD"]) == 0  # work tree vs HEAD: a doc edit
    new_file = repo / "schemas" / "new_v0.yaml"
    new_file.write_text("x: 1\n")
    assert main(["review", "diff", str(new_file), "--rev-old", "HEAD"]) == 0
    assert "new file" in capsys.readouterr().out

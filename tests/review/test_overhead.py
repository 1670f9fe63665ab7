"""Overhead tables from the schemas alone: seed 004's "Space Comparison", and v2 beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafkaspec.cli import main
from kafkaspec.review.locate import resolve
from kafkaspec.review.overhead import Payload, overhead, render_markdown, render_text, table

REPO = Path(__file__).resolve().parents[2]
MESSAGE_V1 = REPO / "schemas" / "legacy" / "message_v1.yaml"
DRAFT = REPO / "schemas" / "proposals" / "kip98_message_set_v2.yaml"
V2 = REPO / "schemas" / "record_batch_v2.yaml"

#: seed 004, "Space Comparison": 1K messages with 100-byte keys.
SEED_004 = [
    ["Batch Size", "Old Format Overhead", "New Format Overhead"],
    ["1", "34*1 = 34", "45 + 1*17 = 62"],
    ["3", "34*3 = 102", "45 + 3*17 = 96"],
    ["10", "34*10 = 340", "45 + 10*17 = 215"],
    ["50", "34*50 = 1700", "45 + 50*17 = 895"],
    ["100", "34*100 = 3400", "45 + 100*17 = 1745"],
]


@pytest.fixture(scope="module")
def structs():
    (v1, schemas), (draft, _), (v2, _) = resolve(str(MESSAGE_V1)), resolve(str(DRAFT)), resolve(str(V2))
    return schemas, v1, draft, v2


def test_seed_004_space_comparison(structs) -> None:
    schemas, v1, draft, _ = structs
    head, rows = table(
        schemas,
        [v1, draft],
        Payload(key=100, value=1024),
        [1, 3, 10, 50, 100],
        labels=["Old Format", "New Format"],
    )
    assert [head, *rows] == SEED_004


def test_seed_004_figures(structs) -> None:
    schemas, v1, draft, _ = structs
    payload = Payload(key=100, value=1024)
    old, new = overhead(schemas, v1, payload, 1), overhead(schemas, draft, payload, 1)
    assert (old.batched, old.header, old.per_record) == (False, 0, (34,))  # "fixed at 34 bytes"
    assert (new.batched, new.header, new.per_record) == (
        True,
        45,
        (17,),
    )  # "message set overhead is 45 bytes"


def test_v2_beside_them(structs) -> None:
    schemas, v1, draft, v2 = structs
    head, rows = table(schemas, [v1, draft, v2], Payload(key=100, value=1024), [1, 100])
    assert head == [
        "Batch Size",
        "Message v1 Overhead",
        "Kip98MessageSet v2 Overhead",
        "RecordBatch v2 Overhead",
    ]
    # v2 records: length 2, attributes 1, timestamp delta 1, offset delta 1 (2 from 64 on), key len 2, value len 2, headers 1
    assert rows[0][3] == "61 + 1*10 = 71"
    assert rows[1][3] == "61 + 64*10 + 36*11 = 1097"


def test_headers_count_only_in_formats_that_have_them(structs) -> None:
    schemas, v1, _, v2 = structs
    payload = Payload(key=10, value=100, headers=2, header_key=8, header_value=16)
    assert overhead(schemas, v1, payload, 1).per_record == (34,)
    # length 2, attributes 1, timestamp delta 1, offset delta 1, key length 1, value length 2 (zigzag 200),
    # header count 1, and per header a key length and a value length varint of 1 byte each
    assert overhead(schemas, v2, payload, 1).per_record == (2 + 1 + 1 + 1 + 1 + 2 + 1 + 2 * 2,)


def test_renderers(structs) -> None:
    head, rows = SEED_004[0], SEED_004[1:]
    text = render_text(head, rows)
    assert text.splitlines()[2].split() == ["1", "34*1", "=", "34", "45", "+", "1*17", "=", "62"]
    md = render_markdown(head, rows)
    assert md.splitlines()[0] == "| Batch Size | Old Format Overhead | New Format Overhead |"
    assert "| 100 | 34*100 = 3400 | 45 + 100*17 = 1745 |" in md


def test_cli_reproduces_the_seed_table(capsys) -> None:
    rc = main(
        [
            "review",
            "overhead",
            str(MESSAGE_V1),
            str(DRAFT),
            str(V2),
            "--key-size",
            "100",
            "--value-size",
            "1024",
            "--batch-sizes",
            "1,3,10,50,100",
            "--labels",
            "Old Format,New Format,RecordBatch v2",
            "--markdown",
        ]
    )
    out = capsys.readouterr().out
    assert rc == 0
    for row in SEED_004[1:]:
        assert f"| {row[0]} | {row[1]} | {row[2]} |" in out
    assert "| 100 | 34*100 = 3400 | 45 + 100*17 = 1745 | 61 + 64*10 + 36*11 = 1097 |" in out


def test_cli_accepts_name_at_version(capsys) -> None:
    assert (
        main(["review", "overhead", "Message@1", "RecordBatch", "--key-size", "1", "--batch-sizes", "3"]) == 0
    )
    assert "34*3 = 102" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["NoSuchThing@9"],
            "kafkaspec review: unknown structure 'NoSuchThing@9' (known: AbortedTransaction@10, AbortedTxnEntry@0, ",
        ),
        (
            [str(V2), "--batch-sizes", "a,b"],
            "kafkaspec review: --batch-sizes must be comma-separated integers, got 'a,b'",
        ),
        ([str(V2), "--labels", "a,b"], "kafkaspec review: --labels names 2 columns for 1 schemas"),
        ([str(V2.with_name("no_such_v9.yaml"))], "kafkaspec review: no such schema file: "),
    ],
    ids=["unknown-name", "bad-sizes", "label-count", "missing-file"],
)
def test_cli_rejects_bad_input(capsys, args, message) -> None:
    assert main(["review", "overhead", *args]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(message)
    assert captured.out == ""

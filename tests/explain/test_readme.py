"""The README's ``kafkaspec explain`` examples are real output: each ``$ echo HEX | kafkaspec explain -``
block is run again and must print exactly what the README shows."""

from __future__ import annotations

import re
from pathlib import Path

from support.explain import run

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"```console\n\$ echo ([0-9a-f]+) \| kafkaspec explain -\n(.*?)```", README, re.S)


def test_readme_has_the_two_examples():
    assert len(EXAMPLES) == 2
    assert "Record v2" in EXAMPLES[0][1] and "headers array of Header" in EXAMPLES[0][1]
    assert "compressed gzip" in EXAMPLES[1][1] and "Message v1" in EXAMPLES[1][1]


def test_readme_examples_are_real_output():
    for hex_, shown in EXAMPLES:
        code, out, _ = run("explain", "-", stdin=hex_)
        assert code == 0 and out == shown

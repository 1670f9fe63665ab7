"""Generated docstrings and error messages read as English: "an OffsetCommitValue", not "a OffsetCommitValue"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted([*(ROOT / "generated").rglob("*.py"), *(ROOT / "docs" / "formats").rglob("*.md")])
#: "a" before a class name that starts with a vowel sound (OffsetCommitValue, UnregisterBrokerRecord; not
#: UserScramCredentialRecord, said "you")
A_BEFORE_VOWEL = re.compile(r"\b[Aa] (?=(?:[AEIO]|U(?!s|ni))[a-z]+[A-Z])")
#: and "an" before a "you" sound
AN_BEFORE_YOU = re.compile(r"\b[Aa]n (?=U(?:s|ni)[a-z]+[A-Z])")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_an_before_a_vowel(path):
    text = path.read_text(encoding="utf-8")
    wrong = [text[m.start() : m.start() + 40].split("\n")[0] for m in A_BEFORE_VOWEL.finditer(text)]
    assert not wrong, f"'a' where 'an' reads right: {wrong}"
    wrong = [text[m.start() : m.start() + 40].split("\n")[0] for m in AN_BEFORE_YOU.finditer(text)]
    assert not wrong, f"'an' where 'a' reads right: {wrong}"

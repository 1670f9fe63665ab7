"""The extras table of docs/install.md names every extra of pyproject.toml, and a row's "brings" names
each package of that extra (another extra pulled in counts by its name): a new user picks an extra from
that table, so an extra missing from it (``tables`` was) cannot be found."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _extras() -> dict[str, list[str]]:
    with open(REPO / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["optional-dependencies"]


def _rows(page: Path) -> dict[str, str]:
    """``extra -> brings`` of the page's table whose header is ``| extra | brings | for |``."""
    text = page.read_text(encoding="utf-8")
    table = text[text.index("| extra | brings | for |") :].split("\n\n", 1)[0]
    return {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)` \| ([^|]*) \|", table, re.MULTILINE)}


def _name(requirement: str) -> str:
    return re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0]


def test_install_page_lists_every_extra_with_its_packages():
    rows = _rows(REPO / "docs" / "install.md")
    extras = _extras()
    assert sorted(rows) == sorted(extras)
    for extra, requirements in extras.items():
        if extra == "dev":  # its test tools are many; its extras are named
            wanted = [n for r in requirements if r.startswith("kafkaspec[") for n in r[10:-1].split(",")]
        else:
            wanted = [_name(r) if not r.startswith("kafkaspec[") else r[10:-1] for r in requirements]
        said = rows[extra].lower().replace(" ", "").replace("-", "")
        missing = [n for n in wanted if n.lower().replace("-", "").replace("_", "") not in said]
        assert not missing, f"{extra}: {missing} not in {rows[extra]!r}"

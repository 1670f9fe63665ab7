"""The documentation site builds with MkDocs in strict mode (a broken link, an anchor that does not
exist or a page left out of the navigation fails it), the generated format reference is in it, and
the user documentation says nothing of the project's own history."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MKDOCS = Path(sys.executable).parent / "mkdocs"

#: words that mean something only to the project's own history
HISTORY = re.compile(r"(?<!--)\b(session|issue|seed)[ -]?\d+", re.IGNORECASE)  # not the --seed option


def user_docs() -> list[Path]:
    pages = [REPO / "README.md", REPO / "CHANGELOG.md", *sorted((REPO / "docs").rglob("*.md"))]
    return [p for p in pages if p.name != "performance-history.md"]  # the archive keeps its dates and names


def test_user_docs_say_nothing_of_the_project_history():
    found = [
        f"{p.relative_to(REPO)}: {m.group(0)}"
        for p in user_docs()
        for m in HISTORY.finditer(p.read_text(encoding="utf-8"))
    ]
    assert not found, found


def test_the_readme_is_short_and_gives_the_two_make_commands():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    assert "make test" in text and "make demo" in text
    assert "not on PyPI" in text


def test_the_readme_links_to_files_that_exist():
    """The README is read on the repository's page, outside the site: its relative links are checked here."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    targets = [t.split("#")[0] for t in re.findall(r"\]\(([^)]+)\)", text) if "://" not in t]
    assert len(targets) >= 10
    missing = [t for t in targets if not (REPO / t).exists()]
    assert not missing, missing


@pytest.mark.slow
def test_the_site_builds_strict_with_every_page(tmp_path: Path):
    if not MKDOCS.exists():
        pytest.fail("mkdocs is not installed: it comes with the docs extra (make venv installs it)")
    site = tmp_path / "site"
    done = subprocess.run(
        [str(MKDOCS), "build", "--strict", "--site-dir", str(site)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    for page in (
        "cli",
        "spark",
        "python-api",
        "explain",
        "formats/record_batch_v2",
        "formats/messages/offset_commit_value",
    ):
        assert (site / f"{page}.html").is_file(), page  # a page is a file: the site works from file://
    nav = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="formats/record_batch_v2.html"' in nav  # the generated reference is in the navigation
    assert (site / "search" / "search_index.js").read_text(encoding="utf-8").startswith("var __index = {")
    assert not (REPO / "site").exists()


def test_a_broken_link_fails_the_build(tmp_path: Path):
    """The strict build is able to fail: the same site with one link pointing nowhere."""
    if not MKDOCS.exists():
        pytest.fail("mkdocs is not installed")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nSee [nowhere](nowhere.md).\n")
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nstrict: true\nnav:\n  - Home: index.md\n")
    done = subprocess.run(
        [str(MKDOCS), "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode != 0 and "nowhere.md" in done.stdout + done.stderr

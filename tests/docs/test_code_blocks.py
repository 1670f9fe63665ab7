"""Every code block of docs/ runs as written (``support/docblocks.py`` says how), so no example can rot.

Each page runs in a fresh folder holding the small placeholder paths the pages use (``logs/`` made by
``kafkaspec synth``, ``kraft-logs/`` and fetch captures from the corpus). The README's blocks run
from an installed wheel instead, in ``tests/review/test_wheel_venv.py``. Generated pages
(``docs/formats/``) and the performance archive hold output only, never code to run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support.docblocks import REPO, RUN, blocks, make_workspace, run_page

DOCS = REPO / "docs"
#: pages that only show output (text fences), never code to run: generated, or an archive
NOT_RUN = ("docs/formats/", "docs/performance-history.md")
PAGES = sorted(p for p in DOCS.rglob("*.md") if not p.relative_to(REPO).as_posix().startswith(NOT_RUN))
BIN = Path(sys.executable).parent

#: blocks that cannot run here (installs, a cluster, an object store's credentials); held low
MAX_SKIPPED = 10


def all_blocks():
    return [b for page in [REPO / "README.md", *PAGES] for b in blocks(page)]


def test_every_fence_says_its_language():
    untagged = [b.where for b in all_blocks() if not b.language]
    assert not untagged, f"fences with no language (use text for output): {untagged}"


def test_few_blocks_are_skipped_and_each_says_why():
    skipped = [b for b in all_blocks() if b.skip]
    assert all(len(b.skip) > 10 for b in skipped)
    assert len(skipped) <= MAX_SKIPPED, [b.where for b in skipped]
    runnable = [b for b in all_blocks() if b.language in RUN and not b.skip]
    assert len(runnable) >= 15 and len(runnable) > 2 * len(skipped)


def test_the_explain_page_shows_real_output():
    """The two annotated dumps on the explain page are compared byte for byte when the page runs."""
    console = [b for b in blocks(DOCS / "explain.md") if b.language == "console"]
    assert len(console) == 2
    assert "headers array of Header" in console[0].code and "compressed gzip" in console[1].code


#: the pages that hold a block to run (a page of prose only has nothing to test here)
RUNNABLE = [p for p in PAGES if any(b.language in RUN for b in blocks(p))]


def test_pages_with_code_are_found():
    assert len(RUNNABLE) >= 5, RUNNABLE


#: what marks a block as one that starts Spark (the page is then a ``spark`` test: `make check-fast` leaves it out)
SPARK_USES = ("build_session", "SparkSession", "pyspark", "kafkaspec pipeline", "kafkaspec.spark")


def _page_param(page: Path):
    runs_spark = any(
        use in b.code for b in blocks(page) if b.language in RUN and not b.skip for use in SPARK_USES
    )
    return pytest.param(
        page, marks=[pytest.mark.spark] if runs_spark else [], id=page.relative_to(DOCS).as_posix()
    )


@pytest.mark.parametrize("page", [_page_param(p) for p in RUNNABLE])
def test_page_runs_as_written(page: Path, tmp_path: Path):
    todo = [b for b in blocks(page) if b.language in RUN and not b.stores]  # stores: tests/storage runs those
    canary = tmp_path / "canary"
    canary.write_text("keep")
    workspace = make_workspace(tmp_path / "work", BIN)
    counts = run_page(todo, workspace, BIN)
    assert counts["run"] + counts["skipped"] == len(todo)
    assert canary.read_text() == "keep"


@pytest.mark.parametrize(
    "page, message",
    [
        ("```python\nimport kafkaspec\nkafkaspec.iter_batches(b'x' * 5).nope\n```\n", "bad.md:1: failed"),
        ("Text.\n\n```sh\nrm -rf logs/\n```\n", "is not a kafkaspec command"),
        ("```sh\nkafkaspec verify no-such-dir/\n```\n", "bad.md:1: exited 2"),
        ("```console\n$ kafkaspec --version\nkafkaspec 0.0.0-not-this\n```\n", "printed something else"),
    ],
    ids=["python raises", "not kafkaspec", "exit code", "console output"],
)
def test_a_broken_example_fails_naming_its_line(tmp_path: Path, page: str, message: str):
    """The harness is able to fail: each kind of rotten example is caught, named by page and line."""
    canary = tmp_path / "canary"
    canary.write_text("keep")
    bad = tmp_path / "bad.md"
    bad.write_text(page)
    work = make_workspace(tmp_path / "work", BIN, sample=False)
    with pytest.raises(AssertionError, match=message.replace(".", r"\.")):
        run_page([b for b in blocks(bad) if b.language in RUN], work, BIN)
    assert canary.read_text() == "keep"

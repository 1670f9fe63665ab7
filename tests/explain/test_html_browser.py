"""``kafkaspec explain --html``: the page, loaded in a real headless Chromium (Debian's package,
installed by ``make browser``), highlights a field's bytes when the field is hovered, and the
field when a byte is hovered; it fetches nothing (it works offline).

Skipped, saying so, where Chromium is not installed (``make test`` installs it where it can).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright
from support.explain import run

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "codecs" / "vectors"
CHROMIUM = os.environ.get("KAFKASPEC_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HIGHLIGHT = "rgb(255, 213, 74)"

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason=f"Chromium is not installed at {CHROMIUM}: `make browser` installs Debian's chromium "
    "(apt-get, as root); without it the explain page's browser test cannot run",
)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


def page_of(browser, tmp_path, hex_: str):
    out = tmp_path / "page.html"
    code, stdout, err = run("explain", "-", "--html", out, stdin=hex_)
    assert "wrote" in stdout and err == ""
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(out.as_uri())
    return code, page, requests


def lit(page, stream: int, start: int, end: int) -> list[bool]:
    return [
        page.eval_on_selector(f"#b{stream}-{i}", "e => e.classList.contains('hl')") for i in range(start, end)
    ]


def test_hovering_a_field_highlights_its_bytes(browser, tmp_path):
    hex_ = json.loads((GOLDEN / "gzip_record_with_headers.json").read_text())["hex"]
    code, page, requests = page_of(browser, tmp_path, hex_)
    assert code == 0
    page.hover('[data-path="RecordBatch.base_offset"]')
    assert lit(page, 0, 0, 9) == [True] * 8 + [False]
    colour = page.eval_on_selector("#b0-3", "e => getComputedStyle(e).backgroundColor")
    assert colour == HIGHLIGHT
    assert page.eval_on_selector("#b0-8", "e => getComputedStyle(e).backgroundColor") != HIGHLIGHT
    # a field inside the decompressed records: its bytes in stream 1, the earlier highlight gone
    page.hover('[data-path="RecordBatch.records[0].value"]')
    assert lit(page, 1, 5, 13) == [False] + [True] * 6 + [False]  # s1:6..12: its length varint and "hello"
    assert lit(page, 0, 0, 8) == [False] * 8
    # a byte: the field it belongs to
    page.hover("#b0-10")
    assert page.eval_on_selector('[data-path="RecordBatch.batch_length"]', "e => e.classList.contains('hl')")
    assert [u for u in requests if not u.startswith("file:")] == [], "the page fetched something"
    page.close()


def test_bad_data_marks_the_byte(browser, tmp_path):
    data = bytearray.fromhex(json.loads((GOLDEN / "record_with_headers.json").read_text())["hex"])
    data[61] = 0x30  # record length 24: runs past the batch's end
    code, page, _ = page_of(browser, tmp_path, data.hex())
    assert code == 1
    assert page.eval_on_selector("#b0-61", "e => e.classList.contains('bad')")
    assert "decoding stopped at byte 61" in page.inner_text("header")
    page.close()

"""Issue 30 item 16, ``explain --html``: one page holds every byte and span, so it keeps a bound, says
so clearly, and honours ``--count``.

Before: the bound was the input window alone (256 KiB), checked before reading, so ``--count 10`` of a
large segment was refused, while a 83 KB zstd batch of 100k records passed it and was read whole
(1.3 GB). Now ``--count`` picks entries from any input; a page whose entries hold more spans than
``HTML_SPANS`` is refused while being read (memory stays that of the bound), and one whose bytes
(decompressed included) pass ``HTML_LIMIT`` after.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from support.explain import run

from kafkaspec import Record, build_batch
from kafkaspec.commands.explain import HTML_LIMIT, HTML_SPANS

pytestmark = pytest.mark.hostile


def test_count_picks_entries_from_an_input_larger_than_a_page(tmp_path):
    one = build_batch([Record(value=b"v", timestamp=1)])
    big = tmp_path / "big.log"
    big.write_bytes(one * (HTML_LIMIT // len(one) + 1))
    page = tmp_path / "p.html"
    code, out, err = run("explain", big, "--html", page, "--count", 10)
    assert code == 0 and "wrote" in out and err == "", err
    html = page.read_text()
    assert f'id="b0-{10 * len(one) - 1}"' in html and f'id="b0-{10 * len(one)}"' not in html  # its bytes only
    assert html.count('data-path="RecordBatch"') == 10
    assert len(html) < 200_000


PROBE = textwrap.dedent("""
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    from kafkaspec.cli import main
    sys.exit(main(sys.argv[1:]))
""")


def _limited(*argv):
    env = {k: v for k, v in os.environ.items() if k != "KAFKASPEC_DEBUG"}
    return subprocess.run(
        [sys.executable, "-c", PROBE, *map(str, argv)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )


def test_a_small_batch_of_many_records_is_refused_while_read(tmp_path):
    """83 KB of zstd, 100k records: within the byte window, far past the spans one page can hold."""
    batch = tmp_path / "many.log"
    batch.write_bytes(build_batch(values=[b"v"] * 100_000, compression="zstd"))
    assert batch.stat().st_size < HTML_LIMIT
    page = tmp_path / "p.html"
    for extra in ((), ("--count", "1")):
        proc = _limited("explain", batch, "--html", page, *extra)
        assert proc.returncode == 2, proc.stderr
        line, *more = proc.stderr.splitlines()
        assert not more and f"more than {HTML_SPANS} fields" in line and "--count" in line
        assert not page.exists()


def test_decompressed_bytes_count_toward_the_page(tmp_path):
    batch = tmp_path / "wide.log"
    batch.write_bytes(build_batch([Record(value=bytes(HTML_LIMIT), timestamp=1)], compression="zstd"))
    page = tmp_path / "p.html"
    code, _, err = run("explain", batch, "--html", page, "--count", 1)
    assert code == 2 and "decompressed included" in err and not page.exists()

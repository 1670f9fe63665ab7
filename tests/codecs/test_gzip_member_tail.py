"""A gzip member of more than one output step (a MiB) followed by more bytes: an error, at once.

Found while comparing ``decompress``'s fast paths with its general ones (issue 28): the member loop
took output a MiB at a time while zlib had input left (``unconsumed_tail``), but once the member ends
zlib keeps the bytes after it in ``unconsumed_tail`` too, returns nothing and appends them to
``unused_data`` again on every call: the loop never ended, and ``unused_data`` grew by their size on
every turn. Run in a subprocess, so that the old behaviour fails the test instead of hanging it.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.hostile

_CHILD = textwrap.dedent("""
    import gzip, sys
    from kafkaspec.codec.compression import decompress
    from kafkaspec.errors import DecompressionError

    content = bytes(range(256)) * (3 << 12)  # 3 MiB: the member ends in the loop's fourth output step
    region = gzip.compress(content, mtime=0) + sys.argv[1].encode()
    try:
        decompress(1, region, max_size=4 << 20, position=61)
    except DecompressionError as exc:
        print(exc)
""")


@pytest.mark.parametrize("tail", ["x", "garbage!"])
def test_bytes_after_a_gzip_member_of_several_mib_are_an_error(tail):
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _CHILD, tail], capture_output=True, text=True, timeout=30
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"decompress did not return within 30 s on a 3 MiB gzip member followed by {tail!r}")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "gzip data at region byte" in proc.stdout and "byte 61" in proc.stdout, proc.stdout

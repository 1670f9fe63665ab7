"""Calling code that must not open a FIFO for reading: if it does, it blocks, so the call runs in a
thread, and a call still running after a while has its reader released and is reported as hung."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def call_beside_fifo(
    call: Callable[[], Any], fifo: Path, what: str, seconds: float = 10
) -> BaseException | Any:
    """``call()``'s result, or the exception it raised; fails the test, naming ``what``, when ``call``
    is still blocked after ``seconds`` (on the FIFO at ``fifo``, whose reader is then released)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["result"] = call()
        except BaseException as exc:
            box["result"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():  # release the reader the call left blocked
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(seconds)
        pytest.fail(f"{what} hung on a FIFO at {fifo}")
    return box.get("result")

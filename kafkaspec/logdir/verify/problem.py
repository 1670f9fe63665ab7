"""One finding of ``kafkaspec verify``: the file, the byte position in it, what is wrong, and how bad.

Every check of the verifier makes them and :func:`~.verifier.verify_path` returns them (the class is
public as ``kafkaspec.logdir.Problem``); a module of its own, below the checks, so that they import it
from below.
"""

from __future__ import annotations

from typing import NamedTuple


class Problem(NamedTuple):
    """One finding: the file, the byte position in it (None if not applicable), what is wrong."""

    path: str
    position: int | None
    message: str
    severity: str = "error"  # "error", "warning" or "note" (a fact worth knowing, not a problem)

    def __str__(self) -> str:
        where = self.path if self.position is None else f"{self.path} at byte {self.position}"
        return f"{self.severity}: {where}: {self.message}"

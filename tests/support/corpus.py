"""Where the real-world corpus is: ../shared/corpus beside the repository.

Part of ``tests/support``, the helpers every test folder imports (``from support.corpus import ...``):
``tests/`` is on the import path because ``tests/conftest.py`` lives there.
"""

from __future__ import annotations

import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPUS_CANDIDATES = [REPO.parent / "shared" / "corpus", REPO.parent.parent / "shared" / "corpus"]


def _find_corpus() -> Path | None:
    for candidate in CORPUS_CANDIDATES:
        if (candidate / "vectors.jsonl").exists():
            return candidate
    return None


CORPUS: Path | None = _find_corpus()


def load_vectors() -> list[dict]:
    """Every vector of vectors.jsonl ([] when the corpus is missing; the ``corpus`` fixture fails then)."""
    if CORPUS is None:
        return []
    with open(CORPUS / "vectors.jsonl", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]

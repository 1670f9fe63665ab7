"""Shared fixtures: the real-world corpus in ../shared/corpus beside the repository."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CORPUS_CANDIDATES = [REPO.parent / "shared" / "corpus", REPO.parent.parent / "shared" / "corpus"]


def _find_corpus() -> Path | None:
    for candidate in CORPUS_CANDIDATES:
        if (candidate / "vectors.jsonl").exists():
            return candidate
    return None


CORPUS = _find_corpus()


def pytest_report_header(config):
    if CORPUS is None:
        return "real-world corpus: NOT FOUND beside the repository (../shared/corpus); corpus tests will fail"
    return f"real-world corpus: {CORPUS}"


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The corpus folder; a missing corpus fails loudly rather than skipping."""
    if CORPUS is None:
        pytest.fail("the real-world corpus ../shared/corpus is missing beside the repository")
    return CORPUS


def load_vectors() -> list[dict]:
    if CORPUS is None:
        return []
    with open(CORPUS / "vectors.jsonl", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]

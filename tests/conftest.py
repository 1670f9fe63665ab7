"""Shared fixtures: the real-world corpus in ../shared/corpus beside the repository."""

from __future__ import annotations

from pathlib import Path

import pytest
import support.settings  # noqa: F401 - loads the hypothesis profile before any test module
from support.corpus import CORPUS

SPARK_TESTS = Path(__file__).parent / "spark"


def pytest_collection_modifyitems(config, items):
    """A test that takes the ``spark`` fixture starts a SparkSession, and every test in ``spark/`` is
    about Spark: mark them ``spark`` (whether or not their module says so), so that ``-m "not spark"``
    leaves every one out (``make check-fast``; ``make test`` runs the rest in parallel, these after)."""
    for item in items:
        in_spark = SPARK_TESTS in Path(item.path).parents
        if (in_spark or "spark" in getattr(item, "fixturenames", ())) and not item.get_closest_marker("spark"):
            item.add_marker(pytest.mark.spark)


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

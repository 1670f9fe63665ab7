"""Shared fixtures: the real-world corpus in ../shared/corpus beside the repository."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import support.settings  # noqa: F401 - loads the hypothesis profile before any test module
from support.corpus import CORPUS

SPARK_TESTS = Path(__file__).parent / "spark"
BROKER_TESTS = Path(__file__).parent / "brokers"


def pytest_collection_modifyitems(config, items):
    """A test that takes the ``spark`` fixture starts a SparkSession, and every test in ``spark/`` is
    about Spark: mark them ``spark`` (whether or not their module says so), so that ``-m "not spark"``
    leaves every one out (``make check-fast``; ``make test`` runs the rest in parallel, these after).
    Every test in ``brokers/`` starts Apache Kafka brokers: marked ``broker``, run last, alone."""
    for item in items:
        if BROKER_TESTS in Path(item.path).parents and not item.get_closest_marker("broker"):
            item.add_marker(pytest.mark.broker)
        in_spark = SPARK_TESTS in Path(item.path).parents
        if (in_spark or "spark" in getattr(item, "fixturenames", ())) and not item.get_closest_marker(
            "spark"
        ):
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


@pytest.fixture(scope="session")
def spark():
    """One local SparkSession (2 cores, modest memory) shared by every test that takes it: tests/spark,
    tests/storage and tests/brokers (``build_session`` is getOrCreate)."""
    pytest.importorskip("pyspark")
    if shutil.which("java") is None:
        pytest.fail("Spark tests need Java 17+ (Debian: apt-get install openjdk-17-jre-headless)")
    from kafkaspec.spark.session import build_session

    session = build_session("local[2]", "kafkaspec-tests", memory="768m", shuffle_partitions=2)
    yield session
    session.stop()

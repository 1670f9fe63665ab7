"""The modules of kafkaspec.logdir and kafkaspec.spark moved into wings; their old import paths still work
for one release, each with a DeprecationWarning naming the new path, and are the very same module objects."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from kafkaspec.logdir._moved import MOVED as LOGDIR_MOVED
from kafkaspec.spark._moved import MOVED as SPARK_MOVED

MOVED = {**LOGDIR_MOVED, **SPARK_MOVED}


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        cwd="/",
        check=False,
    )


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_is_the_new_module_with_a_warning(old):
    new = MOVED[old]
    code = f"""
        import importlib, warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            a = importlib.import_module({old!r})
        b = importlib.import_module({new!r})
        assert a is b, (a, b)
        assert [str(w.message) for w in caught if w.category is DeprecationWarning] == [
            {old!r} + " moved to " + {new!r} + "; the old name goes in the next release"], caught
    """
    result = _run(code)
    assert result.returncode == 0, result.stderr


def test_from_the_package_import_an_old_module_name():
    result = _run("""
        import warnings
        warnings.simplefilter("error")
        try:
            from kafkaspec.logdir import segment
        except DeprecationWarning as e:
            print(e)
    """)
    assert result.stdout.strip() == (
        "kafkaspec.logdir.segment moved to kafkaspec.logdir.kafka.segment; "
        "the old name goes in the next release"
    ), result


def test_the_spark_job_is_found_under_its_old_module_name():
    """Code that imported the job from ``kafkaspec.spark.pipeline`` gets the ``main`` that a
    ``spark-submit`` of ``kafkaspec/spark/job.py`` (a path that did not move) runs."""
    result = _run("""
        import warnings
        warnings.simplefilter("ignore")
        from kafkaspec.spark import pipeline, job
        from kafkaspec.spark.run import pipeline as new
        assert pipeline is new and job.main is new.main
        print(pipeline.__name__)
    """)
    assert result.stdout.strip() == "kafkaspec.spark.run.pipeline", result


def test_the_old_tiered_module_names_are_found_on_the_package():
    from kafkaspec.logdir.tiered import segment

    with pytest.warns(
        DeprecationWarning, match=r"moved to kafkaspec\.logdir\.tiered\.segment\.TieredSegment$"
    ):
        from kafkaspec.logdir.tiered import TieredSegment
    assert TieredSegment is segment.TieredSegment
    with pytest.raises(ImportError):
        from kafkaspec.logdir.tiered import NoSuchName  # noqa: F401


def test_every_new_path_exists_and_no_old_one_does():
    """The table is true: each new module imports, and no file is left at an old path."""
    import importlib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for old, new in MOVED.items():
        importlib.import_module(new)
        assert not (root / (old.replace(".", "/") + ".py")).exists(), old


def test_the_names_tiered_had_before_its_partition_module_are_found_on_the_package():
    """``kafkaspec.logdir.tiered.TieredPartition`` (and the layout choice, once ``open_log`` there) worked
    before 0.15, through the old module's own table of moved names; that table names the new modules."""
    from kafkaspec.logdir import detect
    from kafkaspec.logdir.tiered import partition

    with pytest.warns(
        DeprecationWarning,
        match=r"moved to kafkaspec\.logdir\.(tiered\.(partition|remote_log_topic)\.|detect\.open_layout$)",
    ):
        from kafkaspec.logdir.tiered import (
            TieredPartition,
            find_tiered,
            is_tiered,
            open_log,
            open_tiered,
            remote_log,
        )
    assert TieredPartition is partition.TieredPartition
    assert (find_tiered, is_tiered, open_tiered, remote_log) == (
        partition.find_tiered,
        partition.is_tiered,
        partition.open_tiered,
        partition.remote_log,
    )
    assert open_log is detect.open_layout

"""PySpark's warning of pandas 3 is not shown on every run once kafkaspec.spark is loaded (docs/install.md
says it once); other FutureWarnings still are."""

from __future__ import annotations

import subprocess
import sys

PROGRAM = """
import warnings
import kafkaspec.spark
warnings.warn("PySpark does not yet fully support pandas >= 3.0.0. Some features may not work correctly. "
              "It is recommended to use pandas < 3.0.0 for now.", FutureWarning)
warnings.warn("something else", FutureWarning)
"""


def test_the_pandas_3_warning_is_filtered():
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, check=True)
    assert "pandas >= 3.0.0" not in done.stderr and "something else" in done.stderr, done.stderr

"""The shared corpus helpers of tests/conftest.py, loaded by path.

Its module name, ``conftest``, is ambiguous once several test folders have one,
so the v2 tests load it under a name of their own for collection-time data
(``load_vectors()``, ``CORPUS``); the ``corpus`` fixture still comes from pytest.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

_PATH = Path(__file__).resolve().parent.parent / "conftest.py"
_spec = importlib.util.spec_from_file_location("kafkaspec_tests_shared_conftest", _PATH)
_shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_shared)

CORPUS: Path | None = _shared.CORPUS
load_vectors = _shared.load_vectors

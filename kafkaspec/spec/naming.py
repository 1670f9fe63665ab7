"""Names derived from the schemas' CamelCase names, shared by the struct and message models.

Its own module so that :mod:`.message_model` need not import :mod:`.model` (which names
``Message`` for its ``SchemaSet``): the two models import one way.
"""

from __future__ import annotations

import re


def snake(name: str) -> str:
    """``RecordBatch`` -> ``record_batch`` (module and function names)."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()

"""Tiered storage: segments a broker uploaded, read from the bucket or folder they were uploaded to.

Above :mod:`kafkaspec.logdir.kafka`: a remote segment (:mod:`.segment`) and its manifest
(:mod:`.manifest`), a partition's remote copy (:mod:`.partition`) and the lineage of re-uploads Kafka
serves (:mod:`.lineage`), Kafka's ``__remote_log_metadata`` topic (:mod:`.remote_log_topic`), Kafka's
``LocalTieredStorage`` layout (:mod:`.local_storage`), custom key prefixes (:mod:`.custom`),
encryption (:mod:`.encryption`, :mod:`.key_dir`), a local log and its remote copy as one history
(:mod:`.history`), the checks ``verify`` makes (:mod:`.checks`) and the writer of tiered copies
(:mod:`.writer`).

``kafkaspec.logdir.tiered`` was a module before 0.15 (now :mod:`.segment`); its names are still
found here, with a :class:`DeprecationWarning`, for one release.
"""

from __future__ import annotations

import importlib
import inspect
import warnings
from typing import Any


def __getattr__(name: str) -> Any:
    segment = importlib.import_module(f"{__name__}.segment")
    if name.startswith("__") or not hasattr(segment, name):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(segment, name)
    defined = inspect.isclass(value) or inspect.isfunction(value)
    home = f"{value.__module__}.{value.__name__}" if defined else f"{segment.__name__}.{name}"
    warnings.warn(
        f"kafkaspec.logdir.tiered.{name} moved to {home}",
        DeprecationWarning,
        stacklevel=2,
    )
    return value

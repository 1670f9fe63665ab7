"""The ``kafkalog`` Arrow schema under its documented name (``from kafkaspec.logdir.arrow import SCHEMA``).

Arrow lives in :mod:`kafkaspec.arrow`; ``Partition.to_arrow`` and ``LogDir.to_arrow_batches`` read
through :mod:`kafkaspec.arrow.partitions`. Needs pyarrow (``kafkaspec[spark]``).
"""

from __future__ import annotations

from ..arrow.schema import SCHEMA

__all__ = ["SCHEMA"]

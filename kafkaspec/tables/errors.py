"""The error of the table destinations."""

from __future__ import annotations

from ..errors import DestinationError


class TableError(DestinationError):
    """A table destination cannot be written: not a table, not of our columns, a catalog that does not
    answer, or a concurrent run that committed first. Nothing of the run was committed."""

"""A ``.log`` file in a partition directory whose name is no offset (issue 39, item 4).

``abc.log``, ``-0000000000000000005.log`` (what a writer once made of offset -5) or
``09223372036854775808.log`` (past the largest offset) is no segment a broker writes or loads
(:func:`.names.offset_name_problem`), yet someone put records there. Passing over it would lose them
in silence, so a partition lists it as a segment that cannot be read: every reader reports it where
it reports a segment it cannot read (``dump``: a line naming the file, exit 1; ``records()`` and
``to_arrow``: a :class:`~kafkaspec.KafkaFormatError` naming it; ``verify``: one error), and nothing of
it is opened. Its base offset is unknown: it is listed first (base offset -1).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NoReturn

from ...entry import LogBatch
from ...errors import KafkaFormatError
from ..store.fs import StoragePath
from .names import offset_name_problem
from .segment import Segment


class MisnamedSegment(Segment):
    """A :class:`~.segment.Segment` whose file name is no offset: reading it raises the
    :class:`KafkaFormatError` :meth:`unreadable` returns; no file of it is opened."""

    def __init__(self, path: StoragePath):
        super().__init__(path, -1)
        self.problem = KafkaFormatError(
            offset_name_problem(path.name) or "its name is no offset", None, str(path)
        )

    @property
    def size(self) -> int:
        return 0

    @property
    def data(self) -> NoReturn:
        raise self.problem

    def read_range(self, start: int, end: int) -> NoReturn:
        raise self.problem

    def unreadable(self) -> KafkaFormatError:
        return self.problem

    def iter_stored_batches(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise self.problem

    def transactional_batches(self) -> Iterator[LogBatch]:
        raise self.problem

    def position_for_offset(self, offset: int) -> int:
        return 0

    def __repr__(self) -> str:
        return f"MisnamedSegment({str(self.path)!r})"


__all__ = ["MisnamedSegment"]

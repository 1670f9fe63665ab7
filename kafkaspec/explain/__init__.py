"""``kafkaspec explain``: show, byte by byte, what a piece of Kafka data says and where it goes wrong.

The generated tracing decoders (``kafkaspec.generated.trace``, one per structure of the spec)
read each field through :class:`~.tracer.Tracer`, which records its byte span; :func:`explain`
(:mod:`.walk`) runs them over an input and returns an :class:`~.tree.Explanation`, a tree of
spans over the input and any decompressed regions. :mod:`.text`, :mod:`.jsonout` and
:mod:`.page` render it.

Not loaded by ``import kafkaspec``.
"""

from __future__ import annotations

from .tree import Explanation, Failure, Node, Stream
from .walk import UnknownFormat, explain, format_names

__all__ = ["Explanation", "Failure", "Node", "Stream", "UnknownFormat", "explain", "format_names"]

"""Where users catch a missing optional dependency: :class:`MissingExtraError` (docs/install.md).

The helpers live in the codec layer (:mod:`kafkaspec.codec.extras`), which the generated reference
codecs import too; the documented error stays importable here.
"""

from .codec.extras import MissingExtraError

__all__ = ["MissingExtraError"]

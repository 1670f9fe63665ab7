"""The decoded payloads' values as plain data: the generated codecs return NamedTuples, the public
API (:class:`~.decode.Decoded`) and every output (JSON, Spark's decoded column) use dicts."""

from __future__ import annotations

from typing import Any

__all__ = ["fields_of"]


def fields_of(value: Any) -> Any:
    """A generated NamedTuple as a dict (nested ones too); unknown tagged fields only when present."""
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        out = {k: fields_of(v) for k, v in value._asdict().items()}
        if not out.get("unknown_tagged_fields", True):
            del out["unknown_tagged_fields"]
        return out
    if isinstance(value, list):
        return [fields_of(v) for v in value]
    return value

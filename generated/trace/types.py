"""How ``kafkaspec explain``'s tracer reads each wire type. Generated from the field-type registry
(kafkaspec/spec/types.py) by codegen. DO NOT EDIT.

The tracer is runtime code and may not import the spec layer, so the registry's facts reach it here.
"""

from __future__ import annotations

#: fixed-width values: struct format and size (a bool is read as its byte, 0 or 1)
FIXED: dict[str, tuple[str, int]] = {
    "bool": (">B", 1),
    "int8": (">b", 1),
    "int16": (">h", 2),
    "uint16": (">H", 2),
    "int32": (">i", 4),
    "int64": (">q", 8),
    "uint8": (">B", 1),
    "uint32": (">I", 4),
    "float64": (">d", 8),
}
#: varints: the most bytes they may take, and their value range
VARINT_LIMITS: dict[str, tuple[int, int, int]] = {
    "varint": (5, -2147483648, 2147483647),
    "varlong": (10, -9223372036854775808, 9223372036854775807),
    "uvarint": (5, 0, 4294967295),
}

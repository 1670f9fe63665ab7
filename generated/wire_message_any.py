"""WireMessageAny: A 0.6/0.7 message of either version: the MAGIC byte at offset 4 says whether a COMPRESSION byte follows.

Generated from schemas/legacy/wire_message_any.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct

from . import wire_message_v0, wire_message_v1

DISCRIMINATOR_OFFSET = 4
_DISCRIMINATOR = struct.Struct(">b")
#: structure module for each discriminator value
CASES = {
    0: wire_message_v0,
    1: wire_message_v1,
}


def discriminator(buf, pos: int = 0) -> int:
    """The discriminator of the entry starting at ``pos``."""
    return _DISCRIMINATOR.unpack_from(buf, pos + DISCRIMINATOR_OFFSET)[0]

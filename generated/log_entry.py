"""LogEntry: One entry of a log segment or fetch response: the magic byte at offset 16 chooses Message v0, Message v1 or RecordBatch v2, so a stream may mix them.

Generated from schemas/legacy/log_entry.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct

from . import message_v0, message_v1, record_batch_v2

DISCRIMINATOR_OFFSET = 16
_DISCRIMINATOR = struct.Struct(">b")
#: structure module for each discriminator value
CASES = {
    0: message_v0,
    1: message_v1,
    2: record_batch_v2,
}


def discriminator(buf, pos: int = 0) -> int:
    """The discriminator of the entry starting at ``pos``."""
    return _DISCRIMINATOR.unpack_from(buf, pos + DISCRIMINATOR_OFFSET)[0]

"""Where reading resumes after a corrupt entry: the one recovery policy.

Every reader that can skip corruption (``iter_batches(on_corrupt="skip")``,
``logdir.verify``, ``kafkaspec dump --skip-corrupt`` and the Spark source)
resumes where :func:`resync` says, so they all skip the same bytes:

1. If the corrupt entry's length field points at the end of the data or at a
   valid entry, the length was right and only the content was bad: resume
   there (the whole entry is skipped, and nothing inside it, such as a record
   value that happens to hold a batch, is mistaken for an entry).
2. Otherwise resume at the first later position where a valid entry starts.

A valid entry is one whose length, magic and CRC agree (and, for a Message
v0/v1, whose key and value lengths add up); the CRC is checked even when the
caller reads with ``verify=False``, since without it any byte run could pass.
"""

from __future__ import annotations

import re

from kafkaspec.generated import record_batch_v2 as v2

from .entry import ENTRY_HEAD, LOG_OVERHEAD, MAGIC_OFFSET, MIN_LENGTH, Buffer
from .errors import KafkaFormatError
from .message_set import read_legacy

#: a byte that can be a magic byte (0, 1 or 2): where a candidate entry's byte 16 must hold
_MAGIC_BYTE = re.compile(rb"[\x00-\x02]")


def entry_is_valid(buf: Buffer, pos: int, end: int) -> bool:
    """Whether a complete entry, ending at or before ``end``, with matching length, magic and CRC starts at ``pos``."""
    if pos < 0 or end - pos <= MAGIC_OFFSET:
        return False
    _, length, _, magic = ENTRY_HEAD.unpack_from(buf, pos)
    minimum = MIN_LENGTH.get(magic)
    if minimum is None or length < minimum or pos + LOG_OVERHEAD + length > end:
        return False
    try:
        if magic == 2:
            v2.check_record_batch(buf, pos, v2.decode_record_batch_head(buf, pos), verify=True)
        else:
            read_legacy(buf, pos, magic, verify=True)
    except KafkaFormatError:
        return False
    return True


def resync(buf: Buffer, pos: int, end: int) -> int | None:
    """Where to resume after the corrupt entry at ``pos``: a position where a valid entry starts, ``end``
    when the corrupt entry's length reaches exactly to it, or None when no valid entry follows."""
    if end - pos >= ENTRY_HEAD.size:
        length = ENTRY_HEAD.unpack_from(buf, pos)[1]
        after = pos + LOG_OVERHEAD + length
        if length >= MIN_LENGTH[0] and (after == end or (after < end and entry_is_valid(buf, after, end))):
            return after
    for match in _MAGIC_BYTE.finditer(buf, pos + 1 + MAGIC_OFFSET, end):
        candidate = match.start() - MAGIC_OFFSET
        if entry_is_valid(buf, candidate, end):
            return candidate
    return None

"""Where reading resumes after a corrupt entry: the one recovery policy.
One module because the resync rules and the prefix-CRC arithmetic that keeps them linear are one algorithm.

Every reader that can skip corruption (``iter_batches(on_corrupt="skip")``,
``logdir.verify``, ``kafkaspec dump --skip-corrupt`` and the Spark source)
resumes where :class:`Resync` says, so they all skip the same bytes, by one of
two rules (reported as ``Skipped.rule``):

``"length"``
    The corrupt entry's length field is intact: its own checksum holds (only
    its records failed), or the length fields from its end on lead, entry by
    entry, to the end of the data or to a valid entry (so a run of corrupt
    entries is skipped entry by entry). Resume at its end: the whole entry is
    skipped, and nothing inside it, such as a record value that happens to
    hold a batch, is mistaken for an entry.
``"scan"``
    Otherwise resume at the first later position where a valid entry starts
    (or skip to the end when none does).

A valid entry is one whose length, magic and CRC agree (and, for a Message
v0/v1, whose key and value lengths add up); the CRC is checked even when the
caller reads with ``verify=False``, since without it any byte run could pass.
While scanning, a candidate must also look like an entry a producer writes
(:func:`_plausible_v2`: no unused attribute bits, a known codec, a records
count that fits the length and the last offset delta) before its CRC is
computed; an entry that fails only these is read normally, but not resumed at.

The bound: work linear in the bytes read
----------------------------------------
Crafted garbage can make every byte a candidate whose length reaches far
ahead (the pattern ``00 02 00 00 40`` repeated reads as a 4 MiB batch at every
fifth byte), so checking each candidate's CRC directly costs candidates x
length: quadratic. Instead each checksum is kept as prefix values
``P[x] = crc(data[origin:x])``, stored every :data:`MARK` bytes and extended
only forwards, and a candidate's CRC over ``data[s:e]`` is
``P[e] ^ P[s] * x**(8 * (e - s)) mod poly`` (zlib's ``crc32_combine``, run
backwards). So, over one reading (one :class:`Resync` per input, kept by the
iterator across all its resyncs):

* each byte is fed to each CRC function once, when the prefix is extended
  past it;
* each candidate costs O(1): a C-level pattern match (the head's fixed
  bytes), a few field checks, two prefix look-ups of at most ``MARK`` bytes
  each and a handful of 32-bit carry-less multiplications;
* each candidate position is examined once: scans start after the corrupt
  entry and only move forwards (the next scan starts after the entry the last
  one found), and long runs of zeros, where no entry can start, are stepped
  over by one C-level search whose answer is kept for later scans;
* following length fields (the ``"length"`` rule) visits each position once:
  every verdict is kept for the later entries of the same run.

Total work is therefore O(n) for n bytes of input, whatever the bytes are.
The iterator (``on_corrupt="skip"``, ``verify=True``) also checks every entry
after its first corruption through the same prefix values, so a run of
corrupt entries whose lengths each reach far ahead is not checksummed once
per entry either; and it resumes after an entry whose CRC holds but whose
records fail at that entry's end, so their decoding is not repeated either.
(With ``verify=False`` the caller asked for no checksums, and the iterator
reads each entry as it stands: a corrupt entry's records are decoded up to
their first error before it is skipped.) Memory: 4 bytes per ``MARK`` bytes
per checksum, and a verdict per position met while following lengths.
"""

from __future__ import annotations

import functools
import re
import struct
from array import array
from collections.abc import Callable

from kafkaspec.generated import message_v1, record_v2
from kafkaspec.generated import record_batch_v2 as v2

from .codec.crc import crc32, crc32c
from .entry import ENTRY_HEAD, LOG_OVERHEAD, MAGIC_OFFSET, MIN_LENGTH, Buffer
from .errors import KafkaFormatError
from .message_set import MESSAGE_MODULES, read_legacy

#: prefix checksums are stored every MARK bytes (a look-up feeds at most MARK bytes to the C function)
MARK = 256
#: resume rules, as reported in ``Skipped.rule``
LENGTH, SCAN = "length", "scan"
#: the rules in words, for messages
RULE_WORDS = {LENGTH: "its length field was intact", SCAN: "scanned for the next valid entry"}

_V2_CRC_START = v2.ATTRIBUTES_OFFSET  # v2: CRC-32C of attributes..end
_LEGACY_CRC_START = MAGIC_OFFSET  # v0/v1: CRC-32 of magic..end
_U32 = struct.Struct(">I")
_I32 = struct.Struct(">i")
#: v0 key length sits after offset, size, crc, magic, attributes; v1 adds an 8-byte timestamp
_LEGACY_KEY_OFFSET = {magic: module.KEY_OFFSET for magic, module in MESSAGE_MODULES.items()}


def _at_least(n: int, top: int) -> bytes:
    """A regex for a big-endian int32 >= n (0 < n < 256) whose first byte is at most ``top``."""
    high = rb"|[\x01-" + b"\\x%02x" % top + rb"][\x00-\xff]{3}" if top else b""
    return (
        rb"(?:\x00[\x01-\xff][\x00-\xff]{2}|\x00\x00[\x01-\xff][\x00-\xff]"
        rb"|\x00\x00\x00[" + b"\\x%02x" % n + rb"-\xff]" + high + b")"
    )


def _byte_class(allowed: list[int]) -> bytes:
    return b"[" + b"".join(b"\\x%02x" % b for b in allowed) + b"]"


#: the low attribute byte of a plausible v2 batch: bit 7 unused, codec 0-4
_V2_ATTR_LOW = _byte_class([b for b in range(128) if b & v2.COMPRESSION_MASK <= 4])
#: the attribute byte of a plausible Message v0 (codec 0-4) and v1 (codec, timestamp type)
_V0_ATTR = _byte_class([b for b in range(8) if b <= 4])
_V1_ATTR = _byte_class([b for b in range(16) if b & message_v1.COMPRESSION_MASK <= 4])
#: a key length: -1 (null) or not negative
_KEY_LENGTH = rb"(?:\xff{4}|[\x00-\x7f][\x00-\xff]{3})"


#: the bytes the candidate pattern looks at (up to a Message v1's key length)
_CANDIDATE_SPAN = _LEGACY_KEY_OFFSET[1] + 4
#: a zero run long enough that no head starting in its first _CANDIDATE_SPAN bytes (where the pattern,
#: cut at the run's start + _CANDIDATE_SPAN, sees less than its span) has a nonzero length byte
_ZERO_RUN = re.compile(rb"\x00{%d,}" % (2 * _CANDIDATE_SPAN + LOG_OVERHEAD))
_NONZERO = re.compile(rb"[^\x00]")


@functools.cache
def _candidates(top: int) -> re.Pattern[bytes]:
    """Where a candidate entry can start: a length that fits its magic (and, through its first byte,
    roughly the data), the magic, and clean attributes (and, for v0/v1, a key length that can be)."""
    return re.compile(
        rb"(?=[\x00-\xff]{8}(?:"
        + _at_least(MIN_LENGTH[2], top)
        + rb"[\x00-\xff]{4}\x02[\x00-\xff]{4}\x00"
        + _V2_ATTR_LOW
        + rb"|"
        + _at_least(MIN_LENGTH[1], top)
        + rb"[\x00-\xff]{4}\x01"
        + _V1_ATTR
        + rb"[\x00-\xff]{8}"
        + _KEY_LENGTH
        + rb"|"
        + _at_least(MIN_LENGTH[0], top)
        + rb"[\x00-\xff]{4}\x00"
        + _V0_ATTR
        + _KEY_LENGTH
        + rb"))"
    )


class _Poly:
    """A reflected CRC-32 polynomial (as zlib and crc32c compute it), for combining prefix checksums.

    Reflected: bit 31 holds x ** 0, bit 0 holds x ** 31; multiplying by x is a right shift.
    """

    def __init__(self, poly: int):
        self.poly = poly
        shift4 = []  # what the 4 bits shifted out of the low end add back: multiplying by x ** 4
        for j in range(16):
            v = j
            for _ in range(4):
                v = (v >> 1) ^ poly if v & 1 else v >> 1
            shift4.append(v)
        self._shift4 = shift4
        self._low: array | None = None  # x ** (8 * n) for n < 2 ** 16
        self._high: dict[int, int] = {}  # x ** (8 * 2 ** 16 * j), as met

    def mul(self, a: int, b: int) -> int:
        """a * b modulo the polynomial, four bits of ``a`` at a time (Horner, highest power first)."""
        poly, shift4 = self.poly, self._shift4
        b1 = (b >> 1) ^ poly if b & 1 else b >> 1
        b2 = (b1 >> 1) ^ poly if b1 & 1 else b1 >> 1
        b3 = (b2 >> 1) ^ poly if b2 & 1 else b2 >> 1
        # multiples[j]: b times the nibble j, whose bit 3 is x ** 0 and bit 0 is x ** 3
        m01 = b3 ^ b2
        multiples = (
            0,
            b3,
            b2,
            m01,
            b1,
            b1 ^ b3,
            b1 ^ b2,
            b1 ^ m01,
            b,
            b ^ b3,
            b ^ b2,
            b ^ m01,
            b ^ b1,
            b ^ b1 ^ b3,
            b ^ b1 ^ b2,
            b ^ b1 ^ m01,
        )
        p = multiples[a & 15]  # x ** 28..31
        for shift in (4, 8, 12, 16, 20, 24, 28):
            p = (p >> 4) ^ shift4[p & 15] ^ multiples[(a >> shift) & 15]
        return p

    def power(self, n: int) -> int:
        """x ** (8 * n) modulo the polynomial (0 <= n < 2 ** 31): feeding n zero bytes to a CRC register."""
        low = self._low
        if low is None:  # each entry one byte further: two 4-bit steps
            shift4, v = self._shift4, 1 << 31
            low = self._low = array("I", bytes(4 << 16))
            for i in range(1 << 16):
                low[i] = v
                v = (v >> 4) ^ shift4[v & 15]
                v = (v >> 4) ^ shift4[v & 15]
        if n < 1 << 16:
            return low[n]
        j = n >> 16
        high = self._high.get(j)
        if high is None:
            x = low[-1]  # x ** (8 * (2 ** 16 - 1))
            x = (x >> 4) ^ self._shift4[x & 15]
            step = (x >> 4) ^ self._shift4[x & 15]  # x ** (8 * 2 ** 16)
            high, bit = 1 << 31, step
            while j:  # square and multiply
                if j & 1:
                    high = self.mul(high, bit)
                bit = self.mul(bit, bit)
                j >>= 1
            if len(self._high) > 4096:
                self._high.clear()
            self._high[n >> 16] = high
        return self.mul(low[n & 0xFFFF], high)


_CRC32C = _Poly(0x82F63B78)
_CRC32 = _Poly(0xEDB88320)


class _Prefix:
    """Prefix checksums ``crc(data[origin:x])`` of one buffer, stored every MARK bytes and extended on demand."""

    __slots__ = ("_buf", "_fn", "_poly", "origin", "_marks", "_last")

    def __init__(self, buf: Buffer, fn: Callable[..., int], poly: _Poly, origin: int):
        # the buffer itself, not a memoryview of it: a lasting export would keep an mmap from closing
        self._buf, self._fn, self._poly, self.origin = buf, fn, poly, origin
        self._marks = array("I", [0])
        self._last = (origin, 0)  # the last look-up: scans ask for increasing positions

    def at(self, x: int) -> int:
        origin, marks, fn = self.origin, self._marks, self._fn
        i = (x - origin) // MARK
        with memoryview(self._buf) as view:  # released on return
            while len(marks) <= i:  # extend: every byte is fed once
                start = origin + (len(marks) - 1) * MARK
                marks.append(fn(view[start : start + MARK], marks[-1]))
            mark = origin + i * MARK
            last, value = self._last
            if not mark <= last <= x:
                last, value = mark, marks[i]
            value = fn(view[last:x], value)
        self._last = (x, value)
        return value

    def window(self, s: int, e: int) -> int:
        """The checksum of ``data[s:e]`` (origin <= s <= e), from two prefix values."""
        return self.at(e) ^ self._poly.mul(self._poly.power(e - s), self.at(s))


#: the attribute bits a v2 batch defines; any other set bit is not a batch a producer wrote
_V2_DEFINED_BITS = (
    v2.COMPRESSION_MASK
    | v2.TIMESTAMP_TYPE_MASK
    | v2.IS_TRANSACTIONAL_MASK
    | v2.IS_CONTROL_MASK
    | v2.HAS_DELETE_HORIZON_MASK
)


def _plausible_v2(head: v2.RecordBatchHead, length: int) -> bool:
    """Cheap invariants of a batch a producer writes, checked before a scan candidate's CRC."""
    attributes, count = head.attributes, head.records_count
    if (
        attributes & ~_V2_DEFINED_BITS
        or attributes & v2.COMPRESSION_MASK > 4
        or count < 0
        or head.last_offset_delta < count - 1
    ):
        return False
    body = length - MIN_LENGTH[2]
    if attributes & v2.COMPRESSION_MASK == 0:
        return count * record_v2.MIN_RECORD_SIZE <= body and (count > 0 or body == 0)
    return body > 0


class Resync:
    """The recovery policy over one buffer: entry checks and resume points, sharing prefix checksums."""

    def __init__(self, buf: Buffer, end: int | None = None, origin: int = 0):
        self._buf = buf
        self.end = len(buf) if end is None else end
        if isinstance(buf, memoryview) and (buf.format != "B" or buf.ndim != 1):
            buf = self._buf = buf.cast("B")
        self._v2 = _Prefix(buf, crc32c, _CRC32C, origin)
        self._legacy = _Prefix(buf, crc32, _CRC32, origin)
        self._origin = origin
        self._leads: dict[int, bool] = {}  # _leads_on's verdicts
        self._last = (-1, False, False)  # valid()'s last position, candidate flag and verdict
        self._run: tuple[int, re.Match[bytes] | None] = (self.end + 1, None)  # _zero_run's last answer

    def valid(self, pos: int, *, candidate: bool = False) -> bool:
        """Whether a complete entry, ending at or before ``end``, with matching length, magic and CRC starts at ``pos``.

        ``candidate``: a scan candidate, which must also pass :func:`_plausible_v2`.
        """
        if pos == self._last[0] and candidate == self._last[1]:  # the iterator asks, then resume() does
            return self._last[2]
        verdict = self._valid(pos, candidate)
        self._last = (pos, candidate, verdict)
        return verdict

    def _valid(self, pos: int, candidate: bool) -> bool:
        buf, end = self._buf, self.end
        if pos < self._origin or end - pos <= MAGIC_OFFSET:
            return False
        _, length, stored, magic = ENTRY_HEAD.unpack_from(buf, pos)
        minimum = MIN_LENGTH.get(magic)
        stop = pos + LOG_OVERHEAD + length
        if minimum is None or length < minimum or stop > end:
            return False
        if magic == 2:
            if stop - pos < v2.RECORD_BATCH_OVERHEAD:
                return False
            head = v2.decode_record_batch_head(buf, pos)
            if candidate and not _plausible_v2(head, length):
                return False
            if self._v2.window(pos + _V2_CRC_START, stop) != head.crc:
                return False
            try:
                v2.check_record_batch(buf, pos, head, verify=False)
            except KafkaFormatError:
                return False
            return True
        if self._legacy_layout(pos, magic, stop) is not None:
            return False
        if self._legacy.window(pos + _LEGACY_CRC_START, stop) != stored & 0xFFFFFFFF:
            return False
        try:
            read_legacy(buf, pos, magic, verify=False)
        except KafkaFormatError:
            return False
        return True

    def _legacy_layout(self, pos: int, magic: int, stop: int) -> str | None:
        """What is wrong with the key and value lengths of the Message v0/v1 at ``pos`` (None: they add up)."""
        buf = self._buf
        key_at = pos + _LEGACY_KEY_OFFSET[magic]
        if key_at + 8 > stop:
            return f"Message v{magic} at byte {pos} is too short for its key and value lengths"
        (key,) = _I32.unpack_from(buf, key_at)
        value_at = key_at + 4 + max(key, 0)
        if key < -1 or value_at + 4 > stop:
            return f"Message v{magic} key length {key} at byte {key_at} does not fit its message_size"
        (value,) = _I32.unpack_from(buf, value_at)
        if value < -1 or value_at + 4 + max(value, 0) != stop:
            return f"Message v{magic} value length {value} at byte {value_at} does not add up to its message_size"
        return None

    def problem(self, pos: int) -> str:
        """Why the entry at ``pos`` (its head read, its length within the data) is not valid, without
        copying its key or value: the layout of a Message v0/v1, else the checksum."""
        _, length, _, magic = ENTRY_HEAD.unpack_from(self._buf, pos)
        if magic in _LEGACY_KEY_OFFSET and length >= MIN_LENGTH[magic]:
            layout = self._legacy_layout(pos, magic, pos + LOG_OVERHEAD + length)
            if layout is not None:
                return layout
        return self.mismatch(pos)

    def mismatch(self, pos: int) -> str:
        """The checksum error of the entry at ``pos``, whose framing is good (as the readers word it)."""
        buf = self._buf
        _, length, stored, magic = ENTRY_HEAD.unpack_from(buf, pos)
        stop = pos + LOG_OVERHEAD + length
        if magic == 2:
            crc = v2.decode_record_batch_head(buf, pos).crc
            actual = self._v2.window(pos + _V2_CRC_START, stop)
            return f"RecordBatch crc is {crc:#010x}, CRC32C of bytes {pos + _V2_CRC_START}..{stop} is {actual:#010x}"
        actual = self._legacy.window(pos + _LEGACY_CRC_START, stop)
        return (
            f"Message crc is {stored & 0xFFFFFFFF:#010x}, CRC32 of bytes {pos + _LEGACY_CRC_START}..{stop}"
            f" is {actual:#010x}"
        )

    def _leads_on(self, pos: int) -> bool:
        """Whether the length fields from ``pos`` on lead, entry by entry, to the end or to a valid entry.

        So a corrupt entry followed by more corrupt entries (each with an intact length) is still skipped
        whole. Each position's verdict is kept, so a run of corrupt entries is walked once, not once per entry.
        """
        buf, end, known = self._buf, self.end, self._leads
        path, verdict = [], False
        while True:
            if pos == end:
                verdict = True
                break
            seen = known.get(pos)
            if seen is not None:
                verdict = seen
                break
            path.append(pos)
            if end - pos < ENTRY_HEAD.size:
                break
            _, length, _, magic = ENTRY_HEAD.unpack_from(buf, pos)
            minimum = MIN_LENGTH.get(magic)
            if minimum is None or length < minimum or pos + LOG_OVERHEAD + length > end:
                break
            if self.valid(pos):
                verdict = True
                break
            pos += LOG_OVERHEAD + length
        for p in path:
            known[p] = verdict
        return verdict

    def _zero_run(self, start: int) -> re.Match[bytes] | None:
        """The first long run of zeros at or after ``start``; a search's answer serves later scans until
        they pass it, so the data is searched once, not once per resync."""
        searched, run = self._run
        if searched <= start and (run is None or run.start() >= start):
            return run
        run = _ZERO_RUN.search(self._buf, start, self.end)
        self._run = (start, run)
        return run

    def resume(self, pos: int) -> tuple[int | None, str]:
        """Where to resume after the corrupt entry at ``pos``, and by which rule.

        A position where a valid entry starts; ``end`` when the corrupt entry's length reaches exactly
        to it; or None (rule ``"scan"``) when no valid entry follows.
        """
        buf, end = self._buf, self.end
        if end - pos >= ENTRY_HEAD.size:
            length = ENTRY_HEAD.unpack_from(buf, pos)[1]
            after = pos + LOG_OVERHEAD + length
            if length >= MIN_LENGTH[0] and after <= end and (self.valid(pos) or self._leads_on(after)):
                return after, LENGTH
        top = min(0x7F, max(0, end - pos - LOG_OVERHEAD) >> 24)  # no longer length fits
        pattern, start = _candidates(top), pos + 1
        while start < end:
            # A candidate's length field has a nonzero byte: runs of zeros (a preallocated segment's tail)
            # are stepped over at C speed, and the pattern (a lookahead at every position) scans the rest.
            run = self._zero_run(start)
            stop = end if run is None else min(end, run.start() + _CANDIDATE_SPAN)
            for match in pattern.finditer(buf, start, stop):
                candidate = match.start()
                if self.valid(candidate, candidate=True):
                    return candidate, SCAN
            if run is None:
                break
            nonzero = _NONZERO.search(buf, run.end(), end)
            if nonzero is None:
                break
            start = max(stop, nonzero.start() - (LOG_OVERHEAD - 1))  # the first head whose length holds it
        return None, SCAN


def entry_is_valid(buf: Buffer, pos: int, end: int) -> bool:
    """Whether a complete entry, ending at or before ``end``, with matching length, magic and CRC starts at ``pos``."""
    return pos >= 0 and Resync(buf, end, origin=pos).valid(pos)


def resync(buf: Buffer, pos: int, end: int) -> int | None:
    """Where to resume after the corrupt entry at ``pos``: a position where a valid entry starts, ``end``
    when the corrupt entry's length reaches exactly to it, or None when no valid entry follows.

    One call; readers that resync repeatedly over one buffer keep a :class:`Resync`, which shares
    its prefix checksums between calls.
    """
    return Resync(buf, end, origin=pos).resume(pos)[0]

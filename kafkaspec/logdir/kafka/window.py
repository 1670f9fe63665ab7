"""The batches of a remote segment, read through a window of bounded size.

A whole-segment scan of an object-store segment (iteration in ``open_log``, ``dump``, ``verify``)
must not hold the segment: :class:`WindowedBatches` reads it as consecutive windows of about one
:data:`~kafkaspec.logdir.store.ranged.READ_PIECE`, fetched by :class:`~kafkaspec.logdir.store.ranged.Pieces` with
the next pieces already in flight, and gives the batches of each window in turn. It is the
:class:`~kafkaspec.BatchIterator` of a local read in every respect a caller sees: the same batches
at the same (file) positions, the same ``partial`` and ``skipped``, the same errors.

How a window keeps positions: its bytes are placed at their own file positions in an anonymous
memory map (``MAP_NORESERVE``) that reaches to the window's end; the kernel backs only the pages
written, so memory is the window's bytes, and a batch keeps its window alive only while the caller
holds it. Held at once: the current window, the pieces in flight, and windows of batches the caller
still holds.

Window boundaries: a batch cut by the window's end (the inner iterator's partial) starts the next
window, which then holds at least that whole batch: a batch larger than the window grows it to
that batch's size (bounded by its length field and the segment's end), never fails it. An error
raised (``on_corrupt="raise"``) for an entry not wholly inside a window that is not the last is
tried again in a window holding the entry, so errors are those of a local read. An entry whose
length reaches past the end of the range is a partial tail at once, without reading further.

Recovery mode (``on_corrupt="skip"``): where reading resumes after a corrupt entry depends on the
bytes after it (``kafkaspec.recovery``), possibly far beyond any window. So from the first corrupt
entry on, the rest of the range is read as one window (as a local read holds it), and the skipped
ranges are exactly those of a local read. Memory stays bounded for segments without corruption;
a corrupt remote segment read in recovery mode holds the part from its first corruption on.
"""

from __future__ import annotations

import mmap
import sys
from typing import Any

from kafkaspec.generated import record_batch_v2 as v2

from ...entry import LOG_OVERHEAD, Partial, Skipped
from ...errors import KafkaFormatError
from ...records import DEFAULT_MAX_DECOMPRESSED, BatchIterator, OnCorrupt
from ..store import ranged
from ..store.ranged import Get, Pieces

#: Linux's MAP_NORESERVE (absent from Python's mmap module before 3.13): a window reaching far
#: into a large segment reserves no swap for the pages it never writes
_NORESERVE = getattr(mmap, "MAP_NORESERVE", 0x4000 if sys.platform.startswith("linux") else 0)


def _sparse(size: int) -> mmap.mmap:
    flags = getattr(mmap, "MAP_PRIVATE", 0) | getattr(mmap, "MAP_ANONYMOUS", 0) | _NORESERVE
    try:
        return mmap.mmap(-1, size, flags=flags) if flags else mmap.mmap(-1, size)
    except (OSError, ValueError, TypeError):  # a platform without these flags
        return mmap.mmap(-1, size)


class WindowedBatches:
    """Batches starting in [start, stop) of bytes that ``get(a, b)`` fetches, a window at a time.

    Same interface as :class:`~kafkaspec.BatchIterator` (iteration, ``partial``, ``skipped``);
    ``largest_window`` is the most bytes one window held (for tests and benchmarks).
    """

    def __init__(
        self,
        get: Get,
        start: int,
        stop: int,
        *,
        verify: bool = True,
        on_corrupt: OnCorrupt = "raise",
        check_records: bool = True,
        max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
        piece: int | None = None,
        ahead: int | None = None,
    ):
        if on_corrupt not in ("raise", "skip"):
            raise ValueError(f"on_corrupt must be 'raise' or 'skip', got {on_corrupt!r}")
        self.verify = verify
        self.on_corrupt = on_corrupt
        self.check_records = check_records
        self.max_decompressed = max_decompressed
        self.partial: Partial | None = None
        self.skipped: list[Skipped] = []
        self.largest_window = 0
        self._piece = piece or ranged.READ_PIECE
        self._stop = stop
        self._pieces = Pieces(get, start, stop, piece=self._piece, ahead=ahead or ranged.READ_AHEAD)
        self._pos = start  # where the next entry starts: the end of the last batch given
        self._held = b""  # bytes from _pos on, fetched, not yet in a window
        self._buf: Any = None
        self._it: BatchIterator | None = None
        self._end = start  # the current window's end
        self._seen = 0  # entries of the current window's ``skipped`` already taken
        self._done = start >= stop
        if not self._done and not self._open(self._piece):  # the first window now: errors come at the call,
            self._finish()  # as a local read's do

    def __iter__(self) -> WindowedBatches:
        return self

    # -- windows -----------------------------------------------------------------------
    def _open(self, want: int) -> bool:
        """A window from ``_pos`` holding at least ``want`` bytes (fewer at the end); False when none are left."""
        parts = [self._held] if self._held else []
        have = len(self._held)
        while have < want:
            nxt = self._pieces.next()
            if nxt is None:
                break
            parts.append(nxt[1])
            have += len(nxt[1])
        self._held = b""
        if have == 0:
            return False
        end = self._pos + have
        buf = _sparse(end)
        at = self._pos
        for part in parts:
            buf[at : at + len(part)] = part
            at += len(part)
        del parts
        self._buf, self._end, self._seen = buf, end, 0
        self.largest_window = max(self.largest_window, have)
        self._it = BatchIterator(
            buf,
            verify=self.verify,
            max_decompressed=self.max_decompressed,
            start=self._pos,
            end=end,
            on_corrupt=self.on_corrupt,
            check_records=self.check_records,
        )
        return True

    @property
    def _final(self) -> bool:
        return self._end >= self._stop or self._pieces.exhausted

    def _again(self, position: int, want: int) -> None:
        """Drop the current window and read again from ``position`` (inside it) at least ``want`` bytes."""
        self._held = bytes(self._buf[position : self._end])
        self._pos = position
        self._buf = self._it = None
        if not self._open(max(want, len(self._held) + 1)):
            self._done = True

    def _entry_inside(self, position: int) -> bool:
        """Whether the entry at ``position`` (its length field's claim, and a v2 head) lies in the window."""
        if self._end - position < LOG_OVERHEAD:
            return False
        length = int.from_bytes(self._buf[position + 8 : position + 12], "big", signed=True)
        return self._end - position >= max(LOG_OVERHEAD + max(length, 0), v2.RECORD_BATCH_OVERHEAD)

    def _finish(self) -> None:
        self._done = True
        self._buf = self._it = None
        self._pieces.close()

    def close(self) -> None:
        """Stop reading: drop the window and cancel the pieces still queued."""
        self._finish()

    # -- iteration -----------------------------------------------------------------------
    def __next__(self) -> Any:
        while True:
            if self._done:
                raise StopIteration
            if self._it is None and not self._open(self._piece):
                self._finish()
                raise StopIteration
            it = self._it
            assert it is not None
            try:
                batch = next(it)
            except StopIteration:
                if self._corrupt_here(it):
                    continue
                if it.partial is not None:
                    p, needed = it.partial.position, it.partial.needed
                    if not self._final:
                        if needed is not None and p + needed > self._stop:  # reaches past the range
                            if self.on_corrupt == "raise":
                                self.partial = Partial(p, self._stop - p, needed)
                                self._finish()
                                raise StopIteration from None
                            self._again(p, self._stop - p)  # recovery scans from here: as a local read
                            continue
                        self._again(p, max(needed or 0, self._end - p + self._piece))
                        continue
                    self.partial = it.partial
                elif not self._final:  # the window ended between two entries
                    self._pos, self._buf, self._it = self._end, None, None
                    continue
                self._finish()
                raise StopIteration from None
            except KafkaFormatError:
                if not self._final and not self._entry_inside(self._pos):
                    self._again(self._pos, self._end - self._pos + self._piece)
                    continue
                self._finish()
                raise
            if self._corrupt_here(it):
                continue
            self._pos = batch.end
            return batch

    def _corrupt_here(self, it: BatchIterator) -> bool:
        """Take the window's new skipped ranges; True when the window was dropped for a read of the rest
        as one window, from the first of them (a window that is not the last)."""
        new = it.skipped[self._seen :]
        if not new:
            return False
        if not self._final:
            first = new[0].start
            self._again(first, self._stop - first)
            return True
        self.skipped.extend(new)
        self._seen = len(it.skipped)
        return False


Batches = BatchIterator | WindowedBatches

__all__ = ["Batches", "WindowedBatches"]

"""Large byte ranges of a remote object, fetched as pieces with read-ahead.

A range larger than :data:`READ_PIECE` is fetched as pieces of that size, :data:`READ_AHEAD` of them
in flight at once, by a ``get(start, end) -> bytes`` function (``Store`` gives one that does the
ranged GET and maps its errors). Two ways to use it:

* :func:`fetch`: the whole range as one ``bytes`` (an index file, a short range a seek needs);
* :class:`Pieces`: the range piece by piece, in order, the next :data:`READ_AHEAD` pieces already on
  their way while the caller works on the current one. Only those pieces are held, so a scan of a
  segment of any size holds a bounded number of bytes (``logdir.window`` reads batches this way).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

#: bytes per ranged GET of a large read, and how many pieces are in flight at once
READ_PIECE = 16 << 20
READ_AHEAD = 4

Get = Callable[[int, int], bytes]


def piece_bounds(start: int, stop: int, piece: int = READ_PIECE) -> list[tuple[int, int]]:
    """[start, stop) cut into consecutive ranges of at most ``piece`` bytes."""
    return [(p, min(p + piece, stop)) for p in range(start, stop, piece)]


def fetch(get: Get, start: int, stop: int, *, piece: int = READ_PIECE, ahead: int = READ_AHEAD) -> bytes:
    """Bytes [start, stop) by ``get`` over pieces of at most ``piece`` bytes, ``ahead`` at a time."""
    pieces = piece_bounds(start, stop, piece)
    if not pieces:
        return b""
    if len(pieces) == 1:
        return get(*pieces[0])
    with ThreadPoolExecutor(min(ahead, len(pieces))) as pool:
        return b"".join(pool.map(lambda ab: get(*ab), pieces))


class Pieces:
    """The pieces of [start, stop) in order, each fetched by ``get`` with ``ahead`` pieces in flight.

    ``next()`` gives ``(position, bytes)`` (a short piece only at ``stop``; ``get`` raises when the
    object ends early) and None after the last one. :meth:`close` (or the end) cancels what is
    still queued; a piece already being fetched finishes and is dropped.
    """

    def __init__(self, get: Get, start: int, stop: int, *, piece: int = READ_PIECE, ahead: int = READ_AHEAD):
        if piece <= 0 or ahead <= 0:
            raise ValueError(f"piece ({piece}) and ahead ({ahead}) must be positive")
        self._get = get
        self._todo = deque(piece_bounds(start, stop, piece))
        self._ahead = ahead
        self._pool: ThreadPoolExecutor | None = None
        self._flight: deque[tuple[int, Future[bytes]]] = deque()

    def _fill(self) -> None:
        while self._todo and len(self._flight) < self._ahead:
            a, b = self._todo.popleft()
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self._ahead, thread_name_prefix="kafkaspec-read")
            self._flight.append((a, self._pool.submit(self._get, a, b)))

    def next(self) -> tuple[int, bytes] | None:
        if not self._flight and len(self._todo) == 1 and self._pool is None:
            a, b = self._todo.popleft()  # a range of one piece: no thread
            return a, self._get(a, b)
        self._fill()
        if not self._flight:
            self.close()
            return None
        position, future = self._flight.popleft()
        try:
            data = future.result()
        except BaseException:
            self.close()
            raise
        self._fill()  # the next piece goes out while the caller works on this one
        return position, data

    @property
    def exhausted(self) -> bool:
        return not self._todo and not self._flight

    def close(self) -> None:
        self._todo.clear()
        for _, future in self._flight:
            future.cancel()
        self._flight.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def __del__(self) -> None:
        self.close()


__all__ = ["READ_AHEAD", "READ_PIECE", "Pieces", "fetch", "piece_bounds"]

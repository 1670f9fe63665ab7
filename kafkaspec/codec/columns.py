"""Helpers of the generated columnar codecs: filling sparse columns in bulk (decoders), and
items given as columns (encoders).

A column whose items nearly always hold the field's default (a Record's
``attributes``, an empty ``headers`` array, an offset delta equal to the
record's index) is not appended to item by item.
The decode loop notes only the items that differ, as ``(index, value)`` pairs
in item order, and these helpers fill the column once the loop has finished.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import repeat


def fill_sparse(column: list, count: int, default, odd: list[tuple[int, object]]) -> None:
    """Append ``count`` items of ``default`` to ``column``, then set the ``odd`` ones."""
    column.extend(repeat(default, count))
    for index, value in odd:
        column[index - count] = value


def fill_sparse_index(column: list, count: int, odd: list[tuple[int, int]]) -> None:
    """Append the item indexes ``0..count-1`` to ``column``, then set the ``odd`` ones."""
    column.extend(range(count))
    for index, value in odd:
        column[index - count] = value


def fill_sparse_offsets(offsets: list[int], count: int, odd: list[tuple[int, int]]) -> None:
    """Append ``count`` list offsets: each item's end, where only the ``odd`` items are non-empty.

    ``odd`` holds ``(index, end)`` for the items with nested entries; every other
    item ends where the item before it ended.
    """
    end = offsets[-1]
    last = -1
    for index, item_end in odd:
        offsets.extend(repeat(end, index - last - 1))
        offsets.append(item_end)
        end, last = item_end, index
    offsets.extend(repeat(end, count - 1 - last))


def transpose(items: Sequence, width: int) -> tuple:
    """``items`` (tuples of ``width`` fields) as ``width`` columns, by one C-level ``zip``.

    ValueError when any item has another number of fields: the caller's general loop then
    unpacks each item and says which is wrong (a column per field would drop what is beyond).
    """
    columns = tuple(zip(*items, strict=True))
    if len(columns) != width:
        raise ValueError(f"items of {len(columns)} fields, not {width}, take the general loop")
    return columns


class ColumnItems(Sequence):
    """Items given as columns, read as a sequence of item tuples.

    ``columns[j]`` holds field ``j`` of every item, in the item type's field order; a column that
    is None holds ``defaults[j]`` (the field's default) for every item. A generated
    ``encode_*_array`` encodes it column by column without making the item tuples; anything else
    reads the tuples (the general loop, the checks that name an item's field).
    """

    __slots__ = ("columns", "defaults", "n")

    def __init__(self, n: int, columns: tuple, defaults: tuple) -> None:
        if len(defaults) != len(columns):
            raise ValueError(f"{len(columns)} columns, {len(defaults)} defaults")
        for j, column in enumerate(columns):
            if column is not None and len(column) != n:
                raise ValueError(f"column {j} has {len(column)} items, not {n}")
        self.n, self.columns, self.defaults = n, columns, defaults

    def __len__(self) -> int:
        return self.n

    def __iter__(self) -> Iterator[tuple]:
        return zip(*(repeat(d, self.n) if c is None else c for c, d in zip(self.columns, self.defaults)))

    def __getitem__(self, index):
        if isinstance(index, slice):
            return list(self)[index]
        if not -self.n <= index < self.n:
            raise IndexError(f"item {index} of {self.n}")
        return tuple(d if c is None else c[index] for c, d in zip(self.columns, self.defaults))

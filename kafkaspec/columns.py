"""Helpers of the generated columnar decoders: filling sparse columns in bulk.

A column whose items nearly always hold the field's default (a Record's
``attributes``, an empty ``headers`` array, an offset delta equal to the
record's index) is not appended to item by item.
The decode loop notes only the items that differ, as ``(index, value)`` pairs
in item order, and these helpers fill the column once the loop has finished.
"""

from __future__ import annotations

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

"""A partition that retention passed: records numbered by their offsets in small segments, and a copy of
the log whose first segments are deleted, as retention (or DeleteRecords) deletes them."""

from __future__ import annotations

import shutil

from kafkaspec import Record, logdir

TS = 1_700_000_000_000


def write_numbered(root, first, n, *, topic="orders", partition=0, segment_bytes=200):
    """Records ``first`` .. ``first + n - 1`` (value ``v-<offset>``), a batch each; the small segments
    roll often."""
    with logdir.PartitionWriter(root, topic, partition, segment_bytes=segment_bytes) as w:
        for i in range(first, first + n):
            w.append([Record(key=b"k%d" % i, value=b"v-%d" % i, timestamp=TS + i)])


def drop_segments_below(folder, below):
    """Delete the segments of the partition ``folder`` wholly below offset ``below`` (their .log and
    index files, nothing else); return the log start left, the first segment kept."""
    bases = sorted({int(p.name.split(".")[0]) for p in folder.iterdir() if p.name.endswith(".log")})
    gone = {b for b, after in zip(bases, bases[1:], strict=False) if after <= below}
    for p in list(folder.iterdir()):
        stem = p.name.split(".")[0]
        if stem.isdigit() and int(stem) in gone:
            p.unlink()
    return min(set(bases) - gone)


def retained(src, dest, below, *, topic="orders", partition=0):
    """A copy of the log ``src`` at ``dest`` whose ``topic``-``partition`` lost its segments wholly below
    ``below``; returns the log start left."""
    shutil.copytree(src, dest)
    return drop_segments_below(dest / f"{topic}-{partition}", below)

"""Kafka's rules for topic names and partition numbers, the one check every writer makes.

A partition directory is ``<topic>-<partition>``, so a topic name is a path component: a name
holding ``/``, ``..`` or a newline would put a partition outside its destination, or read back
as another topic (``a/b`` as ``b``). Kafka refuses such names when a topic is created
(``org.apache.kafka.common.internals.Topic.validate``): not empty, not ``.`` or ``..``, at most
249 characters, only ASCII letters, digits, ``.``, ``_`` and ``-``. Every writer here refuses
them the same way, before it touches the file system, and readers pass over a directory whose
name breaks them (:func:`parse_partition_dir_name` says why). A partition is a non-negative
int32, as in Kafka's ``TopicPartition``; a negative one would make ``t--1``, which reads back as
topic ``t-``, partition 1.

Segment, index and snapshot files are named by an offset in 20 digits (``Log.filenameprefixFromOffset``):
an offset is a non-negative int64, so a name past 9223372036854775807 (``09223372036854775808.log``) or
without its 20 digits (``-0000000000000000005.log``, ``abc.log``) is none a broker writes or loads. A
writer gives a record an offset up to 2^63-2 only: the offset after it (the next segment's or snapshot's
name) must still be one.
"""

from __future__ import annotations

import re

from ...errors import InvalidTopicError as InvalidTopicError

#: Kafka's limit (Topic.MAX_NAME_LENGTH): 255 minus room for a partition suffix and a ``-delete`` marker
MAX_TOPIC_LENGTH = 249
MAX_PARTITION = (1 << 31) - 1
#: the largest offset a file can be named by (Long.MAX_VALUE), and the largest a record can be given
MAX_OFFSET = (1 << 63) - 1
MAX_RECORD_OFFSET = MAX_OFFSET - 1
_OFFSET_STEM = re.compile(r"[0-9]{20}")
_LEGAL = re.compile(r"[a-zA-Z0-9._-]+")
_ILLEGAL_CHAR = re.compile(r"[^a-zA-Z0-9._-]")
_DIR = re.compile(r"(?P<topic>.*)-(?P<partition>[0-9]+)", re.DOTALL)
#: how much of an illegal name an error shows (a name from data may be of any length)
_SHOWN = 80


def show_topic(topic: str) -> str:
    """``topic`` quoted and escaped (``'nl\\nx'``), cut after 80 characters: safe on one line of a terminal."""
    if len(topic) <= _SHOWN:
        return repr(topic)
    return f"{topic[:_SHOWN]!r}... ({len(topic):,} characters)"


def topic_problem(topic: object) -> str | None:
    """Why Kafka would refuse ``topic`` as a topic name (its ``Topic.validate`` rules), or None."""
    if not isinstance(topic, str):
        return f"a topic name is a string, not {type(topic).__name__}"
    if not topic:
        return "a topic name cannot be empty"
    if topic in (".", ".."):
        return 'a topic name cannot be "." or ".."'
    if len(topic) > MAX_TOPIC_LENGTH:
        return f"a topic name has at most {MAX_TOPIC_LENGTH} characters, this one has {len(topic):,}"
    if not _LEGAL.fullmatch(topic):
        bad = _ILLEGAL_CHAR.search(topic)
        assert bad is not None
        return (
            f"it holds {bad[0]!r} at character {bad.start()}; a topic name holds only ASCII letters, digits, "
            "'.', '_' and '-'"
        )
    return None


def partition_problem(partition: object) -> str | None:
    """Why ``partition`` is not a partition number (an int from 0 to 2147483647), or None."""
    if isinstance(partition, bool) or not isinstance(partition, int):
        return f"a partition is an integer, not {type(partition).__name__}"
    if not 0 <= partition <= MAX_PARTITION:
        return f"a partition is a number from 0 to {MAX_PARTITION}"
    return None


def offset_problem(offset: object) -> str | None:
    """Why ``offset`` cannot be a record's offset (an int from 0 to 2^63-2), or None."""
    if isinstance(offset, bool) or not isinstance(offset, int):
        return f"an offset is an integer, not {type(offset).__name__}"
    if not 0 <= offset <= MAX_RECORD_OFFSET:
        return f"an offset is a number from 0 to {MAX_RECORD_OFFSET} (the next offset must fit in an int64)"
    return None


def offset_name_problem(name: str) -> str | None:
    """Why the file name ``name`` (``<offset>.<type>``) is not named by an offset as Kafka names its files
    (20 digits, at most 9223372036854775807), or None."""
    stem = name.split(".", 1)[0]
    if not _OFFSET_STEM.fullmatch(stem):
        return "its name is not a 20-digit offset followed by the file type: no broker writes or loads it"
    if int(stem) > MAX_OFFSET:
        return f"its name is an offset past {MAX_OFFSET} (the largest an int64 holds): no broker writes or loads it"
    return None


def check_topic_partition(topic: str, partition: int, where: str = "") -> None:
    """Raise :class:`InvalidTopicError` unless ``topic`` is a legal topic name and ``partition`` a
    partition number; ``where`` (e.g. ``"kafkalog write"``) starts the message."""
    prefix = f"{where}: " if where else ""
    problem = topic_problem(topic)
    if problem is not None:
        shown = show_topic(topic) if isinstance(topic, str) else repr(topic)
        raise InvalidTopicError(f"{prefix}topic {shown} is illegal: {problem}")
    problem = partition_problem(partition)
    if problem is not None:
        raise InvalidTopicError(f"{prefix}partition {partition!r} of topic {topic!r} is illegal: {problem}")


def partition_dir_name(topic: str, partition: int, where: str = "") -> str:
    """``<topic>-<partition>``, once both are checked (:func:`check_topic_partition`)."""
    check_topic_partition(topic, partition, where)
    return f"{topic}-{partition}"


def parse_partition_dir_name(name: str) -> tuple[str, int] | str:
    """(topic, partition) for a ``<legal topic>-<partition>`` directory name, or why it is not one."""
    m = _DIR.fullmatch(name)
    if m is None:
        return "the name is not <topic>-<partition>"
    topic, digits = m["topic"], m["partition"]
    problem = topic_problem(topic)
    if problem is not None:
        return f"topic {show_topic(topic)} is illegal: {problem}"
    if len(digits) > 10 or int(digits) > MAX_PARTITION:
        return f"partition {digits[:20]}{'...' if len(digits) > 20 else ''} is beyond {MAX_PARTITION}"
    return topic, int(digits)


__all__ = [
    "InvalidTopicError",
    "MAX_OFFSET",
    "MAX_PARTITION",
    "MAX_RECORD_OFFSET",
    "MAX_TOPIC_LENGTH",
    "check_topic_partition",
    "offset_name_problem",
    "offset_problem",
    "parse_partition_dir_name",
    "partition_dir_name",
    "partition_problem",
    "show_topic",
    "topic_problem",
]

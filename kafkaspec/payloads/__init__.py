"""Kafka's own payloads: the keys and values of ``__consumer_offsets``, ``__transaction_state``,
``__share_group_state`` and ``__cluster_metadata`` (and its snapshots), and the values of control
records.

One job per module:

* :mod:`.decode`: the public decoding API, ``decode(topic, key, value)``, ``decode_as``,
  ``decode_control``, the typed :class:`Decoded` result;
* :mod:`.consumer_protocol`: a classic consumer group's member bytes (subscription, assignment),
  decoded beside the raw bytes;
* :mod:`.fields`: the generated codecs' NamedTuples as dicts;
* :mod:`.cluster_state`, :mod:`.group_state`, :mod:`.share_state`: sans-IO replays of decoded
  records into the KRaft cluster state, the committed offsets and group state, and the state of
  each share-partition;
* :mod:`.dead_letters`: share groups' dead-letter records (KIP-1191) summarised from their
  ``__dlq.errors.*`` headers.

The primitives the generated message codecs call are in the codec layer
(:mod:`kafkaspec.codec.message_types`, and :mod:`kafkaspec.codec._message_construct` for the
reference codecs): this package only applies the codecs.
"""

from __future__ import annotations

from .cluster_state import ClusterState
from .decode import FAMILY_OF_TOPIC, Decoded, Family, decode, decode_as, decode_control, fields_of, jsonable
from .group_state import GroupOffsets
from .share_state import ShareState

__all__ = [
    "FAMILY_OF_TOPIC",
    "ClusterState",
    "Decoded",
    "Family",
    "GroupOffsets",
    "ShareState",
    "decode",
    "decode_as",
    "decode_control",
    "fields_of",
    "jsonable",
]

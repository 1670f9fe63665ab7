"""The names of the ``kafkalog`` source's options: an option no reader or writer knows is refused, naming
the closest known one, since one ignored in silence reads the wrong data (``subscibe`` would read every
topic). What each option means: :mod:`.options` (reads) and :mod:`kafkaspec.spark.write.writer` (writes)."""

from __future__ import annotations

import difflib
from collections.abc import Mapping

from .options import OptionError

#: every option a ``kafkalog`` read takes, as the docs spell them (names are matched ignoring case);
#: ``tieredPrivateKey.<id>`` is a family
READ_OPTIONS = (
    "subscribe", "subscribePattern", "assign", "startingOffsets", "endingOffsets",
    "startingTimestamp", "endingTimestamp", "startingOffsetsByTimestamp", "endingOffsetsByTimestamp",
    "minPartitions", "maxRecordsPerPartition", "isolationLevel", "includeControl", "verifyCrc",
    "corruptionPolicy", "splitSize", "view", "decode", "engine", "includeHeaders", "keyFormat",
    "valueFormat", "schemaRegistryUrl", "s3.endpoint", "s3.region", "s3.accessKey", "s3.secretKey",
    "s3.sessionToken", "gcs.endpoint", "azure.accountName", "azure.accessKey", "azure.endpoint",
    "storageTimeout", "remoteLogMetadata", "tiered", "tieredPrivateKeyDir", "maxOffsetsPerTrigger",
    "minOffsetsPerTrigger", "maxTriggerDelay", "failOnDataLoss",
)  # fmt: skip
#: the storage options a write takes too (an object-store destination)
STORAGE_OPTIONS = tuple(n for n in READ_OPTIONS if n.split(".")[0] in ("s3", "gcs", "azure")) + (
    "storageTimeout",
)
#: options Spark itself sets: ``load(path)``'s and ``load([...])``'s (and its internal ones, named ``__...``)
_SPARK_OPTIONS = ("path", "paths")
#: options of Spark's Kafka source that mean nothing on files, and why
_KAFKA_ONLY = {
    "kafka.": "kafkalog reads files, not a broker: the path given to load() is the data",
    "groupidprefix": "kafkalog joins no consumer group",
    "fetchoffset.": "kafkalog asks no broker for offsets: it reads them from the files",
    "kafkaconsumer.": "kafkalog runs no Kafka consumer",
    "startingoffsetsbytimestampstrategy": "a starting timestamp after a partition's last record reads "
    "nothing of it (the strategy latest) in kafkalog",
}


def check_names(options: Mapping[str, str], known: tuple[str, ...], what: str) -> None:
    """Refuse an option that ``known`` (or Spark) does not name, with the closest known name: a misspelt
    option ignored in silence reads the wrong data (``subscibe`` would read every topic)."""
    lower = {k.lower(): k for k in known}
    for name in dict(options):
        low = str(name).lower()
        if low in lower or low in _SPARK_OPTIONS or low.startswith(("tieredprivatekey.", "__")):
            continue
        why = next((w for prefix, w in _KAFKA_ONLY.items() if low.startswith(prefix)), None)
        if why is not None:
            raise OptionError(f"option {name} of Spark's Kafka source is not one of {what}'s: {why}")
        close = difflib.get_close_matches(low, lower, n=1, cutoff=0.6)
        hint = (
            f": did you mean {lower[close[0]]}?" if close else " (its options: kafkaspec.spark.read.options)"
        )
        raise OptionError(f"{what} has no option {name}{hint}")

"""Reader options of the ``kafkalog`` source, named in the spirit of Spark's Kafka source.

=========================  ==================================================================
option                     meaning
=========================  ==================================================================
``subscribe``              comma-separated topics to read (default: all)
``subscribePattern``       regular expression a topic name must match in full
``assign``                 JSON ``{"topic": [0, 1]}``: only these partitions
``startingOffsets``        ``earliest`` (default), ``latest``, or JSON
                           ``{"topic": {"0": 23, "1": -2}}`` (-2 earliest, -1 latest)
``endingOffsets``          ``latest`` (default), or JSON as above; exclusive
``startingTimestamp``      ms since the epoch: start each partition at its first offset with a
                           timestamp at or after this (Kafka's ListOffsets by timestamp)
``endingTimestamp``        ms since the epoch: end each partition before that offset
``startingOffsetsBy...``   ``startingOffsetsByTimestamp`` / ``endingOffsetsByTimestamp``: JSON
                           ``{"topic": {"0": 1700000000000}}``, the same per partition (others
                           keep ``startingOffsets`` / ``endingOffsets``); ``startingTimestamp``
                           and ``endingTimestamp`` win over them, as in Spark's Kafka source
``minPartitions``          batch reads: at least about this many input partitions (the ranges
                           planned again with a smaller ``splitSize``)
``maxRecordsPerPartition`` batch reads: at most this many offsets per input partition (ranges cut
                           at offsets; records are never more than offsets)
``isolationLevel``         ``read_committed`` (default: drops aborted transactions and
                           everything after the last stable offset, as every kafkaspec reader
                           does) or ``read_uncommitted`` (Spark's Kafka source's default)
``includeControl``         ``true`` to return control records (markers) too; default false
``verifyCrc``              ``false`` to skip checksum verification; default true
``corruptionPolicy``       ``fail`` (default): a corrupt batch fails the job with the file and
                           byte position; ``skip``: drop it, log it, list it in the audit view
``splitSize``              target bytes per input partition (default 64m); large segments are
                           split at offset-index entries
``view``                   ``records`` (default), ``batches`` (one audit row per batch) or
                           ``offsets`` (one row per offset commit in ``__consumer_offsets``)
``decode``                 ``none`` (default) or ``auto``: add ``decodedType`` and ``decoded``
                           (JSON) columns for Kafka's own payloads (``kafkaspec.payloads``)
``s3.endpoint``            object-store settings for ``s3://`` paths, shipped to the executors
``s3.region``              (which may not share the driver's environment); unset: the standard
``s3.accessKey``           environment (``AWS_ENDPOINT_URL``, ``AWS_ACCESS_KEY_ID``, ...) of each
``s3.secretKey``           process. Spark's default ``spark.redaction.regex`` hides the key,
``s3.sessionToken``        secret and token values in plans and the UI; kafkaspec never prints them
``gcs.endpoint``           ``gs://`` paths: a private or emulated GCS endpoint (``http://host:port``,
                           no credentials then); unset: ``STORAGE_EMULATOR_HOST``, else Google's
                           own with Google's default credentials
``azure.accountName``      ``abfs://``/``az://`` paths: the storage account, its access key (hidden
``azure.accessKey``        like the S3 secrets) and a private or emulated blob endpoint; unset: the
``azure.endpoint``         Azure SDK's environment (``AZURE_STORAGE_CONNECTION_STRING``, ...)
``storageTimeout``         seconds before an unanswered storage request fails (default 30)
``remoteLogMetadata``      a tiered-storage prefix's ``__remote_log_metadata`` partitions (a data
                           dir holding them, or one partition dir): their events choose each
                           partition's live segments, as a broker does (default: those found
                           beside the data, else the segments' manifests decide)
``includeHeaders``         ``false`` to leave out the ``headers`` column, as Spark's Kafka source
                           does by default; default true (kafkalog always had it)
``maxOffsetsPerTrigger``   streaming: at most this many offsets per micro-batch, shared among
                           the partitions in proportion to what each has new
``minOffsetsPerTrigger``   streaming: wait for at least this many new offsets, but no longer
``maxTriggerDelay``        than this (default 15m; ``500ms``, ``30s``, ``5m``, ``1h``)
``failOnDataLoss``         streaming: ``true`` (default) fails the query, naming the offsets, when
                           retention deleted offsets before they were read; ``false`` skips them
                           and logs a warning
``tiered``                 the tiered-storage copy (a prefix or folder) of the local log at the
                           path: each partition's whole history, the remote segments below the
                           local log start offset and the local ones from there, each offset once
``tieredPrivateKeyDir``    encrypted tiered-storage segments: a directory, on the driver, of the
                           private keys as ``<key pair id>.pem`` files
``tieredPrivateKey.<id>``  the PEM file, on the driver, of key pair ``<id>``'s private key. The
                           driver reads the keys (and, without these options, the ones its
                           ``KAFKASPEC_TIERED_PRIVATE_KEY*`` environment names) and ships them to
                           the executors in the tasks; the options hold paths, never key material,
                           and no plan, error or summary shows a key (only ids and paths)
``keyFormat``              ``auto``, ``avro``, ``json-schema``, ``protobuf``, ``json``, ``string``,
``valueFormat``            ``bytes``, ``long``, ...: add ``key_decoded``/``key_error`` (or
                           ``value_decoded``/``value_error``) columns, typed from the topic's schema
                           (:mod:`.values`); with ``view=batches``, ``keyErrors``/``valueErrors``
``schemaRegistryUrl``      a Schema Registry asked for the ids the ``_schemas`` topic of the data
                           directory does not hold; the driver's ``KAFKASPEC_REGISTRY_TIMEOUT`` and
                           ``KAFKASPEC_REGISTRY_BUDGET`` go to the executors with the read
``engine``                 ``lockstep`` (default): v2 records decoded many batches at once with
                           numpy (:mod:`kafkaspec.arrow.engine`); ``records``: one record at a time
=========================  ==================================================================

Filters on topic, partition and offset are pushed down as well (:mod:`.pushdown`). Any other option
is refused, naming the closest known one (:func:`.option_names.check_names`): a misspelt ``subscibe`` would
otherwise read every topic.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from ...errors import KafkaFormatError
from ...logdir.kafka.names import MAX_OFFSET, MAX_PARTITION
from ...logdir.store.storage import StorageOptions
from ...logdir.tiered.encryption import PrivateKeys
from .pushdown import Pushed
from .values import ValueColumns, parse_formats

EARLIEST = -2
LATEST = -1
#: the key of a streaming offset's batch marks, beside its topics (``streaming.to_json``): a "/" is in no
#: Kafka topic name ([a-zA-Z0-9._-]) and in no directory or object-key segment name a topic comes from
MARKS_KEY = "kafkalog/marks"

_SIZE_UNITS = {
    "": 1,
    "b": 1,
    "k": 1 << 10,
    "kb": 1 << 10,
    "m": 1 << 20,
    "mb": 1 << 20,
    "g": 1 << 30,
    "gb": 1 << 30,
}


class OptionError(ValueError):
    """An option value the source cannot use."""


def _private_keys(options: Mapping[str, str]) -> PrivateKeys | None:
    """The keys options ``tieredPrivateKeyDir`` and ``tieredPrivateKey.<id>`` name, read here (on the
    driver); None without them. A key pair id keeps its case (the option name's suffix as written)."""
    directory, files = None, {}
    for name, value in dict(options).items():
        low = str(name).lower()
        if low == "tieredprivatekeydir":
            directory = str(value)
        elif low.startswith("tieredprivatekey."):
            files[str(name)[len("tieredPrivateKey.") :]] = str(value)
    if directory is None and not files:
        return None
    try:
        keys = PrivateKeys.of(files)
        return keys.merged(PrivateKeys.from_dir(directory)) if directory is not None else keys
    except (KafkaFormatError, ValueError) as exc:
        raise OptionError(f"option tieredPrivateKey: {exc}") from None


def parse_bool(value: str | None, default: bool, name: str) -> bool:
    if value is None:
        return default
    text = str(value).strip().lower()
    if text in ("true", "1", "yes"):
        return True
    if text in ("false", "0", "no"):
        return False
    raise OptionError(f"option {name} must be true or false, got {value!r}")


def parse_size(value: str | int) -> int:
    """``64m`` / ``1g`` / ``4096`` to bytes."""
    m = re.fullmatch(r"\s*(\d+)\s*([a-zA-Z]*)\s*", str(value))
    if not m or m.group(2).lower() not in _SIZE_UNITS:
        raise OptionError(f"not a size: {value!r} (examples: 4096, 512k, 64m, 1g)")
    return int(m.group(1)) * _SIZE_UNITS[m.group(2).lower()]


_DURATION_UNITS = {"ms": 0.001, "s": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}


def parse_duration(value: str) -> float:
    """``500ms`` / ``30s`` / ``5m`` / ``1h`` to seconds (a bare number is milliseconds, as in Spark)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", str(value))
    unit = m.group(2).lower() if m else ""
    if not m or (unit and unit not in _DURATION_UNITS):
        raise OptionError(f"not a duration: {value!r} (examples: 500ms, 30s, 5m, 1h)")
    return float(m.group(1)) * (_DURATION_UNITS[unit] if unit else 0.001)


def _shown(value: str) -> str:
    """An option's value in a message: its first 80 characters."""
    return repr(value) if len(value) <= 80 else repr(value[:80]) + f"... ({len(value)} characters)"


def whole_number(value: object, low: int, high: int) -> int:
    """A number of an option's JSON as the integer it must be, from ``low`` to ``high`` (a Kafka offset,
    partition or timestamp: a long); ``true``, ``1.5``, ``1e400`` are none (ValueError), where ``int``
    would take them for 1, 1, or fail with OverflowError."""
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,19}", value.strip()):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{value!r} is not a whole number from {low} to {high}")
    return value


def _offsets(value: str | None, default: int, name: str) -> tuple[int, dict[tuple[str, int], int]]:
    """(default for every partition, {(topic, partition): offset})."""
    if value is None:
        return default, {}
    text = value.strip()
    if text in ("earliest", "latest"):
        return (EARLIEST if text == "earliest" else LATEST), {}
    try:
        spec = json.loads(text)
        out = {
            (t, whole_number(p, 0, MAX_PARTITION)): whole_number(o, EARLIEST, MAX_OFFSET)
            for t, parts in spec.items()
            if t != MARKS_KEY
            for p, o in parts.items()
        }
    except (ValueError, AttributeError, TypeError, RecursionError) as exc:
        raise OptionError(
            f"option {name} must be earliest, latest or JSON like "
            f'{{"topic": {{"0": 23}}}}, got {_shown(value)}'
        ) from exc
    return default, out


def _by_time(value: str | None, name: str) -> dict[tuple[str, int], int]:
    """``{"topic": {"0": ms}}`` to {(topic, partition): ms}."""
    if value is None:
        return {}
    try:
        spec = json.loads(value)
        return {
            (t, whole_number(p, 0, MAX_PARTITION)): whole_number(ms, 0, MAX_OFFSET)
            for t, parts in spec.items()
            for p, ms in parts.items()
        }
    except (ValueError, AttributeError, TypeError, RecursionError) as exc:
        raise OptionError(
            f'option {name} must be JSON like {{"topic": {{"0": 1700000000000}}}} (ms since the epoch per '
            f"partition), got {_shown(value)}"
        ) from exc


@dataclass(frozen=True)
class ReadOptions:
    """Parsed reader options; picklable, shipped to every task."""

    topics: tuple[str, ...] | None = None
    pattern: str | None = None
    assign: dict[str, tuple[int, ...]] | None = None
    starting_default: int = EARLIEST
    starting: dict = field(default_factory=dict)
    ending_default: int = LATEST
    ending: dict = field(default_factory=dict)
    starting_timestamp: int | None = None
    ending_timestamp: int | None = None
    #: startingOffsetsByTimestamp / endingOffsetsByTimestamp: {(topic, partition): ms}
    starting_by_time: dict = field(default_factory=dict)
    ending_by_time: dict = field(default_factory=dict)
    min_partitions: int | None = None  # batch reads: at least about this many input partitions
    max_records_per_partition: int | None = None  # batch reads: at most this many offsets per input partition
    read_committed: bool = True
    include_control: bool = False
    verify_crc: bool = True
    skip_corrupt: bool = False
    split_size: int = 64 << 20
    view: str = "records"
    decode: bool = False
    lockstep: bool = (
        True  # option engine: lockstep (kafkaspec.arrow.engine) or records (the per-record decoder)
    )
    pushed: Pushed = Pushed()  # filters Spark pushed down (topic, partition, offset)
    storage: StorageOptions | None = None  # explicit object-store settings (secrets not in its repr)
    remote_log_metadata: str | None = (
        None  # where __remote_log_metadata is, for a tiered prefix (driver only)
    )
    include_headers: bool = True
    max_offsets_per_trigger: int | None = None  # streaming only, as the rest below
    min_offsets_per_trigger: int | None = None
    max_trigger_delay: float = 15 * 60.0  # seconds
    fail_on_data_loss: bool = True
    #: private keys of encrypted tiered segments by key pair id, read on the driver (key material not in its repr)
    keys: PrivateKeys | None = field(default=None, repr=False)
    tiered: str | None = None  # the tiered copy of the local log at the path (logdir.open_log(path, tiered=))
    #: keyFormat / valueFormat: typed keys and values (.values); their schemas resolved on the driver
    values: ValueColumns | None = None

    @classmethod
    def parse(cls, options: Mapping[str, str]) -> ReadOptions:
        get = {str(k).lower(): v for k, v in dict(options).items()}.get
        topics = get("subscribe")
        assign_text = get("assign")
        assign: dict[str, tuple[int, ...]] | None = None
        if assign_text is not None:
            try:
                assign = {
                    t: tuple(whole_number(p, 0, MAX_PARTITION) for p in ps)
                    for t, ps in json.loads(assign_text).items()
                }
            except (ValueError, AttributeError, TypeError, RecursionError) as exc:
                raise OptionError(
                    f'option assign must be JSON like {{"topic": [0, 1]}}, got {_shown(assign_text)}'
                ) from exc
        pattern = get("subscribepattern")
        if pattern is not None:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise OptionError(f"option subscribePattern is not a regular expression: {exc}") from exc
        s_default, starting = _offsets(get("startingoffsets"), EARLIEST, "startingOffsets")
        e_default, ending = _offsets(get("endingoffsets"), LATEST, "endingOffsets")
        if e_default == EARLIEST:
            raise OptionError("endingOffsets cannot be earliest")
        isolation = (get("isolationlevel") or "read_committed").strip().lower()
        if isolation not in ("read_uncommitted", "read_committed"):
            raise OptionError(
                f"option isolationLevel must be read_uncommitted or read_committed, got {isolation!r}"
            )
        policy = (get("corruptionpolicy") or "fail").strip().lower()
        if policy not in ("fail", "skip"):
            raise OptionError(f"option corruptionPolicy must be fail or skip, got {policy!r}")
        view = (get("view") or "records").strip().lower()
        if view not in ("records", "batches", "offsets"):
            raise OptionError(f"option view must be records, batches or offsets, got {view!r}")
        decode = (get("decode") or "none").strip().lower()
        if decode not in ("none", "auto"):
            raise OptionError(f"option decode must be auto or none, got {decode!r}")
        engine = (get("engine") or "lockstep").strip().lower()
        if engine not in ("lockstep", "records"):
            raise OptionError(f"option engine must be lockstep or records, got {engine!r}")
        values = parse_formats(get, OptionError)
        if values is not None and view == "offsets":
            raise OptionError(
                "options keyFormat and valueFormat go with view records or batches, not offsets"
            )
        if view == "offsets":  # commits live in __consumer_offsets only
            topics = "__consumer_offsets"

        def ms(name: str) -> int | None:
            v = get(name.lower())
            try:
                return None if v is None else whole_number(v, 0, MAX_OFFSET)
            except ValueError as exc:
                raise OptionError(
                    f"option {name} must be milliseconds since the epoch (0 to {MAX_OFFSET}), got {_shown(str(v))}"
                ) from exc

        timeout = get("storagetimeout")
        try:
            storage_timeout = None if timeout is None else float(timeout)
        except ValueError as exc:
            raise OptionError(f"option storageTimeout must be seconds, got {timeout!r}") from exc
        storage = StorageOptions(
            endpoint=get("s3.endpoint"),
            region=get("s3.region"),
            access_key=get("s3.accesskey"),
            secret_key=get("s3.secretkey"),
            session_token=get("s3.sessiontoken"),
            timeout=storage_timeout,
            gcs_endpoint=get("gcs.endpoint"),
            azure_account=get("azure.accountname"),
            azure_key=get("azure.accesskey"),
            azure_endpoint=get("azure.endpoint"),
        )
        if bool(storage.access_key) != bool(storage.secret_key):
            raise OptionError("options s3.accessKey and s3.secretKey go together: set both or neither")

        def count(name: str) -> int | None:
            v = get(name.lower())
            try:
                return None if v is None else whole_number(v, 1, MAX_OFFSET)
            except ValueError:
                raise OptionError(
                    f"option {name} must be a whole number from 1 to {MAX_OFFSET}, got {_shown(str(v))}"
                ) from None

        return cls(
            include_headers=parse_bool(get("includeheaders"), True, "includeHeaders"),
            max_offsets_per_trigger=count("maxOffsetsPerTrigger"),
            min_offsets_per_trigger=count("minOffsetsPerTrigger"),
            max_trigger_delay=parse_duration(get("maxtriggerdelay") or "15m"),
            fail_on_data_loss=parse_bool(get("failondataloss"), True, "failOnDataLoss"),
            storage=None if storage == StorageOptions() else storage,
            keys=_private_keys(options),
            tiered=get("tiered") or None,
            topics=tuple(t.strip() for t in topics.split(",") if t.strip()) if topics else None,
            pattern=pattern,
            assign=assign,
            starting_default=s_default,
            starting=starting,
            ending_default=e_default,
            ending=ending,
            starting_timestamp=ms("startingTimestamp"),
            ending_timestamp=ms("endingTimestamp"),
            starting_by_time=_by_time(get("startingoffsetsbytimestamp"), "startingOffsetsByTimestamp"),
            ending_by_time=_by_time(get("endingoffsetsbytimestamp"), "endingOffsetsByTimestamp"),
            min_partitions=count("minPartitions"),
            max_records_per_partition=count("maxRecordsPerPartition"),
            read_committed=isolation == "read_committed",
            include_control=parse_bool(get("includecontrol"), False, "includeControl"),
            verify_crc=parse_bool(get("verifycrc"), True, "verifyCrc"),
            skip_corrupt=policy == "skip",
            split_size=parse_size(get("splitsize") or "64m"),
            view=view,
            decode=decode == "auto",
            lockstep=engine == "lockstep",
            remote_log_metadata=get("remotelogmetadata"),
            values=values,
        )

    def wants(self, topic: str, partition: int) -> bool:
        """Whether the topic selection options keep this topic-partition."""
        if self.topics is not None and topic not in self.topics:
            return False
        if self.pattern is not None and not re.fullmatch(self.pattern, topic):
            return False
        if self.assign is not None and partition not in self.assign.get(topic, ()):
            return False
        return self.pushed.wants(topic, partition)

    def start_time(self, topic: str, partition: int) -> int | None:
        """The timestamp a partition's read starts at (its first offset at or after it), if any:
        ``startingTimestamp``, else the partition's ``startingOffsetsByTimestamp``."""
        if self.starting_timestamp is not None:
            return self.starting_timestamp
        return self.starting_by_time.get((topic, partition))

    def end_time(self, topic: str, partition: int) -> int | None:
        """The timestamp a partition's read ends before (at its first offset at or after it), if any."""
        if self.ending_timestamp is not None:
            return self.ending_timestamp
        return self.ending_by_time.get((topic, partition))

    def offset_range(self, topic: str, partition: int) -> tuple[int | None, int | None]:
        """[start, end) offsets to keep, None meaning unbounded; 'latest' start means nothing."""
        start = self.starting.get((topic, partition), self.starting_default)
        end = self.ending.get((topic, partition), self.ending_default)
        lo = None if start == EARLIEST else start
        hi = None if end == LATEST else end
        if start == LATEST:
            return -1, hi  # resolved against the log end by the planner
        pushed_lo, pushed_hi = self.pushed.offset_lo, self.pushed.offset_hi
        if pushed_lo is not None:  # offsets are never negative: a negative bound keeps everything
            lo = max(pushed_lo, 0) if lo is None else max(lo, pushed_lo)
        if pushed_hi is not None:
            hi = pushed_hi if hi is None else min(hi, pushed_hi)
        return lo, hi

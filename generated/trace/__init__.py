"""Tracing decoders generated from schemas/ by codegen. DO NOT EDIT.

``kafkaspec.generated.trace.<module>.trace_<snake>(tracer)`` reads one structure field by field
and records each field's byte span on the tracer (``kafkaspec explain``); :data:`FORMATS` names
every structure and dispatch of the spec the way ``kafkaspec explain --format`` does.
"""

from __future__ import annotations

from typing import NamedTuple

from . import (
    aborted_transaction_v10,
    aborted_txn_entry_v0,
    control_record_key_v0,
    end_transaction_marker_v0,
    fetch_partition_v0,
    fetch_partition_v10,
    fetch_request_v0,
    fetch_response_frame_v10,
    fetch_response_payload_v0,
    fetch_response_v0,
    fetch_topic_v0,
    fetch_topic_v10,
    header_v2,
    message_v0,
    message_v1,
    multi_fetch_request_v0,
    multi_fetch_response_v0,
    multi_produce_request_v0,
    multi_request_header_v0,
    offset_entry_v0,
    offset_index_entry_v0,
    offsets_request_v0,
    offsets_response_v0,
    partition_fetch_v0,
    partition_produce_v0,
    produce_request_v0,
    producer_snapshot_entry_v1,
    producer_snapshot_v1,
    record_batch_v2,
    record_v2,
    request_header_v0,
    response_header_v0,
    time_index_entry_v0,
    wire_message_v0,
    wire_message_v1,
)


class Format(NamedTuple):
    """One ``--format``: a structure's tracing decoder, or a dispatch choosing one by a discriminator."""

    name: str
    doc: str
    #: the tracing decoder (None for a dispatch)
    trace: object
    #: a log or wire entry (found by a discriminator): decoded back to back; else one structure
    headed: bool
    #: a dispatch: the discriminator's byte offset and struct format, and the decoder of each value
    offset: int = 0
    fmt: str = ""
    cases: dict[int, object] | None = None


#: every --format name, structures then dispatches
FORMATS = {
    "aborted-transaction-v10": Format(
        "aborted-transaction-v10",
        "One aborted transaction of a Fetch response partition (version 4 and later): the producer and the first offset of the transaction.",
        aborted_transaction_v10.trace_aborted_transaction,
        False,
    ),
    "aborted-txn-entry-v0": Format(
        "aborted-txn-entry-v0",
        "One entry of a segment's transaction index (`<base offset>.txnindex`): an aborted transaction whose abort marker lies in the segment. read_committed consumers use it to drop the aborted records without scanning for markers. Entries are 34 bytes, appended in the order the abort markers were written; the file is not preallocated.",
        aborted_txn_entry_v0.trace_aborted_txn_entry,
        False,
    ),
    "control-record-key-v0": Format(
        "control-record-key-v0",
        "The key of each record in a control batch (a transaction marker's batch holds one; a KRaft control batch may hold several of different types, as a snapshot's SNAPSHOT_HEADER, KRAFT_VERSION and KRAFT_VOTERS). The type says how to read the value; consumers never hand control records to applications.",
        control_record_key_v0.trace_control_record_key,
        False,
    ),
    "end-transaction-marker-v0": Format(
        "end-transaction-marker-v0",
        "Value of an abort or commit control record (ControlRecordType 0 or 1).",
        end_transaction_marker_v0.trace_end_transaction_marker,
        False,
    ),
    "fetch-partition-v0": Format(
        "fetch-partition-v0",
        "One partition of a Fetch response version 0: its error code, high watermark and message set (log entries back to back; the broker may cut the last one short).",
        fetch_partition_v0.trace_fetch_partition,
        False,
    ),
    "fetch-partition-v10": Format(
        "fetch-partition-v10",
        "One partition of a Fetch response version 10: its error code and offsets, the aborted transactions in the fetched range, and its records (log entries of any magic back to back; the broker may cut the last one short).",
        fetch_partition_v10.trace_fetch_partition,
        False,
    ),
    "fetch-request-v0": Format(
        "fetch-request-v0",
        "FETCH (type 1): read up to MAX_SIZE bytes of a partition's log from a byte offset.",
        fetch_request_v0.trace_fetch_request,
        False,
    ),
    "fetch-response-frame-v10": Format(
        "fetch-response-frame-v10",
        "A Fetch response, version 10 (Kafka 2.1, the first to allow zstd), as sent on the socket: the 4-byte size, the response header's correlation id, then the response with its topics and partitions, each partition with its record set.",
        fetch_response_frame_v10.trace_fetch_response_frame,
        False,
    ),
    "fetch-response-payload-v0": Format(
        "fetch-response-payload-v0",
        "A Fetch response, version 0 (Kafka 0.8 to 0.9), as a client holds it after reading the 4-byte size that frames it on the socket: the response header's correlation id, then every requested topic with its partitions, each with its message set.",
        fetch_response_payload_v0.trace_fetch_response_payload,
        False,
    ),
    "fetch-response-v0": Format(
        "fetch-response-v0",
        "Response to a FETCH request (and each part of a Multi-Fetch response): a response header and a chunk of the log. The chunk may end in the middle of a message; that is not an error.",
        fetch_response_v0.trace_fetch_response,
        False,
    ),
    "fetch-topic-v0": Format(
        "fetch-topic-v0",
        "One topic of a Fetch response version 0: its name and its partitions.",
        fetch_topic_v0.trace_fetch_topic,
        False,
    ),
    "fetch-topic-v10": Format(
        "fetch-topic-v10",
        "One topic of a Fetch response version 10: its name and its partitions.",
        fetch_topic_v10.trace_fetch_topic,
        False,
    ),
    "header-v2": Format(
        "header-v2",
        "A record header (KIP-82); an ordered key/value pair attached to a record.",
        header_v2.trace_header,
        False,
    ),
    "message-v0": Format(
        "message-v0",
        "A MessageSet entry holding a Message v0 (Kafka 0.8 to 0.9): offset and size, then the message itself (crc, magic, attributes, key, value). A log segment or a fetch response of this era is a plain concatenation of entries. When the compression bits are set the message is a wrapper: its value is the compressed bytes of an inner message set whose offsets are absolute.",
        message_v0.trace_message,
        True,
    ),
    "message-v1": Format(
        "message-v1",
        "A MessageSet entry holding a Message v1 (Kafka 0.10 to 0.10.2, KIP-32): like v0 with a timestamp after the attributes and a timestamp-type bit. Inner messages of a compressed wrapper carry offsets relative to the wrapper: inner absolute offset = wrapper offset - last inner relative offset + inner relative offset. Under LogAppendTime the wrapper's timestamp applies to every inner message.",
        message_v1.trace_message,
        True,
    ),
    "multi-fetch-request-v0": Format(
        "multi-fetch-request-v0",
        "MULTIFETCH (type 2): several FETCH requests chained together after a multi- request header.",
        multi_fetch_request_v0.trace_multi_fetch_request,
        False,
    ),
    "multi-fetch-response-v0": Format(
        "multi-fetch-response-v0",
        "Response to a MULTIFETCH request: a response header, then one FetchResponse per requested topic-partition, in request order.",
        multi_fetch_response_v0.trace_multi_fetch_response,
        False,
    ),
    "multi-produce-request-v0": Format(
        "multi-produce-request-v0",
        "MULTIPRODUCE (type 3): several PRODUCE requests chained together after a multi- request header.",
        multi_produce_request_v0.trace_multi_produce_request,
        False,
    ),
    "multi-request-header-v0": Format(
        "multi-request-header-v0",
        "The header of a 0.7 multi-request (Multi-Produce, Multi-Fetch): one request for several topic-partitions.",
        multi_request_header_v0.trace_multi_request_header,
        False,
    ),
    "offset-entry-v0": Format(
        "offset-entry-v0", "One offset in an Offsets response.", offset_entry_v0.trace_offset_entry, False
    ),
    "offset-index-entry-v0": Format(
        "offset-index-entry-v0",
        "One entry of a segment's offset index (`<base offset>.index`), a sparse map from offsets to byte positions in the `.log` file. The broker appends an entry each time more than `index.interval.bytes` of batches were written since the last one; an entry names the last offset of a batch and the position where that batch starts. The file is an array of these 8-byte entries; an active segment's index is preallocated and ends in zero-filled entries, so a reader stops at the first zero entry after the first.",
        offset_index_entry_v0.trace_offset_index_entry,
        False,
    ),
    "offsets-request-v0": Format(
        "offsets-request-v0",
        "OFFSETS (type 4): find up to MAX_NUMBER offsets of messages written before TIME.",
        offsets_request_v0.trace_offsets_request,
        False,
    ),
    "offsets-response-v0": Format(
        "offsets-response-v0",
        "Response to an OFFSETS request: a response header and a list of byte offsets.",
        offsets_response_v0.trace_offsets_response,
        False,
    ),
    "partition-fetch-v0": Format(
        "partition-fetch-v0",
        "One topic-partition of a Multi-Fetch request.",
        partition_fetch_v0.trace_partition_fetch,
        False,
    ),
    "partition-produce-v0": Format(
        "partition-produce-v0",
        "One topic-partition of a Multi-Produce request.",
        partition_produce_v0.trace_partition_produce,
        False,
    ),
    "produce-request-v0": Format(
        "produce-request-v0",
        "PRODUCE (type 0): send a message set to one topic-partition. There is no response.",
        produce_request_v0.trace_produce_request,
        False,
    ),
    "producer-snapshot-entry-v1": Format(
        "producer-snapshot-entry-v1",
        "The state of one producer id in a producer-state snapshot: what the broker needs to keep deduplicating and fencing after a restart without rereading the log.",
        producer_snapshot_entry_v1.trace_producer_snapshot_entry,
        False,
    ),
    "producer-snapshot-v1": Format(
        "producer-snapshot-v1",
        "A producer-state snapshot (`<offset>.snapshot` in a partition directory): the broker's table of active producer ids as of the offset in the file name, written on segment roll and clean shutdown so that restarts need not reread the whole log.",
        producer_snapshot_v1.trace_producer_snapshot,
        False,
    ),
    "record-batch-v2": Format(
        "record-batch-v2",
        "A batch of one or more records: the unit a producer writes, a broker stores and a consumer fetches, and the unit of compression. A log segment is a plain concatenation of batches. Empty batches (records_count 0) are legal after compaction, which keeps a batch to preserve the producer's last sequence.",
        record_batch_v2.trace_record_batch,
        True,
    ),
    "record-v2": Format(
        "record-v2",
        "One record inside a RecordBatch. Offsets and timestamps are stored as deltas from the batch's base_offset and base_timestamp; integers are zigzag varints as in Protocol Buffers.",
        record_v2.trace_record,
        False,
    ),
    "request-header-v0": Format(
        "request-header-v0",
        "The header every single (non-multi) 0.7 request begins with. REQUEST_LENGTH covers the whole request, so the request structures repeat these fields and compute it.",
        request_header_v0.trace_request_header,
        False,
    ),
    "response-header-v0": Format(
        "response-header-v0",
        "The 6-byte header every 0.7 response begins with. RESPONSE_LENGTH covers the whole response, so the response structures repeat these fields and compute it.",
        response_header_v0.trace_response_header,
        False,
    ),
    "time-index-entry-v0": Format(
        "time-index-entry-v0",
        "One entry of a segment's time index (`<base offset>.timeindex`, KIP-33), mapping a timestamp to an offset. Entries are appended at the same interval as the offset index whenever the segment's max timestamp grows, so timestamps increase through the file. A lookup for time T finds the last entry with timestamp <= T, then the offset index gives the byte position. Preallocated files end in zeros.",
        time_index_entry_v0.trace_time_index_entry,
        False,
    ),
    "wire-message-v0": Format(
        "wire-message-v0",
        "The Kafka 0.6 message: LENGTH, MAGIC 0, CHECKSUM, PAYLOAD. It has no offset field: offsets are byte positions in the partition's log, and the next message's offset is this offset + LENGTH + 4.",
        wire_message_v0.trace_wire_message,
        True,
    ),
    "wire-message-v1": Format(
        "wire-message-v1",
        "The Kafka 0.7 message: LENGTH, MAGIC 1, COMPRESSION, CHECKSUM, PAYLOAD. When COMPRESSION is set the payload is a compressed message set (wire messages back to back); compression is end to end, so offsets a consumer can fetch from are the boundaries of the compressed messages.",
        wire_message_v1.trace_wire_message,
        True,
    ),
    "log-entry": Format(
        "log-entry",
        "One entry of a log segment or fetch response: the magic byte at offset 16 chooses Message v0, Message v1 or RecordBatch v2, so a stream may mix them.",
        None,
        True,
        16,
        ">b",
        {0: message_v0.trace_message, 1: message_v1.trace_message, 2: record_batch_v2.trace_record_batch},
    ),
    "wire-message-any": Format(
        "wire-message-any",
        "A 0.6/0.7 message of either version: the MAGIC byte at offset 4 says whether a COMPRESSION byte follows.",
        None,
        True,
        4,
        ">b",
        {0: wire_message_v0.trace_wire_message, 1: wire_message_v1.trace_wire_message},
    ),
}

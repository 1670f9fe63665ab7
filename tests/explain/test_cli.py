"""``kafkaspec explain``: text, colour, JSON, hex on stdin, exit codes, and where decoding stops on bad data;
every corpus file in the spec's formats and every file of a synth directory explained to the last byte."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from support.corpus import CORPUS, load_vectors
from support.explain import assert_tiles, run

import kafkaspec
from kafkaspec.commands.explain import parse_hex
from kafkaspec.explain import explain
from kafkaspec.logdir.write.synthesis import synth

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "codecs" / "vectors"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def golden(name: str) -> str:
    return json.loads((GOLDEN / f"{name}.json").read_text())["hex"]


# -- text -----------------------------------------------------------------------------------------------


def test_text_names_every_field_with_bytes_value_and_doc():
    code, out, err = run("explain", "-", stdin=golden("record_with_headers"))
    assert code == 0 and err == ""
    assert not ANSI.search(out), "colour when the output is not a terminal"
    lines = out.splitlines()
    line = next(x for x in lines if " base_offset " in x)
    assert line.split()[0] == "0..8" and "00 00 00 00 00 00 00 2a" in line and "= 42" in line
    assert "# Offset of the first record" in line
    assert re.search(r"8\.\.12 +batch_length int32 +00 00 00 45 += 69 +covers bytes 12\.\.81 .*matches", out)
    assert re.search(r"crc uint32 +43 e9 88 d1 .*crc32c of bytes 21\.\.81: matches", out)
    assert "compression (bits 0-2) = 0 CompressionType.NONE" in out and "is_control (bit 5) = 0 clear" in out
    assert "timestamp 1600000000005 = base_timestamp 1600000000000 + 5" in out
    assert "offset 42 = base_offset 42 + 0" in out
    assert re.search(r"80\.\.81 +length varint +01 += -1", out)  # the null header value's varint
    assert lines[-1] == "1 log-entry entry; every byte explained"


def test_colour_when_asked():
    code, out, _ = run("explain", "-", "--color", "always", stdin=golden("minimal_one_record"))
    assert code == 0 and ANSI.search(out)
    assert ANSI.sub("", out) == run("explain", "-", stdin=golden("minimal_one_record"))[1]


def test_compressed_region_shown_stored_then_decompressed():
    code, out, _ = run("explain", "-", stdin=golden("gzip_record_with_headers"))
    assert code == 0
    assert re.search(r"61\.\.101 +compressed gzip +1f 8b .*40 bytes; 20 bytes decompressed \(stream 1\)", out)
    assert re.search(r"s1:0\.\.20 +\[0\] Record v2", out)
    assert "1 decompressed region; every byte explained" in out


def test_hex_on_stdin_may_be_spaced_and_prefixed():
    spaced = " ".join("0x" + golden("minimal_one_record")[i : i + 2] for i in range(0, 140, 2))
    code, out, _ = run("explain", "-", "--length", "70", stdin=spaced + "\n")
    assert code in (0, 1) and "RecordBatch v2" in out


@pytest.mark.parametrize("text, message", [("00zz", "not hex: 'z'"), ("000", "odd number of hex digits")])
def test_bad_hex_is_one_line_exit_2(text, message):
    code, out, err = run("explain", "-", stdin=text)
    assert code == 2 and out == "" and message in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--format", "nope"], "unknown format 'nope'"),
        (["--at", "-3"], "is negative"),
        (["--at", "1000"], "past the end of the input"),
    ],
)
def test_usage_errors_exit_2(argv, message, tmp_path):
    f = tmp_path / "x.log"
    f.write_bytes(bytes.fromhex(golden("minimal_one_record")))
    code, _, err = run("explain", f, *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_missing_file_and_directory_exit_2(tmp_path):
    assert run("explain", tmp_path / "nope.log")[0] == 2
    code, _, err = run("explain", tmp_path)
    assert code == 2 and "is a directory" in err


def test_format_list_names_every_format():
    assert run("explain")[0] == 2
    code, out, _ = run("explain", "--format", "list")
    names = {line.split()[0] for line in out.splitlines()}
    assert (
        code == 0
        and {
            "batch",
            "record-batch-v2",
            "message-v0",
            "message-v1",
            "wire-message-any",
            "produce-request-v0",
            "offset-index-entry-v0",
            "producer-snapshot-v1",
        }
        <= names
    )


def test_at_length_and_count_pick_entries(tmp_path):
    one = bytes.fromhex(golden("minimal_one_record"))
    f = tmp_path / "00000000000000000000.log"
    f.write_bytes(one * 3)
    code, out, _ = run("explain", f, "--at", len(one), "--count", 1)
    assert code == 0 and out.splitlines()[0].split()[0] == f"{len(one)}..{2 * len(one)}"
    assert out.splitlines()[-1].startswith("1 log-entry entry")
    code, out, _ = run("explain", f, "--length", len(one) + 10)
    assert "partial entry at the end at byte" in out and code == 0


# -- JSON --------------------------------------------------------------------------------------------------


def test_json_is_the_field_tree_with_offsets():
    code, out, _ = run("explain", "-", "--json", stdin=golden("gzip_record_with_headers"))
    assert code == 0
    doc = json.loads(out)
    assert doc["format"] == "log-entry" and doc["failure"] is None and doc["problems"] == []
    assert [s["size"] for s in doc["streams"]] == [101, 20]
    (batch,) = doc["entries"]
    fields = {c["name"]: c for c in batch["children"]}
    assert fields["base_offset"] == {
        **fields["base_offset"],
        "start": 0,
        "end": 8,
        "hex": "000000000000002a",
        "value": 42,
    }
    assert fields["attributes"]["bits"][0] == {
        "name": "compression",
        "bits": "0-2",
        "value": 1,
        "label": "CompressionType.GZIP",
    }
    region, inner = fields["records"]["children"]
    assert (region["kind"], region["stream"], region["start"], region["end"]) == ("compressed", 0, 61, 101)
    record = inner["children"][0]
    assert record["stream"] == 1 and record["type"] == "Record v2"
    offset = next(c for c in record["children"] if c["name"] == "offset_delta")
    assert offset["value"] == 0 and offset["absolute"] == 42


# -- bad data: where decoding stopped ------------------------------------------------------------------------


def _fast_reader_verdict(data: bytes) -> str:
    try:
        it = kafkaspec.iter_batches(data)
        for batch in it:
            batch.records  # noqa: B018 - decode (and decompress) now
    except kafkaspec.KafkaFormatError:
        return "error"
    return "partial" if it.partial is not None else "ok"


VECTORS = load_vectors()
#: the deliberately broken corpus vectors: the fast reader refuses them or finds a partial entry
BROKEN = [
    v
    for v in VECTORS
    if _fast_reader_verdict(bytes.fromhex(v["expected"].get("log_entry_hex_derived") or v["hex"])) != "ok"
]


def test_corpus_has_broken_vectors(corpus):
    assert len(BROKEN) >= 15


@pytest.mark.parametrize("v", BROKEN, ids=[v["id"] for v in BROKEN])
def test_broken_vector_points_at_the_byte(v, corpus):
    hex_ = v["expected"].get("log_entry_hex_derived") or v["hex"]
    data = bytes.fromhex(hex_)
    fmt = "record-v2" if v["kind"] == "record_body" else "batch"
    code, out, err = run("explain", "-", "--format", fmt, stdin=hex_)
    assert "Traceback" not in err and err == ""
    expl = explain(data, fmt)
    stop = expl.failure or expl.partial or (expl.problems[0] if expl.problems else None)
    assert stop is not None, f"{v['id']}: explain found nothing wrong"
    assert code == (0 if expl.failure is None and not expl.problems else 1)
    size = len(expl.streams[stop.stream].data)
    assert 0 <= stop.position <= size
    # the block names the field and marks the byte in a dump of the bytes around it
    assert f"at byte {stop.position}" in out and stop.message in out
    assert re.search(rf"\^\^  byte {stop.position}$", out, re.M), out[-800:]


def test_crc_mismatch_is_shown_and_decoding_goes_on():
    data = bytearray.fromhex(golden("record_with_headers"))
    data[-5] ^= 0xFF  # a header value byte, covered by the CRC
    code, out, _ = run("explain", "-", stdin=data.hex())
    assert code == 1
    assert re.search(r"crc uint32 .*MISMATCH: stored 0x43e988d1, but the crc32c of bytes 21\.\.81 is 0x", out)
    assert "problem at byte 17, in RecordBatch.crc:" in out
    assert "headers array of Header" in out  # the records after the bad CRC are still shown


def test_truncated_record_points_at_the_field():
    data = bytearray.fromhex(golden("record_with_headers"))
    data[61] = 0x30  # record length 24: runs past the batch's end
    code, out, _ = run("explain", "-", stdin=data.hex())
    assert code == 1
    assert "decoding stopped at byte 61, in RecordBatch.records[0].length:" in out
    assert (
        "length 24 says Record ends at byte 86, past the end of RecordBatch set by batch_length (byte 81)"
        in out
    )


# -- every corpus file in the spec's formats, every synth file ---------------------------------------------

#: corpus files whose bytes no schema describes: text files, snappy-java's framing of a text file
#: (fetch1.snappy.chunked.4k: no Kafka structure), pcapng captures (refused, below)
NOT_IN_THE_SPEC = (
    "leader-epoch-checkpoint",
    "partition.metadata",
    "quorum-state",
    ".txt",
    ".md",
    ".pcapng",
    "fetch1.snappy.chunked.4k",
)
#: broker fetch-response captures: explain reads them with --format (the name does not say it)
FETCH_FORMATS = {
    ".kafka.0821": "fetch-v0",
    ".kafka.0822": "fetch-v0",
    ".kafka.0900": "fetch-v0",
    ".hex": "fetch-v10",
}
CORPUS_FILES = (
    sorted(
        p
        for p in (CORPUS / "files").rglob("*")
        if p.is_file() and not p.name.endswith(NOT_IN_THE_SPEC) and "invalid_crc" not in p.name
    )
    if CORPUS
    else []
)
FETCH_FILES = [p for p in CORPUS_FILES if p.name.endswith(tuple(FETCH_FORMATS))]


def _corpus_input(path: Path) -> tuple[bytes, str]:
    fmt = next((f for suffix, f in FETCH_FORMATS.items() if path.name.endswith(suffix)), "auto")
    data = parse_hex(path.read_text()) if path.suffix == ".hex" else path.read_bytes()
    return data, fmt


def test_corpus_files_found(corpus):
    assert len(CORPUS_FILES) >= 15
    # every broker capture of the corpus: kafka-rust's 0.8.2/0.9 (6) and segmentio's v10 (11)
    assert len(FETCH_FILES) >= 16


@pytest.mark.parametrize("path", CORPUS_FILES, ids=[p.name for p in CORPUS_FILES])
def test_corpus_file_explained_to_the_last_byte(path, corpus):
    data, fmt = _corpus_input(path)
    expl = explain(data, fmt, path=str(path))
    assert expl.ok and expl.partial is None, expl.failure or expl.problems
    assert assert_tiles(expl) > 0 and expl.entries[0].start == 0 and expl.entries[-1].end == len(data)
    if path in FETCH_FILES:  # the envelope and every entry of its message or record sets, to the last byte
        assert expl.count == 1
        structs = [n for _, n in expl.entries[0].walk() if n.kind == "struct"]
        assert any(n.type.startswith(("Message v", "RecordBatch v2")) for n in structs)
        assert not [n for _, n in expl.entries[0].walk() if n.kind in ("partial", "unread")]


def test_fetch_capture_from_the_command_line(corpus):
    """The same through the CLI: a .hex file is read as hex text, like hex on stdin."""
    path = CORPUS / "files" / "segmentio-kafka-go-fixtures" / "v1-v1c-v2-v2c-v2b-v2b-v2b-v2bc-v1b-v1bc.hex"
    code, out, err = run("explain", path, "--format", "fetch-v10")
    assert code == 0 and err == ""
    assert (
        out.splitlines()[-1]
        == "1 fetch-response-frame-v10 entry, 7 decompressed regions; every byte explained"
    )
    assert re.search(r"aborted_transactions array of AbortedTransaction +null", out)
    assert out == run("explain", "-", "--format", "fetch-response-frame-v10", stdin=path.read_text())[1]


def test_invalid_crc_capture_points_at_the_crc(corpus):
    path = CORPUS / "files" / "kafka-rust-test-data" / "fetch2.mytopic.nocompression.invalid_crc.kafka.0900"
    code, out, _ = run("explain", path, "--format", "fetch-v0")
    assert code == 1
    expl = explain(path.read_bytes(), "fetch-v0")
    assert expl.failure is None and len(expl.problems) == 1
    (problem,) = expl.problems
    assert (
        problem.position == 52
        and problem.path == "FetchResponsePayload.topics[0].partitions[0].message_set[0].crc"
    )
    assert "problem at byte 52, in FetchResponsePayload.topics[0].partitions[0].message_set[0].crc:" in out
    assert re.search(
        r"52\.\.56 +crc uint32 +58 58 58 58 .*MISMATCH: stored 0x58585858, but the crc32 of bytes "
        r"56\.\.537 is 0x7e196bb4",
        out,
    )
    assert assert_tiles(expl) > 0 and expl.entries[-1].end == path.stat().st_size  # the rest is still shown


@pytest.mark.parametrize("name", ["v1-v1.pcapng", "v2-v2.pcapng"])
def test_pcapng_capture_is_refused_by_name(name, corpus):
    code, out, err = run("explain", CORPUS / "files" / "segmentio-kafka-go-fixtures" / name)
    assert code == 2 and out == ""
    assert err.startswith(
        "kafkaspec explain: the input is a pcapng packet capture, a container of network packets, "
        "not Kafka bytes"
    )


def test_pcap_capture_is_refused():
    code, _, err = run("explain", "-", stdin="d4c3b2a1 0200 0400" + "00" * 24)
    assert code == 2 and "the input is a pcap packet capture" in err


def test_hex_file_that_is_not_hex(tmp_path):
    path = tmp_path / "bad.hex"
    path.write_text("00 01 zz")
    code, _, err = run("explain", path)
    assert code == 2 and err == f"kafkaspec explain: {path} is not hex: 'z' at hex digit 4\n"


def test_fetch_response_record_set_with_at(corpus):
    """A broker's 0.8 fetch response: its message set starts at byte 40 (after the envelope)."""
    path = CORPUS / "files" / "kafka-rust-test-data" / "fetch1.mytopic.1p.gzip.kafka.0821"
    code, out, _ = run("explain", path, "--at", 40)
    assert code == 0 and "1 log-entry entry, 1 decompressed region; every byte explained" in out


@pytest.fixture(scope="module")
def synth_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("synth") / "logs"
    synth(out, size_mb=0.3, seed=5, force=True)  # still every file kind, codec and magic
    return out


def test_every_synth_file_explained_to_the_last_byte(synth_dir):
    suffixes = (".log", ".index", ".timeindex", ".txnindex", ".snapshot")
    files = sorted(p for p in synth_dir.rglob("*") if p.name.endswith(suffixes))
    assert {p.suffix for p in files} >= {".log", ".index", ".timeindex", ".snapshot"}
    magics = set()
    for path in files:
        data = path.read_bytes()
        expl = explain(data, path=str(path))
        assert expl.ok and expl.partial is None, (path, expl.failure or expl.problems)
        if data:
            assert assert_tiles(expl) > 0 and expl.entries[-1].end == len(data), path
        magics |= {node.type for e in expl.entries for _, node in e.walk() if node.kind == "struct"}
    assert {
        "RecordBatch v2",
        "Message v0",
        "Message v1",
        "OffsetIndexEntry v0",
        "TimeIndexEntry v0",
        "AbortedTxnEntry v0",
        "ProducerSnapshot v1",
    } <= magics


# -- what lengths, counts, timestamps and nested regions say ----------------------------------------------


def test_count_says_it_matches_and_log_append_time_is_named():
    code, out, _ = run("explain", "-", stdin=golden("log_append_time"))
    assert code == 0
    assert re.search(r"records_count int32 .*counts the items of records; matches: 1 Record read", out)
    assert (
        "timestamp 1000 = base_timestamp 1000 + 0; LogAppendTime: reads as the batch's max_timestamp 2000"
        in out
    )


def test_nested_compression_is_refused_at_the_inner_wrapper():
    from kafkaspec import Record, build_batch
    from kafkaspec.codec.compression import GZIP, compress
    from kafkaspec.generated.message_v1 import encode_message

    inner = build_batch([Record(key=b"k", value=b"v", timestamp=5)], magic=1, compression="gzip")
    outer = encode_message(offset=0, attributes=GZIP, timestamp=5, value=compress(GZIP, inner, magic=1))
    code, out, _ = run("explain", "-", stdin=outer.hex())
    assert code == 1
    assert "decoding stopped at byte 34 of stream 1 (gzip inner message set at bytes 34..106)" in out
    assert "a compressed wrapper's inner message is compressed too (Kafka does not allow nesting)" in out


def test_last_offset_and_control_record_are_read():
    code, out, _ = run("explain", "-", stdin=golden("control_commit"))
    assert code == 0
    assert re.search(r"last_offset_delta int32 .*last offset \d+ = base_offset \d+ \+ 0", out)
    assert re.search(
        r"ControlRecordKey v0 .*\n.*version int16 +00 00 += 0.*\n.*type int16 +00 01 += 1 +"
        r"ControlRecordType\.COMMIT",
        out,
    )
    assert re.search(r"EndTransactionMarker v0 (.*\n){2}.*coordinator_epoch int32 +00 00 00 03 += 3", out)


def test_html_page_is_self_contained(tmp_path):
    page = tmp_path / "p.html"
    code, out, _ = run("explain", "-", "--html", page, stdin=golden("gzip_record_with_headers"))
    text = page.read_text()
    assert code == 0 and out.startswith(f"kafkaspec explain: wrote {page}")
    assert not re.search(r"(src|href)\s*=|@import|url\(", text), "the page refers to something outside itself"
    assert text.count('class="byte') == 101 + 20  # every byte of the input and of the decompressed region
    assert 'data-path="RecordBatch.records[0].value"' in text


def test_json_says_where_decoding_stopped():
    data = bytearray.fromhex(golden("record_with_headers"))
    data[61] = 0x30
    code, out, _ = run("explain", "-", "--json", stdin=data.hex())
    doc = json.loads(out)
    assert (
        code == 1
        and doc["failure"]["position"] == 61
        and doc["failure"]["path"] == "RecordBatch.records[0].length"
    )
    assert doc["problems"][0]["path"] == "RecordBatch.crc"
    assert doc["entries"][-1]["kind"] == "unread" and doc["entries"][-1]["start"] == 62


# -- streamed output: each entry written and let go -----------------------------------------------------------


def _three_entries_then_a_bad_one() -> bytes:
    from kafkaspec import Record, build_batch

    good = [
        build_batch(
            [Record(key=b"k", value=b"v" * 20, timestamp=7, headers=[("h", b"1")])] * 2,
            compression=codec,
            base_offset=i * 2,
        )
        for i, codec in enumerate(("none", "gzip", "zstd"))
    ]
    crc_bad = bytearray(good[1])
    crc_bad[17] ^= 0xFF  # a problem in an entry with a decompressed region
    cut = bytearray(good[0])
    cut[61] = 0x7F  # a record length past its batch: decoding stops
    return good[0] + bytes(crc_bad) + good[2] + bytes(cut)


def test_streamed_text_and_json_equal_the_whole_explanation():
    from kafkaspec.explain import jsonout, text

    data = _three_entries_then_a_bad_one()
    whole = explain(data)
    assert whole.count == 3 and whole.failure is not None and len(whole.problems) == 2  # both changed CRCs
    code, out, _ = run("explain", "-", stdin=data.hex())
    assert code == 1 and out == text.render(whole)
    code, out, _ = run("explain", "-", "--json", stdin=data.hex())
    assert code == 1 and json.loads(out) == jsonout.to_dict(whole)


def test_a_streamed_explanation_lets_entries_and_regions_go():
    data = _three_entries_then_a_bad_one()
    seen = []
    expl = explain(data, on_entry=lambda entry, _: seen.append(entry.type), keep=False)
    assert seen == ["RecordBatch v2"] * 3 and expl.count == 3 and expl.values == []
    assert [e.kind for e in expl.entries] == ["struct", "unread"]  # only the entry that was not read whole
    sizes = [(s.id, len(s.data), s.size) for s in expl.streams]
    kept = {p.stream for p in expl.problems}
    assert all(length == size for sid, length, size in sizes if sid == 0 or sid in kept)
    assert any(length == 0 < size for sid, length, size in sizes if sid not in kept and sid)


def test_html_refuses_a_window_too_large_for_one_page(tmp_path):
    from kafkaspec.commands.explain import HTML_LIMIT

    big = tmp_path / "big.log"
    one = bytes.fromhex(golden("minimal_one_record"))
    big.write_bytes(one * (HTML_LIMIT // len(one) + 1))
    code, _, err = run("explain", big, "--html", tmp_path / "p.html")
    assert code == 2 and "pick at most" in err and not (tmp_path / "p.html").exists()
    code, out, _ = run("explain", big, "--html", tmp_path / "p.html", "--length", len(one) * 10)
    assert code == 0 and "wrote" in out

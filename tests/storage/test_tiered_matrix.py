"""Every reader against every tiered layout and every alteration a real prefix goes through (issue 24).

Layouts: Aiven's (written by ``write_tiered``), the same with some segments under another prefix (on
S3, where only ``__remote_log_metadata``'s custom metadata says where they are), and Kafka's
``LocalTieredStorage``. Alterations: a
re-uploaded copy of a segment (same offsets, another segment id), an orphaned upload (data objects, no
manifest / not all files), a deleted segment (objects gone below the log start), and a local data dir
plus its tiered copy overlapping by some segments. Readers: ``open_log`` record iteration, the Arrow API,
``dump --json`` and ``verify``. The alterations are also made with ``__remote_log_metadata`` saying
what is live, and on segments written under two rotated key pairs (Aiven's layout only: Kafka's layout
has no manifests to write the topic from, nor encryption); one alteration per layout, and a whole
history, run with the tiered prefix on the S3 server. Each reader must yield each offset exactly once and exactly the live
offsets, taken from what the writer was given (the offsets of the data dir's segments that were not
deleted), not from our tiered reader. Everything is written under the test's own tmp_path, beside a
canary file that must survive.
"""

from __future__ import annotations

import base64
import io
import json
import shutil
import uuid
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import NamedTuple

import pyarrow as pa
import pytest
from support.local_tiered import copy_fileset, write_local_tiered
from support.logdir import write_partition
from support.remote_log_records import (
    DELETE_FINISHED,
    DELETE_STARTED,
    FINISHED,
    STARTED,
    segment,
    update,
    write_topic,
)

from kafkaspec import logdir
from kafkaspec.cli import main
from kafkaspec.logdir.kafka import files
from kafkaspec.logdir.tiered.custom import SegmentLocation, encode_custom_metadata
from kafkaspec.logdir.tiered.encryption import PrivateKeys
from kafkaspec.logdir.tiered.lineage import segment_epochs
from kafkaspec.logdir.tiered.local_storage import EPOCHS_SUFFIX
from kafkaspec.logdir.tiered.segment import INDEXES_SUFFIX, MANIFEST_SUFFIX, kafka_uuid

AIVEN_SUFFIXES = (".log", INDEXES_SUFFIX, MANIFEST_SUFFIX)
PARTITIONS = (("orders", 0, 3), ("orders", 1, 4))
LAYOUTS = ("aiven", "local-tiered")
ALTERATIONS = ("copy", "orphan", "deleted", "history")
# the same, with ``__remote_log_metadata`` saying what is live (written from the manifests: Aiven only)
META_ALTERATIONS = ("copy+meta", "orphan+meta", "deleted+meta")
# the same, with the segments written under two key pairs (Aiven's plugin rotated its keys)
ROTATED_ALTERATIONS = ("copy+rotated", "orphan+rotated", "deleted+rotated")
OLD, NEW = "key-pair-1", "key-pair-2"
READERS = ("open_log", "arrow", "dump", "verify")


class Case(NamedTuple):
    path: Path | str  # a folder, or a URI on the S3 server
    tiered: Path | str | None
    meta: Path | None
    keys: Path | None  # a directory of <key pair id>.pem files
    expected: Counter  # (topic, partition, offset) -> 1
    unused: int  # segments verify must list as not served
    reason: str  # a word of the reason each of them is listed with


def _source(tmp_path: Path) -> tuple[Path, dict[tuple[str, int], list[int]]]:
    """A data dir of two partitions with several segments; each partition's segment base offsets, read
    from the file names the writer produced."""
    data = tmp_path / "data"
    for topic, partition, seed in PARTITIONS:
        write_partition(
            data,
            topic=topic,
            partition=partition,
            batches=50,
            seed=seed,
            segment_bytes=2000,
            codecs=("none", "zstd"),
        )
    bases = {
        (t, p): sorted(int(f.name[:20]) for f in (data / f"{t}-{p}").glob("*.log")) for t, p, _ in PARTITIONS
    }
    assert all(len(b) >= 4 for b in bases.values()), bases
    return data, bases


def _offsets_from_source(data: Path, keep_from: dict[tuple[str, int], int]) -> Counter:
    """The offsets the writer was given, at or above ``keep_from`` per partition (read from the plain
    data dir, the layout the writer started from)."""
    with logdir.open_log(data, layout="kafka") as log:
        got = Counter(
            (p.topic, p.partition, r.offset)
            for p in log.partitions()
            for _, r in p.records()
            if r.offset >= keep_from.get((p.topic, p.partition), 0)
        )
    assert got and max(got.values()) == 1
    return got


def _aiven_folders(remote: Path) -> dict[tuple[str, int], Path]:
    out = {}
    for folder in (p for t in remote.iterdir() for p in t.iterdir()):
        topic = folder.parent.name[:-23]  # <topic>-<topic id>/<partition>
        out[(topic, int(folder.name))] = folder
    return out


def _aiven_stem(folder: Path, base: int) -> str:
    (stem,) = {p.name.rsplit(".", 1)[0] for p in folder.glob(f"{base:020d}-*")}
    return stem


def _build(layout: str, alteration: str, tmp_path: Path) -> Case:
    data, bases = _source(tmp_path)
    remote = tmp_path / "remote"
    key_dir = None
    if alteration.endswith("+rotated"):  # segments below offset 25 under one key pair, the rest another
        key_dir, publics = _key_pairs(tmp_path)
        alteration = alteration[: -len("+rotated")]
        logdir.write_tiered(
            data,
            remote,
            chunk_size=700,
            compression=False,
            key_pair=lambda topic, partition, base: (kid := OLD if base < 25 else NEW, publics[kid]),
        )
        folders = _aiven_folders(remote)
        assert {
            json.loads(m.read_text())["encryption"]["dataKey"].split(":")[0]
            for m in remote.rglob(f"*{MANIFEST_SUFFIX}")
        } == {OLD, NEW}
    elif layout in ("aiven", "aiven-prefix"):
        logdir.write_tiered(data, remote, chunk_size=700, compression=False)
        folders = _aiven_folders(remote)
    else:
        folders = write_local_tiered(data, remote)
    (tmp_path / "canary").write_text("keep")
    keys = sorted(bases)
    if alteration == "history":
        # the local log keeps its last segments; the tiered copy has them all (overlap of two segments)
        local = tmp_path / "broker"
        shutil.copytree(data, local)
        for key in keys:
            for base in bases[key][:2]:
                for f in (local / f"{key[0]}-{key[1]}").glob(f"{base:020d}.*"):
                    f.unlink()
        return Case(local, remote, None, None, _offsets_from_source(data, {}), 0, "")
    key = keys[0]
    folder, base = folders[key], bases[key][1]
    if alteration.endswith("+meta"):
        return _with_metadata(
            alteration, data, bases, remote, folders, tmp_path, moved=layout == "aiven-prefix"
        )
    if alteration == "copy":
        if layout == "aiven":
            stem = _aiven_stem(folder, base)
            new = f"{stem[:20]}-{kafka_uuid(b'matrix-copy')}"
            for suffix in AIVEN_SUFFIXES:
                shutil.copyfile(folder / f"{stem}{suffix}", folder / f"{new}{suffix}")
        else:
            copy_fileset(folder, base, "matrix-copy")
        return Case(remote, None, None, key_dir, _offsets_from_source(data, {}), 1, "replaced")
    if alteration == "orphan":
        if layout == "aiven":
            stem = _aiven_stem(folder, base)
            new = f"{stem[:20]}-{kafka_uuid(b'matrix-orphan')}"
            for suffix in (".log", INDEXES_SUFFIX):
                shutil.copyfile(folder / f"{stem}{suffix}", folder / f"{new}{suffix}")
        else:
            copy_fileset(folder, base, "matrix-orphan", skip=(EPOCHS_SUFFIX, files.SNAPSHOT_SUFFIX))
        return Case(remote, None, None, key_dir, _offsets_from_source(data, {}), 1, "finish")
    assert alteration == "deleted"
    # the first segment of each partition deleted by retention: the log now starts at the second
    for k in keys:
        for f in folders[k].glob(f"{bases[k][0]:020d}-*"):
            f.unlink()
    return Case(
        remote, None, None, key_dir, _offsets_from_source(data, {k: bases[k][1] for k in keys}), 0, ""
    )


def _key_pairs(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """Two RSA key pairs: their private keys as ``<id>.pem`` in a directory of the test's, and the
    public keys by id."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    directory = tmp_path / "keys"
    directory.mkdir()
    publics = {}
    for kid in (OLD, NEW):
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        (directory / f"{kid}.pem").write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        )
        publics[kid] = key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    return directory, publics


def _kafka_uuid(kafka_id: str) -> uuid.UUID:
    return uuid.UUID(bytes=base64.urlsafe_b64decode(kafka_id + "=="))


def _with_metadata(
    alteration: str, data: Path, bases, remote: Path, folders, tmp_path: Path, moved: bool = False
) -> Case:
    """An Aiven prefix altered, and ``__remote_log_metadata`` (one partition) recording every segment
    of every partition as Kafka does (the segment record, then its state updates):
    ``copy+meta``: the first partition's second segment re-uploaded under another id, the topic saying
    the copy is live and the original deleted; ``orphan+meta``: a full copy whose upload the topic has
    as COPY_SEGMENT_STARTED only; ``deleted+meta``: each partition's first segment DELETE_SEGMENT_FINISHED
    though its objects are still there. ``moved``: the first partition's first two segments then moved
    out of the prefix into ``tmp_path/old`` (uploaded as the bucket's ``old/`` prefix beside the one read),
    as Aiven's plugin leaves them after its prefix was changed, their custom metadata saying where."""
    keys = sorted(bases)
    key = keys[0]
    folder = folders[key]
    moves = {_aiven_stem(folder, base) for base in bases[key][:2]} if moved else set()  # before any copy
    states: dict[str, tuple[int, ...]] = {}
    keep_from: dict[tuple[str, int], int] = {}
    if alteration in ("copy+meta", "orphan+meta"):
        stem = _aiven_stem(folder, bases[key][1])
        new = f"{stem[:20]}-{kafka_uuid(alteration.encode())}"
        for suffix in AIVEN_SUFFIXES[:2]:
            shutil.copyfile(folder / f"{stem}{suffix}", folder / f"{new}{suffix}")
        doc = json.loads((folder / f"{stem}{MANIFEST_SUFFIX}").read_text())
        doc["remoteLogSegmentMetadata"]["remoteLogSegmentId"]["id"] = new[21:]  # the uploader's own id
        (folder / f"{new}{MANIFEST_SUFFIX}").write_text(json.dumps(doc))
        if alteration == "copy+meta":
            states = {new: (FINISHED,), stem: (FINISHED, DELETE_STARTED, DELETE_FINISHED)}
            unused, reason, left_out = 1, "__remote_log_metadata", stem
        else:
            states = {new: ()}
            unused, reason, left_out = 1, "COPY_SEGMENT_STARTED", new
    else:
        for k in keys:
            states[_aiven_stem(folders[k], bases[k][0])] = (FINISHED, DELETE_STARTED, DELETE_FINISHED)
            keep_from[k] = bases[k][1]
        unused, reason, left_out = len(keys), "DELETE_SEGMENT_FINISHED", ""
    manifests = {
        m: json.loads(m.read_text())["remoteLogSegmentMetadata"]
        for f in folders.values()
        for m in f.glob(f"*{MANIFEST_SUFFIX}")
    }
    for stem in moves:
        target = tmp_path / "old" / folder.relative_to(remote)
        target.mkdir(parents=True, exist_ok=True)
        for suffix in AIVEN_SUFFIXES:
            (folder / f"{stem}{suffix}").rename(target / f"{stem}{suffix}")
    values = []
    for (topic, partition), f in sorted(folders.items()):
        tid = _kafka_uuid(f.parent.name[-22:])
        for m in sorted(m for m in manifests if m.parent == f):
            stem = m.name[: -len(MANIFEST_SUFFIX)]
            meta = manifests[m]
            epochs = list(
                segment_epochs(
                    {int(e): o for e, o in meta["segmentLeaderEpochs"].items()},
                    meta["startOffset"],
                    meta["endOffset"],
                )
            )
            seg = _kafka_uuid(stem[21:])
            values.append(
                segment(
                    topic,
                    tid,
                    partition,
                    seg,
                    meta["startOffset"],
                    meta["endOffset"],
                    epochs,
                    state=STARTED,
                    event_time=meta["eventTimestampMs"],
                    size=meta["segmentSizeInBytes"],
                )
            )
            custom = (
                encode_custom_metadata(SegmentLocation(None, "old/", f"{f.relative_to(remote)}/{stem}"))
                if stem in moves
                else None
            )
            values += [
                update(
                    topic,
                    tid,
                    partition,
                    seg,
                    st,
                    **({"custom": custom} if st == FINISHED and custom else {}),
                )
                for st in states.get(stem, (FINISHED,))
            ]
    meta_dir = write_topic(tmp_path / "meta", values)
    # verify lists what it finds in the prefix and leaves out: a left-out segment moved under old/ is not there
    unused -= len({stem for stem, st in states.items() if st != (FINISHED,)} & moves)
    where = tmp_path / "old" / folder.relative_to(remote) if left_out in moves else folder
    assert left_out == "" or (where / f"{left_out}.log").exists()
    return Case(remote, None, meta_dir, None, _offsets_from_source(data, keep_from), unused, reason)


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def _tiered_args(case: Case) -> list[str]:
    return (
        (["--tiered", str(case.tiered)] if case.tiered else [])
        + (["--remote-log-metadata", str(case.meta)] if case.meta else [])
        + (["--tiered-private-key-dir", str(case.keys)] if case.keys else [])
    )


def _open_kwargs(case: Case) -> dict:
    return (
        ({"tiered": case.tiered} if case.tiered else {})
        | ({"remote_log_metadata": case.meta} if case.meta else {})
        | ({"keys": PrivateKeys.from_dir(case.keys)} if case.keys else {})
    )


def _read(reader: str, case: Case) -> Counter:
    kwargs = _open_kwargs(case)
    if reader == "open_log":
        with logdir.open_log(case.path, **kwargs) as log:
            return Counter((p.topic, p.partition, r.offset) for p in log.partitions() for _, r in p.records())
    if reader == "arrow":
        with logdir.open_log(case.path, **kwargs) as log:
            table = pa.Table.from_batches(list(log.to_arrow_batches()))
        with logdir.open_log(case.path, **kwargs) as log:  # and each partition as one table
            whole = pa.concat_tables([p.to_arrow() for p in log.partitions()])
        assert sorted(whole["offset"].to_pylist()) == sorted(table["offset"].to_pylist())
        return Counter(
            zip(
                table["topic"].to_pylist(),
                table["partition"].to_pylist(),
                table["offset"].to_pylist(),
                strict=True,
            )
        )
    assert reader == "dump"
    code, out, err = _cli("dump", "--json", str(case.path), *_tiered_args(case))
    assert code == 0 and "Traceback" not in err, err
    got: Counter = Counter()
    for line in out.splitlines():
        doc = json.loads(line)
        if doc.get("type", "record") == "record" and "offset" in doc and "partition" in doc:
            got[(doc["topic"], doc["partition"], doc["offset"])] += 1
    return got


CASES = [(lay, alt, rd) for lay in LAYOUTS for alt in ALTERATIONS for rd in READERS]
CASES += [("aiven", alt, rd) for alt in META_ALTERATIONS + ROTATED_ALTERATIONS for rd in READERS]


@pytest.mark.parametrize(("layout", "alteration", "reader"), CASES)
def test_each_live_offset_once(layout, alteration, reader, tmp_path):
    _check(_build(layout, alteration, tmp_path), reader)
    assert (tmp_path / "canary").read_text() == "keep"


def _check(case: Case, reader: str) -> None:
    """``reader`` yields each offset of ``case`` once and exactly its live offsets; verify passes and
    lists each segment left out, with the reason."""
    if reader == "verify":
        code, out, err = _cli("verify", str(case.path), *_tiered_args(case))
        assert code == 0 and "error:" not in out and "Traceback" not in err, out + err
        warned = [line for line in out.splitlines() if line.startswith("warning:") and "not served" in line]
        assert len(warned) == case.unused, out
        assert all(case.reason in line for line in warned), warned
    else:
        got = _read(reader, case)
        assert max(got.values()) == 1, [k for k, n in got.items() if n > 1][:5]
        assert set(got) == set(case.expected), (
            sorted(set(case.expected) - set(got))[:5],
            sorted(set(got) - set(case.expected))[:5],
        )


S3_CASES = [
    (lay, alt, rd)
    for lay, alt in (("aiven", "copy"), ("local-tiered", "copy"), ("aiven", "history"))
    for rd in READERS
]


@pytest.mark.parametrize(("layout", "alteration", "reader"), S3_CASES)
def test_each_live_offset_once_on_s3(layout, alteration, reader, s3_env, s3_server, tmp_path):
    """One alteration per layout (and a whole history) with the tiered prefix on the S3 server."""
    case = _build(layout, alteration, tmp_path)
    uri = s3_server.upload(tmp_path / "remote", s3_server.new_bucket(), "tiered")
    case = case._replace(**({"tiered": uri} if case.tiered else {"path": uri}))
    _check(case, reader)
    assert (tmp_path / "canary").read_text() == "keep"


def test_a_refused_metadata_event_is_a_verify_warning(tmp_path):
    """DELETE_SEGMENT_FINISHED straight after COPY_SEGMENT_FINISHED is a transition Kafka's rules refuse:
    the segment stays served, as on a broker, but verify must say that a record of the topic was not
    applied (its offset and why), not pass in silence."""
    data, bases = _source(tmp_path)
    remote = tmp_path / "remote"
    logdir.write_tiered(data, remote, chunk_size=700, compression=False)
    (tmp_path / "canary").write_text("keep")
    values = []
    for (topic, partition), f in sorted(_aiven_folders(remote).items()):
        tid = _kafka_uuid(f.parent.name[-22:])
        for i, m in enumerate(sorted(f.glob(f"*{MANIFEST_SUFFIX}"))):
            meta = json.loads(m.read_text())["remoteLogSegmentMetadata"]
            seg = _kafka_uuid(m.name[21 : -len(MANIFEST_SUFFIX)])
            values.append(
                segment(
                    topic,
                    tid,
                    partition,
                    seg,
                    meta["startOffset"],
                    meta["endOffset"],
                    list(
                        segment_epochs(
                            {int(e): o for e, o in meta["segmentLeaderEpochs"].items()},
                            meta["startOffset"],
                            meta["endOffset"],
                        )
                    ),
                    event_time=meta["eventTimestampMs"],
                    size=meta["segmentSizeInBytes"],
                )
            )
            values += [
                update(topic, tid, partition, seg, st)
                for st in ((FINISHED, DELETE_FINISHED) if i == 0 else (FINISHED,))
            ]
    meta_dir = write_topic(tmp_path / "meta", values)
    with logdir.open_log(remote, remote_log_metadata=meta_dir) as log:
        got = Counter((p.topic, p.partition, r.offset) for p in log.partitions() for _, r in p.records())
    assert set(got) == set(_offsets_from_source(data, {})) and max(got.values()) == 1
    code, out, err = _cli("verify", str(remote), "--remote-log-metadata", str(meta_dir))
    warned = [line for line in out.splitlines() if line.startswith("warning:") and "not applied" in line]
    assert len(warned) == 2 and all(
        "DELETE_SEGMENT_FINISHED" in w and w.count("not applied") == 1 for w in warned
    ), out + err
    assert code == 0 and "Traceback" not in err
    code, out, err = _cli("verify", "--json", str(remote), "--remote-log-metadata", str(meta_dir))
    docs = [json.loads(line) for line in out.splitlines()]
    refused = [d for d in docs if d["severity"] == "warning" and "not applied" in d["message"]]
    assert len(refused) == 2 and all(
        d["message"].startswith("__remote_log_metadata offset ") for d in refused
    ), out
    assert (
        sum(d["severity"] == "note" and "chosen by __remote_log_metadata" in d["message"] for d in docs) == 2
    )
    assert code == 0 and ": 0 errors, 2 warnings, 2 notes" in err, err
    assert (tmp_path / "canary").read_text() == "keep"


@pytest.mark.parametrize(("alteration", "reader"), [(alt, rd) for alt in META_ALTERATIONS for rd in READERS])
def test_each_live_offset_once_with_segments_under_another_prefix(
    alteration, reader, s3_env, s3_server, tmp_path
):
    """Aiven's layout with the first partition's first two segments under the bucket's ``old/`` prefix
    and the rest under ``new/``, the one read: only ``__remote_log_metadata``'s custom metadata says where
    the moved ones are (on S3: a local folder given as the prefix is taken as the bucket's root)."""
    case = _build("aiven-prefix", alteration, tmp_path)
    bucket = s3_server.new_bucket()
    uri = s3_server.upload(tmp_path / "remote", bucket, "new")
    s3_server.upload(tmp_path / "old", bucket, "old")
    _check(case._replace(path=uri), reader)
    assert (tmp_path / "canary").read_text() == "keep"


def _spark_options(case: Case) -> dict[str, str]:
    return (
        ({"tiered": str(case.tiered)} if case.tiered else {})
        | ({"remoteLogMetadata": str(case.meta)} if case.meta else {})
        | ({"tieredPrivateKeyDir": str(case.keys)} if case.keys else {})
    )


@pytest.mark.spark
@pytest.mark.parametrize("alteration", [*ALTERATIONS, *META_ALTERATIONS, "copy+rotated"])
def test_the_spark_source_reads_each_live_offset_once(alteration, spark, tmp_path):
    """The kafkalog source (its driver plans from the same chosen segments, its executors read them) on
    each alteration of Aiven's layout, and with the topic or rotated keys given as reader options."""
    case = _build("aiven", alteration, tmp_path)
    df = spark.read.format("kafkalog").options(**_spark_options(case)).load(str(case.path))
    rows = df.select("topic", "partition", "offset").collect()
    got = Counter((r["topic"], r["partition"], r["offset"]) for r in rows)
    assert max(got.values()) == 1, [k for k, n in got.items() if n > 1][:5]
    assert set(got) == set(case.expected)
    assert (tmp_path / "canary").read_text() == "keep"

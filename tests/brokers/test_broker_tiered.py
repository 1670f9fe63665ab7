"""Tiered storage by Kafka itself: what the broker serves of a topic whose older segments its
RemoteLogManager uploaded (``LocalTieredStorage``, a local folder) and local retention then deleted,
against kafkaspec's read of the stopped broker's directory plus that folder as one history
(``open_log(data, tiered=folder)``, ``dump --tiered``, ``verify --tiered``), record for record, each
offset once; and every record of ``__remote_log_metadata`` decoded.

The topic is given records before the broker's kill -9 and after its restart, so its remote segments
are of two leader epochs; the broker is killed in an upload whose files were all written before its
COPY_SEGMENT_FINISHED, and after the restart uploads that segment again under another id
(:mod:`support.kafka_tiered`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.kafka_checks import decoded_kinds
from support.kafka_tiered import TIERED, remote_folder
from support.kafka_workload import Row

from kafkaspec.logdir import open_log
from kafkaspec.logdir.kafka import files

pytestmark = pytest.mark.filterwarnings("ignore::kafkaspec.errors.SkippedDirWarning")


def _ms(ts: object) -> int:
    return -1 if ts is None else int(ts.timestamp() * 1000)  # type: ignore[attr-defined]


def history_rows(data: Path, remote: Path) -> list[Row]:
    """:data:`TIERED`'s records by ``open_log(data, tiered=remote).to_arrow_batches()`` (no control records)."""
    rows = []
    for rb in open_log(str(data), tiered=str(remote)).to_arrow_batches(isolation_level="read_uncommitted"):
        for r in rb.to_pylist():
            if r["topic"] == TIERED and not r["isControl"]:
                rows.append(
                    Row(
                        TIERED,
                        r["partition"],
                        r["offset"],
                        _ms(r["timestamp"]),
                        r["key"],
                        r["value"],
                        tuple((h["key"], h["value"]) for h in r["headers"]),
                    )
                )
    return sorted(rows, key=lambda r: (r.partition, r.offset))


def committed_history_rows(data: Path, remote: Path) -> list[Row]:
    rows = []
    for part in open_log(str(data), tiered=str(remote)).partitions():
        if part.topic == TIERED:
            for _, r in part.records(read_committed=True):
                rows.append(
                    Row(TIERED, part.partition, r.offset, r.timestamp, r.key, r.value, tuple(r.headers))
                )
    return sorted(rows, key=lambda r: (r.partition, r.offset))


def _first_difference(ours: list[Row], theirs: list[Row]) -> str:
    for a, b in zip(ours, theirs):
        if a != b:
            return f"kafkaspec {a} / broker {b}"
    return f"kafkaspec has {len(ours)} records, the broker served {len(theirs)}"


def _epochs(path: Path) -> list[files.EpochEntry]:
    return files.parse_leader_epoch_checkpoint(path.read_text(), str(path))


def test_the_workload_tiered_two_leader_epochs(broker_run):
    """The premise of the checks below: most of the topic is only remote (local retention deleted every
    uploaded segment), and the remote segments are of two leader epochs (the restart bumped it)."""
    local = sorted((broker_run.stopped / f"{TIERED}-0").glob("*.log"))
    folder = remote_folder(broker_run.remote, broker_run.stopped)
    uploaded = sorted(folder.glob("*.log"))
    assert len(local) == 1 and int(local[0].stem) > broker_run.tiered.uncommitted[-1].offset // 2, local
    assert int(uploaded[0].name[:20]) == 0 and len(uploaded) >= 6, uploaded
    epochs = _epochs(broker_run.stopped / f"{TIERED}-0" / "leader-epoch-checkpoint")
    assert len(epochs) >= 2, epochs
    assert any(int(p.name[:20]) >= epochs[-1].start_offset for p in uploaded), (epochs, uploaded)


def test_the_history_gives_what_the_broker_serves_read_uncommitted(broker_run):
    ours, served = history_rows(broker_run.stopped, broker_run.remote), broker_run.tiered.uncommitted
    assert served[0].offset == 0
    assert len({r.offset for r in ours}) == len(ours)
    assert ours == served, _first_difference(ours, served)


def test_the_history_gives_what_the_broker_serves_read_committed(broker_run):
    ours, served = committed_history_rows(broker_run.stopped, broker_run.remote), broker_run.tiered
    assert len(served.committed) < len(served.uncommitted)  # an aborted transaction is there
    assert ours == served.committed, _first_difference(ours, served.committed)


@pytest.mark.parametrize("which", ["live", "killed"])
def test_a_copy_of_the_running_or_killed_broker_with_its_storage_folder(broker_run, which):
    """The copy of the data directory taken while the broker ran (its upload of the third segment
    stopped before COPY_SEGMENT_FINISHED), and the copy taken after the kill, each read with the storage
    folder copied with it: what the broker served of the topic just before the live copy, each offset
    once, the fileset whose upload did not finish not read."""
    data, remote = getattr(broker_run, which), getattr(broker_run, f"{which}_remote")
    served = broker_run.tiered_before_kill
    ours = history_rows(data, remote)
    assert served.uncommitted[0].offset == 0
    assert ours == served.uncommitted, _first_difference(ours, served.uncommitted)
    ours = committed_history_rows(data, remote)
    assert ours == served.committed, _first_difference(ours, served.committed)


def test_dump_json_tiered_gives_what_the_broker_serves(broker_run):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "kafkaspec.cli",
            "dump",
            "--json",
            "--print-data",
            "--tiered",
            str(broker_run.remote),
            str(broker_run.stopped / f"{TIERED}-0"),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    ours = []
    for line in out.splitlines():
        r = json.loads(line)
        if r["type"] == "record" and "control_type" not in r:
            headers = tuple(
                (h["key"], None if h["value"] is None else h["value"].encode()) for h in r["headers"]
            )
            key, value = (None if r[k] is None else r[k].encode() for k in ("key", "value"))
            assert not r.get("key_base64") and not r.get("value_base64")  # the workload's data is text
            ours.append(Row(TIERED, 0, r["offset"], r["timestamp"], key, value, headers))
    served = broker_run.tiered.uncommitted
    assert ours == served, _first_difference(ours, served)


def test_every_remote_log_metadata_record_decodes(broker_run):
    """Kafka's TopicBasedRemoteLogMetadataManager's events: a segment's metadata (COPY_SEGMENT_STARTED)
    for every upload and its update (COPY_SEGMENT_FINISHED) for every one but the killed upload, none
    with an error or unknown field."""
    kinds = decoded_kinds([broker_run.stopped / "__remote_log_metadata-0"])
    uploads = len(list(remote_folder(broker_run.remote, broker_run.stopped).glob("*.log")))
    assert kinds.get("RemoteLogSegmentMetadataRecord", 0) >= uploads, kinds
    assert kinds.get("RemoteLogSegmentMetadataUpdateRecord", 0) >= uploads - 1, kinds


def test_the_reupload_is_read_once_and_the_killed_upload_listed(broker_run):
    """Two complete filesets of the blocked segment's offsets: the history reads the one uploaded again
    after the restart, as ``__remote_log_metadata`` says (the killed one has no COPY_SEGMENT_FINISHED),
    and lists the other as unused, saying why."""
    blocked = broker_run.blocked
    again = [p for p in blocked.parent.glob(f"{blocked.name[:20]}-*.log") if p != blocked]
    assert blocked.exists() and len(again) == 1, sorted(blocked.parent.iterdir())
    with open_log(str(broker_run.stopped), tiered=str(broker_run.remote)) as log:
        (part,) = [p for p in log.partitions() if p.topic == TIERED]
        names = [s.path.name for s in part.segments()]
        (unused,) = part.unused_segments()
    assert again[0].name in names and blocked.name not in names, names
    assert unused.path.name == blocked.name
    assert "its upload did not finish (COPY_SEGMENT_STARTED in __remote_log_metadata)" in unused.reason


def test_verify_of_the_history_warns_of_the_killed_upload_alone(broker_run):
    """No error; one warning: the killed upload's fileset, which no broker serves and Kafka does not
    delete (its expiration task deletes a COPY_SEGMENT_STARTED segment only once retention reaches it)."""
    got = subprocess.run(
        [
            sys.executable,
            "-m",
            "kafkaspec.cli",
            "verify",
            "--tiered",
            str(broker_run.remote),
            str(broker_run.stopped),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = got.stdout + got.stderr
    assert " 0 errors, 1 warnings" in out, out
    (warning,) = [ln for ln in out.splitlines() if ln.startswith("warning: ")]
    assert broker_run.blocked.name in warning and "COPY_SEGMENT_STARTED" in warning, warning

"""The pipeline's summary: ``OUTPUT/summary.json`` and the lines ``kafkaspec pipeline`` prints.

What the job (:mod:`.pipeline`) adds up from its tasks' counts: records per topic-partition,
committed vs aborted, codec mix, corrupt ranges, records/s; no query over the output.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import NamedTuple


@dataclass
class Summary:
    input: str
    output: str
    master: str
    cores: int
    isolation_level: str = "read_committed"
    records: int = 0  # the records written to OUTPUT/records
    batches: int = 0  # every entry the audit lists: data + control batches + corrupt ranges
    control_batches: int = 0
    corrupt_ranges: int = 0
    #: data batches (and their records) that read_committed left out: of aborted or still-open transactions,
    #: and any past the last stable offset (held back, as Kafka's consumer holds them)
    left_out_batches: int = 0
    left_out_records: int = 0
    bytes: int = 0
    seconds: float = 0.0  # the one pass (planning, records and audit), wall
    wall_seconds: float = 0.0  # the whole command: Spark's start and stop included (0 through run_pipeline)
    audit_seconds: float = 0.0  # the audit rows' part of the tasks' time, summed over tasks
    #: the tasks' time summed over tasks: "read" (load and decode), "parquet" (records' encoding), "audit"
    task_seconds: dict = field(default_factory=dict)
    #: wall seconds of each step, in order: "start" (Spark's session; the CLI only), "planning" (on the
    #: driver, after Spark's start), "tasks" (the Spark job: read, decode, write), "commit" (files moved into place), "summary"
    #: (the counts added up, summary.json), "stop" (the CLI only)
    stage_seconds: dict = field(default_factory=dict)
    #: wall seconds the plan took to make: the "planning" stage is what of it was left when Spark was up
    #: (the CLI plans while Spark starts, :class:`~kafkaspec.spark.run.planned.PlanAhead`)
    planning_seconds: float = 0.0
    per_partition: list = field(default_factory=list)  # {topic, partition, records, batches} written
    transactions: dict = field(default_factory=dict)  # committed/aborted/open/held/none -> records
    codecs: dict = field(default_factory=dict)  # codec -> batches
    magics: dict = field(default_factory=dict)  # magic -> batches
    corrupt: list = field(default_factory=list)  # {segment, position, size, status, error}
    unused: list = field(default_factory=list)  # {segment, reason}: tiered copies outside the live lineage
    #: --decode-values: topic -> {"type": the value_decoded column's Arrow type, "errors": values that did not fit}
    decoded: dict = field(default_factory=dict)

    @property
    def records_per_second(self) -> float:
        return self.records / self.seconds if self.seconds else 0.0


def write_summary(summary: Summary) -> None:
    """``OUTPUT/summary.json``: the summary's fields by name."""
    from .incremental import write_json

    write_json(Path(summary.output) / "summary.json", asdict(summary))


class Group(NamedTuple):
    """The audit's counts for one value of the summary's keys."""

    topic: str
    partition: int
    transaction: str | None
    compression: str | None
    magic: int | None
    isControl: bool | None  # the audit column's name
    good: bool
    records: int
    batches: int
    bytes: int


def summarise(summary: Summary, groups: list, isolation_level: str) -> None:
    """Fill the summary's counts from the audit's rows grouped by (topic, partition, transaction,
    compression, magic, isControl, good): as separate queries over the audit would count them."""
    per_partition: dict[tuple[str, int], list[int]] = {}
    transactions: dict[str, int] = {}
    codecs: dict[str, int] = {}
    magics: dict[str, int] = {}
    batches = size = control = corrupt = left_batches = left_records = 0
    for g in groups:
        records, count = int(g.records or 0), int(g.batches)
        batches, size = batches + count, size + int(g.bytes or 0)
        if g.compression is not None:
            codecs[g.compression] = codecs.get(g.compression, 0) + count
        if g.magic is not None:
            magics[str(g.magic)] = magics.get(str(g.magic), 0) + count
        if not g.good:
            corrupt += count
            continue
        if g.isControl:
            control += count
            continue
        transactions[g.transaction] = transactions.get(g.transaction, 0) + records
        if isolation_level == "read_committed" and g.transaction in ("aborted", "open", "held"):
            left_batches, left_records = left_batches + count, left_records + records
            continue
        totals = per_partition.setdefault((g.topic, g.partition), [0, 0])
        totals[0] += records
        totals[1] += count
    summary.per_partition = [
        {"topic": t, "partition": p, "records": r, "batches": b}
        for (t, p), (r, b) in sorted(per_partition.items())
    ]
    summary.records = sum(p["records"] for p in summary.per_partition)
    summary.batches, summary.bytes = batches, size
    summary.control_batches, summary.corrupt_ranges = control, corrupt
    summary.left_out_batches, summary.left_out_records = left_batches, left_records
    summary.transactions, summary.codecs, summary.magics = transactions, codecs, magics


def format_summary(s: Summary) -> str:
    out = s.output.rstrip("/")
    data = s.batches - s.control_batches - s.corrupt_ranges
    parts = [f"{data:,} data", f"{s.control_batches:,} control"] + (
        [f"{s.corrupt_ranges:,} corrupt ranges"] if s.corrupt_ranges else []
    )
    lines = [
        f"kafkaspec pipeline: {s.input} -> {out}  (master {s.master}, {s.cores} cores)",
        f"  wrote {out}/records/ (Parquet, by topic and partition), {out}/batches/ (one audit row per batch), "
        f"{out}/summary.json",
        f"  {s.records:,} records written; read {s.batches:,} batches ({', '.join(parts)}), {s.bytes / 1e6:,.1f} MB",
        f"  one pass (records + audit) {s.seconds:.1f} s = {s.records_per_second:,.0f} records/s "
        f"({s.records_per_second / max(s.cores, 1):,.0f} per core)"
        + (f"; in all {s.wall_seconds:.1f} s (Spark's start and stop included)" if s.wall_seconds else ""),
    ]
    tx = s.transactions
    if s.isolation_level == "read_committed":
        lines.append(
            f"  isolation read_committed: {tx.get('aborted', 0):,} aborted and {tx.get('open', 0):,} "
            f"open-transaction records left out"
            + (
                f", and {tx['held']:,} others held back after the last stable offset (an open transaction's "
                "first offset: Kafka's read_committed consumer stops there too)"
                if tx.get("held")
                else ""
            )
            + f" ({s.left_out_batches:,} batches; --isolation-level read_uncommitted writes them)"
        )
    else:
        lines.append(
            "  isolation read_uncommitted: the records of aborted and open transactions are written too"
        )
    lines += ["", f"  {'topic':<24} {'partition':>9} {'records':>12} {'batches':>9}"]
    for p in s.per_partition:
        lines.append(f"  {p['topic']:<24} {p['partition']:>9} {p['records']:>12,} {p['batches']:>9,}")
    lines += [
        "",
        f"  transactions (records): committed {tx.get('committed', 0):,}, aborted {tx.get('aborted', 0):,}, "
        f"open {tx.get('open', 0):,}, non-transactional {tx.get('none', 0):,}",
        "  codecs (batches): " + ", ".join(f"{k} {v:,}" for k, v in sorted(s.codecs.items())),
        "  magic (batches): " + ", ".join(f"v{k} {v:,}" for k, v in sorted(s.magics.items())),
    ]
    if s.corrupt:
        lines.append(f"  corrupt or incomplete ranges: {len(s.corrupt)}")
        for c in s.corrupt[:20]:
            lines.append(
                f"    {c['segment']} bytes {c['position']}..{c['position'] + c['size']} ({c['status']}): "
                f"{c['error']}"
            )
        if len(s.corrupt) > 20:
            lines.append(f"    ... {len(s.corrupt) - 20} more in {out}/batches")
    else:
        lines.append("  corrupt ranges: none")
    if s.decoded:
        lines += ["", f"  typed values ({out}/decoded/<topic>/: value_decoded, value_error):"]
        for topic, d in sorted(s.decoded.items()):
            lines.append(
                f"    {topic}: {d['type']}"
                + (f"  ({d['errors']:,} values did not fit)" if d["errors"] else "")
            )
    return "\n".join(lines)

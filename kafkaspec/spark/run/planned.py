"""The pipeline's plan: the input's ranges, made on the driver, and made while Spark starts.

Planning reads every segment's batch heads for the transaction markers (the audit's ``transaction``
column, read_committed), about a CPU second per GB on one core. Spark's start is a JVM coming up,
which leaves the driver's Python waiting: :class:`PlanAhead` plans in a thread of its own meanwhile,
so that on an input of a few GB the tasks start as soon as Spark is up (``kafkaspec pipeline``). The
plan is the same either way; an error planning it is raised where the plan is used, after Spark
started, as before.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

    from ...arrow.ranges import ReadRange
    from ..read.options import ReadOptions
    from ..read.values import ValueColumns


@dataclass(frozen=True)
class Planned:
    """What the pipeline's tasks are made of: the read's options, its ranges (segments the partitions do
    not serve, tiered copies, are in ``unused``) and the value decoding (``--decode-values``)."""

    opts: ReadOptions
    tasks: list[ReadRange]
    unused: list[dict[str, str]]
    values: ValueColumns | None
    #: wall seconds the plan took to make (part of them, or all, while Spark started: :class:`PlanAhead`)
    seconds: float


def plan_pipeline(
    input_path: str,
    *,
    isolation_level: str = "read_committed",
    on_corruption: str = "skip",
    verify_crc: bool = True,
    split_size: str = "64m",
    decode_values: bool = False,
    private_key_dir: str | None = None,
    topics: str | None = None,
) -> Planned:
    """The plan of a pipeline run over ``input_path`` (the arguments are :func:`.pipeline.run_pipeline`'s)."""
    from ..read.options import ReadOptions
    from ..read.planning import plan

    t0 = time.perf_counter()
    # planned as the audit view: each task then carries the transaction index the audit's
    # `transaction` column needs; run_ranges drops it from the records read under read_uncommitted
    opts = ReadOptions.parse(
        {
            "isolationLevel": isolation_level,
            "corruptionPolicy": on_corruption,
            "verifyCrc": str(verify_crc).lower(),
            "splitSize": split_size,
            "view": "batches",
            **({"tieredPrivateKeyDir": private_key_dir} if private_key_dir is not None else {}),
            **({"subscribePattern": topics} if topics is not None else {}),
        }
    )
    tasks = plan(input_path, opts)
    values = typed_topics(input_path, opts) if decode_values else None
    return Planned(
        opts=opts,
        tasks=[t for t in tasks if t.unused is None],
        unused=[{"segment": t.path, "reason": t.unused} for t in tasks if t.unused is not None],
        values=values,
        seconds=time.perf_counter() - t0,
    )


def typed_topics(input_path: str, opts: ReadOptions) -> ValueColumns:
    """The topics ``--decode-values`` types: those of the input with a ``<topic>-value`` subject in its
    ``_schemas`` topic (read once, here on the driver, and shipped to the tasks); format ``auto``."""
    from ..read.planning import on_driver, open_source
    from ..read.values import ValueColumns, resolve

    with open_source(input_path, on_driver(input_path, opts)) as log:
        vc = resolve(ValueColumns(value_format="auto"), log, opts.wants)
    assert vc.schemas is not None
    subjects = {s for s in vc.schemas.subjects() if vc.schemas.latest(s) is not None}
    return replace(vc, topics=tuple(t for t in vc.topics if f"{t}-value" in subjects))


class PlanAhead:
    """:func:`plan_pipeline` in a daemon thread, begun when made; :meth:`result` waits for it and returns
    the plan or raises what planning raised. A daemon thread, so that an interrupt (SIGINT, SIGTERM)
    ends the process without waiting for a plan nobody will use."""

    def __init__(self, input_path: str, **how: object) -> None:
        self._plan: Planned | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(
            target=self._run, args=(input_path, how), name="kafkaspec-plan", daemon=True
        )
        self._thread.start()

    @classmethod
    def for_args(cls, args: argparse.Namespace) -> PlanAhead:
        """The plan of ``kafkaspec pipeline``'s command line, begun."""
        return cls(
            args.input,
            isolation_level=args.isolation_level,
            on_corruption=args.on_corruption,
            verify_crc=not args.no_verify_crc,
            split_size=args.split_size,
            decode_values=args.decode_values,
            private_key_dir=args.tiered_private_key_dir,
            topics=args.topics,
        )

    def _run(self, input_path: str, how: dict) -> None:
        try:
            self._plan = plan_pipeline(input_path, **how)
        except BaseException as exc:  # raised again by result(), in the thread that uses the plan
            self._error = exc

    def result(self) -> Planned:
        """The plan (waiting for it), or what planning raised."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._plan is not None
        return self._plan

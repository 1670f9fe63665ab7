"""Old import paths of the modules that moved when :mod:`kafkaspec.spark` was split into wings.

``import kafkaspec.spark.pipeline`` still works for one release: the old name is the new module (the same
object, so a monkeypatch through either name is seen by both), with a :class:`DeprecationWarning` naming
the new path. Installed by :mod:`kafkaspec.spark` when it is imported.
"""

from __future__ import annotations

from ..codec.moved import alias_modules

#: old module name -> where it lives now
MOVED: dict[str, str] = {
    "kafkaspec.spark.audit": "kafkaspec.spark.read.audit",
    "kafkaspec.spark.batches": "kafkaspec.spark.write.batches",
    "kafkaspec.spark.commit": "kafkaspec.spark.write.commit",
    "kafkaspec.spark.decoding": "kafkaspec.spark.read.decoding",
    "kafkaspec.spark.incremental": "kafkaspec.spark.run.incremental",
    "kafkaspec.spark.interrupts": "kafkaspec.spark.run.interrupts",
    "kafkaspec.spark.onepass": "kafkaspec.spark.run.onepass",
    "kafkaspec.spark.option_names": "kafkaspec.spark.read.option_names",
    "kafkaspec.spark.options": "kafkaspec.spark.read.options",
    "kafkaspec.spark.partition": "kafkaspec.spark.read.partition",
    "kafkaspec.spark.pipeline": "kafkaspec.spark.run.pipeline",
    "kafkaspec.spark.planning": "kafkaspec.spark.read.planning",
    "kafkaspec.spark.pushdown": "kafkaspec.spark.read.pushdown",
    "kafkaspec.spark.schema": "kafkaspec.spark.read.schema",
    "kafkaspec.spark.source": "kafkaspec.spark.read.source",
    "kafkaspec.spark.status": "kafkaspec.spark.run.status",
    "kafkaspec.spark.stream_offsets": "kafkaspec.spark.stream.offsets",
    "kafkaspec.spark.streaming": "kafkaspec.spark.stream.reader",
    "kafkaspec.spark.summary": "kafkaspec.spark.run.summary",
    "kafkaspec.spark.tables": "kafkaspec.spark.run.tables",
    "kafkaspec.spark.tasks": "kafkaspec.spark.read.tasks",
    "kafkaspec.spark.values": "kafkaspec.spark.read.values",
    "kafkaspec.spark.writer": "kafkaspec.spark.write.writer",
}


def install() -> None:
    alias_modules(MOVED)

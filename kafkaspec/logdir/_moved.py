"""Old import paths of the modules that moved in 0.15 (issue 40: :mod:`kafkaspec.logdir` in wings).

``import kafkaspec.logdir.segment`` still works for one release: the old name is the new module (the
same object, so a monkeypatch through either name is seen by both), with a :class:`DeprecationWarning`
naming the new path. Installed by :mod:`kafkaspec.logdir` when it is imported. The old module
``kafkaspec.logdir.tiered`` is now a package; its names are found there (``tiered/__init__.py``).
"""

from __future__ import annotations

from ..codec.moved import alias_modules

#: old module name -> where it lives now
MOVED: dict[str, str] = {
    "kafkaspec.logdir.arrow": "kafkaspec.arrow.schema",
    "kafkaspec.logdir.batch_surgery": "kafkaspec.logdir.kafka.batch_surgery",
    "kafkaspec.logdir.checkpoints": "kafkaspec.logdir.kafka.checkpoints",
    "kafkaspec.logdir.datadir_checks": "kafkaspec.logdir.verify.datadir",
    "kafkaspec.logdir.datadir_summary": "kafkaspec.logdir.verify.summary",
    "kafkaspec.logdir.encryption": "kafkaspec.logdir.tiered.encryption",
    "kafkaspec.logdir.explain_text": "kafkaspec.commands._explain_files",
    "kafkaspec.logdir.files": "kafkaspec.logdir.kafka.files",
    "kafkaspec.logdir.fs": "kafkaspec.logdir.store.fs",
    "kafkaspec.logdir.history": "kafkaspec.logdir.tiered.history",
    "kafkaspec.logdir.indexes": "kafkaspec.logdir.kafka.indexes",
    "kafkaspec.logdir.key_dir": "kafkaspec.logdir.tiered.key_dir",
    "kafkaspec.logdir.layout": "kafkaspec.logdir.kafka.layout",
    "kafkaspec.logdir.local_tiered": "kafkaspec.logdir.tiered.local_storage",
    "kafkaspec.logdir.misnamed": "kafkaspec.logdir.kafka.misnamed",
    "kafkaspec.logdir.names": "kafkaspec.logdir.kafka.names",
    "kafkaspec.logdir.node_files": "kafkaspec.logdir.kafka.node_files",
    "kafkaspec.logdir.publish": "kafkaspec.logdir.store.publish",
    "kafkaspec.logdir.ranged": "kafkaspec.logdir.store.ranged",
    "kafkaspec.logdir.remote_log_topic": "kafkaspec.logdir.tiered.remote_log_topic",
    "kafkaspec.logdir.render": "kafkaspec.render",
    "kafkaspec.logdir.rewrite": "kafkaspec.logdir.write.rewrite",
    "kafkaspec.logdir.segment": "kafkaspec.logdir.kafka.segment",
    "kafkaspec.logdir.snapshot": "kafkaspec.logdir.kafka.snapshot",
    "kafkaspec.logdir.staging": "kafkaspec.logdir.store.staging",
    "kafkaspec.logdir.storage": "kafkaspec.logdir.store.storage",
    "kafkaspec.logdir.store_clients": "kafkaspec.logdir.store.clients",
    "kafkaspec.logdir.synthesis": "kafkaspec.logdir.write.synthesis",
    "kafkaspec.logdir.tail": "kafkaspec.logdir.kafka.tail",
    "kafkaspec.logdir.tiered_checks": "kafkaspec.logdir.tiered.checks",
    "kafkaspec.logdir.tiered_custom": "kafkaspec.logdir.tiered.custom",
    "kafkaspec.logdir.tiered_lineage": "kafkaspec.logdir.tiered.lineage",
    "kafkaspec.logdir.tiered_partition": "kafkaspec.logdir.tiered.partition",
    "kafkaspec.logdir.tiered_writer": "kafkaspec.logdir.tiered.writer",
    "kafkaspec.logdir.transactions": "kafkaspec.logdir.kafka.transactions",
    "kafkaspec.logdir.verifier": "kafkaspec.logdir.verify.verifier",
    "kafkaspec.logdir.window": "kafkaspec.logdir.kafka.window",
    "kafkaspec.logdir.writer": "kafkaspec.logdir.write.writer",
}


def install() -> None:
    alias_modules(MOVED)

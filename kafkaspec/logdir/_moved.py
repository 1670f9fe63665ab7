"""Old import paths of the modules that moved in 0.15 (issue 40: :mod:`kafkaspec.logdir` in wings).

``import kafkaspec.logdir.segment`` still works for one release: the old name is the new module (the
same object, so a monkeypatch through either name is seen by both), with a :class:`DeprecationWarning`
naming the new path. Installed by :mod:`kafkaspec.logdir` when it is imported. The old module
``kafkaspec.logdir.tiered`` is now a package; its names are found there (``tiered/__init__.py``).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

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


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        new = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} moved to {new}; the old name goes in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.import_module(new)

    def exec_module(self, module: ModuleType) -> None:
        """The module is the new one, already executed."""


def install() -> None:
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.insert(0, _Alias())

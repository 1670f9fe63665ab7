"""Each store's client, missing: one line saying which package to install, exit 2 (no server needed:
the client is made before the first request)."""

from __future__ import annotations

import subprocess
import sys

import pytest

_RUN = """
import sys
sys.modules[{module!r}] = None  # not installed
from kafkaspec.cli import main
sys.exit(main(["dump", {uri!r}]))
"""


@pytest.mark.parametrize(
    ("module", "uri", "package"),
    [
        ("adlfs", "abfs://c@devstoreaccount1.dfs.core.windows.net/backup", "adlfs"),
        ("adlfs", "az://c/backup", "adlfs"),
        ("gcsfs", "gs://b/backup", "gcsfs"),
    ],
)
def test_a_missing_client_package_is_named(module, uri, package, monkeypatch):
    monkeypatch.setenv("AZURE_STORAGE_ACCOUNT_NAME", "devstoreaccount1")
    proc = subprocess.run(
        [sys.executable, "-c", _RUN.format(module=module, uri=uri)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert f"needs {package}, which is not installed" in proc.stderr and "kafkaspec[spark]" in proc.stderr

"""Checks the broker tests share: every record of Kafka's own topics decoded by ``dump --decode``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def decoded_kinds(paths: list[Path]) -> dict[str, int]:
    """How many records of each type ``dump --decode`` gives of ``paths``; none with an error or an
    unknown tagged field."""
    kinds: dict[str, int] = {}
    for path in paths:
        got = subprocess.run(
            [sys.executable, "-m", "kafkaspec.cli", "dump", "--json", "--decode", str(path)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert got.returncode == 0, f"{path}: {got.stderr.strip()}"
        for line in got.stdout.splitlines():
            obj = json.loads(line)
            if obj["type"] != "record":
                continue
            assert "decode_error" not in obj and "error" not in obj, f"{path}: {line[:300]}"
            assert "unknown_tagged_fields" not in json.dumps(obj.get("decoded")), f"{path}: {line[:300]}"
            if "decoded" not in obj:
                continue
            kind = obj["decoded"]["type"]
            kinds[kind] = kinds.get(kind, 0) + 1
    return kinds

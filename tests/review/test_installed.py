"""Review tooling works from an installed wheel, away from any checkout: the schemas ship as package data.

The wheel is built from a copy of this checkout's sources (``pip wheel``), unpacked into a temporary folder and put first on
``PYTHONPATH``; the commands run from a folder with no ``schemas/`` in it, so the editable install and the
checkout's own files cannot stand in for what the wheel ships.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def _setuptools_is_new_enough() -> bool:
    """pyproject's build-system asks for setuptools>=77; with it installed here, build without the network."""
    try:
        return int(importlib.metadata.version("setuptools").split(".")[0]) >= 77
    except importlib.metadata.PackageNotFoundError:
        return False


#: what the wheel is built from (pyproject's package-dir); copied, so the build leaves nothing in the checkout
SOURCES = (
    "pyproject.toml",
    "setup.py",
    "README.md",
    "pyspark_kafkalog.py",
    "kafkaspec",
    "codegen",
    "generated",
    "schemas",
)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The unpacked wheel (its folder holds kafkaspec/)."""
    src = tmp_path_factory.mktemp("src")
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(REPO / name, src / name)
    out = tmp_path_factory.mktemp("wheel")
    cmd = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(src)]
    if _setuptools_is_new_enough():
        cmd.append("--no-build-isolation")
    result = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=out)
    assert result.returncode == 0, result.stdout + result.stderr
    (wheel,) = out.glob("kafkaspec-*.whl")
    site = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    return site


def _run(site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=cwd, env=env, check=False
    )


def test_the_wheel_ships_the_schemas_and_templates(installed):
    shipped = {p.relative_to(installed).as_posix() for p in installed.rglob("*") if p.is_file()}
    checkout = {
        f"kafkaspec/schemas/{p.relative_to(REPO / 'schemas').as_posix()}"
        for p in (REPO / "schemas").rglob("*.yaml")
    }
    assert checkout and checkout <= shipped
    templates = {
        f"kafkaspec/codegen/templates/{p.relative_to(REPO / 'codegen' / 'templates').as_posix()}"
        for p in (REPO / "codegen" / "templates").rglob("*.j2")
    }
    assert templates and templates <= shipped
    assert "kafkaspec/spec/loader.py" in shipped and "kafkaspec/generated/record_batch_v2.py" in shipped


def test_import_and_read_from_the_wheel(installed, tmp_path):
    code = (
        "import kafkaspec, kafkaspec.spec\n"
        "data = kafkaspec.build_batch([kafkaspec.Record(key=b'k', value=b'v', timestamp=5)], base_offset=7)\n"
        "print(kafkaspec.__file__)\n"
        "print(kafkaspec.spec.bundled_schemas())\n"
        "print([(r.offset, r.key, r.value) for b in kafkaspec.iter_batches(data) for r in b])\n"
    )
    result = _run(installed, tmp_path, "-c", code)
    assert result.returncode == 0, result.stderr
    module_file, schemas, records = result.stdout.splitlines()
    assert Path(module_file).is_relative_to(installed), "kafkaspec was not imported from the wheel"
    assert Path(schemas) == installed / "kafkaspec" / "schemas"
    assert records == "[(7, b'k', b'v')]"


def test_review_overhead_from_the_wheel(installed, tmp_path):
    """Name@version arguments resolve in the bundled schemas: seed 004's figures, outside any checkout."""
    assert not (tmp_path / "schemas").exists()
    result = _run(
        installed,
        tmp_path,
        "-m",
        "kafkaspec.cli",
        "review",
        "overhead",
        "Message@1",
        "Kip98MessageSet",
        "--key-size",
        "100",
        "--value-size",
        "1024",
        "--batch-sizes",
        "1,100",
    )
    assert result.returncode == 0, result.stderr
    assert "34*100 = 3400" in result.stdout and "45 + 100*17 = 1745" in result.stdout


def test_review_diff_from_the_wheel(installed, tmp_path):
    legacy = installed / "kafkaspec" / "schemas" / "legacy"
    result = _run(
        installed,
        tmp_path,
        "-m",
        "kafkaspec.cli",
        "review",
        "diff",
        str(legacy / "message_v0.yaml"),
        str(legacy / "message_v1.yaml"),
    )
    assert result.returncode == 0, (
        result.stdout + result.stderr
    )  # a new version that adds a field: compatible
    assert "added int64 at byte 18" in result.stdout and "verdict: COMPATIBLE" in result.stdout


#: the checkout's folders and the packages pyproject installs them as
ROOTS = {"kafkaspec": "kafkaspec", "generated": "kafkaspec.generated", "codegen": "kafkaspec.codegen"}


def _checkout_modules() -> list[str]:
    modules = []
    for folder, package in ROOTS.items():
        for path in sorted((REPO / folder).rglob("*.py")):
            parts = path.relative_to(REPO / folder).with_suffix("").parts
            if "__pycache__" in parts:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules.append(".".join((package, *parts)))
    return modules


def test_the_wheel_ships_every_module_of_the_checkout(installed):
    missing = [
        m
        for m in _checkout_modules()
        if not (installed / Path(*m.split("."))).with_suffix(".py").is_file()
        and not (installed / Path(*m.split(".")) / "__init__.py").is_file()
    ]
    assert not missing, f"{len(missing)} modules are not in the wheel, first: {missing[:5]}"
    # (that each imports, and that every subcommand runs from an installed wheel: test_wheel_venv.py)


def test_the_wheel_ships_the_module_spark_discovers(installed, tmp_path):
    """PySpark registers the ``DefaultSource`` of each top-level ``pyspark_*`` module its workers can import
    (pyspark/sql/worker/lookup_data_sources.py): the wheel ships ``pyspark_kafkalog``, found that way."""
    assert (installed / "pyspark_kafkalog.py").is_file()
    code = (
        "import pkgutil, importlib\n"
        "found = [m.name for m in pkgutil.iter_modules() if m.name.startswith('pyspark_')]\n"
        "print(found, importlib.import_module('pyspark_kafkalog').DefaultSource.name())\n"
    )
    result = _run(installed, tmp_path, "-c", code)
    assert result.returncode == 0, result.stderr
    assert "'pyspark_kafkalog'" in result.stdout and result.stdout.split()[-1] == "kafkalog"

"""The wheel as a user gets it: installed with its extras into a fresh virtualenv outside the
checkout, then the CLI and the README run from there.

The wheel is built from a copy of the checkout's sources; the venv is made by ``python -m venv``
(no system site-packages, nothing of the checkout on ``sys.path``) and pip installs the wheel with
``[spark,tables,review,codegen,reference]`` plus pandas and DuckDB (the README's examples need them) from
the package index, through pip's own cache when it has the files (about a minute and a half here).
Then, from a folder that is not the checkout: ``kafkaspec --version``, every module the wheel ships
imports, every subcommand runs on corpus data, and every code block of the README runs as written
(``support/docblocks.py``): the install, the three quick-start tasks and the Spark example.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from support.docblocks import REPO, blocks, make_workspace, run_page

pytestmark = pytest.mark.slow

#: what the wheel is built from
SOURCES = (
    "pyproject.toml",
    "setup.py",
    "README.md",
    "LICENSE",
    "pyspark_kafkalog.py",
    "kafkaspec",
    "codegen",
    "generated",
    "schemas",
)
EXTRAS = "spark,tables,review,codegen,reference"


def _build_wheel(dest: Path, src: Path) -> Path:
    src.mkdir()
    dest.mkdir()
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(REPO / name, src / name)
    cmd = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(dest), str(src)]
    if int(importlib.metadata.version("setuptools").split(".")[0]) >= 77:
        cmd.append("--no-build-isolation")
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=dest, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = dest.glob("kafkaspec-*.whl")
    return wheel


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin/ folder of a fresh venv holding the wheel and its extras."""
    root = tmp_path_factory.mktemp("wheel-venv")
    assert not root.is_relative_to(REPO)
    wheel = _build_wheel(root / "dist", root / "src")
    base = getattr(sys, "_base_executable", sys.executable)
    done = subprocess.run(
        [base, "-m", "venv", str(root / "venv")], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    bin_dir = root / "venv" / "bin"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run(
        [
            str(bin_dir / "python"),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--progress-bar",
            "off",
            f"{wheel}[{EXTRAS}]",
            "pandas",
            "duckdb",
        ],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=root,
        env=env,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return bin_dir


def _run(bin_dir: Path, cwd: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        [str(bin_dir / args[0]), *args[1:]], capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout
    )


def test_the_venv_has_no_checkout_on_its_path(venv: Path, tmp_path: Path):
    done = _run(
        venv, tmp_path, "python", "-c", "import kafkaspec, sys; print(kafkaspec.__file__); print(sys.path)"
    )
    assert done.returncode == 0, done.stderr
    module_file = Path(done.stdout.splitlines()[0])
    assert module_file.is_relative_to(venv.parent) and not module_file.is_relative_to(REPO)
    assert str(REPO) not in done.stdout


def test_version_is_the_project_version(venv: Path, tmp_path: Path):
    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    done = _run(venv, tmp_path, "kafkaspec", "--version")
    assert done.returncode == 0 and done.stdout.strip() == f"kafkaspec {version}", done.stdout + done.stderr


def test_the_wheel_ships_its_license(venv: Path):
    licenses = list(venv.parent.rglob("kafkaspec-*.dist-info/**/LICENSE"))
    assert licenses and "Apache License" in licenses[0].read_text()


def test_every_module_imports_with_the_extras(venv: Path, tmp_path: Path):
    code = (
        "import importlib, pathlib, kafkaspec\n"
        "root = pathlib.Path(kafkaspec.__file__).parent\n"
        "failed = []\n"
        "for path in sorted(root.rglob('*.py')):\n"
        "    parts = ('kafkaspec', *path.relative_to(root).with_suffix('').parts)\n"
        "    name = '.'.join(parts[:-1] if parts[-1] == '__init__' else parts)\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except Exception as exc:\n"
        "        failed.append(f'{name}: {exc!r}')\n"
        "print(len(failed)); print(*failed[:5], sep='\\n')\n"
    )
    done = _run(venv, tmp_path, "python", "-c", code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "0", done.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("dump", "{segment}", "--print-data"),
        ("dump", "{segment}", "--decode", "--json"),
        ("verify", "{partition}"),
        ("explain", "{segment}", "--count", "1"),
        ("inspect", "metadata", "{metadata}"),
        ("inspect", "offsets", "{offsets}"),
        ("rewrite", "{partition}", "{tmp}/copy"),
        ("synth", "{tmp}/synth", "--size-mb", "1", "--seed", "1"),
        ("review", "overhead", "Message@1", "RecordBatch@2", "--batch-sizes", "1,10"),
        ("generate", "--schemas", "{schemas}", "--out", "{tmp}/generated"),
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_every_cli_subcommand_runs_from_the_venv(venv: Path, tmp_path: Path, args: tuple[str, ...]):
    from support.corpus import CORPUS

    assert CORPUS is not None, "the corpus (../shared/corpus) is missing"
    poc = CORPUS / "files" / "segments" / "LDI-POC"
    schemas = next(venv.parent.rglob("site-packages/kafkaspec/schemas"))
    paths = {
        "segment": poc / "TestTopicPatient-0" / "00000000000000000000.log",
        "partition": poc / "TestTopicPatient-0",
        "metadata": poc / "__cluster_metadata-0",
        "offsets": poc / "__consumer_offsets-6",
        "tmp": tmp_path,
        "schemas": schemas,
    }
    work = tmp_path / "cwd"
    work.mkdir()
    done = _run(venv, work, "kafkaspec", *(a.format(**paths) for a in args))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    if args[0] == "generate":
        assert (tmp_path / "generated" / "record_batch_v2.py").is_file()
    else:
        assert done.stdout.strip()


def test_the_readme_runs_as_written_from_the_wheel(venv: Path, tmp_path: Path):
    """The quick start (dump and verify, pandas and DuckDB, the pipeline and the Spark example) in an
    empty folder, with the venv's kafkaspec and python first on PATH."""
    readme = blocks(REPO / "README.md")
    counts = run_page(readme, make_workspace(tmp_path / "work", venv, sample=False), venv)
    assert counts["run"] >= 4, counts
    assert (tmp_path / "work" / "out" / "summary.json").is_file()
    assert any((tmp_path / "work" / "parquet").glob("topic=orders/*.parquet"))

"""A missing optional package is one line naming the extra that brings it (``kafkaspec/extras.py``).

Each case runs in a subprocess whose ``sys.meta_path`` starts with a finder that refuses the
packages of one extra, as on a machine where ``pip install kafkaspec`` ran without it. The core CLI
(dump, verify, explain, synth) must work without any extra; a part that needs one must say
``pip install 'kafkaspec[EXTRA]'`` in one line on stderr (exit 2), or raise ``MissingExtraError``
with that text in Python, never a traceback or a bare "No module named ...".
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

#: every package some extra brings, by the extra's name
EXTRAS = {
    "spark": ("pyspark", "pyarrow", "numpy", "Crypto"),
    "review": ("yaml",),
    "codegen": ("yaml", "jinja2"),
    "reference": ("construct",),
}
ALL_BLOCKED = sorted({m for modules in EXTRAS.values() for m in modules})

BLOCKER = textwrap.dedent("""
    import importlib.abc, sys
    BLOCKED = set(sys.argv[1].split(","))
    class Blocker(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None
    sys.meta_path.insert(0, Blocker())
    del sys.argv[1]
""")


def run_cli(
    blocked: list[str] | tuple[str, ...], *args: str, cwd: Path = REPO
) -> subprocess.CompletedProcess:
    code = BLOCKER + "from kafkaspec.cli import main\nsys.argv[0] = 'kafkaspec'\nsys.exit(main())\n"
    return subprocess.run(
        [sys.executable, "-c", code, ",".join(blocked), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def run_python(blocked: list[str] | tuple[str, ...], body: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", BLOCKER + textwrap.dedent(body), ",".join(blocked)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )


def one_line_naming(stderr: str, extra: str) -> None:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert f"pip install 'kafkaspec[{extra}]'" in lines[0], stderr
    assert "Traceback" not in stderr and "ModuleNotFoundError" not in stderr, stderr


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("extras") / "logs"
    done = run_cli(ALL_BLOCKED, "synth", str(out), "--size-mb", "1", "--seed", "3")
    assert done.returncode == 0, done.stderr
    return out


def test_the_core_cli_needs_no_extra(logs: Path) -> None:
    segment = logs / "orders-0" / "00000000000000000000.log"
    for args in (
        ["dump", str(logs / "orders-0"), "--end-offset", "5"],
        ["verify", str(logs)],
        ["explain", str(segment), "--count", "1"],
        ["dump", str(logs), "--decode", "--json"],
        ["--version"],
    ):
        done = run_cli(ALL_BLOCKED, *args)
        assert done.returncode == 0, (args, done.stderr)
        assert done.stdout, args


def test_import_kafkaspec_and_read_a_batch_need_no_extra() -> None:
    done = run_python(
        ALL_BLOCKED,
        """
        import kafkaspec
        data = kafkaspec.build_batch([kafkaspec.Record(key=b"k", value=b"v", timestamp=1)], compression="zstd")
        print([r.value for b in kafkaspec.iter_batches(data) for r in b])
    """,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[b'v']"


@pytest.mark.parametrize("blocked", [["pyspark"], ["pyarrow"], ["numpy"]])
def test_pipeline_without_spark_names_the_extra(logs: Path, tmp_path: Path, blocked: list[str]) -> None:
    canary = tmp_path / "canary"
    canary.write_text("keep")
    done = run_cli(blocked, "pipeline", str(logs), str(tmp_path / "out"))
    assert done.returncode == 2
    one_line_naming(done.stderr, "spark")
    assert blocked[0] in done.stderr
    assert not (tmp_path / "out").exists() and canary.read_text() == "keep"


@pytest.mark.parametrize("blocked", [["pyspark"], ["numpy"], ["pyarrow"]])
def test_spark_from_python_names_the_extra(blocked: list[str]) -> None:
    done = run_python(
        blocked,
        """
        from kafkaspec.codec.extras import MissingExtraError
        from kafkaspec.spark import register
        from kafkaspec.spark.session import build_session
        for call in (lambda: register(None), build_session):
            try:
                call()
            except MissingExtraError as exc:
                print(exc)
    """,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 2, done.stdout
    assert all("pip install 'kafkaspec[spark]'" in line for line in lines), done.stdout


@pytest.mark.parametrize("blocked", [["numpy"], ["pyarrow"]])
def test_arrow_output_names_the_extra(logs: Path, blocked: list[str]) -> None:
    done = run_python(
        blocked,
        f"""
        from kafkaspec import logdir
        try:
            logdir.open_log({str(logs)!r}).partition("orders", 0).to_arrow()
        except ModuleNotFoundError as exc:
            print(type(exc).__name__, exc)
    """,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("MissingExtraError "), done.stdout
    assert f"needs {blocked[0]}" in done.stdout and "pip install 'kafkaspec[spark]'" in done.stdout


def test_review_without_yaml_names_the_extra() -> None:
    done = run_cli(["yaml"], "review", "overhead", "schemas/record_batch_v2.yaml")
    assert done.returncode == 2
    one_line_naming(done.stderr, "review")
    assert "PyYAML" in done.stderr


@pytest.mark.parametrize("blocked", [["jinja2"], ["yaml"]])
def test_generate_without_its_libraries_names_the_extra(blocked: list[str], tmp_path: Path) -> None:
    done = run_cli(blocked, "generate", "--check", "--out", str(tmp_path / "gen"))
    assert done.returncode == 2
    one_line_naming(done.stderr, "codegen")
    assert not (tmp_path / "gen").exists()


def test_reference_codecs_without_construct_name_the_extra() -> None:
    done = run_python(
        ["construct"],
        """
        try:
            import kafkaspec.generated.reference.record_batch_v2
        except ModuleNotFoundError as exc:
            print(type(exc).__name__, exc)
    """,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("MissingExtraError "), done.stdout
    assert "pip install 'kafkaspec[reference]'" in done.stdout


def test_no_runtime_dependency_is_pinned_exactly() -> None:
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    pinned = [d for d in project["dependencies"] if "==" in d]
    assert pinned == []
    runtime = " ".join(project["dependencies"]).lower()
    for moved in ("construct", "jinja2", "pyyaml"):
        assert moved not in runtime, moved

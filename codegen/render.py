"""Render the planned structures through the Jinja2 templates into ``generated/``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import jinja2

from kafkaspec.spec import SchemaSet

from .plan import Planner, dispatch_plan, local

TEMPLATES = Path(__file__).parent / "templates"


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["pyrepr"] = repr
    env.globals["local"] = local  # the planner's safe local names, so templates and plans agree
    return env


def render_all(schemas: SchemaSet, root: Path) -> dict[str, str]:
    """Return {file name: source} for every module generated from ``schemas`` (unformatted)."""
    env = environment()
    planner = Planner(schemas)
    out: dict[str, str] = {}
    for s in sorted(schemas.structs.values(), key=lambda s: s.module):
        if s.status == "proposal":
            # Proposals (schemas/proposals/, never used on the wire) may use present_if and
            # trailing checksums, which the planner cannot generate; review tooling and
            # docs/formats/ read their model only, so no codec is emitted for them.
            continue
        plan = planner.plan(s)
        source = s.path.relative_to(root.parent).as_posix()
        out[f"{s.module}.py"] = env.get_template("struct.py.j2").render(source=source, planner=planner, **plan)
        out[f"reference/{s.module}.py"] = env.get_template("reference.py.j2").render(
            source=source, planner=planner, **plan
        )
    out["enums.py"] = env.get_template("enums.py.j2").render(
        enums=sorted(schemas.enums.values(), key=lambda e: e.name)
    )
    for d in schemas.dispatches:
        out[f"{d.module}.py"] = env.get_template("dispatch.py.j2").render(
            source=d.path.relative_to(root.parent).as_posix(), **dispatch_plan(d, schemas)
        )
    out["reference/__init__.py"] = env.get_template("reference_init.py.j2").render(
        modules=sorted(name[len("reference/") : -3] for name in out if name.startswith("reference/"))
    )
    out["__init__.py"] = env.get_template("init.py.j2").render(
        modules=sorted(name[:-3] for name in out if "/" not in name and name != "__init__.py")
    )
    return out


def format_sources(sources: dict[str, str]) -> dict[str, str]:
    """Format with ruff so the output is stable and reads like hand-written code."""
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        raise SystemExit("codegen needs ruff to format its output: pip install ruff (or 'make generate')")
    formatted = {}
    for name, text in sources.items():
        result = subprocess.run(
            [ruff, "format", "--line-length", "110", "--stdin-filename", name, "-"],
            input=text, capture_output=True, text=True, check=False,
        )
        if result.returncode != 0:
            raise SystemExit(f"ruff could not format generated {name}:\n{result.stderr}\n---\n{text}")
        fixed = subprocess.run(
            [ruff, "check", "--fix-only", "--select", "I,F401", "--line-length", "110", "--stdin-filename", name, "-"],
            input=result.stdout, capture_output=True, text=True, check=False,
        )
        formatted[name] = fixed.stdout if fixed.returncode == 0 and fixed.stdout else result.stdout
    return formatted


def write(sources: dict[str, str], out_dir: Path, pattern: str = "*.py") -> list[str]:
    """Write the files (names relative to ``out_dir``, ``/``-separated), remove stale ones matching
    ``pattern`` in ``out_dir`` and its subfolders; return the names that changed."""
    out_dir.mkdir(parents=True, exist_ok=True)
    changed = []
    for stale in out_dir.rglob(pattern):
        name = stale.relative_to(out_dir).as_posix()
        if name not in sources and "__pycache__" not in stale.parts:
            stale.unlink()
            changed.append(name)
    for name, text in sorted(sources.items()):
        path = out_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(name)
    return changed

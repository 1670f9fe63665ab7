"""kafkaspec's code generator: the validated spec model in, Python codecs and reference docs out.

Installed as ``kafkaspec.codegen`` (pyproject maps this folder there). It reads schemas through the
spec layer (:mod:`kafkaspec.spec`) and renders Jinja2 templates (:mod:`.render` for generated/,
:mod:`.docs` for docs/formats/, planned by :mod:`.plan`).

Its public entry points are :func:`main` (``python -m kafkaspec.codegen``, ``make generate`` and
``kafkaspec generate`` all run it) and :func:`render_docs`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kafkaspec.codec.extras import missing

try:  # the generator's own libraries, checked first so a missing one is named with its extra
    import jinja2  # noqa: F401
    import yaml  # noqa: F401
except ModuleNotFoundError as exc:
    raise missing(exc, "codegen", "the code generator") from None

from kafkaspec.spec import SchemaError, load

from .docs import render_docs, write_docs
from .render import format_sources, render_all, write

__all__ = ["main", "render_docs"]

#: the checkout the generator works in: its schemas/, generated/ and docs/formats/
REPO = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    """``python -m kafkaspec.codegen [--schemas DIR] [--out DIR] [--docs DIR] [--check]``: regenerate the codecs
    (and the reference docs); returns the exit code (0 done or up to date, 1 out of date with --check,
    2 a schema error)."""
    parser = argparse.ArgumentParser(
        prog="python -m kafkaspec.codegen",
        description="Regenerate generated/ and docs/formats/ from schemas/.",
    )
    parser.add_argument(
        "--schemas", type=Path, default=REPO / "schemas", help="schema folder (default: schemas/)"
    )
    parser.add_argument(
        "--out", type=Path, default=REPO / "generated", help="output folder (default: generated/)"
    )
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if the output would change; write nothing"
    )
    parser.add_argument(
        "--docs",
        type=Path,
        default=None,
        help="reference docs folder (default: docs/formats/ when --schemas is the default)",
    )
    args = parser.parse_args(argv)
    # docs/formats/ documents the repository's own schemas; a custom --schemas writes docs only when asked
    docs_dir = args.docs or (REPO / "docs" / "formats" if args.schemas == REPO / "schemas" else None)
    try:
        schemas = load(args.schemas)
    except SchemaError as exc:
        print(f"schema error: {exc}", file=sys.stderr)
        return 2
    sources = format_sources(render_all(schemas, args.schemas))
    pages = render_docs(schemas, args.schemas) if docs_dir else {}
    if args.check:
        stale = [
            n for n, t in sources.items() if not (args.out / n).exists() or (args.out / n).read_text() != t
        ]
        if docs_dir is not None:
            stale += [
                str(docs_dir / n)
                for n, t in pages.items()
                if not (docs_dir / n).exists() or (docs_dir / n).read_text(encoding="utf-8") != t
            ]
        for name in stale:
            print(f"out of date: {name if name.endswith('.md') else args.out / name}")
        return 1 if stale else 0
    changed = write(sources, args.out)
    print(f"codegen: {len(sources)} modules in {args.out}, {len(changed)} changed")
    if docs_dir:
        changed_docs = write_docs(pages, docs_dir)
        print(f"codegen: {len(pages)} pages in {docs_dir}, {len(changed_docs)} changed")
    return 0

"""``python -m codegen [--schemas DIR] [--out DIR] [--check]``: regenerate the codecs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .render import format_sources, render_all, write
from .schema import SchemaError, load

REPO = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m codegen", description=__doc__)
    parser.add_argument("--schemas", type=Path, default=REPO / "schemas", help="schema folder (default: schemas/)")
    parser.add_argument("--out", type=Path, default=REPO / "generated", help="output folder (default: generated/)")
    parser.add_argument("--check", action="store_true", help="exit 1 if the output would change; write nothing")
    args = parser.parse_args(argv)
    try:
        schemas = load(args.schemas)
    except SchemaError as exc:
        print(f"schema error: {exc}", file=sys.stderr)
        return 2
    sources = format_sources(render_all(schemas, args.schemas))
    if args.check:
        stale = [n for n, t in sources.items() if not (args.out / n).exists() or (args.out / n).read_text() != t]
        for name in stale:
            print(f"out of date: {args.out / name}")
        return 1 if stale else 0
    changed = write(sources, args.out)
    print(f"codegen: {len(sources)} modules in {args.out}, {len(changed)} changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

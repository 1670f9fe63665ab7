"""Find the schema set and the structure a command-line argument names."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from kafkaspec.spec import SchemaError, SchemaSet, Struct, bundled_schemas, load, load_file
from kafkaspec.spec.message_model import Message

#: a schema file is a few KB of YAML; anything far larger is not one (and is not read)
MAX_SCHEMA_BYTES = 1 << 20


class ReviewInputError(ValueError):
    """A schema argument names nothing usable (exit code 2)."""


def schema_root(path: Path | None = None) -> Path:
    """The ``schemas/`` folder holding ``path``; else ./schemas (a checkout being edited); else the
    schemas installed with the package (:func:`kafkaspec.spec.bundled_schemas`)."""
    if path is not None:
        for parent in path.resolve().parents:
            if parent.name == "schemas":
                return parent
    if (Path.cwd() / "schemas").is_dir():
        return Path.cwd() / "schemas"
    try:
        return bundled_schemas()
    except SchemaError as exc:
        raise ReviewInputError(f"cannot find the schemas/ folder ({exc}): pass --schemas-dir DIR") from None


def load_set(root: Path) -> SchemaSet:
    try:
        return load(root, lint=False)
    except SchemaError as exc:
        raise ReviewInputError(f"schema error: {exc}") from None


def _is_file(arg: str) -> bool:
    return Path(arg).suffix in (".yaml", ".yml")


def resolve(arg: str, root: Path | None = None) -> tuple[Struct, SchemaSet]:
    """A structure from a file path or a ``Name@version`` (``Name`` if it has one version)."""
    if _is_file(arg) and not Path(arg).exists():
        raise ReviewInputError(f"no such schema file: {arg}")
    schemas = load_set(root or schema_root(Path(arg) if _is_file(arg) else None))
    return resolve_in(arg, schemas), schemas


def resolve_all(args: list[str], root: Path | None = None) -> tuple[list[Struct], SchemaSet]:
    """Several structures from one schema set (the folder of the first file argument, or schemas/)."""
    for arg in args:
        if _is_file(arg) and not Path(arg).exists():
            raise ReviewInputError(f"no such schema file: {arg}")
    first_file = next((Path(a) for a in args if _is_file(a)), None)
    schemas = load_set(root or schema_root(first_file))
    return [resolve_in(arg, schemas) for arg in args], schemas


def resolve_in(arg: str, schemas: SchemaSet) -> Struct:
    if _is_file(arg):
        path = Path(arg).resolve()
        for s in schemas.structs.values():
            if s.path.resolve() == path:
                return s
        raise ReviewInputError(
            f"{arg} is not a structure of the schema set (a dispatch or enums file, "
            "or outside the schemas/ folder?)"
        )
    try:
        return schemas.resolve(arg)
    except KeyError:
        known = ", ".join(sorted(schemas.structs))
        raise ReviewInputError(f"unknown structure {arg!r} (known: {known})") from None


def load_single(path: Path, text: str | None = None) -> Struct | Message | dict:
    """One schema file on its own (no cross-file checks): a Struct, a Message (``kind: message``), or
    {name: Enum} for an enums file.

    ``text`` replaces the file's content (a git revision of it); the file name is kept for messages.
    """
    if text is None:
        if not path.exists():
            raise ReviewInputError(f"no such schema file: {path}")
        if not path.is_file():
            raise ReviewInputError(f"{path} is not a regular file (a schema file is YAML text)")
        size = path.stat().st_size
        if size > MAX_SCHEMA_BYTES:
            raise ReviewInputError(
                f"{path} has {size:,} bytes, more than a schema file's {MAX_SCHEMA_BYTES:,}"
            )
        return _load_one(path)
    with tempfile.TemporaryDirectory(prefix="kafkaspec-review-") as tmp:
        target = Path(tmp) / path.name
        target.write_text(text, encoding="utf-8")
        return _load_one(target)


def _load_one(path: Path) -> Struct | Message | dict:
    try:
        items, enums = load_file(path)
    except SchemaError as exc:
        raise ReviewInputError(f"schema error: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ReviewInputError(
            f"{path.name} is not UTF-8 text (byte {exc.start}): not a schema file"
        ) from None
    except RecursionError:
        raise ReviewInputError(f"{path.name} nests too deeply to be a schema file") from None
    except OSError as exc:
        raise ReviewInputError(f"cannot read {path.name}: {exc.strerror or exc}") from None
    if enums:
        return enums
    if items and isinstance(items[0], Message):
        return items[0]
    structs = [i for i in items if isinstance(i, Struct)]
    if not structs:
        raise ReviewInputError(f"{path.name} defines no structure or enums (a dispatch file?)")
    return structs[0]


def git_show(rev: str, path: Path) -> str | None:
    """The text of ``path`` at git revision ``rev`` (``git show REV:path``); None if it did not exist then."""
    path = path.resolve()
    try:
        top = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=path.parent if path.parent.exists() else None,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError) as exc:
        raise ReviewInputError(f"not in a git repository: {exc}") from None
    if not rev or rev.startswith("-"):  # `git show --output=FILE:...` would write a file
        raise ReviewInputError(f"{rev!r} is not a git revision")
    try:
        rel = path.relative_to(Path(top).resolve()).as_posix()
    except ValueError:
        raise ReviewInputError(f"{path} is not inside the git repository {top}") from None
    result = subprocess.run(["git", "show", f"{rev}:{rel}"], cwd=top, capture_output=True, check=False)
    stderr = result.stderr.decode("utf-8", "replace")
    if result.returncode != 0 and ("does not exist" in stderr or "exists on disk, but not in" in stderr):
        return None
    if result.returncode != 0:
        raise ReviewInputError(f"git show {rev}:{rel} failed: {stderr.strip()}")
    if len(result.stdout) > MAX_SCHEMA_BYTES:
        raise ReviewInputError(
            f"{rel} at {rev} has {len(result.stdout):,} bytes, more than a schema file's {MAX_SCHEMA_BYTES:,}"
        )
    try:
        return result.stdout.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReviewInputError(
            f"{rel} at {rev} is not UTF-8 text (byte {exc.start}): not a schema file"
        ) from None

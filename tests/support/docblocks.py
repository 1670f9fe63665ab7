"""Run the code blocks of the README and docs/ as a reader would, so that no example can rot.

A page's fenced blocks are read by language:

* ``sh`` (or ``bash``, ``shell``): every command must be a ``kafkaspec`` command (comments,
  ``\\`` continuations, pipes and redirections allowed); the block runs in bash with ``set -eo
  pipefail`` and must exit 0;
* ``console``: ``$ command`` lines followed by the output they print, which must be exactly
  what the command prints now;
* ``python``: executed, in page order, in one interpreter per page (so a block may use the names
  of the blocks before it), each compiled with its page and line as file name, so a failure
  names where it is;
* ``text`` and other languages are output or diagrams, never run.

Every block runs in a fresh folder holding the placeholder paths the pages use (see
:func:`make_workspace`): the sh and console blocks first, in page order, then the python blocks.
A block that cannot run here (it installs packages, needs a cluster or an object store's
credentials) carries ``<!-- docs-test: skip REASON -->`` on the line before its fence; such
blocks are counted, and their number is held low by the tests. A block marked
``<!-- docs-test: stores -->`` reads an object store: ``tests/storage/test_store_docs.py`` runs it
against each store's real server instead of the docs test.

Part of ``tests/support`` (``from support.docblocks import blocks, run_page``); the README runs from
an installed wheel in ``tests/review/test_wheel_venv.py``, the docs/ pages in ``tests/docs``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
MARKER = re.compile(r"^<!--\s*docs-test:\s*(\w+)\s*(.*?)\s*-->\s*$")
SHELLS = {"sh", "bash", "shell"}
RUN = SHELLS | {"console", "python"}


@dataclass(frozen=True)
class Block:
    page: str  #: path relative to the repository
    line: int  #: 1-based line of the opening fence
    language: str
    code: str
    skip: str | None  #: the reason given by a skip marker, or None
    stores: bool = False  #: run by tests/storage against each store's server, not here

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown file, with the marker on the line before each."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, language = len(m.group(1)), m.group(2)
        start = i
        body = []
        i += 1
        while i < len(lines) and not (lines[i].strip() == "```"):
            body.append(lines[i][indent:] if lines[i][:indent].isspace() else lines[i])
            i += 1
        skip = None
        stores = False
        if start > 0 and (mark := MARKER.match(lines[start - 1])):
            if mark.group(1) == "stores" and not mark.group(2):
                stores = True
            elif mark.group(1) != "skip" or not mark.group(2):
                raise AssertionError(
                    f"{path}:{start}: a marker must read <!-- docs-test: skip REASON --> or "
                    "<!-- docs-test: stores -->"
                )
            else:
                skip = mark.group(2)
        page = path.relative_to(REPO).as_posix() if path.is_relative_to(REPO) else str(path)
        out.append(Block(page, start + 1, language, "\n".join(body) + "\n", skip, stores))
        i += 1
    return out


def commands(block: Block) -> list[str]:
    """The commands of a shell block, continuations joined, comments and blank lines left out."""
    joined: list[str] = []
    pending = ""
    for line in block.code.splitlines():
        if pending:
            line = pending + " " + line.strip()
            pending = ""
        if line.rstrip().endswith("\\"):
            pending = line.rstrip()[:-1]
            continue
        text = line.strip()
        if text and not text.startswith("#"):
            joined.append(text)
    return joined


def console_examples(block: Block) -> list[tuple[str, str]]:
    """(command, expected output) pairs of a console block."""
    pairs: list[tuple[str, list[str]]] = []
    for line in block.code.splitlines():
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        elif pairs:
            pairs[-1][1].append(line)
        else:
            raise AssertionError(f"{block.where}: a console block starts with a '$ ' command line")
    return [(cmd, "".join(x + "\n" for x in out)) for cmd, out in pairs]


def make_workspace(folder: Path, bin_dir: Path, *, sample: bool = True) -> Path:
    """The placeholder paths the docs use, made small and real in ``folder``:

    ``logs/`` (``kafkaspec synth logs/ --size-mb 2 --seed 7``), ``backup/`` (a copy of it),
    ``segment.log`` (one of its segments, under 256 KiB), ``kraft-logs/`` (a KRaft broker's data
    dir from the corpus: ``__cluster_metadata-0``, ``__consumer_offsets-6``, a topic), and two
    broker fetch captures from the corpus: ``fetch.kafka.0822`` (Fetch v0) and ``response.hex``
    (Fetch v10 as hex). With ``sample`` false the folder stays empty (the README makes its own).
    """
    from support.corpus import CORPUS

    folder.mkdir(parents=True, exist_ok=True)
    if not sample:
        return folder
    assert CORPUS is not None, "the corpus (../shared/corpus) is missing"
    done = subprocess.run(
        [str(bin_dir / "kafkaspec"), "synth", "logs", "--size-mb", "2", "--seed", "7"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    shutil.copytree(folder / "logs", folder / "backup")
    small = min(
        (p for p in (folder / "logs").rglob("*.log") if p.stat().st_size > 0), key=lambda p: p.stat().st_size
    )
    assert small.stat().st_size <= 256 << 10
    shutil.copy(small, folder / "segment.log")
    shutil.copytree(CORPUS / "files" / "segments" / "LDI-POC", folder / "kraft-logs")
    rust = CORPUS / "files" / "kafka-rust-test-data"
    shutil.copy(rust / "fetch1.mytopic.1p.snappy.kafka.0822", folder / "fetch.kafka.0822")
    shutil.copy(CORPUS / "files" / "segmentio-kafka-go-fixtures" / "v2-v2.hex", folder / "response.hex")
    return folder


#: the interpreter side of :func:`run_page`: each block compiled with its page and line
RUNNER = """
import json, sys
ns = {"__name__": "__docs__"}
for where, code in json.load(open(sys.argv[1])):
    print(f"--- {where}", flush=True)
    exec(compile(code, where, "exec"), ns)
"""


def run_page(page: list[Block], workspace: Path, bin_dir: Path, *, timeout: float = 900) -> dict[str, int]:
    """Run a page's blocks in ``workspace`` with the ``kafkaspec`` and ``python`` of ``bin_dir``;
    raise AssertionError naming the block that failed. Returns counts: run, skipped."""
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "NO_COLOR": "1",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("PYTHONPATH", None)  # the interpreter of bin_dir finds its own kafkaspec, not the checkout's
    env.pop("VIRTUAL_ENV", None)
    counts = {"run": 0, "skipped": 0}
    python: list[Block] = []
    for block in page:
        if block.language not in RUN:
            continue
        if block.skip:
            counts["skipped"] += 1
            continue
        if block.stores:  # run against each store's server by tests/storage/test_store_docs.py
            continue
        counts["run"] += 1
        if block.language == "python":
            python.append(block)
        elif block.language == "console":
            for command, expected in console_examples(block):
                done = subprocess.run(
                    ["bash", "-c", command],
                    cwd=workspace,
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=timeout,
                )
                assert done.returncode == 0, (
                    f"{block.where}: `{command}` exited {done.returncode}: {done.stderr}"
                )
                assert done.stdout == expected, (
                    f"{block.where}: `{command}` printed something else:\n{done.stdout}"
                )
        else:
            cmds = commands(block)
            assert cmds, f"{block.where}: an sh block with no command"
            for command in cmds:
                assert command.startswith("kafkaspec "), (
                    f"{block.where}: `{command}` is not a kafkaspec command (mark the block <!-- docs-test: skip REASON -->)"
                )
            script = "set -eo pipefail\n" + block.code
            done = subprocess.run(
                ["bash", "-c", script],
                cwd=workspace,
                env=env,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
            assert done.returncode == 0, f"{block.where}: exited {done.returncode}:\n{done.stderr[-3000:]}"
    if python:
        spec = workspace / ".docs-blocks.json"
        spec.write_text(json.dumps([(b.where, b.code) for b in python]))
        done = subprocess.run(
            [str(bin_dir / "python"), "-c", RUNNER, str(spec)],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        last = [line for line in done.stdout.splitlines() if line.startswith("--- ")]
        assert done.returncode == 0, (
            f"{last[-1][4:] if last else python[0].where}: failed:\n{done.stderr[-4000:]}"
        )
    return counts

"""Message codecs, two generated trees against each other: ``python -m bench.messages_ab BASE NEW [ROUNDS]``.

``BASE`` and ``NEW`` are copies of a ``generated/`` folder (before and after a change to the generator).
The message modules are standalone (they import only ``kafkaspec.codec`` and ``kafkaspec.errors``), so
every module that differs is loaded from both trees into one process and the same ``decode_<message>``
calls are timed alternately, round by round, best of ``ROUNDS`` (default 300) each: on a shared
machine the two sides see the same load. The calls: the real ``__consumer_offsets`` and
``__cluster_metadata`` records of the corpus (``../shared/corpus``) whose message changed, then each
changed message's default value encoded in every version. Both sides must decode alike. Run it with
``NEW`` a second copy of ``BASE`` (one comment added to each changed module) to see the noise.

Not a ``make bench`` section: it compares trees, not kafkaspec with other readers.
"""

from __future__ import annotations

import importlib.util
import struct
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "files" / "segments"
Call = tuple[str, bytes, int, int]  # module name, buffer, version, position


def _load(root: Path, name: str, tag: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_ab_{tag}_{name}", root / "messages" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _real_calls() -> list[Call]:
    """(module, value, version, position) of every corpus record of the two framed topics."""
    import kafkaspec
    from kafkaspec.codec.message_types import read_uvarint
    from kafkaspec.generated import messages

    out: list[Call] = []
    for topic in ("__consumer_offsets", "__cluster_metadata"):
        for log in sorted(CORPUS.glob(f"**/{topic}-*/*.log")):
            for batch in kafkaspec.iter_batches(log.read_bytes()):
                if batch.is_control:
                    continue
                for r in batch.records:
                    if r.value is None:
                        continue
                    value = bytes(r.value)
                    if topic == "__cluster_metadata":
                        _, pos = read_uvarint(value, 0, len(value), "frame")
                        api, pos = read_uvarint(value, pos, len(value), "api key")
                        version, pos = read_uvarint(value, pos, len(value), "version")
                        module = messages.METADATA[api]
                    else:
                        module = messages.GROUP[struct.unpack_from(">h", bytes(r.key or b""))[0]][1]
                        version, pos = struct.unpack_from(">h", value)[0], 2
                    out.append((module.__name__.rsplit(".", 1)[1], value, version, pos))
    return out


def _best(
    calls: list[tuple[Any, bytes, int, int]], other: list[tuple[Any, bytes, int, int]], rounds: int
) -> tuple[float, float]:
    def once(cs: list[tuple[Any, bytes, int, int]]) -> float:
        start = time.perf_counter()
        for decode, buf, version, pos in cs:
            decode(buf, version, pos)
        return time.perf_counter() - start

    a = b = float("inf")
    for _ in range(rounds):
        a, b = min(a, once(calls)), min(b, once(other))
    return a, b


def main(argv: list[str]) -> None:
    if len(argv) < 2:
        raise SystemExit(__doc__.splitlines()[0])
    base, new = Path(argv[0]), Path(argv[1])
    rounds = int(argv[2]) if len(argv) > 2 else 300
    changed = [
        p.stem
        for p in sorted((new / "messages").glob("*.py"))
        if p.name != "__init__.py" and p.read_bytes() != (base / "messages" / p.name).read_bytes()
    ]
    mods = {n: (_load(base, n, "a"), _load(new, n, "b")) for n in changed}
    print("changed modules:", ", ".join(changed) or "none")
    real = [c for c in _real_calls() if c[0] in mods]
    synthetic: list[Call] = []
    for n, (a, _) in mods.items():
        encode, cls = getattr(a, f"encode_{n}"), getattr(a, a.NAME)
        synthetic += [(n, encode(cls(), v), v, 0) for v in a.VERSIONS]

    def calls(rows: list[Call], side: int) -> list[tuple[Any, bytes, int, int]]:
        return [(getattr(mods[n][side], f"decode_{n}"), buf, v, pos) for n, buf, v, pos in rows]

    groups: dict[str, list[Call]] = {"real corpus records": real, "default value, every version": synthetic}
    for row in real:
        groups.setdefault(f"  {row[0]} v{row[2]}", []).append(row)
    for label, rows in groups.items():
        a, b = calls(rows, 0), calls(rows, 1)
        assert [f(*args) for f, *args in a] == [f(*args) for f, *args in b], (
            f"{label}: the trees decode differently"
        )
        ta, tb = _best(a, b, rounds)
        print(
            f"{label} ({len(rows)} calls): base {ta / len(rows) * 1e6:.3f} us/call, "
            f"new {tb / len(rows) * 1e6:.3f} us/call, new/base {tb / ta:.3f}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])

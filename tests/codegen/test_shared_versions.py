"""Message versions whose bytes are laid out identically share one reader and one writer: the
generator groups them instead of unrolling a copy per version that differs only in its error text."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import pytest

from kafkaspec.errors import KafkaFormatError


def _modules():
    pkg = importlib.import_module("kafkaspec.generated.messages")
    return [importlib.import_module(f"{pkg.__name__}.{i.name}") for i in pkgutil.iter_modules(pkg.__path__)]


def _normalised(module, func) -> str:
    """The source of a function and of the structure functions it calls, with every version mark
    blanked: what is left is the layout it reads or writes."""
    text = inspect.getsource(func)
    for name in sorted(set(re.findall(r"\b(_(?:read|write)_\w+)\(", text)) - {func.__name__}):
        text += _normalised(module, getattr(module, name))
    return re.sub(r"v\d+(/v\d+)*", "v#", text)


@pytest.mark.parametrize("table", ["_READERS", "_WRITERS"])
def test_no_two_functions_differ_only_in_the_version(table: str) -> None:
    copies: list[str] = []
    for module in _modules():
        funcs = getattr(module, table, None)
        if not funcs:
            continue
        seen: dict[str, int] = {}
        for version, func in funcs.items():
            key = _normalised(module, func)
            if key in seen and funcs[seen[key]] is not func:
                copies.append(f"{module.__name__} v{seen[key]} and v{version}")
            seen.setdefault(key, version)
    assert not copies, copies


def test_offset_commit_value_v0_and_v2_share_one_reader_and_writer() -> None:
    from kafkaspec.generated.messages import offset_commit_value as m

    assert m._READERS[0] is m._READERS[2]
    assert m._WRITERS[0] is m._WRITERS[2]
    assert m._READERS[0] is not m._READERS[1]


@pytest.mark.parametrize("version", [0, 2])
def test_a_shared_reader_still_names_the_version_read(version: int) -> None:
    from kafkaspec.generated.messages import offset_commit_value as m

    whole = m.encode_offset_commit_value(
        m.OffsetCommitValue(offset=5, metadata="x", commit_timestamp=7), version
    )
    assert m.decode_offset_commit_value(whole, version) == (m.OffsetCommitValue(5, -1, "x", 7), len(whole))
    with pytest.raises(KafkaFormatError) as info:
        m.decode_offset_commit_value(whole[:-1], version)
    assert re.search(rf"\bv(\d+/)*{version}\b", str(info.value)), str(info.value)
    assert info.value.args  # the error carries its byte position

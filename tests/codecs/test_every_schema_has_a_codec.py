"""Every schema in schemas/ has a generated codec and a Construct reference codec (issue 14, "every
schema in schemas/ has a codec"): record formats, protocol and log-directory structures, Kafka's own
payloads and the KIP-98 draft's proposals. The parametrisation is the schema set itself, so a schema
the generator skips fails here by name."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from kafkaspec.spec import load, snake

SCHEMAS = load(Path(__file__).resolve().parents[2] / "schemas")
#: (schema file, fast codec module, reference module, the functions both must define)
CASES = [
    (
        s.path.name,
        f"kafkaspec.generated.{s.module}",
        f"kafkaspec.generated.reference.{s.module}",
        (f"decode_{snake(s.name)}", f"encode_{snake(s.name)}")
        if s.status == "proposal" or s.discriminator
        else (f"decode_{snake(s.name)}_array", f"encode_{snake(s.name)}_array"),
    )
    for s in SCHEMAS.structs.values()
] + [
    (
        m.path.name,
        f"kafkaspec.generated.messages.{m.module}",
        f"kafkaspec.generated.reference.messages.{m.module}",
        (f"decode_{snake(m.name)}", f"encode_{snake(m.name)}"),
    )
    for m in SCHEMAS.messages.values()
]


def test_the_list_holds_every_kind_of_schema():
    files = {c[0] for c in CASES}
    assert {
        "record_batch_v2.yaml",
        "message_v0.yaml",
        "kip98_message_v2.yaml",
        "kip98_message_set_v2.yaml",
        "leader_change_message.yaml",
        "streams_group_topology_value.yaml",
    } <= files
    assert len(CASES) == len(SCHEMAS.structs) + len(SCHEMAS.messages)


@pytest.mark.parametrize(("schema", "fast", "reference", "functions"), CASES, ids=[c[0] for c in CASES])
def test_schema_has_a_codec(schema, fast, reference, functions):
    fast_module = importlib.import_module(fast)
    missing = [name for name in functions if not callable(getattr(fast_module, name, None))]
    assert not missing, f"{schema}: {fast} lacks {', '.join(missing)}"
    assert importlib.import_module(reference), f"{schema}: no reference codec {reference}"

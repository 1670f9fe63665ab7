"""Render proposal structures (``schemas/proposals/``) into ``generated/<module>.py`` (a straight-line
codec) and ``generated/reference/<module>.py`` (its Construct reference), planned by
:mod:`codegen.plan_proposal`."""

from __future__ import annotations

from pathlib import Path

import jinja2

from kafkaspec.spec import SchemaSet

from .naming import Resolver, const_name
from .plan_proposal import plan_proposal

#: names of the proposal codecs beyond render.SOURCES (the message-spec uvarint readers take a ``where``)
PROPOSAL_SOURCES: dict[str, str | None] = {
    "zlib": None,
    **dict.fromkeys(("encode_uvarint", "read_uvarint", "truncated"), "kafkaspec.codec.message_types"),
    **dict.fromkeys(("Container", "If", "IfThenElse", "RawCopy", "Tell"), "construct"),
}


def render_proposals(
    schemas: SchemaSet, root: Path, env: jinja2.Environment, resolve_names: Resolver
) -> dict[str, str]:
    """{file name: source} for every proposal's codec and reference codec (``resolve_names`` is
    render.resolve_names, which writes each module's imports from what it uses)."""
    out: dict[str, str] = {}
    env = env.overlay(trim_blocks=True, lstrip_blocks=True)  # the proposal templates are written line by line
    for s in sorted(schemas.structs.values(), key=lambda s: s.module):
        if s.status != "proposal":
            continue
        p = plan_proposal(s, schemas)
        source = s.path.relative_to(root.parent).as_posix()
        items = {
            name: f".{module}"
            for snake_name, module, cls in p.items
            for name in (cls, f"decode_{snake_name}", f"encode_{snake_name}")
        }
        out[f"{s.module}.py"] = resolve_names(
            env.get_template("proposal.py.j2").render(p=p, source=source), {**PROPOSAL_SOURCES, **items}
        )
        own = {
            name: f"kafkaspec.generated.{s.module}"
            for name in (
                p.name,
                *(f"{const_name(b.name)}{end}" for _, b in p.masks for end in ("_MASK", "_SHIFT")),
            )
        }
        ref_items = {
            name: f"kafkaspec.generated.reference.{module}"
            for snake_name, module, _ in p.items
            for name in (f"decode_{snake_name}", f"encode_{snake_name}")
        }
        out[f"reference/{s.module}.py"] = resolve_names(
            env.get_template("proposal_reference.py.j2").render(p=p, source=source),
            {**PROPOSAL_SOURCES, **own, **ref_items},
        )
    return out

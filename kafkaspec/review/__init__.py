"""Review tooling for protocol owners, computed from the schemas alone.

Built on the spec layer (:mod:`kafkaspec.spec`), never on the generator: it needs PyYAML, not Jinja2,
and works from an installed wheel (the schemas ship as package data, ``kafkaspec.schemas``).

* :mod:`.overhead` -- framing bytes per batch (seed 004's "Space Comparison").
* :mod:`.diff` -- structural changes between two versions of a schema, each
  classified compatible or breaking under docs/review-rules.md.
* :mod:`.locate` -- find and load the schema a path, a ``Name@version`` or a
  git revision names.

The reference docs (docs/formats/) are rendered by the code generator
(``kafkaspec.codegen.render_docs``, Jinja2), next to the codecs.
"""

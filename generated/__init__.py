"""Codecs generated from schemas/ by codegen. DO NOT EDIT: change a schema or a template and
run ``make generate``.

One module per structure version (``record_batch_v2``, ``message_v1``, ...): layout constants,
typed NamedTuples and the fast codec. ``reference/`` holds the Construct reference codec of each
structure, loaded only by those who use it (tests, benchmarks).

How the repository's top-level folders are installed (pyproject.toml):

- ``schemas/``: the spec (YAML), shipped as package data ``kafkaspec/schemas``;
- ``codegen/``: the generator, as ``kafkaspec.codegen``;
- ``generated/``: this package, as ``kafkaspec.generated`` (and ``kafkaspec.generated.reference``);
- ``kafkaspec/``: the hand-written runtime, as ``kafkaspec``.

Import generated code by that installed name: ``from kafkaspec.generated import record_batch_v2``.
"""

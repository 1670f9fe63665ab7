"""Review tooling for protocol owners, computed from the schemas alone.

* :mod:`.overhead` -- framing bytes per batch (seed 004's "Space Comparison").
* :mod:`.diff` -- structural changes between two versions of a schema, each
  classified compatible or breaking under docs/review-rules.md.
* :mod:`.locate` -- find and load the schema a path, a ``Name@version`` or a
  git revision names.

The reference docs (docs/formats/) are written by the code generator
(codegen/docs.py), next to the codecs.
"""

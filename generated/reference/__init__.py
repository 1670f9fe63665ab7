"""Construct reference codecs generated from schemas/ by codegen. DO NOT EDIT.

``kafkaspec.generated.reference.<module>.<snake>_construct`` parses and builds what the fast codec
``kafkaspec.generated.<module>`` does; tests hold the two to each other. Kept apart so that the
fast codecs, and so ``import kafkaspec``, never load Construct.
"""

from kafkaspec.codec.extras import missing

try:
    import construct  # noqa: F401
except ModuleNotFoundError as exc:
    raise missing(exc, "reference", "the Construct reference codecs") from None

"""kafkaspec's code generator: YAML schemas in, Python codecs and reference docs out.

Run as ``python -m kafkaspec.codegen`` (or ``make generate``, or ``kafkaspec generate``).
"""

"""The codec layer: the one package generated code imports (besides :mod:`kafkaspec.errors`).

Varints, checksums, compression, the column and shape helpers of the fast codecs, Kafka's
message-spec primitives, and the Construct building blocks of the reference codecs. It imports
nothing of kafkaspec but :mod:`kafkaspec.errors`, so the generated codecs sit on it and the
record API above them.
"""

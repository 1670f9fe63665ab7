"""Benchmarks run by ``make bench``: kafkaspec against kafka-python and aiokafka in one process."""

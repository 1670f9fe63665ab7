"""The spec: one YAML file per structure version, plus the shared enums.

Not code: this file only makes the folder a package so that it ships as package data,
installed as ``kafkaspec.schemas``; :func:`kafkaspec.spec.bundled_schemas` finds it through
importlib.resources, in a checkout and in an installed wheel alike.
"""

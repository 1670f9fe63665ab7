"""Package discovery for the wheel: each checkout folder is installed under its own package name.

pyproject.toml holds all the metadata; only the package list is computed here, because setuptools'
declarative ``packages.find`` cannot give the folders of ``package-dir`` their installed prefix.
Every folder under the four roots (except ``__pycache__``) is a package, so a new one ships without
anyone remembering to list it (a hand list once left out ``kafkaspec.payloads``).
"""

from setuptools import find_namespace_packages, setup

#: installed package -> checkout folder (the same mapping as pyproject's [tool.setuptools.package-dir])
ROOTS = {"kafkaspec": "kafkaspec", "kafkaspec.generated": "generated",
         "kafkaspec.codegen": "codegen", "kafkaspec.schemas": "schemas"}


def packages() -> list[str]:
    found = []
    for package, folder in ROOTS.items():
        found.append(package)
        found += [f"{package}.{sub}" for sub in find_namespace_packages(where=folder, exclude=["*__pycache__*"])]
    return found

setup(packages=packages())

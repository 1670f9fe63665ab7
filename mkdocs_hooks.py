"""MkDocs hook (mkdocs.yml ``hooks:``): the generated format reference in the site's navigation.

``docs/formats/`` is written by the code generator (``make generate``), one page per structure
version and one per message; a schema added there must reach the site without anyone editing
mkdocs.yml, so the nav entry ``formats/`` is expanded here into every page of the folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: the nav value that stands for the whole generated folder
FOLDER = "formats/"


def _pages(docs: Path, folder: str) -> list[str]:
    return sorted(
        p.relative_to(docs).as_posix() for p in (docs / folder).glob("*.md") if p.name != "index.md"
    )


def _expand(items: list[Any], docs: Path) -> list[Any]:
    out: list[Any] = []
    for item in items:
        if isinstance(item, dict):
            ((title, value),) = item.items()
            if value == FOLDER:
                value = [
                    f"{FOLDER}index.md",
                    *_pages(docs, FOLDER),
                    {
                        "Kafka's own payloads": [
                            f"{FOLDER}messages/index.md",
                            *_pages(docs, f"{FOLDER}messages"),
                        ]
                    },
                ]
            elif isinstance(value, list):
                value = _expand(value, docs)
            out.append({title: value})
        else:
            out.append(item)
    return out


def on_config(config: Any) -> Any:
    config["nav"] = _expand(config["nav"], Path(config["docs_dir"]))
    return config

"""Extract the facts of Kafka's JSON message specs for log-directory data at the named revisions of
a Kafka git repository (a bare mirror is enough) into ``facts-<label>.json`` beside this script.

    python tests/codecs/kafka_specs/extract.py GIT_DIR LABEL=REV [LABEL=REV ...]

The facts are names, types, version ranges, tags and defaults only (no prose), read by
``kafkaspec.review.kafka_specs`` as ``kafkaspec review kafka-specs`` reads a checkout. Refresh
them when Kafka releases: add the new revision, run ``test_kafka_specs.py``, and it says what our
schemas lack. The revisions kept (see REVISIONS in test_kafka_specs.py):

    python tests/codecs/kafka_specs/extract.py /work/.mirror/confluentinc+kafka/repo \\
        trunk-d79bd502ec=d79bd502ec7fa49335afa422f442af80ed0ab8f6 4.3=0157ac7cf2c652628443b270b9801dd44b4b0154
    python tests/codecs/kafka_specs/extract.py /work/.mirror/aiven+inkless/repo \\
        4.1.0=13f70256db3c994c590e5d262a7cc50b9e973204 4.0.0=985bc99521dd22bbf620591b8db8613c54f596b2
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from kafkaspec.review.kafka_specs import FOLDERS, facts_of_files

HERE = Path(__file__).parent


def git(git_dir: str, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", git_dir, *args], check=True, capture_output=True, text=True
    ).stdout


def extract(git_dir: str, rev: str) -> dict:
    commit = git(git_dir, "rev-parse", f"{rev}^{{commit}}").strip()
    files = []
    for folder in FOLDERS:
        for path in git(git_dir, "ls-tree", "--name-only", commit, f"{folder}/").split():
            if path.endswith(".json"):
                files.append((path, git(git_dir, "show", f"{commit}:{path}"), folder))
    date = git(git_dir, "show", "-s", "--format=%cs", commit).strip()
    return {"commit": commit, "date": date, "messages": facts_of_files(files)}


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    git_dir = argv[0]
    for arg in argv[1:]:
        label, _, rev = arg.partition("=")
        facts = {"label": label, **extract(git_dir, rev or label)}
        out = HERE / f"facts-{label}.json"
        out.write_text(json.dumps(facts, indent=1, sort_keys=True) + "\n")
        print(f"{out}: {len(facts['messages'])} messages at {facts['commit'][:10]} ({facts['date']})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

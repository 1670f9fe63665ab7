"""``kafkaspec completion bash|zsh``: the script completes subcommands, their options (those the parser
has, DumpLogSegments' aliases included) and nested subcommands, driven in a real bash."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="no bash here")


def _script(shell: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "kafkaspec", "completion", shell], capture_output=True, text=True, check=True
    )
    return done.stdout


def _complete(script: str, *words: str) -> list[str]:
    """What the script offers for ``kafkaspec WORDS`` (the last word being completed)."""
    quoted = " ".join(f"'{w}'" for w in ("kafkaspec", *words))
    program = f'{script}\nCOMP_WORDS=({quoted}); COMP_CWORD={len(words)}; _kafkaspec; printf "%s\\n" "${{COMPREPLY[@]}}"'
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, check=True)
    return done.stdout.split()


def test_bash_completes_subcommands_and_options():
    script = _script("bash")
    assert _complete(script, "du") == ["dump"]
    assert set(_complete(script, "dump", "--print-d")) == {"--print-data", "--print-data-log"}
    assert "--keep-going" in _complete(script, "dump", "logs/", "--keep")
    assert set(_complete(script, "review", "")) >= {"diff", "overhead", "kafka-specs"}
    assert _complete(script, "review", "diff", "--rev-o") == ["--rev-old"]


def test_zsh_script_loads_bash_completion():
    assert _script("zsh").startswith("autoload -U +X bashcompinit && bashcompinit\n")


@pytest.mark.hostile
def test_paths_with_spaces_and_pattern_characters_are_offered_as_they_are(tmp_path):
    """A file name was split at its spaces and expanded as a pattern (``a*`` offered every ``a...``)."""
    for name in ("my data.log", "a*", "ab", "$(touch pwned)"):
        (tmp_path / name).write_text("x")
    script = _script("bash")

    def offered(word):
        program = (
            f"{script}\nCOMP_WORDS=(kafkaspec dump {shlex.quote(word)}); COMP_CWORD=2; _kafkaspec; "
            'printf "%s\\0" "${COMPREPLY[@]}"'
        )
        done = subprocess.run(
            ["bash", "-c", program], capture_output=True, text=True, check=True, cwd=tmp_path
        )
        return sorted(done.stdout.split("\0")[:-1])

    assert offered("my") == ["my data.log"]
    assert offered("a*") == ["a*"]
    assert offered("$") == ["$(touch pwned)"]
    assert not (tmp_path / "pwned").exists()

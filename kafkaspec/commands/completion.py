"""``kafkaspec completion bash|zsh``: a shell completion script, written from the command's own parsers
(subcommands, their subcommands and options; paths otherwise), so it never lists an option that is not
there. No package needed: the script is plain bash, which zsh runs through ``bashcompinit``. A path
offered is one line of ``compgen``'s answer, never split at spaces nor expanded as a pattern (a file
named ``my data.log`` or ``*`` is offered as it is)."""

from __future__ import annotations

import argparse
import shlex
import sys

EPILOG = """examples:
  kafkaspec completion bash > ~/.local/share/bash-completion/completions/kafkaspec
  echo 'eval "$(kafkaspec completion zsh)"' >> ~/.zshrc
  source <(kafkaspec completion bash)        # this shell only
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "completion",
        help="print a shell completion script (bash, zsh)",
        description="Print a script that completes kafkaspec's subcommands and options in bash or zsh "
        "(and paths where a path goes); load it from your shell's start-up file.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("shell", choices=("bash", "zsh"), help="the shell the script is for")
    p.set_defaults(func=run)


def _word(text: str) -> str:
    return shlex.quote(text)


def _options(parser: argparse.ArgumentParser) -> list[str]:
    return sorted(o for a in parser._actions for o in a.option_strings if o.startswith("--"))


def _children(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def script(root: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of ``root`` (the ``kafkaspec`` parser) for ``shell``."""
    commands = _children(root)
    cases, nested = [], []
    for name, parser in sorted(commands.items()):
        subs = _children(parser)
        cases.append(
            f"    {_word(name)}) subs={_word(' '.join(sorted(subs)))}; opts={_word(' '.join(_options(parser)))};;"
        )
        nested += [
            f"        {_word(name + ' ' + sub)}) opts={_word(' '.join(_options(child)))};;"
            for sub, child in sorted(subs.items())
        ]
    top = " ".join(sorted(commands) + _options(root))
    body = f"""# kafkaspec {shell} completion (kafkaspec completion {shell})
_kafkaspec() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" cmd="${{COMP_WORDS[1]}}" sub="${{COMP_WORDS[2]}}" subs="" opts=""
    if [ "$COMP_CWORD" -eq 1 ]; then
        _kafkaspec_reply -W {_word(top)} -- "$cur"
        return
    fi
    case "$cmd" in
{chr(10).join(cases)}
    esac
    if [ -n "$subs" ] && [ "$COMP_CWORD" -eq 2 ]; then
        _kafkaspec_reply -W "$subs --help" -- "$cur"
        return
    fi
    if [ -n "$subs" ]; then
        case "$cmd $sub" in
{chr(10).join(nested)}
        esac
    fi
    if [[ "$cur" == -* ]]; then
        _kafkaspec_reply -W "$opts" -- "$cur"
    else
        _kafkaspec_reply -f -- "$cur"
    fi
}}
_kafkaspec_reply() {{
    local line
    COMPREPLY=()
    while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen "$@")
}}
complete -o filenames -o bashdefault -F _kafkaspec kafkaspec
"""
    if shell == "zsh":
        body = "autoload -U +X bashcompinit && bashcompinit\n" + body
    return body


def run(args: argparse.Namespace) -> int:
    from kafkaspec.cli import build_parser

    sys.stdout.write(script(build_parser(), args.shell))
    return 0

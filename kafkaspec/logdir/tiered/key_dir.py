"""The option that gives the private keys of encrypted tiered segments as a directory
(``--tiered-private-key-dir``), spelled and checked once for the commands and the pipeline's own
entry point (which lives with Spark, below the command line)."""

from __future__ import annotations

import argparse
import errno
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .encryption import PrivateKeys

#: the option's help: what the directory holds, and that a key is never shown
KEY_DIR_HELP = (
    "encrypted tiered segments: a directory of private keys, one <key pair id>.pem file per key pair "
    "(the id a manifest's dataKey names, e.g. key-pair-2.pem), so that a prefix written under "
    "rotated key pairs reads in one run; before the KAFKASPEC_TIERED_PRIVATE_KEY* variables. "
    "Keys are never shown"
)


def add_key_dir_argument(p: argparse.ArgumentParser) -> None:
    """Add ``--tiered-private-key-dir DIR`` to a command that reads tiered prefixes (no default: --help
    shows none, and nothing but the directory's path is kept in the arguments)."""
    p.add_argument("--tiered-private-key-dir", metavar="DIR", default=None, help=KEY_DIR_HELP)


def private_keys(args: argparse.Namespace) -> PrivateKeys | None:
    """The keys ``--tiered-private-key-dir`` names, read now (None: not given; the environment's then
    apply). A missing or unreadable directory, or one with no ``<id>.pem`` file, is an OSError naming
    the directory (exit 2: a usage problem, not the data's); a key's bytes are never in a message."""
    directory = getattr(args, "tiered_private_key_dir", None)
    if directory is None:
        return None
    from kafkaspec.errors import KafkaFormatError

    from .encryption import PrivateKeys

    if not os.path.isdir(directory):
        code = errno.ENOTDIR if os.path.exists(directory) else errno.ENOENT
        raise OSError(code, f"--tiered-private-key-dir: {os.strerror(code).lower()}", directory)
    try:
        keys = PrivateKeys.from_dir(directory)
    except KafkaFormatError as exc:  # unreadable directory or key file: the user's setup, not the data
        raise OSError(errno.EACCES, f"--tiered-private-key-dir: {exc.reason}", directory) from None
    if not keys:
        raise OSError(errno.ENOENT, "--tiered-private-key-dir: holds no <key pair id>.pem file", directory)
    return keys

"""What the commands that read tiered-storage prefixes share: the private keys of encrypted segments."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kafkaspec.logdir.encryption import PrivateKeys


def add_key_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tiered-private-keys", metavar="DIR",
                   help="encrypted tiered segments: a directory of <key pair id>.pem private keys (the plugin's "
                        "encryption.key.pairs); the KAFKASPEC_TIERED_PRIVATE_KEY* variables give the ids it lacks")


def keys_of(args: argparse.Namespace) -> PrivateKeys | None:
    """The keys ``--tiered-private-keys`` names; None without the option. The readers take the environment's
    for the ids these lack. A directory that cannot be read raises OSError naming it."""
    if args.tiered_private_keys is None:
        return None
    from kafkaspec.errors import KafkaFormatError
    from kafkaspec.logdir.encryption import PrivateKeys

    try:
        return PrivateKeys.from_dir(args.tiered_private_keys)
    except KafkaFormatError as exc:  # the directory itself: a usage problem (exit 2), not the data's
        raise OSError(f"--tiered-private-keys: {exc.reason}") from None

"""One module per ``kafkaspec`` subcommand; each defines ``register(subparsers)``."""

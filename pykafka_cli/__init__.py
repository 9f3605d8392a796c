"""``pykafka``: the command-line tool (topics, produce, consume, groups, lag, offsets, broker, cluster).

See :mod:`pykafka_cli.main`. Exit codes: 0 success, 1 a Kafka or I/O error (message on stderr),
2 bad usage (argparse), 3 ``lag --max-lag`` exceeded.
"""

from pykafka_cli.main import main

__all__ = ["main"]

"""``python -m kb.cli``: the ``kb`` command."""

from . import cli

cli()

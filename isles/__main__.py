"""``python -m isles`` runs the command line."""

from isles.console import run

run()

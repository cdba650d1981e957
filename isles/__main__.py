"""``python -m isles`` runs the command line."""

from isles.cli import main

raise SystemExit(main())

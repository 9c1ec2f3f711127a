"""``python -m verifier RECORD [--receipt R ...]``: the same as ``entrepot verify``."""

from verifier.cli import main

raise SystemExit(main())

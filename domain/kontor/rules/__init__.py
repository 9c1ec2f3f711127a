"""The special rules (« Règles spéciales »): A (special_a.py, « Variantes avec les cartes
spéciales » included) and B (special_b*.py); settings.py maps identifiers to switches."""

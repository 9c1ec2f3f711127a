"""The special rules (« Règles spéciales », « Variantes avec les cartes spéciales »
included): one module per rule, its passage at the top (docs/rules/kontor.md lists them);
settings.py maps the special rules A's identifiers to switches; pending_step.py,
draw_step.py, specials_in_hand.py and water_fill.py are shared by several rules."""

"""Pure game rules: standard library only. See decider.py for the shape of a title."""

"""The scenarios (« Scénarios »): their switches and layouts (data.py) and their rules
(mechanics.py)."""

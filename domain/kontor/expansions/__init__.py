"""The expansions: event cards (event_cards.py) and the export warehouse
(export_warehouse.py); dispatch.py is what the core and the registry call."""

"""The expansions, one module each: event cards (event_cards.py) and the export warehouse
(export_warehouse.py); shared by both: the warehouses a dock holds now (warehouse_goods.py)
and the final bonuses (final_bonuses.py)."""

"""The scenarios (« Scénarios et variantes de règles pour 2 joueurs et 4 joueurs »).

Every scenario is first a row of switches in data.py (``SCENARIO_SETTINGS``: port, money,
ship, removed cards, final count); every rule reads a switch of ``Options``, never a
scenario name. Shared by several scenarios: settings.py (the switches, impossible
combinations), port_and_deck.py (layouts « selon le dessin », removed cards),
final_count.py (smallest, every, straight lines, at most N docks), decisions.py (a
decision left pending after a placement).

Where each scenario lives:
- Bakchich: baksheesh.py; Tic Tac Toe: tic_tac_toe.py; Watergames: watergames.py;
  Île Grande: isola_grande.py; Toujours plus petit: ever_smaller.py; Vitesse: speed.py;
  Embargo: embargo.py; Euphrate: euphrates.py; Grande marée: spring_tide.py;
- switches only (data.py, with the shared modules above): Canale Grande, David et
  Goliath, Géant, Les voyages de Gulliver, Small is beautiful, Je ne veux voir qu'une
  tête (``straight_lines``).
"""

"""« Roue libre pour 2 ou 4 joueurs » and « Roue libre individuelle pour 3 ou 4 joueurs »:
sequential turns (turns.py), their placement, scoring, evolve and view, and the free for
all's alliances (alliances.py)."""

"""The other forms of play than the basic, advanced and team games: the free wheel games
(« Roue libre » for 2 or 4, « Roue libre individuelle » for 3 or 4 with alliances)."""

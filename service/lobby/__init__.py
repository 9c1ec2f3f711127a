"""The lobby: open games and seeks, players by name, profiles, the archive and ratings."""

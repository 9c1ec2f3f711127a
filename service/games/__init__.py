"""Games: creation, seats, the single write path, the event store and what is read of a game."""

"""Correspondence play: time controls, the table's timers, vacations, resignation, takebacks."""

"""Widgets shared by the game screens: cards, card rows, the discard grid, the log,
the scoreboard. Each game screen composes these; none of them knows a game's rules."""

"""Learn to play (docs/learn.md): a guided first game of each game on the
game's own screen (``coach``), the list of lessons (``screens``), what the
player has done (``progress``), and tips in the first real games (``tips``)."""

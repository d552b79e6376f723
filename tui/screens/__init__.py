"""The app's screens other than the game screens (those live in tui/games/)."""

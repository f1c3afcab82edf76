"""Per-game board data for the viewer: ``reports/view/boards/<game>.py`` (found by the game's name)."""

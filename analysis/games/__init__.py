"""Per-game analyses, one module per game: ``analysis.games.<game>``.

Each turns its game's events and tallies into frames (Hellas quarry yields
and luck, Yamataï fleet picks and buildings, Akrotiri map cards, goals and
market sales); the report plug-in of the same name (``reports.games.<game>``)
shows them. Like all of ``analysis``, they read results tables only.
"""

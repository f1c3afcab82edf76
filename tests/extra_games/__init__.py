"""Games written against the contract inside the test suite; ``tests/conftest.py`` registers each folder here."""

import os
import sys

# Run from a source checkout with the extensions built in place; test helpers
# (tests/hellas_engines.py) import as top-level modules.
TESTS = os.path.dirname(os.path.abspath(__file__))
for path in (os.path.dirname(TESTS), TESTS):
    if path not in sys.path:
        sys.path.insert(0, path)

import os
import sys

# Let the tests run from a source checkout with the extensions built in place.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

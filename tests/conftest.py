import os
import sys

# support.py lives beside the tests; core tests import cribcore from the installed package.
sys.path.insert(0, os.path.dirname(__file__))

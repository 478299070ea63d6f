"""``python -m symbolic``: the command line."""
from .cli import console

console()

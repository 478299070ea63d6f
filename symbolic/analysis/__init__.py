"""Analyses over the query API of either engine: what a game's answer sets mean.

- :mod:`.strategy`: memoryless winning and safety strategies read off the layers of a
  fixpoint, their outcome from a start, export (JSON, DOT), verification by explicit
  search, counting and execution;
- :mod:`.values`: ranks and the ±k two-player values (fastest win, longest defence);
- :mod:`.grundy`: Sprague–Grundy values (nimbers), layered on any engine and by mex;
- :mod:`.play`: who wins, the solver's move, and plays between players.

Each module uses only :mod:`symbolic.api`, :mod:`symbolic.atl` and the core
(``docs/architecture.md`` lists the rules; ``tests/test_architecture.py`` checks them).
"""

__all__: list[str] = []

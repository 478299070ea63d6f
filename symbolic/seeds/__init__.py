"""The games and answer sheets of the five source texts, built on the rest of the package.

- :mod:`.ens2005`: the ENS 2005 exam's answer sheet (multi-player Nim, coalitions, ATL);
- :mod:`.games`: the exam's games built directly as IR (Nim(N, n, K, r), the subtraction game,
  arenas);
- :mod:`.tictactoe`: the reachability-games TD's tic-tac-toe questions;
- :mod:`.chocolate`: the chocolate bar with the square of death (Q9, Q10);
- :mod:`.hackendot`: Hackendot on Dyck-word forests, Ulehla's method;
- :mod:`.chomp`: the report's Chomp variants and the verdict on each of its claims.

Nothing in the core, the engines, the front ends or the analyses imports this package.
"""

__all__: list[str] = []

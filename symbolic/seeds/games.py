"""Games built from Python: the ENS 2005 family Nim(N, n, K, r) and the
subtraction game of its introduction.

These builders produce the same IR as the model files (``models/``) and serve
until, and alongside, the model language.

>>> lcg(0, 3)
(0, 269, 27438)
>>> g = nim_ens(N=2, n=2, K=20, r=2, u0=0)
>>> [s.label for s in g.space.slots]
['j', 'k[1]', 'k[2]']
"""

from __future__ import annotations

from ..errors import RangeError
from ..lang.builtins import lcg_terms
from ..ir import (
    Binary,
    Const,
    Elem,
    Game,
    IntType,
    Item,
    Ite,
    Move,
    Name,
    Param,
    Space,
    Var,
    VarDecl,
    conj,
    disj,
    forall,
)

__all__ = ["lcg", "ens_rules", "nim_ens", "subtraction", "arena"]

LCG_A, LCG_C, LCG_M = 101, 269, 4_890_367


def lcg(u0: int, count: int, a: int = LCG_A, c: int = LCG_C, m: int = LCG_M) -> tuple[int, ...]:
    """The first ``count`` terms u_0, ..., u_{count-1} of u_{n+1} = (a·u_n + c) mod m.

    ENS 2005, section 1: a = 101, c = 269, m = 4 890 367, u_0 the candidate's number.

    >>> lcg(1, 2)
    (1, 370)
    """
    return lcg_terms(u0, count, a, c, m)


def ens_rules(n: int, r: int, u0: int) -> tuple[tuple[int, ...], ...]:
    """The rule set R of Nim(N, n, K, r), sorted.

    R = {(u_{in} mod 5, ..., u_{in+n-1} mod 5) | 0 ≤ i ≤ r−1} ∖ {(0, ..., 0)}.

    >>> ens_rules(2, 2, 0)
    ((0, 4), (3, 2))
    """
    if n < 1 or r < 0:
        raise RangeError(f"Nim rules need n >= 1 and r >= 0 (got n={n}, r={r})")
    u = lcg(u0, r * n)
    rules = {tuple(u[i * n + t] % 5 for t in range(n)) for i in range(r)}
    rules.discard((0,) * n)
    return tuple(sorted(rules))


def nim_ens(N: int, n: int, K: int, r: int, u0: int) -> Game:
    """Nim(N, n, K, r) of ENS 2005: positions (j, k_1..k_n), j the player to move.

    δ(j, k) = {(j mod N + 1, k − d) | d ∈ R, k − d ≥ 0 componentwise}.
    """
    if N < 1 or n < 1 or K < 0 or r < 0:
        raise RangeError(f"Nim(N, n, K, r) needs N, n >= 1 and K, r >= 0; got {(N, n, K, r)}")
    rules = ens_rules(n, r, u0)
    space = Space((VarDecl("j", IntType(1, N)), VarDecl("k", IntType(0, K), IntType(1, n))))
    d = Name("d")
    guard = forall("i", range(1, n + 1), lambda i: Elem("k", i) >= Item(d, i - 1))
    effect = conj(
        [
            forall(
                "i",
                range(1, n + 1),
                lambda i: Elem("k", i, primed=True).eq(Elem("k", i) - Item(d, i - 1)),
            ),
            Var("j", primed=True).eq(Var("j") % N + 1),
        ]
    )
    take = Move("take", (Param("d", rules),), guard, effect)
    return Game(
        f"Nim({N}, {n}, {K}, {r}), u0 = {u0}", space, tuple(range(1, N + 1)), Var("j"), (take,)
    )


def subtraction(K: int = 10, take: tuple[int, ...] = (1, 2, 3)) -> Game:
    """The two-player subtraction game of the ENS introduction: one heap of at
    most K matches, each move removes one of ``take``; the player who cannot
    move loses. δ(j, k) = {(3 − j, k − t) | t ∈ take, t ≤ k}."""
    space = Space((VarDecl("j", IntType(1, 2)), VarDecl("k", IntType(0, K))))
    t = Name("t")
    mv = Move(
        "take",
        (Param("t", tuple(take)),),
        Var("k") >= t,
        conj(
            [
                Var("k", primed=True).eq(Var("k") - t),
                Var("j", primed=True).eq(Binary("-", Const(3), Var("j"))),
            ]
        ),
    )
    return Game(f"subtraction(K={K}, take={list(take)})", space, (1, 2), Var("j"), (mv,))


def arena(controller: dict[int, int], edges, name: str = "arena") -> Game:
    """A reachability arena (the TD format) as a game: states 0..max, ``controller``
    maps each state to the player who moves there, ``edges`` are (s, s') pairs.

    Positions are the values of one variable ``s``; δ(s) = {s' | (s, s') ∈ edges}.

    >>> g = arena({0: 1, 1: 2}, [(0, 1)])
    >>> g.players
    (1, 2)
    """
    states = sorted(controller)
    if states != list(range(len(states))):
        raise RangeError(f"arena states must be 0..{len(states) - 1}, got {states}")
    bad = [e for e in edges if e[0] not in controller or e[1] not in controller]
    if bad:
        raise RangeError(f"arena edges use unknown states: {bad}")
    s = Var("s")
    players = tuple(sorted(set(controller.values())))
    # one test per player, each a balanced disjunction: thousands of states stay shallow
    turn = Const(players[-1])
    for p in reversed(players[:-1]):
        turn = Ite(disj(s.eq(st) for st in states if controller[st] == p), Const(p), turn)
    e = Name("e")
    edge = Move(
        "edge",
        (Param("e", tuple(sorted(set(map(tuple, edges))))),),
        s.eq(Item(e, Const(0))),
        Var("s", primed=True).eq(Item(e, Const(1))),
    )
    return Game(name, Space((VarDecl("s", IntType(0, len(states) - 1)),)), players, turn, (edge,))

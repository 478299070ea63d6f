"""A turn-based game read as a concurrent one: :func:`as_concurrent`.

The players not to move have one action, ``wait`` (enabled where the turn is
not theirs); the mover's actions are its move instances with the choice of
successor made part of the action, so that δ(c, a) is a single position and
the conversion is exact: for a move m at parameter valuation v, let P be the
slots that some transition of (m, v) changes; the action ``m(v) -> w`` is
enabled at c iff t(c) is its player and c[P := w] ∈ δ_{m,v}(c), and its update
sets P to w (the frame rule keeps every other slot). The guards are listed
position by position from the explicit engine, so this is for small games
(the tests convert every shipped model with small parameters).

Then for every coalition J and set Z, with pre the concurrent pre-image:
pre(J, Z) = pre∃(J, Z) ∪ pre∀(J, Z) under either dead-end convention, hence
every ATL formula without turn(J) has the same set on both games.

>>> from symbolic.seeds.games import subtraction
>>> g = as_concurrent(subtraction(3))
>>> g.action_labels(2)[:3]
('wait', 'take(t=1) -> j=1, k=0', 'take(t=1) -> j=1, k=1')
"""

from __future__ import annotations

from ..errors import QueryError
from ..explicit import ExplicitGame
from ..ir import Action, BoolType, ConcurrentGame, Const, Elem, Expr, Game, Update, Var, conj, disj

__all__ = ["as_concurrent"]


def _slot_expr(game: Game, s: int, primed: bool = False) -> Expr:
    slot = game.space.slots[s]
    if slot.index is None:
        return Var(slot.var, primed=primed)
    return Elem(slot.var, Const(slot.index), primed=primed)


def _value(game: Game, s: int, v: int) -> Const:
    return Const(bool(v)) if isinstance(game.space.slots[s].type, BoolType) else Const(v)


def _at(game: Game, c: tuple) -> Expr:
    return conj(_slot_expr(game, s).eq(_value(game, s, v)) for s, v in enumerate(c))


def _instances(game: Game, G: ExplicitGame) -> dict:
    """{(move, valuation): [(c, c')]} over every position."""
    out: dict = {}
    for c in G.positions().tuples():
        for name, env, t in G.transitions(c):
            out.setdefault((name, tuple(env.items())), []).append((c, t))
    return out


def as_concurrent(game: Game, *, max_positions: int = 20_000) -> ConcurrentGame:
    """The concurrent reading of the turn-based ``game`` (module docstring)."""
    G = ExplicitGame(game)
    if len(G.positions()) > max_positions:
        raise QueryError(
            f"as_concurrent lists positions: {game.name!r} has more than {max_positions}"
        )
    G.check_turns()
    labels = [s.label for s in game.space.slots]
    actions: list[Action] = [Action(p, "wait", ~game.turn.eq(Const(p))) for p in game.players]
    updates: list[Update] = []
    pending: list[tuple] = []
    for (name, env), pairs in _instances(game, G).items():
        P = sorted({s for c, t in pairs for s in range(len(c)) if c[s] != t[s]})
        by_w: dict = {}
        for c, t in pairs:
            by_w.setdefault((G.turn(c), tuple(t[s] for s in P)), []).append(c)
        args = ", ".join(f"{k}={v}" for k, v in env)
        for (p, w), sources in by_w.items():
            label = f"{name}({args}) -> " + ", ".join(f"{labels[s]}={v}" for s, v in zip(P, w))
            actions.append(Action(p, label, disj(_at(game, c) for c in sources)))
            pending.append((p, label, P, w))
    cg = ConcurrentGame(
        game.name, game.space, game.players, tuple(actions), (), game.invariant, game.description
    )
    for p, label, P, w in pending:
        then = conj(_slot_expr(game, s, True).eq(_value(game, s, v)) for s, v in zip(P, w))
        updates.append(Update(then, cg.does(p, label)))
    return ConcurrentGame(
        game.name,
        game.space,
        game.players,
        cg.actions,
        tuple(updates),
        game.invariant,
        game.description,
    )

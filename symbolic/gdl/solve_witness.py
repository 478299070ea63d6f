"""A one-role GDL game's value by a depth-first search for a play that reaches it.

The value a role r forces alone, in a game where r is the only role, is the best goal
it reaches (:mod:`~.solve`, whose until reads, for one role, "some play"):

    forced({r}, r) = max { goal(r, t) | t terminal, reachable from init through
                           non-terminal states that have a successor }

With V the best goal value the rules give r (:meth:`~.ground.GroundProgram.best_goal_atoms`),
a single play from init that ends in a terminal state of goal V proves the value V: no
value is higher, and the play is a witness anyone can replay. A puzzle solver looks for
such a play depth first; many puzzles have one deep in a state space far too large to
enumerate layer by layer (peg solitaire: a play of 31 jumps; a snake that eats every
apple). :func:`search_best` walks the states depth first, each once, and stops at the
first terminal state of goal V. Which order of the moves finds a play soon depends on the
puzzle, so two searches run side by side, one state of each in turn: the moves as the rules
list them (31 jumps of peg solitaire after 10 846 states), and the successors with the
fewest legal moves first (a knight's tour of 63 moves after 63 states: Warnsdorff's rule).
When one runs out of states first, it has visited every reachable state, and the value is
the best goal among the terminal ones it met (None when it met none). Dead ends (non-terminal states without a legal move) are passed by: a play
that runs into one never ends.

>>> from .load import gdl_program
>>> from .explicit_rules import CompiledRules
>>> prog = gdl_program(
...     "(role a) (init (at 0)) (succ 0 1) (succ 1 2) (succ 2 3)"
...     "(<= (legal a up) (true (at ?x)) (succ ?x ?y)) (<= (legal a stop) (true (at ?x)))"
...     "(<= (next (at ?y)) (does a up) (true (at ?x)) (succ ?x ?y))"
...     "(<= (next (at ?x)) (does a stop) (true (at ?x))) (<= (next done) (does a stop))"
...     "(<= terminal (true done)) (<= terminal (true (at 3)))"
...     "(<= (goal a 100) (true (at 3))) (<= (goal a 0) (not (true (at 3))))")
>>> found = search_best(CompiledRules(prog))
>>> found.value, [str(m) for m in found.moves], found.complete, found.order
(100, ['up', 'up', 'up'], False, 'rules')
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import QueryError
from ..limits import NO_LIMITS, Limits
from .explicit_rules import CompiledRules

__all__ = ["Search", "search_best"]

#: states visited between two checks of the limits
CHECK_EVERY = 256

#: the orders of the moves searched side by side: as the rules give them, and the
#: successors with the fewest legal moves first (Warnsdorff's rule for a knight's tour,
#: 1823): a move that leaves few ways on is taken while they are still open
ORDERS = ("rules", "fewest")


@dataclass(frozen=True)
class Search:
    """The outcome of :func:`search_best`: ``value`` the role's forced value (None when no
    terminal state is reachable), ``moves`` a play from init to a terminal state of that
    value (ground move terms, in order), ``states`` the states visited (init included),
    ``complete`` whether every reachable state was visited (False when the search stopped
    at the best goal value), ``order`` the order of the moves of the search that answered
    (:data:`ORDERS`)."""

    value: int | None
    moves: tuple
    states: int
    complete: bool
    order: str


def _goal_table(prog, role) -> list[tuple[int, tuple]]:
    """[(V, goal atom)] of ``role``, the best value first (as written: ``(goal r 050)`` is
    50)."""
    table = [
        (int(a[1][1]), a)
        for a in prog.rules
        if a[0] == "goal" and a[1][0] == role and str(a[1][1]).isdigit()
    ]
    return sorted(table, key=lambda x: -x[0])


def search_best(rules: CompiledRules, limits: Limits = NO_LIMITS) -> Search:
    """Search ``rules``'s game (one role) depth first for a play that ends in a terminal
    state of its role's best goal value (see the module docstring), with two orders of the
    moves side by side, one state of each in turn (:data:`ORDERS`): the first to answer
    answers. QueryError when the game has several roles; LimitExceeded when ``limits`` say
    so (checked every :data:`CHECK_EVERY` states)."""
    prog = rules.prog
    if len(prog.roles) != 1:
        raise QueryError(
            f"the depth-first search for the best goal applies to games of one role, "
            f"this one has {len(prog.roles)}"
        )
    role = prog.roles[0]
    goals = _goal_table(prog, role)
    init = rules.state_of(prog.init)
    if rules.terminal(rules.state_vector(init)):  # the game is over before it starts
        value = next((g for g, a in goals if rules.holds(a, init)), None)
        return Search(value, (), 1, True, ORDERS[0])
    searches = [_depth_first(rules, role, goals, init, order) for order in ORDERS]
    visited = 0
    with limits.stage("searching depth first for a play of the best goal"):
        while True:
            for search in searches:
                try:
                    next(search)
                except StopIteration as done:
                    return done.value
            visited += len(searches)
            if visited % CHECK_EVERY == 0:
                limits.check(f"{visited} states visited", lambda: {"states": visited})


def _depth_first(rules: CompiledRules, role, goals: list, init: int, order: str):
    """One depth-first search from the non-terminal ``init``, the moves in ``order``: a
    generator that yields once per state visited and returns its :class:`Search`."""
    best = goals[0][0] if goals else None
    seen = {init}
    found: tuple[int | None, tuple] = (None, ())
    moves: list = []  # the play from init to the state whose children are on top
    stack = [_children(rules, role, rules.state_vector(init), order)]
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            if moves:
                moves.pop()
            continue
        move, t, w = step
        if t in seen:
            continue
        seen.add(t)
        yield
        if w is None:
            w = rules.state_vector(t)
        if rules.terminal(w):
            value = next((g for g, a in goals if rules.holds(a, t)), None)
            if value is not None and (found[0] is None or value > found[0]):
                found = (value, (*moves, move))
                if value == best:
                    return Search(value, found[1], len(seen), False, order)
            continue
        moves.append(move)
        stack.append(_children(rules, role, w, order))
    return Search(found[0], found[1], len(seen), True, order)


def _children(rules: CompiledRules, role, v: int, order: str) -> Iterator[tuple]:
    """(move, successor, its vector or None) of the non-terminal state of vector ``v``, in
    ``order`` (the fewest-moves order computes the vectors to rank them: kept, not redone)."""
    moves = rules.legal(v)[role]
    if order == "rules":
        return ((m, rules.next_state(v, ((role, m),)), None) for m in moves)
    if order != "fewest":
        raise AssertionError(order)
    ranked = []
    for m in moves:
        t = rules.next_state(v, ((role, m),))
        w = rules.state_vector(t)
        # a terminal successor first: a leaf, cheap to look at, maybe the best goal
        ranked.append((0 if rules.terminal(w) else len(rules.legal(w)[role]), m, t, w))
    ranked.sort(key=lambda x: x[0])  # stable: ties keep the rules' order
    return ((m, t, w) for _, m, t, w in ranked)

"""Who wins a GDL game: the best goal value each coalition can force.

For a coalition C (a non-empty set of roles) and a role r with goal values
V_1 < ... < V_k, the value C forces for r is

    forced(C, r) = max { V_i | initial ⊨ ⟨⟨C⟩⟩ (¬terminal ∧ ¬dead_end) U (terminal ∧ ⋁_{j ≥ i} goal(r, V_j)) }

(None when no V_i qualifies, e.g. when C cannot force the game to end): C
forces the game to end in a terminal state where r gets at least V. The left
side keeps out the states without a successor — terminal ones (they count only
through their goal) and ``dead_end`` ones, non-terminal states where some role
has no legal move (GDL forbids them; ``3pttc.kif`` has them): a play that runs
into one never ends, whoever is stuck, so it is lost for C. Every state left
in the until's left side has a successor, so the answer does not depend on the
dead-end convention (the ENS one, vacuous, would otherwise credit C with an
opponent's dead end), and it is monotone in C: a coalition forces whatever one
of its subsets forces, which :func:`forced_values` uses to skip fixpoints.

**Bounds from the first moves.** An engine made with a depth N keeps the
states reachable in at most N moves; when more lie beyond, the last layer F
(its ``frontier``) is not expanded. With G_i = terminal ∧ ⋁_{j ≥ i} goal(r, V_j):

    lower: initial ⊨ ⟨⟨C⟩⟩ (¬terminal ∧ ¬dead_end ∧ ¬F) U G_i
    upper: initial ⊨ ⟨⟨C⟩⟩ (¬terminal ∧ ¬dead_end ∧ ¬F) U (G_i ∨ (F ∧ ¬terminal))

The states before F have all their successors among the positions, so a
strategy that wins the lower game wins the real one (C forces G_i within N
moves), and a strategy that wins the real game wins the upper one (its plays
reach G_i or F first). Hence lower ≤ forced(C, r) ≤ upper, with lower the
largest V_i of the lower game and upper that of the upper game; they are equal
when F = ∅, and a table of bounds is decided wherever they meet. When the
layers are graded (every move goes one layer up, as with a step counter), the
until is solved layer by layer (:func:`~symbolic.api.layers.until_layered`).

**The grand coalition needs no fixpoint.** When C holds every role, ⟨⟨C⟩⟩ is
the path quantifier E, and on an engine that explored its positions from the
initial state (``explored``) every position p was reached by a path whose states
before p were expanded, non-terminal and with a successor, i.e. in the until's
left side (frontier states are never expanded, dead ends have no successor). So

    initial ⊨ ⟨⟨all roles⟩⟩ stay U T   iff   T ≠ ∅        (T a set of positions)

and a one-player game's values are read off its positions (the best goal among
its terminal states), a multi-player game's grand-coalition ones likewise. Not
over an inductive invariant, which holds states nothing reaches.

**Determinacy.** When one role moves at a time, the layers are graded (every play
ends within their number of moves), nothing lies beyond the positions and no
state is a dead end, every play from the initial state ends in a terminal one,
and the game is one of perfect information, finite: Zermelo's theorem says that
either C forces T (T ⊆ terminal) or the other roles force terminal ∖ T. A
question answered for one side answers the other's: with goals that sum to a
constant, r's "at least V" for r alone is the other's "at most 100 − V".
"""

from __future__ import annotations

import itertools
import time

from .. import atl, ir
from ..api import DeadEnds, PositionSet, until_layered
from ..errors import LimitExceeded
from ..limits import Limits
from ..model import Model
from .engine import GdlEngine
from .game import GdlGame

__all__ = ["coalitions", "dead_ends", "forced_formula", "forced_values", "refine_by_invariant"]


def coalitions(roles) -> list[tuple]:
    """The non-empty coalitions of ``roles``, by size then in role order.

    >>> coalitions(("a", "b"))
    [('a',), ('b',), ('a', 'b')]
    """
    return [c for k in range(1, len(roles) + 1) for c in itertools.combinations(roles, k)]


def _ref(model: Model, name: str, *args: int) -> atl.Ref:
    return atl.Ref(name, tuple(ir.Const(a) for a in args), None, model.definitions[name])


def _gdl_game(model: Model) -> GdlGame:
    """The game of ``model``, a GDL one (what this module's callers pass)."""
    game = model.game
    assert isinstance(game, GdlGame), game
    return game


def forced_formula(model: Model, coalition, role, values) -> atl.Formula:
    """⟨⟨C⟩⟩ (¬terminal ∧ ¬dead_end) U (terminal ∧ ⋁_{V ∈ values} goal(r, V)), built as
    objects (what :func:`forced_values` decides, for a query of your own)."""
    ids = _gdl_game(model).names.role_id
    terminal = _ref(model, "terminal")
    going_on = atl.BoolOp("and", atl.Not(terminal), atl.Not(_ref(model, "dead_end")))
    goals = [_ref(model, "goal", ids[role], v) for v in values]
    reached: atl.Formula = goals[0]
    for g in goals[1:]:
        reached = atl.BoolOp("or", reached, g)
    return atl.Until(
        atl.CoalitionLit(tuple(ids[r] for r in coalition)),
        going_on,
        atl.BoolOp("and", terminal, reached),
    )


class _Forcing:
    """Which coalitions force which targets from ``init`` on one engine (the until of
    the module docstring), remembering the answers: by monotony in C, a coalition
    forces what one of its subsets forces, and a subset of a coalition that does not
    force a target does not either, so those fixpoints are skipped."""

    def __init__(self, model: Model, engine: GdlEngine):
        self.model, self.engine = model, engine
        self.game = _gdl_game(model)
        ev = atl.Evaluator(engine, model.definitions)
        initial = ev(_ref(model, "initial")).tuples()
        if len(initial) != 1:
            raise AssertionError(initial)
        self.start = initial[0]
        self.terminal = engine.atom_set(("terminal", ()))
        frontier = engine.frontier
        dead = dead_ends(model, engine)
        self.stay = engine.positions() - self.terminal - frontier - dead
        self.beyond = frontier - self.terminal
        self.goal_atoms: dict = {}
        for atom in self.game.program.rules:  # the value as written: (goal r 050) is 50
            if atom[0] == "goal":
                self.goal_atoms.setdefault((atom[1][0], int(atom[1][1])), []).append(atom)
        reach = engine.reach
        self.reach = reach if reach is not None and reach.graded else None
        # every play ends in a terminal state, one role moving at a time: determined
        self.determined = (
            engine.explored
            and not engine.concurrent
            and self.reach is not None
            and frontier.is_empty()
            and dead.is_empty()
        )
        # [(kind, target, {coalition: forced?})]: keyed by the target set itself, so
        # that two entries asking the same (terminal ∧ goal(r, ·) ≥ 0 is every
        # terminal, for each r) share one answer, and monotony in C
        self.known: list = []
        self._at_least: dict = {}

    def at_least(self, role) -> list:
        """[G_i]: the terminal states where ``role`` gets at least its i-th goal value
        (built once per role: every coalition asks for them)."""
        hit = self._at_least.get(role)
        if hit is None:
            hit = self._at_least[role] = self._build_at_least(role)
        return hit

    def _build_at_least(self, role) -> list:
        engine = self.engine
        values = self.game.program.goals[role]
        out, acc = [], engine.empty()
        for v in reversed(values):
            for atom in self.goal_atoms[(role, v)]:
                acc = acc | engine.atom_set(atom, within=self.terminal)
            out.append(acc)
        out.reverse()
        return out

    def seen(self, kind: str, target) -> dict:
        """{coalition: forced?} of the questions C ⊨ ⟨⟨C⟩⟩ stay U ``target`` answered
        (``kind`` tells the bounds and the exact question apart)."""
        for k, t, seen in self.known:
            if k == kind and t == target:
                return seen
        seen = {}
        self.known.append((kind, target, seen))
        return seen

    def forces(self, coalition, target, kind) -> bool:
        seen = self.seen(kind, target)
        C = frozenset(coalition)
        for other, ok in seen.items():
            if (ok and other <= C) or (not ok and C <= other):
                return ok
        ids = self.game.names.role_id
        J = {ids[r] for r in coalition}
        engine = self.engine
        if len(J) == len(ids) and engine.explored:
            seen[C] = ok = not target.is_empty()  # the grand coalition: module docstring
            return ok
        if self.determined:  # the other roles forcing the other terminal states
            rest = frozenset(ids) - C
            for other, ok in self.seen(kind, self.terminal - target).items():
                if (ok and other <= rest) or (not ok and rest <= other):
                    seen[C] = not ok
                    return not ok
        # every state of ``stay`` has a successor: the convention does not matter
        if self.reach is not None:
            won = until_layered(
                engine, J, self.stay, target, self.reach, dead_ends=DeadEnds.VACUOUS
            )
        else:
            won = engine.until(J, self.stay, target, dead_ends=DeadEnds.VACUOUS)
        seen[C] = ok = self.start in won.result
        return ok


def _largest(ok, hi: int) -> int | None:
    """The largest i in 0..hi with ``ok(i)``, None if none, by bisection: ``ok`` is
    monotone (forcing G_{i+1} ⊆ G_i forces G_i), so a game with 101 goal values
    (gt_prisoner) costs 7 fixpoints per entry, not up to 101.

    >>> _largest(lambda i: i <= 6, 100), _largest(lambda i: False, 3)
    (6, None)
    """
    lo, best = 0, None
    while lo <= hi:
        mid = (lo + hi) // 2
        if ok(mid):
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    return best


def forced_values(model: Model, engine: GdlEngine) -> list[dict]:
    """``[{"coalition": [...], "role": r, "value": V, "lower": L, "upper": U}]`` for every
    coalition and role, computed by ``engine`` (a GDL engine: ``terminal`` and the goals
    are its ``atom_set``, evaluated on its positions; see the module docstring): ``value``
    is the forced value when the bounds meet (always, without a frontier), else
    None, like a value nothing reaches; ``decided`` tells them apart."""
    prog = _gdl_game(model).program
    f = _Forcing(model, engine)
    out = []
    for coalition in coalitions(prog.roles):
        for r in prog.roles:
            values = prog.goals[r]
            at_least = f.at_least(r)
            upper = lower = None
            i = _largest(
                lambda i: f.forces(coalition, at_least[i] | f.beyond, "upper"), len(values) - 1
            )
            if i is not None:
                upper = values[i]
                if f.beyond.is_empty():
                    lower = upper
                else:
                    k = _largest(lambda i: f.forces(coalition, at_least[i], "lower"), i)
                    lower = None if k is None else values[k]
            out.append(
                {
                    "coalition": list(coalition),
                    "role": r,
                    "value": upper if lower == upper else None,
                    "lower": lower,
                    "upper": upper,
                    "decided": lower == upper,
                }
            )
    return out


def refine_by_invariant(
    model: Model, table: list[dict], engine: GdlEngine, budget: float | None = None
) -> list[dict]:
    """``table`` (from :func:`forced_values` with a frontier) with each undecided entry
    decided on ``engine``, a GDL symbolic engine whose domain is an inductive
    invariant (:mod:`~.invariant`): there the until is exact at ``init``, so the
    value is the largest V_i in (lower, upper] that C forces, else ``lower``. Each
    entry gets ``by``: ``"bounds"`` (decided by the bounds), ``"invariant"`` (decided
    here) or ``"over budget"`` (not decided within ``budget`` seconds, or within the
    engine's own time limit if sooner: it keeps its bounds, the upper one lowered to
    the values found not forced before the budget ran out); an entry tried here also
    gets ``seconds``, the time it took.

    The entries are taken by coalition size, and an entry costs nothing when
    monotony in C decides it from those already solved, or when the same question
    (coalition and target set) already ran out of budget."""
    prog = _gdl_game(model).program
    f = _Forcing(model, engine)
    outer = engine.limits
    out = []
    gave_up: list = []  # [(coalition, target)]: the questions that ran out of budget
    for entry in table:
        entry = dict(entry)
        out.append(entry)
        if entry["decided"]:
            entry["by"] = "bounds"
            continue
        r, coalition = entry["role"], entry["coalition"]
        values = prog.goals[r]
        low = entry["lower"]
        tried = [
            i for i, v in enumerate(values) if (low is None or v > low) and v <= entry["upper"]
        ]
        left = None if outer.deadline is None else max(1e-3, outer.deadline - time.monotonic())
        cap = min((x for x in (budget, left) if x is not None), default=None)
        engine.limits = Limits(timeout=cap, max_memory=outer.max_memory, progress=outer.progress)
        t0, asked = time.monotonic(), None
        try:
            with engine.limits.stage(f"{'{' + ', '.join(coalition) + '}'} forcing {r}"):
                at_least = f.at_least(r)
                value = low
                for n, i in enumerate(reversed(tried)):
                    C, target = asked = (frozenset(coalition), at_least[i])
                    if any(c == C and t == target for c, t in gave_up):
                        raise LimitExceeded("this question already ran out of budget")
                    if f.forces(coalition, target, "exact"):
                        value = values[i]
                        break
                    # not forced: the upper bound comes down to the next value tried
                    entry["upper"] = low if n + 1 == len(tried) else values[tried[-2 - n]]
        except LimitExceeded:
            if outer.deadline is not None and time.monotonic() > outer.deadline:
                raise  # the run's own limit, not the entry's budget (finally restores it)
            if asked is not None:
                gave_up.append(asked)
            entry["by"] = "over budget"
            entry["decided"] = entry["lower"] == entry["upper"]
            continue
        finally:
            engine.limits = outer
            entry["seconds"] = round(time.monotonic() - t0, 3)
        entry.update(value=value, lower=value, upper=value, decided=True, by="invariant")
    return out


def dead_ends(model: Model, engine: GdlEngine) -> PositionSet:
    """The expanded reachable non-terminal states without a successor: a role has no
    legal move there (see :mod:`symbolic.gdl.turns`); ``model`` is unused (kept for
    the callers' symmetry with :func:`forced_values`)."""
    return engine.deadlocks() - engine.atom_set(("terminal", ())) - engine.frontier

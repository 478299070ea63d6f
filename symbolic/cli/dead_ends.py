"""Whether dead ends decide an answer of ``symbolic check`` (the note under its count).

A dead end is a position where the player to move (on a concurrent game: some player)
has no move. ATL's strategic operators read it by a convention (:class:`symbolic.api.DeadEnds`):
with either one a coalition stuck at its own turn cannot make the next step, so
⟨⟨J⟩⟩○φ and ⟨⟨J⟩⟩□φ are false there; a stuck opponent counts as beaten (vacuous: ⟨⟨J⟩⟩○φ
true whatever φ) or not (strict). To see whether that reading decides an answer, the
query is evaluated once more with every dead end read as the end of the play, the
position kept for ever (the usual completion of a structure with deadlocks by self-loops):

    ⟨⟨J⟩⟩○φ   →  (¬D ∧ ⟨⟨J⟩⟩○φ) ∨ (D ∧ φ)
    ⟨⟨J⟩⟩σ U τ →  ⟨⟨J⟩⟩ (σ ∧ ¬D) U τ
    ⟨⟨J⟩⟩f R g →  ⟨⟨J⟩⟩ (f ∨ D) R g

(D the dead ends; at a position that is not a dead end nothing changes, and at a dead
end the three become φ, τ and g, as on a self-loop). ⟨⟨J⟩⟩○⊤ and ⟨⟨J⟩⟩○⊥ stay as
written: they ask about dead ends (⟨⟨J⟩⟩○⊥ holds exactly where an opponent is stuck,
the normal-play idiom of ENS 2005 and the shipped models), so dead ends deciding them
is what they say. Where the two answers differ, a dead end decides the answer
unasked: :func:`dead_end_note` says so in one line. The second
evaluation takes the path of the first (plain, or layered from the same anchor), and
is skipped when the game has no dead end or the formula no strategic operator, and when
:func:`unchanged` shows without a fixpoint that nothing changes (the normal-play idiom
``<<{p}>> <> (turn(players \\ {p}) and <<{p}>> X false)``: its target holds at every
dead end where an opponent is stuck).

>>> from symbolic.model import load_model, parse_formula
>>> from symbolic.engines import make_engine
>>> m = load_model("tictactoe")
>>> E = make_engine(m.game, "explicit")
>>> q = [("empty and <<2>> [] not win(1)", parse_formula("empty and <<2>> [] not win(1)", m))]
>>> a = evaluate_queries(m.definitions, q, E)[0]
>>> print(dead_end_note(m, q[0][1], E, a))
  note: dead ends decide this answer at 1 position(s), e.g. c[1]=0, c[2]=0, c[3]=0, c[4]=0, c[5]=0, c[6]=0, c[7]=0, c[8]=0, c[9]=0: out of the answer; in if a player without a move kept its position
"""

from __future__ import annotations

from .. import atl
from ..analysis.layered import Answer, LayeredEvaluator, anchor_of, evaluate_queries, initial_set
from ..api import DeadEnds, PositionSet, graded_layers
from .common import position_text

__all__ = ["dead_end_note", "evaluate_queries", "strategic", "unchanged"]

#: the name of the dead ends among the evaluators' sets (not a name a model can declare)
DEAD = "@dead ends"
_DEAD_REF = atl.Ref(DEAD)


def _any_node(f: atl.Formula, definitions, hit) -> bool:
    """True when ``hit(g)`` holds at some node g of ``f``, named formulas expanded
    (each once)."""
    seen: set = set()

    def walk(g) -> bool:
        if hit(g):
            return True
        if isinstance(g, atl.Ref) and g.name in definitions and g.name not in seen:
            seen.add(g.name)
            if walk(definitions[g.name].body):
                return True
        return any(walk(c) for c in atl.formula_children(g))

    return walk(f)


def strategic(f: atl.Formula, definitions) -> bool:
    """True when ``f`` (named formulas expanded) has U, R or ⟨⟨J⟩⟩○φ with φ not a
    constant: a formula whose answer a dead end may decide unasked."""
    return _any_node(
        f,
        definitions,
        lambda g: (
            isinstance(g, (atl.Until, atl.Release))
            or (isinstance(g, atl.Next) and not isinstance(g.arg, atl.Truth))
        ),
    )


class _KeptDeadEnds(atl.Evaluator):
    """The rewriting of the module docstring, in front of an evaluator's own rules
    (the plain :class:`symbolic.atl.Evaluator` or a layered one)."""

    def _eval(self, f: atl.Formula, env: dict) -> PositionSet:
        if isinstance(f, atl.Next) and not isinstance(f.arg, atl.Truth):
            dead = self.eval(_DEAD_REF, env)
            return (super()._eval(f, env) - dead) | (dead & self.eval(f.arg, env))
        if isinstance(f, atl.Until):
            f = atl.Until(
                f.coalition, atl.BoolOp("and", f.left, atl.Not(_DEAD_REF)), f.right, f.span
            )
        elif isinstance(f, atl.Release):
            f = atl.Release(f.coalition, atl.BoolOp("or", f.left, _DEAD_REF), f.right, f.span)
        return super()._eval(f, env)


class _Plain(_KeptDeadEnds, atl.Evaluator):
    pass


class _Deep(Exception):
    """A strategic operator over another one: :class:`_Probe` cannot decide."""


class _Probe(atl.Evaluator):
    """Decides without any fixpoint, when it can, that the kept reading changes nothing:
    every strategic operator of the formula has operands without one (⟨⟨J⟩⟩○⊤/⊥ apart)
    and takes at every dead end the value it takes there in the kept reading (then the
    fixpoints coincide everywhere: elsewhere pre is the same). At a dead end c, with
    O = the dead ends where an opponent of J is to move under the vacuous convention (∅
    under the strict one), the operators give: ○φ: c ∈ O (kept: φ); σ U τ: τ ∨ (σ ∧ c ∈ O)
    (kept: τ); f R g: g ∧ (f ∨ c ∈ O) (kept: g). Raises :class:`_Deep` when it cannot
    decide; returns False as soon as an operator differs at a dead end. The value it
    gives an operator is a placeholder: only the verdict counts."""

    def __init__(self, engine, definitions, dead: PositionSet, dead_ends: DeadEnds):
        super().__init__(engine, definitions, dead_ends=dead_ends)
        self.dead, self.same = dead, True

    def _eval(self, f: atl.Formula, env: dict) -> PositionSet:
        if isinstance(f, atl.Reach) or (isinstance(f, atl.Next) and isinstance(f.arg, atl.Truth)):
            return super()._eval(f, env)
        if not isinstance(f, (atl.Next, atl.Until, atl.Release)):
            return super()._eval(f, env)
        if any(
            strategic(c, self.definitions) or _has_reach(c, self.definitions)
            for c in atl.formula_children(f)
        ):
            raise _Deep
        d = self.dead
        o = (
            d - self.engine.turn_set(self._J(f.coalition, env))
            if self.dead_ends is DeadEnds.VACUOUS
            else self.engine.empty()
        )
        if isinstance(f, atl.Next):
            orig, kept = o, d & self.eval(f.arg, env)
        elif isinstance(f, atl.Until):
            tau = d & self.eval(f.right, env)
            orig, kept = tau | (o & self.eval(f.left, env)), tau
        else:
            g = d & self.eval(f.right, env)
            orig, kept = g & (self.eval(f.left, env) | o), g
        self.same = self.same and orig == kept
        return self.engine.empty()


def _has_reach(f: atl.Formula, definitions) -> bool:
    """True when ``f`` (named formulas expanded) has reach(·), a fixpoint of its own."""
    return _any_node(f, definitions, lambda g: isinstance(g, atl.Reach))


def unchanged(model, f: atl.Formula, engine, dead: PositionSet, dead_ends: DeadEnds) -> bool:
    """True when :class:`_Probe` shows, without a fixpoint, that the kept reading of ``f``
    is its answer (False: it cannot tell, or it differs)."""
    if engine.concurrent:
        return False
    probe = _Probe(engine, model.definitions, dead, dead_ends)
    try:
        probe(f)
    except _Deep:
        return False
    return probe.same


class _Layered(_KeptDeadEnds, LayeredEvaluator):
    """The kept reading over graded layers; reach(ψ), which looks backward over every
    position, evaluates ψ in the kept reading too."""

    def __init__(self, engine, reach, definitions, sets, dead_ends: DeadEnds):
        super().__init__(engine, reach, definitions, sets, dead_ends)
        self._plain = _Plain(engine, definitions, sets, dead_ends)


def _kept(
    model,
    f: atl.Formula,
    engine,
    answer: Answer,
    dead: PositionSet,
    dead_ends: DeadEnds,
    layers=graded_layers,
) -> PositionSet:
    """The answer of ``f`` with the dead ends kept, computed as ``answer`` was (its
    graded layers by ``layers``: a cluster's when the answer was computed on one)."""
    sets = {DEAD: dead}
    how = answer.how.kind if answer.how else None
    if how is None:
        return _Plain(engine, model.definitions, sets, dead_ends)(f)
    # ``answer`` was computed over these layers, anchored or from ``initial``: they are graded
    if how == "anchored":
        anchor = anchor_of(f, model.definitions)
        assert anchor is not None
        s, phi = anchor
        source = atl.Evaluator(engine, model.definitions, dead_ends=dead_ends)(s)
        reach = layers(engine, source)
        assert reach is not None
        return source & _Layered(engine, reach, model.definitions, sets, dead_ends)(phi)
    reach = layers(engine, initial_set(engine, model.definitions))
    assert reach is not None
    return _Layered(engine, reach, model.definitions, sets, dead_ends)(f)


def dead_end_note(
    model,
    f: atl.Formula,
    engine,
    answer: Answer,
    dead_ends: DeadEnds = DeadEnds.VACUOUS,
    layers=graded_layers,
) -> str | None:
    """The line ``symbolic check`` prints when dead ends decide ``answer`` (the module
    docstring), else None; ``layers`` computes graded layers as for ``answer``."""
    if not strategic(f, model.definitions):
        return None
    dead = engine.deadlocks()
    if dead.is_empty() or unchanged(model, f, engine, dead, dead_ends):
        return None
    kept = _kept(model, f, engine, answer, dead, dead_ends, layers)
    differ = (answer.positions - kept) | (kept - answer.positions)
    if differ.is_empty():
        return None
    w = differ.first()
    now, then = ("in", "out") if w in answer.positions else ("out of", "in")
    return (
        f"  note: dead ends decide this answer at {differ.count()} position(s), e.g. "
        f"{position_text(model.game.space, w)}: {now} the answer; "
        f"{then.split()[0]} if a player without a move kept its position"
    )

"""An inductive invariant of a GDL game: a set of states to solve it on without its
reachable states.

Why it is enough: the truth of an ATL formula at a state depends only on the states
reachable from it, so the fixpoints may be computed over any set D that holds
``init`` and is closed under the moves (post(D) ⊆ D): at ``init`` (and at every
reachable state) they take the same value as over the reachable states R ⊆ D. D is
found without exploring, Houdini-style (Flanagan & Leino, *Houdini, an annotation
assistant for ESC/Java*, FME 2001): start from the conjunction of every candidate
that holds at ``init``, drop the candidates that a move breaks from a state of the
conjunction, repeat until none is broken; what is left is the largest inductive
conjunction of candidates. The candidates, from the fluents alone:

- each fluent keeps its initial value (``(cell 1 4 red)`` stays true: a spawn cell),
  except the false fluents of a group with one true fluent at ``init`` (a counter:
  "(step 5) stays false" would only be broken after "(step 4) stays false", one
  Houdini round per value);
- *at most one* fluent of each group, a group being the fluents of one relation that
  agree on every argument but one (``(cell 3 3 ·)``: one piece per cell;
  ``(control ·)``, ``(step ·)``), and *at least one* when ``init`` has one.

Implications between groups, ``(step 4)`` → ``(control red)``, are not candidates:
the candidates g → h for every h of a value g not reached yet contradict each other,
and Houdini would reach one more value per round (one round per step of the game:
far too slow on ``3pttc.kif``). A forward simulation finds them instead, one image per step
(:func:`_layers`): the fluents fixed in every state after k moves, from init, with
D as the rest.

A *counter* is a group with exactly one true fluent, a different one fixed at each
step of that simulation, along a chain that ends (``(step 1)``, ``(step 2)``, ...):
it grades D into layers D_k = D ∧ g_k (a layered solution applies).

>>> from symbolic.model import load_model
>>> from symbolic.gdl.symbolic import GdlSymbolicGame
>>> m = load_model("symbolic/models/gdl/nim1.kif")
>>> inv = infer_invariant(GdlSymbolicGame(m.game, explore=False))
>>> inv.counter is None, "at most one (control ·)" in inv.kept
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..bdd.engine import BddSet
from ..errors import QueryError
from .ground import term_text
from .within import Within

__all__ = ["Invariant", "infer_invariant"]


@dataclass(frozen=True)
class Invariant:
    """An inductive set of states: ``node`` (a BDD of the engine's manager), the
    candidates ``kept`` (readable text), the ``counter`` grading it (the fluents
    of its chain of values from ``init``, in order) or None, ``rounds`` (the
    Houdini iterations: images computed) and ``fixed``: the fluents fixed at each
    step of the forward simulation (:func:`_layers`), readable."""

    node: object
    kept: tuple[str, ...]
    counter: tuple | None
    rounds: int
    fixed: tuple[str, ...]


def _groups(fluents) -> dict:
    """{(relation, position, other arguments): [fluents]} with two fluents or more."""
    out: dict = {}
    for f in fluents:
        if not isinstance(f, tuple) or len(f) < 2:
            continue
        for i in range(1, len(f)):
            out.setdefault((f[0], i, f[1:i] + f[i + 1 :]), []).append(f)
    return {k: v for k, v in out.items() if len(v) >= 2}


def _group_text(key) -> str:
    rel, i, rest = key
    args = list(rest)
    args.insert(i - 1, "·")
    return "(" + " ".join([rel] + [term_text(a) for a in args]) + ")"


def infer_invariant(engine) -> Invariant:
    """The largest inductive conjunction of the candidates (module docstring) over
    ``engine``'s bits (a :class:`~.symbolic.GdlSymbolicGame` made with
    ``explore=False``); a QueryError when it holds a non-terminal state where
    several roles have a choice (the engines need turn-based states)."""
    m, rules = engine.manager, engine.rules
    prog = engine.game.program
    cur = rules.cur
    init = prog.init
    cands: dict = {}  # text -> BDD
    groups = _groups(prog.fluents)
    # a fluent of a group with one true fluent at init (a counter, the control) is left
    # to the group's candidates: "(step 5) stays false" would be broken only once
    # (step 4) is, and Houdini would unroll the counter one round per value
    counted = {f for fs in groups.values() if sum(f in init for f in fs) == 1 for f in fs}
    for f in prog.fluents:
        if f not in counted or f in init:
            cands[f"{term_text(f)} stays {'true' if f in init else 'false'}"] = (
                cur[f] if f in init else m.not_(cur[f])
            )
    exactly_one = []
    for key, fs in groups.items():
        text = _group_text(key)
        at_most = m.conj(
            m.not_(m.and_(cur[a], cur[b])) for i, a in enumerate(fs) for b in fs[i + 1 :]
        )
        on = [f for f in fs if f in init]
        if len(on) <= 1:
            cands[f"at most one {text}"] = at_most
        if len(on) == 1:
            cands[f"at least one {text}"] = m.disj(cur[f] for f in fs)
            exactly_one.append(fs)
    start = engine.initial().node
    cands = {t: u for t, u in cands.items() if m.is_false(m.diff(start, u))}
    rounds = 0
    with engine.limits.stage("inferring an inductive invariant"):
        while True:
            rounds += 1
            engine.limits.check(f"round {rounds}, {len(cands)} candidates")
            d = m.conj(cands.values())
            _turn_based(engine, d)
            post = engine.image(BddSet._make(engine, d)).node
            if m.is_false(m.diff(post, d)):
                break  # one test for all: post(D) ⊆ D
            broken = [t for t, u in cands.items() if not m.is_false(m.diff(post, u))]
            if not broken:
                break
            for t in broken:
                del cands[t]
    # room for the longest counter there may be
    cap = max([_MAX_LAYERS] + [len(fs) + 1 for fs in exactly_one])
    node, counter, fixed = _layers(engine, d, exactly_one, cap)
    return Invariant(node, tuple(cands), counter, rounds, fixed)


def _turn_based(engine, d) -> None:
    m, rules = engine.manager, engine.rules
    inside = Within(rules, d)
    _, bad, _ = rules.turns(inside.not_terminal(), inside)
    if not m.is_false(bad):
        pos = BddSet._make(engine, bad).first()
        assert pos is not None  # bad is not empty
        state = " ".join(term_text(f) for f, v in zip(engine.game.program.fluents, pos) if v)
        raise QueryError(
            "no turn-based inductive invariant: the candidates left hold a state "
            f"where several roles have a choice, {{{state}}}, which may not be "
            "reachable; solve from the reachable states instead"
        )


def _layers(engine, d, exactly_one, cap: int) -> tuple:
    """(D', the counter's chain or None, the facts found): D refined by a forward
    simulation of the fluents fixed at each step. From L_0 = {init},

        C_{k+1} = the literals (f or ¬f) true in every state of post(D ∧ L_k),
        L_{k+1} = the cube of C_{k+1},

    until post(D ∧ L_k) is empty or L_{k+1} is some earlier L_j (at most ``cap``
    steps, else D is kept as it is). Then D' = D ∧ (L_0 ∨ L_1 ∨ …) holds
    init and is closed, post(D ∧ L_k) ⊆ D ∧ L_{k+1}: one image per step, where
    Houdini would need one round per value for "(step 4) → (control red)". A
    *counter* is an exactly-one group with one fluent true in each L_k, a different one
    each time, along a chain that ends (post(D ∧ L_n) = ∅): its values are the layers.
    """
    m, cur = engine.manager, engine.rules.cur
    prog = engine.game.program
    fixed = {f: f in prog.init for f in prog.fluents}
    seen: list[dict] = []
    ends = False  # post(D ∧ L_n) = ∅ rather than a cycle back to some L_j
    while fixed not in seen:
        if len(seen) == cap:
            return d, None, ()
        seen.append(fixed)
        engine.limits.check(f"the fluents fixed after {len(seen) - 1} moves")
        post = engine.image(BddSet._make(engine, m.and_(d, _cube(m, cur, fixed)))).node
        if m.is_false(post):
            ends = True
            break
        fixed = {}
        for f in prog.fluents:
            if m.is_false(m.and_(post, cur[f])):
                fixed[f] = False
            elif m.is_false(m.diff(post, cur[f])):
                fixed[f] = True
    node = m.and_(d, m.disj(_cube(m, cur, c) for c in seen))
    chain = None
    for fs in exactly_one if ends else ():
        on = [next((f for f in fs if c.get(f)), None) for c in seen]
        if None not in on and len(set(on)) == len(on):
            chain = tuple(on)
            break
    facts = tuple(_fact_text(c, chain[k] if chain else None, k) for k, c in enumerate(seen))
    return node, chain, facts


#: the most steps of the forward simulation of :func:`_layers` (more for a longer counter)
_MAX_LAYERS = 256


def _cube(m, cur, fixed: dict):
    return m.conj(cur[f] if v else m.not_(cur[f]) for f, v in fixed.items())


def _fact_text(fixed: dict, counter, k: int) -> str:
    on = [term_text(f) for f, v in fixed.items() if v and f != counter]
    off = sum(1 for v in fixed.values() if not v)
    head = term_text(counter) if counter is not None else f"after {k} moves"
    return f"{head} → {' '.join(on) or 'nothing true'}, {off} false"

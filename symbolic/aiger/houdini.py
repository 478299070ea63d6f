"""A controlled invariant guessed from the initial state's literals (Houdini, for games).

A set I of latch valuations that contains the initial state and that the controller can
keep, I ⊆ ∀u ∃c. ¬err ∧ I(next), lies inside the winning region W (W is the greatest such
set), so it proves the circuit realizable without computing W. Some realizable circuits
need 2ⁿ iterations of the backward fixpoint, one latch valuation removed at each (the
counters of the toy examples, cntN, and the stayN files: an n-bit counter the environment
advances), while their invariant is a few literals of the initial state (the counter's top
bit stays 0; the flag ``bad`` stays 0).

The guess is Flanagan and Leino's Houdini (FME 2001) on the initial state's literals: each
literal l (latch k at its reset value) has P_l = ∀u ∃c. ¬err ∧ l(next), the states from
which the controller can keep l for one step; the candidate is the conjunction of the
literals left (and the fixpoint's current iterate Z, which contains W), and each round drops
every literal whose P_l does not contain the candidate, until none is dropped (at most one
round per literal). The candidate is then checked as a whole, one controllable predecessor:
the literals were kept one at a time, possibly by different choices of the controller.

>>> from symbolic.bdd.managers import make_manager
>>> m = make_manager("autoref")
>>> m.declare(["x", "u", "c"], "doc")
>>> # x' = x ∨ (u ∧ ¬c), err = x: the controller answers u with c
>>> nexts = {"x": m.or_(m.var("x"), m.and_(m.var("u"), m.not_(m.var("c"))))}
>>> from symbolic.limits import Limits
>>> safe = m.not_(m.var("x"))
>>> inv, rounds = initial_invariant(m, safe, nexts, ["x"], [0], ["c"], ["u"], m.true, Limits())
>>> inv == m.not_(m.var("x")), rounds
(True, 1)
"""

from __future__ import annotations

from typing import Sequence

__all__ = ["controllable_step", "initial_invariant", "keeping_choices"]


def controllable_step(m, target, safe, ctrl: Sequence[str], env: Sequence[str]):
    """(∃c. safe ∧ target, ∀u ∃c. safe ∧ target): one step of the controllable
    predecessor, ``target`` already over the current variables (Z(next) composed)."""
    good = m.and_exists(target, safe, list(ctrl)) if ctrl else m.and_(target, safe)
    return good, (m.forall(good, list(env)) if env else good)


def keeping_choices(m, inv, nexts: dict, safe, ctrl: Sequence[str], env: Sequence[str]):
    """∃c. safe ∧ I(next): where the controller has a choice that keeps the controlled
    invariant ``inv`` (I) and the error off, over the latches and the environment's
    inputs; a controller is built from it as from W."""
    return controllable_step(m, m.compose(inv, nexts), safe, ctrl, env)[0]


def _cpre(m, target, safe, ctrl: Sequence[str], env: Sequence[str]):
    """∀u ∃c. safe ∧ target (:func:`controllable_step`)."""
    return controllable_step(m, target, safe, ctrl, env)[1]


def initial_invariant(
    m,
    safe,
    nexts: dict,
    latch_vars: Sequence[str],
    reset: Sequence[int],
    ctrl: Sequence[str],
    env: Sequence[str],
    z,
    limits,
) -> tuple[object | None, int]:
    """(a controlled invariant inside ``z`` containing the initial state, or None when
    the guess fails; the rounds of dropping) for the circuit of ``safe`` (¬err) and
    ``nexts`` (latch variable → next-state function; a latch missing there gives no
    literal) in manager ``m``: the module docstring. ``z`` must contain the initial state (an iterate of the fixpoint);
    ``limits`` (:class:`symbolic.limits.Limits`) is checked at each literal and round."""
    lemmas: dict[str, tuple[object, object]] = {}
    for v, r in zip(latch_vars, reset):
        if r not in (0, 1) or v not in nexts:
            continue  # a latch free initially gives no literal; one not built, none here
        limits.check(f"the literal of latch {v}")
        keep = nexts[v] if r else m.not_(nexts[v])
        lemmas[v] = (m.var(v) if r else m.not_(m.var(v)), _cpre(m, keep, safe, ctrl, env))
    rounds = 0
    while True:
        rounds += 1
        limits.check(f"round {rounds} of the invariant's literals")
        candidate = m.conj([lit for lit, _ in lemmas.values()] + [z])
        drop = [v for v, (_, p) in lemmas.items() if not m.is_false(m.diff(candidate, p))]
        if not drop:
            break
        for v in drop:
            del lemmas[v]
    step = _cpre(m, m.compose(candidate, nexts), safe, ctrl, env)
    return (candidate if m.is_false(m.diff(candidate, step)) else None), rounds

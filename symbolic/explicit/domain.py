"""The positions of a space: the value vectors inside the slot ranges where the
invariant holds, in lexicographic order, found slot by slot.

Definition: D = {c ∈ R₀ × … × Rₙ₋₁ | inv(c)}. Filtering the whole product costs
|R₀ × … × Rₙ₋₁| evaluations of inv; here inv is read as its conjuncts (the operands of
its top-level ``and`` and ``forall``, left to right, as evaluation meets them), each
checked as soon as the last slot it reads is filled, so that a false conjunct removes
every vector of that prefix at once. Connect Four's "no disc above an empty cell" leaves
15 of a 3-cell column's 27 fillings: 15⁴ of the 3¹² boards of 4 × 3 are ever completed.

Exactness: every completed vector is still tested by the whole ``inv`` (its value, or
the error it raises, is the answer as before). A conjunct removes a prefix only where it
is false and every conjunct before it is total (cannot raise): there the whole invariant
is false at every completion, never an error. A conjunct whose check raises removes
nothing.

>>> from symbolic.ir import Space, VarDecl, IntType, Var
>>> sp = Space((VarDecl("x", IntType(0, 2)), VarDecl("y", IntType(0, 2))))
>>> positions(sp, (Var("x") <= 1) & (Var("x") <= Var("y")))
[(0, 0), (0, 1), (0, 2), (1, 1), (1, 2)]
"""

from __future__ import annotations

import itertools

from ..errors import SymbolicError
from ..ir import Binary, Expr, Quant, Space
from .interp import compile_expr

__all__ = ["invariant_parts", "positions"]


def invariant_parts(inv: Expr, env: dict | None = None) -> list[tuple[Expr, dict]]:
    """The conjuncts of ``inv`` with their bound names, in evaluation order: the operands
    of ``and`` and the bodies of ``forall`` (one per value of its domain), flattened.

    >>> from symbolic.ir import Var, forall
    >>> [(e.name, env) for e, env in invariant_parts(Var("a") & forall("i", (1, 2), Var("b")))]
    [('a', {}), ('b', {'i': 1}), ('b', {'i': 2})]
    """
    env = {} if env is None else env
    if isinstance(inv, Binary) and inv.op == "and":
        return invariant_parts(inv.left, env) + invariant_parts(inv.right, env)
    if isinstance(inv, Quant) and inv.kind == "forall":
        out: list[tuple[Expr, dict]] = []
        for v in inv.domain:
            out += invariant_parts(inv.body, {**env, inv.var: v})
        return out
    return [(inv, env)]


def positions(space: Space, invariant: Expr, whole=None) -> list[tuple]:
    """The vectors of ``space`` where ``invariant`` holds, in lexicographic order.

    ``whole``: the invariant compiled (``compile_expr(invariant, space).fn``), the test
    of every completed vector; compiled here when not given.
    """
    ranges = [tuple(s.type.values()) for s in space.slots]
    if whole is None:
        whole = compile_expr(invariant, space).fn
    checks: list[list] = [[] for _ in ranges]  # checks[d]: conjuncts whose last slot is d
    for expr, env in invariant_parts(invariant):
        part = compile_expr(expr, space, env)
        if part.reads and not part.folded:
            checks[max(part.reads)].append(part.fn)
        if not part.total:
            break  # a later conjunct's falsity no longer implies the invariant's
    cuts = [d for d in range(len(ranges) - 1) if checks[d]]
    if not cuts:  # nothing to check before the last slot: the product, filtered
        return [c for c in itertools.product(*ranges) if whole(c, None)]
    groups = list(zip([0, *(d + 1 for d in cuts)], [*(d + 1 for d in cuts), len(ranges)]))
    current = [r[0] if r else 0 for r in ranges]
    out: list[tuple] = []

    def fill(g: int) -> None:
        lo, hi = groups[g]
        last = g == len(groups) - 1
        tests = () if last else checks[hi - 1]
        for values in itertools.product(*ranges[lo:hi]):
            current[lo:hi] = values
            if last:
                c = tuple(current)
                if whole(c, None):
                    out.append(c)
            elif _holds(tests, current):
                fill(g + 1)

    fill(0)
    return out


def _holds(tests, current) -> bool:
    """False when a check is false at this prefix; True when all hold or one raises."""
    try:
        return all(t(current, None) for t in tests)
    except SymbolicError:
        return True

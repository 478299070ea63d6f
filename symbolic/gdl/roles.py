"""The role argument of ``legal``, ``goal`` and ``does`` kept to the roles of the game.

GDL rules often leave the role of a ``legal`` or ``goal`` head a variable bound in the
body by something other than ``(role ?r)``: ``(<= (goal ?r 100) (line ?r))`` where
``line`` also holds of the blank mark ``b``, or ``(<= (legal ?r m) (true (cell ?x ?y ?r)))``
where a cell may hold a ``hole``. The logic program then derives ``(goal b 100)`` or
``(legal hole m)``; a game manager never asks for them. Definition (the reading of every
GDL player, and of the test suite's interpreter):

- a ``legal`` or ``goal`` atom whose role argument is not a role is the legal move or goal
  of no role: it is dropped, unless some rule reads it (then it stays a helper atom, true
  where the program derives it);
- only roles play: ``(does x m)`` with ``x`` not a role never holds, so a ground body
  with it positive is dropped, and a negated one is always true (left out of its body).

>>> rules = {("goal", ("b", "100")): {(("pos", ("true", ("line", "b"))),)},
...          ("goal", ("x", "100")): {(("pos", ("true", ("line", "x"))),)},
...          ("next", ("c",)): {(("pos", ("does", ("hole", "m"))),),
...                             (("neg", ("does", ("hole", "m"))),)}}
>>> kept = keep_roles(rules, ("x", "o"))
>>> sorted(kept)
[('goal', ('x', '100')), ('next', ('c',))]
>>> kept[("next", ("c",))]
{()}
"""

from __future__ import annotations

__all__ = ["keep_roles", "ROLE_ARGUMENT"]

#: the relations whose first argument is a role
ROLE_ARGUMENT = ("legal", "goal", "does")


def keep_roles(ground_rules: dict, roles: tuple) -> dict:
    """``ground_rules`` ({ground atom: {body}}) without what a non-role would say or do
    (the definition of the module docstring); a new dict, ``ground_rules`` is not changed."""
    role_set = set(roles)

    def of_role(atom) -> bool:
        return atom[0] not in ROLE_ARGUMENT or (bool(atom[1]) and atom[1][0] in role_set)

    out: dict = {}
    for atom, bodies in ground_rules.items():
        kept = set()
        for body in bodies:
            if any(kind == "pos" and not of_role(a) for kind, a in body if a[0] == "does"):
                continue  # a non-role never plays: this body never holds
            kept.add(tuple(lit for lit in body if lit[1][0] != "does" or of_role(lit[1])))
        if kept:
            out[atom] = kept
    read = {a for bodies in out.values() for body in bodies for _, a in body}
    return {a: b for a, b in out.items() if of_role(a) or a in read}

"""A ground GDL program as a model of the model language (the route of the
arena format, :mod:`symbolic.arena`), so that both engines, the queries and
the named sets work unchanged.

The translation (documented in the README, section "GDL game descriptions"):

- one ``bool`` variable per fluent, in :func:`~.ground.term_key` order,
  named after the fluent (``(cell 1 1 b)`` → ``cell_1_1_b``);
- one player per role, in file order (ids 1, 2, ...), and a constant of the
  role's name holding its id, so ``<<xplayer>>`` is a coalition;
- every ground state-dependent atom (``legal``, ``goal``, ``terminal`` and
  the helper relations) a ``set``: the disjunction of its ground bodies;
- turns: a role is *active* in a state when it has a legal move other than
  ``noop``; the mover is the first active role, or the first role when none is
  (every role then has a single forced move). The engines check, on the
  reachable states, that this reading is exact (see :mod:`symbolic.gdl.turns`);
- one move per role r and possible move m of r: when r is the mover, m is
  legal for r and the state is not terminal, every fluent f takes the value of
  ``next(f)`` with ``does(r, m)`` true, ``does(r, m')`` false for m' ≠ m and
  ``does(r', noop)`` true for every other role r' (their forced move);
- sets ``initial``, ``terminal``, ``goal(ROLE, V)``, ``reachable`` (every
  position: the engines restrict positions to the reachable states), one set
  ``F(ROLE)`` per fluent relation F whose arguments are roles (``control``),
  and one query per role: ``<<r>> (not terminal) U (terminal and goal(r, MAX))``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import ModelError
from ..lang.vocabulary import RESERVED, SOFT_KEYWORDS
from .ground import GroundProgram, atom_text, term_text
from .turns import NOOP

__all__ = ["Translation", "translate"]

_BUILTINS = {"lcg", "len", "min", "max", "sum", "count", "abs", "pow", "int", "tuple",
             "sorted", "range", "xor", "dyck", "players"}


@dataclass(frozen=True)
class Translation:
    """The model text and the names it gives: ``var_of[fluent]``, ``role_id[role]``,
    ``role_name[role]`` (the constant), ``move_of[(role, move)]`` (move name)."""
    text: str
    var_of: dict
    role_id: dict
    role_name: dict
    move_of: dict

    @property
    def move_named(self) -> dict:
        """``{move name: (role, move)}``."""
        return {v: k for k, v in self.move_of.items()}


class _Names:
    def __init__(self):
        self.used = set(RESERVED) | set(SOFT_KEYWORDS) | _BUILTINS

    def take(self, wanted: str) -> str:
        base = re.sub(r"[^0-9A-Za-z_]+", "_", wanted).strip("_") or "x"
        if base[0].isdigit():
            base = "n" + base
        name, i = base, 1
        while name in self.used:
            i += 1
            name = f"{base}_{i}"
        self.used.add(name)
        return name

    def reserve(self, name: str) -> str:
        if name in self.used:
            raise AssertionError(name)
        self.used.add(name)
        return name


def _flat(term) -> str:
    return term_text(term).replace("(", "").replace(")", "").replace(" ", "_")


class _Conj(str):
    """The text of a conjunction, remembering its conjuncts (for absorption)."""
    parts: frozenset = frozenset()


def _and(items):
    out = []
    for x in items:
        if x is False:
            return False
        if x is not True and x not in out:
            out.append(x)
    if not out:
        return True
    if len(out) == 1:
        return out[0]
    c = _Conj("(" + " and ".join(out) + ")")
    c.parts = frozenset(out)
    return c


def _or(items):
    out = []
    for x in items:
        if x is True:
            return True
        if x is not False and x not in out:
            out.append(x)
    # absorption: a or (a and b) is a
    plain = set(out)
    out = [x for x in out if not (isinstance(x, _Conj) and x.parts & plain)]
    if not out:
        return False
    return out[0] if len(out) == 1 else "(" + " or ".join(out) + ")"


def _not(x):
    return (not x) if isinstance(x, bool) else f"not {x}"


def _text(x) -> str:
    return ("true" if x else "false") if isinstance(x, bool) else x


def translate(prog: GroundProgram, name: str, description: str = "") -> Translation:
    """The model text of ``prog`` (see the module docstring)."""
    names = _Names()
    for public in ("initial", "terminal", "goal", "reachable"):
        names.reserve(public)
    role_name = {r: names.take(r) for r in prog.roles}
    role_id = {r: i for i, r in enumerate(prog.roles, 1)}
    var_of = {f: names.take(_flat(f)) for f in prog.fluents}
    rules = prog.rules
    does_dep: dict = {}

    def depends_on_does(atom) -> bool:
        if atom[0] == "does":
            return True
        if atom not in rules:
            return False
        hit = does_dep.get(atom)
        if hit is None:
            hit = any(depends_on_does(lit[1]) for body in rules[atom] for lit in body)
            does_dep[atom] = hit
        return hit

    set_name: dict = {}
    decls: list[str] = []

    def state_atom(atom):
        """The expression of a state atom (declaring its set first)."""
        name_, args = atom
        if name_ == "true":
            return var_of[args[0]]
        if atom not in rules:
            return False  # no ground rule derives it: false in every state
        if atom in set_name:
            return set_name[atom]
        body = _or(_and(literal(lit, None) for lit in b) for b in rules[atom])
        if isinstance(body, bool):
            set_name[atom] = body
            return body
        sname = "terminal" if atom == ("terminal", ()) else names.take(_flat((name_,) + args))
        decls.append(f"set {sname} = {body}")
        set_name[atom] = sname
        return sname

    under_cache: dict = {}

    def literal(lit, ctx):
        kind, atom = lit
        if atom[0] == "does":
            if ctx is None:
                raise AssertionError(lit)
            mover, move = ctx
            r, m = atom[1]
            v = (m == move) if r == mover else (m == NOOP)
        elif ctx is not None and depends_on_does(atom):
            key = (atom, ctx)
            v = under_cache.get(key)
            if v is None:
                v = _or(_and(literal(x, ctx) for x in b) for b in rules[atom])
                under_cache[key] = v
        else:
            v = state_atom(atom)
        return _not(v) if kind == "neg" else v

    for atom in rules:
        if atom[0] in ("legal", "goal", "terminal") and depends_on_does(atom):
            raise ModelError(f"{atom_text(atom)} depends on 'does'")
    terminal = state_atom(("terminal", ()))
    if isinstance(terminal, bool):
        decls.append(f"set terminal = {_text(terminal)}")
    legal = {(r, m): state_atom(("legal", (r, m))) for r in prog.roles for m in prog.moves[r]}
    active, mover = {}, {}
    for r in prog.roles:
        a = _or(legal[(r, m)] for m in prog.moves[r] if m != NOOP)
        active[r] = names.take(f"active_{role_name[r]}")
        decls.append(f"set {active[r]} = {_text(a)}")
    first = prog.roles[0]
    for i, r in enumerate(prog.roles):
        earlier = [_not(active[q]) for q in prog.roles[:i]]
        m = _and(earlier + [active[r]])
        if r == first:
            m = _or([active[r], _and(_not(active[q]) for q in prog.roles)])
        mover[r] = names.take(f"mover_{role_name[r]}")
        decls.append(f"set {mover[r]} = {_text(m)}")
    turn = str(role_id[prog.roles[-1]])
    for r in reversed(prog.roles[:-1]):
        turn = f"if {mover[r]} then {role_id[r]} else {turn}"
    if len(prog.roles) == 1:
        turn = "1"

    move_of = {}
    moves_text = []
    for r in prog.roles:
        for m in prog.moves[r]:
            ctx = (r, m)
            effects = []
            for f in prog.fluents:
                atom = ("next", (f,))
                if atom not in rules:
                    e = False
                elif depends_on_does(atom):
                    e = literal(("pos", atom), ctx)
                else:
                    e = state_atom(atom)
                if e == var_of[f]:
                    continue  # the fluent keeps its value: left to the frame
                e = _text(e)
                effects.append(f"{var_of[f]}' = " + (f"({e})" if e.startswith("not ") else e))
            guard = _and([mover[r], legal[(r, m)], _not(terminal)])
            mname = names.take(f"{role_name[r]}_{_flat(m)}")
            move_of[(r, m)] = mname
            moves_text.append(f"move {mname} when {_text(guard)}\n  then "
                              + (";\n       ".join(effects) if effects else "true"))
    goal_terms = [f"(r = {role_id[r]} and v = {v} and {_text(state_atom(('goal', (r, str(v)))))})"
                  for r in prog.roles for v in prog.goals[r]]
    out = [f'game "{name}"', 'description """' + description.replace('"""', "'''") + '"""',
           "players " + ", ".join(str(role_id[r]) for r in prog.roles)]
    out += [f"const {role_name[r]} = {role_id[r]}" for r in prog.roles]
    out += [f"var {var_of[f]} : bool" for f in prog.fluents]
    out += decls
    out.append(f"turn {turn}")
    out += moves_text
    init = _and(var_of[f] if f in prog.init else _not(var_of[f]) for f in prog.fluents)
    out.append(f"set initial = {_text(init)}")
    out.append("set reachable = true")
    out.append(f"set goal(r, v) = {' or '.join(goal_terms) if goal_terms else 'false'}")
    by_relation: dict = {}
    for f in prog.fluents:
        if isinstance(f, tuple) and len(f) == 2 and f[1] in role_id:
            by_relation.setdefault(f[0], []).append(f)
    for rel, fs in by_relation.items():
        if rel in names.used:
            continue
        names.reserve(rel)
        body = " or ".join(f"(p = {role_id[f[1]]} and {var_of[f]})" for f in fs)
        out.append(f"set {rel}(p) = {body}")
    for r in prog.roles:
        if prog.goals[r]:
            out.append(f"query <<{role_name[r]}>> (not terminal) U "
                       f"(terminal and goal({role_name[r]}, {max(prog.goals[r])}))")
    return Translation("\n".join(out) + "\n", var_of, role_id, role_name, move_of)

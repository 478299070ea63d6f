"""Grounding: the GDL rules instantiated over the terms that can actually occur.

Relations split into *static* ones (no dependency, direct or through other
relations, on ``true`` or ``does``: ``role``, ``init``, ``succ``, ``index``...)
and *dynamic* ones. Static relations are evaluated exactly, stratum by
stratum (negation as failure needs a stratified program). Dynamic ones are
instantiated by a fixpoint over the rule graph, as GDL instantiators do:

    possible_true  ⊇ {f | init(f)} ∪ {f | next(f) possible}
    possible_does  ⊇ {(r, m) | legal(r, m) possible}
    a rule instance is kept when its positive literals are possible
    (static ones true, distinct holding, negated static atoms false)

Negated dynamic literals are kept (they cannot prune an over-approximation).
The result, :class:`GroundProgram`, has the fluents, the roles, each role's
possible moves, and for every ground dynamic atom the bodies that derive it,
each a tuple of literals over ``true``/``does`` atoms and other ground dynamic
atoms (static literals are decided and dropped).

>>> from .kif import parse_kif
>>> from .rules import read_rules
>>> g = ground(read_rules(parse_kif('''(role a) (succ 0 1) (succ 1 2) (init (c 0))
...   (<= (next (c ?y)) (true (c ?x)) (succ ?x ?y)) (<= (legal a noop) (true (c ?x)))
...   (<= terminal (true (c 2)))''')))
>>> g.fluents, g.moves
((('c', '0'), ('c', '1'), ('c', '2')), {'a': ('noop',)})
>>> g.rules[("next", (("c", "1"),))]
((('pos', ('true', (('c', '0'),))),),)
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ..errors import ModelError, Span
from ..limits import current as current_limits
from .join import Facts, builder, fixpoint, table
from .recursion import unroll
from .roles import keep_roles
from .rules import Rule, variables
from .strata import STATE, dynamic_relations, ground_negation, relation_graph, strata

__all__ = ["GroundProgram", "ground", "term_key", "term_text", "atom_text", "term_depth"]

#: how much deeper than the deepest term written in the rules a ground term may be: rules
#: such as ``(<= (succ ?x (f ?x)) (succ ?y ?x))`` derive ever deeper terms (an infinite
#: Herbrand model), refused past this depth instead of grounding forever
MAX_TERM_DEPTH = 12

#: how many ground atoms grounding derives at most (a finite but hopeless program)
MAX_GROUND_ATOMS = 2_000_000


def term_key(t):
    """A sort key for ground terms: numbers numerically, before symbols, then compounds.

    A number (ASCII digits) is ordered by its digits without leading zeros, compared
    by length then text (numerically, with no int(): a constant of 5 000 digits
    is a constant like another), then by its spelling (``007`` before ``7``).

    >>> sorted(["b", "10", "9", ("f", "a"), "a", "09"], key=term_key)
    ['09', '9', '10', 'a', 'b', ('f', 'a')]
    """
    if isinstance(t, str):
        if t.isascii() and t.isdigit():
            digits = t.lstrip("0") or "0"
            return (0, len(digits), digits, t)
        return (1, 0, t, "")
    return (2, 0, "", "", tuple(term_key(x) for x in t))


def term_text(t) -> str:
    """A ground term as KIF: ``(cell 1 1 b)``."""
    return t if isinstance(t, str) else "(" + " ".join(term_text(x) for x in t) + ")"


def atom_text(atom) -> str:
    name, args = atom
    return name if not args else "(" + " ".join([name] + [term_text(a) for a in args]) + ")"


@dataclass(frozen=True)
class GroundProgram:
    """A ground GDL game.

    ``roles`` in file order; ``fluents`` sorted (:func:`term_key`); ``init``
    the initial fluents; ``moves[role]`` the possible moves of each role (sorted);
    ``rules[atom]`` the bodies deriving each ground dynamic atom, ``atom`` being
    ``(relation, args)``; ``goals[role]`` the goal values that occur (ints);
    ``warnings`` the located texts of what is suspicious but legal GDL (a relation
    that a rule reads but nothing defines), for the command line to print.
    """

    roles: tuple
    fluents: tuple
    init: frozenset
    moves: dict
    rules: dict
    goals: dict
    warnings: tuple = ()

    def best_goal_atoms(self, role) -> list:
        """The ground atoms ``(goal role V)`` of ``role``'s best goal value V (as written:
        ``(goal r 100)`` and ``(goal r 0100)`` are both 100); [] when it has none."""
        if not self.goals.get(role):
            return []
        best = max(self.goals[role])
        return [
            a
            for a in self.rules
            if a[0] == "goal"
            and a[1][0] == role
            and isinstance(a[1][1], str)
            and a[1][1].isdigit()
            and int(a[1][1]) == best
        ]


# --------------------------------------------------------------------------- matching


def _ground(t) -> bool:
    """No variable in ``t`` (short-circuits, unlike :func:`variables`)."""
    if t.__class__ is str:
        return t[:1] != "?"
    return all(map(_ground, t))


def term_depth(t) -> int:
    """1 for a constant, 1 + the deepest argument for a compound term.

    >>> term_depth(("f", ("g", "a"), "b"))
    3
    """
    return 1 if isinstance(t, str) else 1 + max(map(term_depth, t[1:]), default=0)


class _Db(Facts):
    """Ground atoms by relation (:class:`~.join.Facts`), with the bounds of grounding."""

    def __init__(self, written: int = 0):
        super().__init__()
        # deeper than any term written in the rules by MAX_TERM_DEPTH levels
        self.max_depth = written + MAX_TERM_DEPTH

    def derive(self, name, args, rule: Rule) -> bool:
        """:meth:`add` for an atom a rule derives, refused (a located ModelError) when its
        terms nest deeper than :data:`MAX_TERM_DEPTH` or there are too many atoms."""
        if args in self.sets.get(name, ()):
            return False
        if any(not isinstance(a, str) and term_depth(a) > self.max_depth for a in args):
            raise ModelError(
                f"this rule builds ever deeper terms: {atom_text((name, args))[:120]}"
                f"... nests more than {self.max_depth} levels (grounding would "
                "not end; GDL needs a finite set of ground atoms)",
                rule.span,
            )
        if self.count >= MAX_GROUND_ATOMS:
            raise ModelError(
                f"grounding derives more than {MAX_GROUND_ATOMS} atoms (the "
                f"last by this rule, for '{name}'): too large to ground",
                rule.span,
            )
        if self.count % 4096 == 0:
            current_limits().check(f"grounding: {self.count} ground atoms")
        return self.add(name, args)


# --------------------------------------------------------------------------- grounding


def _check_shapes(rules: list[Rule], dyn: set) -> None:
    for r in rules:
        name, args = r.head
        if name in ("role", "init") and name in dyn:
            raise ModelError(f"'{name}' must not depend on the state (true/does)", r.span)
        if name in ("legal", "goal", "terminal", "next") or name in dyn:
            for lit in r.body:
                if (
                    lit[0] in ("pos", "neg")
                    and lit[1][0] == "does"
                    and name in ("legal", "goal", "terminal")
                ):
                    raise ModelError(f"'{name}' must not depend on 'does'", r.span)
        want = {"role": 1, "init": 1, "legal": 2, "next": 1, "goal": 2, "terminal": 0}
        if name in want and len(args) != want[name]:
            raise ModelError(f"'{name}' takes {want[name]} argument(s), got {len(args)}", r.span)


def ground(rules: list[Rule], filename: str = "<string>") -> GroundProgram:
    """The ground program of a GDL description (see the module docstring); errors
    about the whole description (no role, no terminal) name ``filename``."""
    whole = Span(filename, 1, 1, "")
    deps = relation_graph(rules)
    dyn = dynamic_relations(deps)
    _check_shapes(rules, dyn)
    if not any(r.head[0] == "role" for r in rules):
        raise ModelError(
            "no (role ...) in the game description" + (" (the file is empty)" if not rules else ""),
            whole,
        )
    warnings = _undefined(rules, deps)
    limits = current_limits()
    limits.check("grounding: the static relations")
    db = _static_db(rules, deps, dyn)
    roles = _ordered_roles(rules, db)
    _check_does_roles(rules, roles)
    dyn_rules = [r for r in rules if r.head[0] in dyn]
    if "terminal" not in deps:
        raise ModelError(
            "no terminal rule: GDL requires one, (<= terminal ...), saying when the game ends",
            whole,
        )
    limits.check("grounding: the atoms possibly true")
    _possible(dyn_rules, db, dyn)
    possible_true = set(db.sets.get("true", ()))
    limits.check("grounding: the rule instances")
    ground_rules = _instances(dyn_rules, db, dyn)
    ground_negation(ground_rules, rules, atom_text)  # stratified atom by atom (majorities)
    fluents = tuple(sorted((a[0] for a in possible_true), key=term_key))
    moves = {
        r: tuple(sorted({a[1] for a in db.sets.get("legal", ()) if a[0] == r}, key=term_key))
        for r in roles
    }
    ground_rules = keep_roles(ground_rules, roles)  # (legal hole m), (goal b 100): no role's
    goals = _goal_values(ground_rules, roles, rules)
    ground_rules = unroll(ground_rules)  # recursion through the state (.recursion)
    _check_acyclic(ground_rules)
    return GroundProgram(
        roles=roles,
        fluents=fluents,
        init=frozenset(a[0] for a in db.sets.get("init", ())),
        moves=moves,
        rules={k: tuple(sorted(v, key=repr)) for k, v in ground_rules.items()},
        goals={r: tuple(sorted(v)) for r, v in goals.items()},
        warnings=warnings,
    )


def _undefined(rules: list[Rule], deps) -> tuple:
    """A located warning per rule reading a relation that no rule or fact defines (a typo
    such as ``playable``): legal GDL, where it is simply false, but rarely meant."""
    out = []
    for r in rules:
        for lit in r.body:
            if lit[0] in ("pos", "neg") and lit[1][0] not in deps and lit[1][0] not in STATE:
                what = (
                    f"relation '{lit[1][0]}' is defined by no rule or fact: it is never "
                    f"true, so this rule for '{r.head[0]}' "
                    + ("never applies" if lit[0] == "pos" else "reads (not ...) as always true")
                )
                text = r.span.render(what, "warning") if r.span is not None else f"warning: {what}"
                if text not in out:
                    out.append(text)
    return tuple(out)


def _static_db(rules: list[Rule], deps, dyn: set) -> _Db:
    """The static relations evaluated exactly, stratum by stratum."""
    static_names = [n for n in deps if n not in dyn]
    level = strata(deps, static_names, rules)
    db = _Db(max((term_depth(t) for r in rules for t in _terms_of(r)), default=1))
    static_rules = [r for r in rules if r.head[0] not in dyn]
    exact = lambda name: name not in dyn  # noqa: E731
    for stratum in sorted(set(level.values())):
        todo = [r for r in static_rules if level[r.head[0]] == stratum]
        for r in todo:  # the facts once, before the rules' fixpoint
            if not r.body:
                if not _ground(r.head[1]):
                    raise ModelError("unsafe fact: variables in a fact", r.span)
                db.derive(r.head[0], r.head[1], r)
        todo = [r for r in todo if r.body]

        def derive(r: Rule, head: tuple) -> None:
            if not _ground(head):
                raise ModelError("unsafe fact: variables in a fact", r.span)
            db.derive(r.head[0], head, r)

        fixpoint(todo, db, exact, derive)
    return db


def _terms_of(rule: Rule):
    """The terms written in a rule (its atoms' arguments)."""
    yield from rule.head[1]
    for lit in rule.body:
        yield from (lit[1][1] if lit[0] in ("pos", "neg") else lit[1:])


def _possible(dyn_rules: list[Rule], db: _Db, dyn: set) -> None:
    """Add to ``db`` every dynamic atom possibly true (the fixpoint of the module
    docstring): ``true`` from ``init`` and ``next``, ``does`` from ``legal``."""
    exact = lambda name: name not in dyn  # noqa: E731
    for f in db.sets.get("init", ()):
        db.add("true", f)

    def derive(r: Rule, head: tuple) -> None:
        if db.derive(r.head[0], head, r):
            if r.head[0] == "next":
                db.add("true", head)
            elif r.head[0] == "legal":
                db.add("does", head)

    fixpoint(dyn_rules, db, exact, derive)


def _instances(dyn_rules: list[Rule], db: _Db, dyn: set) -> dict:
    """{ground dynamic atom: {body}}: each rule instance whose positive literals are
    possible, its static literals decided and dropped."""
    exact = lambda name: name not in dyn  # noqa: E731
    ground_rules: dict = defaultdict(set)
    check = current_limits().check
    text: dict = {}  # repr of each ground literal, once: the same ones recur in many bodies
    for r in dyn_rules:
        check()
        # the join checks the static literals: only the head's and the dynamic
        # literals' variables make the instances different
        dynamic = [lit for lit in r.body if lit[0] in ("pos", "neg") and lit[1][0] in dyn]
        keep = variables(r.head[1]).union(*(variables(lit[1]) for lit in dynamic))
        cols, rows = table(r.body, db, exact, keep)
        head = builder(r.head[1], cols)
        lits = [(lit[0], lit[1][0], builder(lit[1][1], cols)) for lit in dynamic]
        for n, row in enumerate(rows):
            if n % 4096 == 4095:
                check()
            body = []
            for kind, name, build in lits:
                g = (name, build(row))
                if kind == "neg" and not db.has(*g):
                    continue  # never possibly true: the negation always holds
                lit = (kind, g)
                if lit not in text:
                    text[lit] = repr(lit)
                body.append(lit)
            # repr: a total order (terms mix constants and compound terms)
            ground_rules[(r.head[0], head(row))].add(tuple(sorted(set(body), key=text.__getitem__)))
    return ground_rules


def _rule_span(rules, name: str, *args):
    """The span of the first rule defining ``name`` whose head's first arguments match
    ``args`` (each equal, or a variable), preferring a rule where they are all equal
    (ground rules keep no span: this locates a message about one of them)."""

    def var(t) -> bool:
        return isinstance(t, str) and t.startswith("?")

    heads = [r for r in rules if r.head[0] == name and len(r.head[1]) >= len(args)]
    for exact in (True, False):
        for r in heads:
            if all(a == b or (not exact and var(a)) for a, b in zip(r.head[1], args)):
                return r.span
    return None


#: goal values are 0..100 in GDL; a longer digit string is not a goal value (and
#: int() of thousands of digits is refused by Python itself)
_GOAL_DIGITS = 9


def _goal_values(ground_rules: dict, roles, rules=()) -> dict:
    """{role: the goal values (ints) that occur}; a ModelError, located at the rule, for
    a role's goal value that is not a number 0..100."""
    goals: dict = {r: set() for r in roles}
    for name, args in ground_rules:
        if name == "goal":
            role, value = args
            if role not in goals:
                continue  # no role's goal, a helper atom a rule reads (see .roles)
            if not (
                isinstance(value, str)
                and value.isdigit()
                and len(value) <= _GOAL_DIGITS
                and int(value) <= 100
            ):
                shown = term_text(value)
                shown = shown if len(shown) <= 40 else f"{shown[:20]}... ({len(shown)} characters)"
                raise ModelError(
                    f"goal value {shown} of {term_text(role)}: expected a number "
                    "0..100 (GDL's goal values)",
                    _rule_span(rules, "goal", role, value),
                )
            goals[role].add(int(value))
    return goals


def _is_number(t) -> bool:
    """``42``, ``-1``, ``2.5``: a KIF number (a constant, but not a symbol)."""
    return isinstance(t, str) and t.lstrip("+-")[:1].isdigit()


def _ordered_roles(rules, db) -> tuple:
    roles = []
    for r in rules:
        if r.head[0] == "role" and not r.body:
            v = r.head[1][0] if r.head[1] else None
            if v is not None and not isinstance(v, str):
                raise ModelError("a role is a constant, not a compound term", r.span)
            if v not in roles:
                roles.append(v)
    for (v,) in sorted(db.sets.get("role", ()), key=repr):
        if v not in roles:
            roles.append(v)
    if not roles:
        raise ModelError("no (role ...) in the game description")
    for v in roles:
        if not isinstance(v, str) or _is_number(v):
            raise ModelError(
                f"a role is a constant symbol such as (role white), not {term_text(v)}",
                _rule_span(rules, "role", v),
            )
    return tuple(roles)


def _check_does_roles(rules: list[Rule], roles: tuple) -> None:
    """A located ModelError for ``(does R m)`` whose R is a constant but not a role
    (GDL: the first argument of ``does`` is a role)."""
    for r in rules:
        for lit in r.body:
            if lit[0] in ("pos", "neg") and lit[1][0] == "does" and lit[1][1]:
                who = lit[1][1][0]
                if not (isinstance(who, str) and who.startswith("?")) and who not in roles:
                    raise ModelError(
                        f"(does {term_text(who)} ...): {term_text(who)} is not a "
                        f"role (the roles: {', '.join(map(term_text, roles))})",
                        r.span,
                    )


def _check_acyclic(ground_rules) -> None:
    """Ground dynamic atoms must not depend on themselves (recursion through the
    state is not supported: the model builds each atom as one expression)."""
    state: dict[tuple, int] = {}  # 1: on the stack, 2: done
    for start in ground_rules:
        if state.get(start):
            continue
        stack = [(start, iter([lit[1] for body in ground_rules[start] for lit in body]))]
        state[start] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
                continue
            if nxt not in ground_rules:
                continue
            s = state.get(nxt)
            if s == 1:
                raise ModelError(
                    f"recursion through the state: {atom_text(nxt)} depends on "
                    "itself (not supported)"
                )
            if s is None:
                state[nxt] = 1
                stack.append((nxt, iter([lit[1] for body in ground_rules[nxt] for lit in body])))

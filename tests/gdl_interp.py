"""A plain GDL interpreter, written only to check the GDL engines (test support).

It shares no code with :mod:`symbolic.gdl` (no grounding, no parser): a game is a
list of rules as Python tuples, ``(head, body)``, an atom ``(relation, arg, ...)``,
a term a ``str`` (``?x`` a variable) or a tuple (a compound term), a body literal
``("pos", atom)``, ``("neg", atom)``, ``("distinct", s, t)`` or ``("same", s, t)``
(``(not (distinct s t))``). Every state is
evaluated from scratch: the rules are run bottom-up, stratum by stratum, on the
set of ground atoms ``true(f)`` of the state (and ``does(r, m)`` of a joint move),
static facts included; the game graph is explored breadth-first over joint moves.

>>> g = [(("role", "a"), ()), (("init", ("s", "0")), ()), (("legal", "a", "go"), ()),
...      (("next", ("s", "1")), (("pos", ("does", "a", "go")),)),
...      (("terminal",), (("pos", ("true", ("s", "1"))),)), (("goal", "a", "100"), ())]
>>> r = explore(g)
>>> len(r.states), r.forced[(("a",), "a")]
(2, 100)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

__all__ = ["NotStratified", "NotTurnBased", "Result", "explore", "kif", "read_kif"]


class NotTurnBased(Exception):
    """A reachable non-terminal state where two roles have a choice of move."""


class NotStratified(Exception):
    """Atoms that depend on their own negation (neither true nor false)."""


def _is_var(t) -> bool:
    return isinstance(t, str) and t.startswith("?")


def _unify(pattern, value, b: dict):
    if isinstance(pattern, str):
        if _is_var(pattern):
            if pattern in b:
                return b if b[pattern] == value else None
            return {**b, pattern: value}
        return b if pattern == value else None
    if not isinstance(value, tuple) or len(value) != len(pattern):
        return None
    for p, v in zip(pattern, value):
        b = _unify(p, v, b)
        if b is None:
            return None
    return b


def _apply(t, b: dict):
    if isinstance(t, str):
        return b.get(t, t)
    return tuple(_apply(x, b) for x in t)


def _bindings(body, facts: set, b: dict, negated: set | None = None):
    """Every binding making ``body`` true over ``facts``: positive literals first
    (safety binds the variables of the others), in the order written; a negation holds
    when its atom is not in ``negated`` (default ``facts``)."""
    negated = facts if negated is None else negated
    lits = [x for x in body if x[0] == "pos"] + [x for x in body if x[0] != "pos"]

    def go(i, b):
        if i == len(lits):
            yield b
            return
        lit = lits[i]
        if lit[0] == "pos":
            for fact in facts:
                nb = _unify(lit[1], fact, b)
                if nb is not None:
                    yield from go(i + 1, nb)
        elif lit[0] == "neg":
            if _apply(lit[1], b) not in negated:
                yield from go(i + 1, b)
        elif lit[0] == "distinct":
            if _apply(lit[1], b) != _apply(lit[2], b):
                yield from go(i + 1, b)
        elif lit[0] == "same":
            if _apply(lit[1], b) == _apply(lit[2], b):
                yield from go(i + 1, b)
        else:
            raise AssertionError(lit)

    yield from go(0, b)


def _strata(rules) -> list[list]:
    """The rules grouped by stratum: level(p) ≥ level(q) for p :- q, > for p :- not q;
    one stratum of every rule when negation goes through a cycle of relations (then
    :func:`derive` needs the program stratified atom by atom only)."""
    level = {h[0][0]: 0 for h in rules}
    for _ in range(len(level) + 2):
        changed = False
        for head, body in rules:
            for lit in body:
                if lit[0] in ("pos", "neg") and lit[1][0] in level:
                    need = level[lit[1][0]] + (lit[0] == "neg")
                    if need > level[head[0]]:
                        level[head[0]] = need
                        changed = True
        if not changed:
            break
    else:
        return [list(rules)]
    out: dict = {}
    for rule in rules:
        out.setdefault(level[rule[0][0]], []).append(rule)
    return [out[k] for k in sorted(out)]


def _least(rules, base: set, negated: set | None) -> set:
    """The least model of ``rules`` over ``base``, each negation read against ``negated``
    (None: against the facts as they grow, right for a stratum that does not read its
    own relations negatively)."""
    facts = set(base)
    while True:
        new = {_apply(head, b) for head, body in rules for b in _bindings(body, facts, {}, negated)}
        if new <= facts:
            return facts
        facts |= new


def derive(strata, base: set) -> set:
    """Every atom the rules derive from the ground atoms ``base``. A stratum whose rules
    read one of its own relations negatively is solved by the alternating fixpoint (van
    Gelder): an over-estimate (negations read against what is known true) and an
    under-estimate (read against the over-estimate), in turn until they stop moving;
    they meet when the program is stratified atom by atom, else :class:`NotStratified`."""
    facts = set(base)
    for rules in strata:
        heads = {head[0] for head, _ in rules}
        if not any(lit[0] == "neg" and lit[1][0] in heads for _, body in rules for lit in body):
            facts = _least(rules, facts, None)
            continue
        under = set(facts)
        while True:
            over = _least(rules, facts, under)
            new_under = _least(rules, facts, over)
            if new_under == under:
                break
            under = new_under
        if under != over:
            raise NotStratified(sorted(over - under, key=repr)[:3])
        facts = under
    return facts


@dataclass
class Result:
    """What :func:`explore` finds: ``states`` {state: (terminal, legal, goals, successors)}
    (successors None for a dead end), and ``forced[(coalition, role)]``."""

    roles: tuple
    states: dict
    forced: dict = field(default_factory=dict)
    joint: dict = field(default_factory=dict)  # concurrent: {state: {joint move: successor}}

    @property
    def dead_ends(self) -> int:
        return sum(1 for t, _, _, succ in self.states.values() if not t and succ is None)


def explore(rules, concurrent: bool = False) -> Result:
    """The reachable states of the game, breadth-first, and the forced goal values
    (the definition of :mod:`symbolic.gdl.solve`); NotTurnBased when a reachable
    non-terminal state gives two roles a choice, unless ``concurrent``: then every
    joint move is kept and the values are forced by the concurrent pre-image
    (∃ moves of C ∀ moves of the others)."""
    strata = _strata(rules)
    top = derive(strata, set())
    roles = tuple(dict.fromkeys(h[1] for h, body in rules if h[0] == "role" and not body))
    start = frozenset(a[1] for a in top if a[0] == "init")
    states: dict = {}
    joints: dict = {}
    todo = [start]
    seen = {start}
    while todo:
        layer, todo = todo, []
        for s in layer:
            d = derive(strata, {("true", f) for f in s})
            term = ("terminal",) in d
            legal = {
                r: sorted({a[2] for a in d if a[0] == "legal" and a[1] == r}, key=repr)
                for r in roles
            }
            goals = {r: {int(a[2]) for a in d if a[0] == "goal" and a[1] == r} for r in roles}
            succ = set()
            if not term:
                if any(not legal[r] for r in roles):
                    succ = None
                elif sum(len(legal[r]) >= 2 for r in roles) >= 2 and not concurrent:
                    raise NotTurnBased(s)
                else:
                    moves = {}
                    for joint in itertools.product(*(legal[r] for r in roles)):
                        base = {("true", f) for f in s} | {
                            ("does", r, m) for r, m in zip(roles, joint)
                        }
                        moves[joint] = frozenset(
                            a[1] for a in derive(strata, base) if a[0] == "next"
                        )
                    succ = set(moves.values())
                    joints[s] = moves
            states[s] = (term, legal, goals, succ)
            for t in succ or ():
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
    out = Result(roles, states, joint=joints if concurrent else {})
    for k in range(1, len(roles) + 1):
        for c in itertools.combinations(roles, k):
            for r in roles:
                out.forced[(c, r)] = _forced(out, c, r, start)
    return out


def _static_facts(rules, top: set) -> set:
    """The atoms of ``top`` (what the rules derive from no state) whose relation reads
    neither ``true`` nor ``does``, even through other relations: they hold in every state
    (a relation that reads ``(not (true p))`` does not qualify: ``top`` has it wrongly)."""
    reads: dict = {}
    for head, body in rules:
        reads.setdefault(head[0], set()).update(
            lit[1][0] for lit in body if lit[0] in ("pos", "neg")
        )
    dynamic = {"true", "does"}
    changed = True
    while changed:
        changed = False
        for name, used in reads.items():
            if name not in dynamic and used & dynamic:
                dynamic.add(name)
                changed = True
    return {a for a in top if a[0] not in dynamic}


def replay(rules, play) -> dict:
    """The play ``play`` (the KIF texts of the only role's moves, in order) replayed from
    init: ``{"terminal": bool, "goals": [V...]}`` at its last state; ValueError when a
    move is not legal where it is played, or a state before the last is terminal."""
    strata = _strata(rules)
    top = derive(strata, set())
    roles = tuple(dict.fromkeys(h[1] for h, body in rules if h[0] == "role" and not body))
    if len(roles) != 1:
        raise ValueError(f"a play of one role, and the game has {len(roles)}")
    role = roles[0]
    state = frozenset(a[1] for a in top if a[0] == "init")
    static = _static_facts(rules, top)  # derived once: the same in every state
    for k, text in enumerate(play):
        d = derive(strata, static | {("true", f) for f in state})
        if ("terminal",) in d:
            raise ValueError(f"move {k + 1}: the state before it is terminal")
        legal = {_term_kif(a[2]): a[2] for a in d if a[0] == "legal" and a[1] == role}
        move = legal.get(text.lower())
        if move is None:
            raise ValueError(f"move {k + 1}: {text} is not legal (legal: {sorted(legal)})")
        base = static | {("true", f) for f in state} | {("does", role, move)}
        state = frozenset(a[1] for a in derive(strata, base) if a[0] == "next")
    d = derive(strata, static | {("true", f) for f in state})
    goals = sorted(int(a[2]) for a in d if a[0] == "goal" and a[1] == role)
    return {"terminal": ("terminal",) in d, "goals": goals}


def _wins(res: Result, s, coalition, won: set) -> bool:
    """One step of the forced until at the expanded non-terminal state ``s``."""
    legal, succ = res.states[s][1], res.states[s][3]
    if res.joint:  # concurrent: C picks its moves, then every answer of the others
        mine = [i for i, r in enumerate(res.roles) if r in coalition]
        answers: dict = {}
        for joint, t in res.joint[s].items():
            answers.setdefault(tuple(joint[i] for i in mine), []).append(t in won)
        return any(all(ok) for ok in answers.values())
    chooser = next((r for r in res.roles if len(legal[r]) >= 2), None)
    return (any if chooser in coalition else all)(x in won for x in succ)


def _forced(res: Result, coalition, role, start):
    """max V such that C forces (¬terminal ∧ ¬dead_end) U (terminal ∧ goal(r) ≥ V)."""
    values = sorted({v for t, _, g, _ in res.states.values() if t for v in g[role]})
    for v in reversed(values):
        won = {s for s, (t, _, g, _) in res.states.items() if t and any(x >= v for x in g[role])}
        while True:
            more = set()
            for s, (t, legal, _, succ) in res.states.items():
                if s in won or t or succ is None:
                    continue
                if _wins(res, s, coalition, won):
                    more.add(s)
            if not more:
                break
            won |= more
        if start in won:
            return v
    return None


def _term_kif(t) -> str:
    return t if isinstance(t, str) else "(" + " ".join(_term_kif(x) for x in t) + ")"


def _atom_kif(a) -> str:
    return a[0] if len(a) == 1 else "(" + " ".join(_term_kif(x) for x in a) + ")"


def kif(rules) -> str:
    """The rules as a KIF game description."""
    lines = []
    for head, body in rules:
        if not body:
            lines.append(_atom_kif(head))
            continue
        parts = []
        for lit in body:
            if lit[0] == "pos":
                parts.append(_atom_kif(lit[1]))
            elif lit[0] == "neg":
                parts.append(f"(not {_atom_kif(lit[1])})")
            elif lit[0] == "same":
                parts.append(f"(not (distinct {_term_kif(lit[1])} {_term_kif(lit[2])}))")
            else:
                parts.append(f"(distinct {_term_kif(lit[1])} {_term_kif(lit[2])})")
        lines.append(f"(<= {_atom_kif(head)} {' '.join(parts)})")
    return "\n".join(lines) + "\n"


def read_kif(text: str) -> list:
    """KIF text → rules in this module's form (a plain reader: no located errors;
    ``;`` comments, case-insensitive as KIF is, ``(<= head body...)``, ``(not a)``,
    ``(distinct s t)``, ``(not (distinct s t))``; a body with ``(or ...)`` (of atoms,
    negations and ``(and ...)``) becomes one rule per choice of its disjuncts).

    >>> read_kif("(ROLE a) (<= (legal a go) (not (true s)))  ; a comment")
    [(('role', 'a'), ()), (('legal', 'a', 'go'), (('neg', ('true', 's')),))]
    >>> [b for _, b in read_kif("(<= p (or q (and r (not (distinct 1 2)))))")]
    [(('pos', ('q',)),), (('pos', ('r',)), ('same', '1', '2'))]
    """
    text = "\n".join(line.split(";")[0] for line in text.lower().splitlines())
    tokens = text.replace("(", " ( ").replace(")", " ) ").split()
    stack: list = [[]]
    for tok in tokens:
        if tok == "(":
            stack.append([])
        elif tok == ")":
            done = tuple(stack.pop())
            stack[-1].append(done)
        else:
            stack[-1].append(tok)

    def atom(x):
        return (x,) if isinstance(x, str) else x

    def literal(x):
        if isinstance(x, tuple) and x[0] == "not":
            if isinstance(x[1], tuple) and x[1][0] == "distinct":
                return ("same", x[1][1], x[1][2])
            return ("neg", atom(x[1]))
        if isinstance(x, tuple) and x[0] == "distinct":
            return ("distinct", x[1], x[2])
        return ("pos", atom(x))

    def choices(x) -> list:
        """The bodies (lists of literals) one body item stands for."""
        if isinstance(x, tuple) and x[0] == "or":
            return [c for d in x[1:] for c in choices(d)]
        if isinstance(x, tuple) and x[0] == "and":
            out: list = [[]]
            for d in x[1:]:
                out = [a + b for a in out for b in choices(d)]
            return out
        return [[literal(x)]]

    rules = []
    for x in stack[0]:
        if isinstance(x, tuple) and x[0] == "<=":
            for body in choices(("and", *x[2:])):
                rules.append((atom(x[1]), tuple(body)))
        else:
            rules.append((atom(x), ()))
    return rules

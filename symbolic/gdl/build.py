"""A ground GDL program as a checked model: IR game, named sets, queries and the
names formulas see — built directly as objects (no model text is written or parsed).

The model (documented in docs/gdl.md, "Using GDL files"):

- one ``bool`` variable per fluent, in :func:`~.ground.term_key` order,
  named after the fluent (``(cell 1 1 b)`` → ``cell_1_1_b``);
- one player per role, in file order (ids 1, 2, ...), and a constant of the
  role's name holding its id, so ``<<xplayer>>`` is a coalition;
- every ground atom that does not depend on ``does`` (``legal``, ``goal``,
  ``terminal``, the helper relations) a named set: the disjunction of its
  ground bodies (IR expressions are shared between the atoms that use them);
- turns by the rule of :mod:`symbolic.gdl.turns`: sets ``choice_ROLE`` (two
  legal moves or more) and ``mover_ROLE``; the game's turn is the mover;
- one move per role r and possible move m of r: when r is the mover, m is
  legal for r and the state is not terminal, every fluent f takes the value of
  ``next(f)`` with ``does(r, m)`` true, ``does(r, m')`` false for m' ≠ m and
  ``does(q, x)`` = ``legal(q, x)`` for every other role q (in a turn-based
  state q has exactly one legal move: it plays it);
- sets ``initial``, ``terminal``, ``goal(ROLE, V)``, ``reachable`` (every
  position: the engines restrict positions to the reachable states),
  ``dead_end`` (the non-terminal states where some role has no legal move: no
  joint move, no successor), one set ``F(ROLE)`` per fluent relation F whose
  arguments are roles (``control``), and one query per role:
  ``<<r>> (not terminal and not dead_end) U (terminal and goal(r, MAX))``.

>>> from .ground import ground
>>> from .kif import parse_kif
>>> from .rules import read_rules
>>> m = build_model(ground(read_rules(parse_kif("(role a) (init (s 0)) "
...     "(<= (legal a go) (true (s 0))) (<= (next (s 1)) (does a go)) "
...     "(<= terminal (true (s 1))) (<= (goal a 100) (true (s 1)))"))), "tiny.kif")
>>> [s.label for s in m.game.space.slots], [mv.name for mv in m.game.moves]
(['s_0', 's_1'], ['a_go'])
>>> sorted(m.definitions)[:4], m.queries[0].text
(['choice_a', 'dead_end', 'goal', 'goal_a_100'], '<<a>> (not terminal and not dead_end) U (terminal and goal(a, 100))')
"""

from __future__ import annotations

import re
from pathlib import Path

from .. import atl, ir
from ..errors import ModelError, Span
from ..lang.checked import CheckedModel, Query
from ..lang.scope import Entry, Scope
from ..lang.vocabulary import RESERVED, SOFT_KEYWORDS
from ..limits import current as current_limits
from .game import GdlGame, GdlNames
from .ground import GroundProgram, atom_text, term_text
from .turns import NOOP

__all__ = ["build_model", "checked", "merged_parts", "one_two", "one_two_in_turn", "DoesReads"]

_BUILTINS = {
    "lcg",
    "len",
    "min",
    "max",
    "sum",
    "count",
    "abs",
    "pow",
    "int",
    "tuple",
    "sorted",
    "range",
    "xor",
    "dyck",
    "players",
}


class _Names:
    """Identifiers of the model language, unique, none reserved."""

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


# --------------------------------------------------------------------------- boolean terms
# A term is a Python bool (a constant) or an IR expression; sub-terms are shared objects,
# compared by identity (structural equality would walk the shared subtrees again).


def _fold(items, unit: bool, combine):
    """``combine`` of ``items`` without the ``unit`` constants and repeated terms;
    ``not unit`` (the absorbing constant) as soon as one item is it."""
    out, seen = [], set()
    for x in items:
        if x is (not unit):
            return not unit
        if x is not unit and id(x) not in seen:
            seen.add(id(x))
            out.append(x)
    if not out:
        return unit
    return out[0] if len(out) == 1 else combine(out)


def _and(items):
    return _fold(items, True, ir.conj)


def _or(items):
    return _fold(items, False, ir.disj)


def _not(x):
    if isinstance(x, bool):
        return not x
    if isinstance(x, ir.Unary) and x.op == "not":
        return x.arg
    return ir.Unary("not", x)


def _expr(x) -> ir.Expr:
    return (ir.TRUE if x else ir.FALSE) if isinstance(x, bool) else x


def one_two(items, or_, and_, false):
    """(at least one, at least two) of ``items`` by halves (depth log n, linear size):
    one(A ∪ B) = one(A) ∨ one(B), two(A ∪ B) = two(A) ∨ two(B) ∨ (one(A) ∧ one(B)).

    >>> one_two([True, False, True], lambda a, b: a or b, lambda a, b: a and b, False)
    (True, True)
    """
    items = list(items)
    if not items:
        return false, false
    if len(items) == 1:
        return items[0], false
    h = len(items) // 2
    oa, ta = one_two(items[:h], or_, and_, false)
    ob, tb = one_two(items[h:], or_, and_, false)
    return or_(oa, ob), or_(or_(ta, tb), and_(oa, ob))


def checked(check, op):
    """``op`` after ``check()`` (the engine's limits): the parts and counts over every state
    run many steps between two checks of the engine (a probe's budget ends them there)."""

    def apply(a, b):
        check()
        return op(a, b)

    return apply


def one_two_in_turn(items, or_, and_, false):
    """(at least one, at least two) of ``items``, one item after the other:
    two' = two ∨ (one ∧ x), one' = one ∨ x. Slower than :func:`one_two`'s halves
    (peg's 76 legal jumps on oxidd: 25 s against 3.6 s, once a game), but each step
    joins the running result to one item, so its result holds at most their product of
    nodes, and a cap checked after each step bounds the work. By halves the last step can join two
    large halves whose union explodes: ticTacToeLarge's 25 cells "empty" (neither x
    nor o) in the fluent order that puts every x before every o, where "one of 13
    cells is empty" takes 2^13 nodes and one of 26 would take 2^26, in one ``or``.

    >>> one_two_in_turn([True, False, True], lambda a, b: a or b, lambda a, b: a and b, False)
    (True, True)
    """
    one, two = false, false
    for x in items:
        two = or_(two, and_(one, x))
        one = or_(one, x)
    return one, two


def merged_parts(items, or_, size, cap: int, budget: int):
    """The disjunction of ``items`` as few parts as the caps allow, or None: the items
    or-ed one after the other into a part, a new part begun where the union would
    pass ``cap`` nodes; None as soon as the parts hold more than ``budget`` nodes
    together. One item at a time, as :func:`one_two_in_turn` and for its reason: each
    step's result holds at most the part's nodes times the item's, where a balanced
    tree's last step joins two large halves (ticTacToeLarge's ``open``, "one of 25
    cells is empty", in the order with every x before every o: 40 s by halves, in one
    ``or`` that the cap sees only after, against 1.2 s in turn; peg's ``moveable``, 76
    jumps: 0.5 s by halves, 7.8 s in turn, once a game).

    >>> merged_parts([1, 2, 4, 8], lambda a, b: a | b, lambda x: bin(x).count("1"), 2, 9)
    [3, 12]
    >>> merged_parts([1, 2, 4, 8], lambda a, b: a | b, lambda x: bin(x).count("1"), 2, 3) is None
    True
    """
    parts: list = []
    total = 0
    for x in items:
        if parts:
            u = or_(parts[-1], x)
            if size(u) <= cap:
                parts[-1] = u
                continue
            total += size(parts[-1])
            if total > budget:
                return None
        parts.append(x)
    if parts and total + size(parts[-1]) > budget:
        return None
    return parts


class DoesReads:
    """Which ``does`` atoms each ground atom reads, directly or through other atoms:
    ``reads(atom)`` is a frozenset of (role, move). Under a joint move where r plays m,
    an atom that does not read ``does(r, m)`` has the value it has for any other move
    of r: so its term is memoized per role, not per move (:meth:`ctx_key`)."""

    def __init__(self, prog: GroundProgram):
        self.prog = prog
        self.memo: dict = {}
        self.role_memo: dict = {}

    def reads(self, atom) -> frozenset:
        if atom[0] == "does":
            return frozenset([atom[1]])
        if atom[0] == "true":
            return frozenset()
        hit = self.memo.get(atom)
        if hit is None:
            hit = frozenset().union(
                *(self.reads(a) for body in self.prog.rules.get(atom, ()) for _, a in body)
            )
            self.memo[atom] = hit
        return hit

    def ctx_key(self, atom, ctx):
        """The part of ``ctx`` = (r, m, ...) the value of ``atom`` depends on: None when
        it reads no ``does``, else ctx with m replaced by None when it does not read
        ``does(r, m)``."""
        got = self.reads(atom)
        if ctx is None or not got:
            return None
        return ctx if (ctx[0], ctx[1]) in got else (ctx[0], None) + tuple(ctx[2:])

    def roles(self, atom) -> frozenset:
        """The roles whose ``does`` ``atom`` reads."""
        hit = self.role_memo.get(atom)
        if hit is None:
            hit = self.role_memo[atom] = frozenset(r for r, _ in self.reads(atom))
        return hit


class _Terms:
    """The term of each ground atom, memoized (per joint move for atoms reading does,
    see :class:`DoesReads`)."""

    def __init__(self, prog: GroundProgram, var_of: dict):
        self.prog = prog
        self.var = {f: ir.Var(v) for f, v in var_of.items()}
        self.memo: dict = {}
        self.by_mover: dict = {}
        self.does = DoesReads(prog)

    def depends_on_does(self, atom) -> bool:
        return bool(self.does.reads(atom))

    def atom(self, atom, ctx=None):
        """The term of a ground atom; ``ctx`` = (mover, move) decides ``does``: the
        mover plays its move, every other role its legal (forced) move."""
        name, args = atom
        if name == "true":
            return self.var[args[0]]
        if name == "does":
            if ctx is None:
                raise AssertionError(atom)
            role, move = ctx
            if args[0] == role:
                return args[1] == move
            return self.atom(("legal", args))
        key = (atom, self.does.ctx_key(atom, ctx))
        hit = self.memo.get(key)
        if hit is None:
            ctx = key[1]
            if ctx is None:
                hit = self.disjunction(self.prog.rules.get(atom, ()), None)
            else:
                fixed, varying, by_move = self.split(atom, ctx[0])
                picked = by_move.get(ctx[1])
                rest = sorted(varying + picked) if picked else varying
                hit = _or([fixed] + self.disjunction([self.prog.rules[atom][i] for i in rest], ctx))
            self.memo[key] = hit
        return hit

    def disjunction(self, bodies, ctx):
        """The disjunction of ``bodies`` under ``ctx``, as a term; a list when ``ctx``
        is given (for the caller to join with more)."""
        terms = (
            _and(
                self.atom(a, ctx) if kind == "pos" else _not(self.atom(a, ctx)) for kind, a in body
            )
            for body in bodies
        )
        return _or(terms) if ctx is None else list(terms)

    def split(self, atom, role) -> tuple:
        """The bodies of ``atom`` as seen by the moves of ``role``: (the disjunction of those
        that read no ``does(role, ·)``, the same for every move of ``role``, so made
        once; the indexes of those that read one through another atom or negated; by
        move m, the indexes of those with a positive ``does(role, m)``). A body with
        two different positive moves of ``role`` is never true and is left out: with
        the index, each move does not walk the bodies of every other move."""
        hit = self.by_mover.get((atom, role))
        if hit is None:
            fixed, varying = [], []
            by_move: dict = {}
            for i, body in enumerate(self.prog.rules.get(atom, ())):
                plays = {
                    a[1][1]
                    for kind, a in body
                    if kind == "pos" and a[0] == "does" and a[1][0] == role
                }
                if len(plays) == 1:
                    by_move.setdefault(plays.pop(), []).append(i)
                elif plays:
                    continue
                elif any(role in self.does.roles(a) for _, a in body):
                    varying.append(i)
                else:
                    fixed.append(self.prog.rules[atom][i])
            term = _or(self.disjunction(fixed, (role, None)))
            hit = self.by_mover[(atom, role)] = (term, varying, by_move)
        return hit


class _Definitions(dict):
    """The named sets of the model, ``{name: Definition}``."""

    def define(self, set_name: str, body, params=()) -> atl.Definition:
        d = atl.Definition(set_name, tuple((p, "int") for p in params), atl.Prop(_expr(body)))
        self[set_name] = d
        return d


def build_model(prog: GroundProgram, filename: str = "<string>") -> CheckedModel:
    """The checked model of ``prog`` (see the module docstring); its game is a
    :class:`~.game.GdlGame`."""
    name = Path(filename).name
    names = _Names()
    for public in ("initial", "terminal", "goal", "reachable", "dead_end"):
        names.reserve(public)
    role_name = {r: names.take(r) for r in prog.roles}
    role_id = {r: i for i, r in enumerate(prog.roles, 1)}
    var_of = {f: names.take(_flat(f)) for f in prog.fluents}
    terms = _Terms(prog, var_of)
    for atom in prog.rules:
        if atom[0] in ("legal", "goal", "terminal") and terms.depends_on_does(atom):
            raise ModelError(f"{atom_text(atom)} depends on 'does'")
    defs = _Definitions()
    current_limits().check("building the model: the named sets")
    set_of = _atom_sets(prog, terms, names, defs)
    terminal = terms.atom(("terminal", ()))
    legal = {(r, m): terms.atom(("legal", (r, m))) for r in prog.roles for m in prog.moves[r]}
    one, mover, turn = _turns(prog, legal, names, role_name, role_id, defs)
    moves, move_of = _moves(prog, terms, names, role_name, var_of, (mover, legal, terminal))
    defs.define(
        "initial",
        _and(terms.var[f] if f in prog.init else _not(terms.var[f]) for f in prog.fluents),
    )
    defs.define("reachable", True)
    defs.define("dead_end", _and([_not(terminal), _or(_not(one[r]) for r in prog.roles)]))
    r_, v_ = ir.Name("r"), ir.Name("v")
    defs.define(
        "goal",
        _or(
            _and([r_.eq(role_id[r]), v_.eq(v), terms.atom(("goal", (r, str(v))))])
            for r in prog.roles
            for v in prog.goals[r]
        ),
        ("r", "v"),
    )
    _role_fluent_sets(prog, terms, names, role_id, defs)

    description = (
        f"GDL game description {name}: roles "
        + ", ".join(f"{r} = player {i}" for i, r in enumerate(prog.roles, 1))
        + f"; {len(prog.fluents)} fluents as bool variables"
    )
    space = ir.Space(tuple(ir.VarDecl(var_of[f], ir.BoolType()) for f in prog.fluents))
    gdl_names = GdlNames(var_of, role_id, role_name, move_of, set_of)
    outcome = ir.GoalValues(
        _expr(terminal),
        defs["goal"].body.expr,
        "r",
        "v",
        tuple((role_id[r], tuple(prog.goals[r])) for r in prog.roles),
    )
    game = GdlGame(
        name,
        space,
        tuple(role_id[r] for r in prog.roles),
        turn,
        tuple(moves),
        ir.TRUE,
        description,
        outcome,
        program=prog,
        names=gdl_names,
    )
    return CheckedModel(
        name=name,
        description=description,
        source=filename,
        params={},
        consts={role_name[r]: role_id[r] for r in prog.roles},
        game=game,
        definitions=dict(defs),
        queries=_queries(prog, role_name, role_id, defs),
        scope=_scope(game, space, role_name, role_id, defs, filename),
    )


def _atom_sets(prog: GroundProgram, terms: _Terms, names: _Names, defs: _Definitions) -> dict:
    """A named set per ground atom that does not depend on ``does`` and is not a constant
    (``terminal`` always): ``{atom: set name}``."""
    set_of = {}
    for atom in prog.rules:
        if atom[0] == "next" or terms.depends_on_does(atom):
            continue
        body = terms.atom(atom)
        if isinstance(body, bool) and atom != ("terminal", ()):
            continue
        set_name = (
            "terminal" if atom == ("terminal", ()) else names.take(_flat((atom[0],) + atom[1]))
        )
        set_of[atom] = set_name
        defs.define(set_name, body)
    if ("terminal", ()) not in set_of:
        set_of[("terminal", ())] = "terminal"
        defs.define("terminal", terms.atom(("terminal", ())))
    return set_of


def _turns(prog, legal, names, role_name, role_id, defs) -> tuple:
    """(one legal move, mover, the game's turn) by the rule of :mod:`symbolic.gdl.turns`,
    and the sets ``choice_ROLE`` and ``mover_ROLE``."""
    one, choice, busy = {}, {}, {}
    for r in prog.roles:
        one[r], choice[r] = one_two(
            (legal[(r, m)] for m in prog.moves[r]),
            lambda a, b: _or([a, b]),
            lambda a, b: _and([a, b]),
            False,
        )
        single = _and([one[r], _not(choice[r])])
        busy[r] = _and([single, _not(legal[(r, NOOP)])]) if NOOP in prog.moves[r] else single
    nobody_chooses = _and(_not(choice[q]) for q in prog.roles)
    nobody_busy = _and(_not(busy[q]) for q in prog.roles)
    mover = {}
    for i, r in enumerate(prog.roles):
        earlier = prog.roles[:i]
        cases = [
            _and([choice[r]] + [_not(choice[q]) for q in earlier]),
            _and([nobody_chooses, busy[r]] + [_not(busy[q]) for q in earlier]),
        ]
        if i == 0:
            cases.append(_and([nobody_chooses, nobody_busy]))
        mover[r] = _or(cases)
        defs.define(names.take(f"choice_{role_name[r]}"), choice[r])
        defs.define(names.take(f"mover_{role_name[r]}"), mover[r])
    turn: ir.Expr = ir.Const(role_id[prog.roles[-1]])
    for r in reversed(prog.roles[:-1]):
        turn = ir.Ite(_expr(mover[r]), ir.Const(role_id[r]), turn)
    return one, mover, turn


def _moves(prog, terms, names, role_name, var_of, guards) -> tuple[list, dict]:
    """The IR moves, one per role and possible move, and ``{(role, move): IR name}``."""
    mover, legal, terminal = guards
    moves, move_of = [], {}
    limits = current_limits()
    for r in prog.roles:
        for m in prog.moves[r]:
            limits.check(f"building the model: the moves of {r}")
            ctx = (r, m)
            effects = []
            for f in prog.fluents:
                e = terms.atom(("next", (f,)), ctx)
                if e is terms.var[f]:
                    continue  # the fluent keeps its value: left to the frame
                effects.append(ir.Var(var_of[f], primed=True).eq(_expr(e)))
            guard = _and([mover[r], legal[(r, m)], _not(terminal)])
            move_of[ctx] = names.take(f"{role_name[r]}_{_flat(m)}")
            moves.append(ir.Move(move_of[ctx], (), _expr(guard), ir.conj(effects)))
    return moves, move_of


def _role_fluent_sets(prog, terms, names, role_id, defs) -> None:
    """One set ``F(ROLE)`` per fluent relation F whose arguments are roles (``control``)."""
    by_relation: dict = {}
    for f in prog.fluents:
        if isinstance(f, tuple) and len(f) == 2 and f[1] in role_id:
            by_relation.setdefault(f[0], []).append(f)
    p_ = ir.Name("p")
    for rel, fs in by_relation.items():
        if rel in names.used:
            continue
        names.reserve(rel)
        defs.define(rel, _or(_and([p_.eq(role_id[f[1]]), terms.var[f]]) for f in fs), ("p",))


def _scope(game, space, role_name, role_id, defs, filename) -> Scope:
    """The names formulas see: the roles' constants, the fluents, the sets."""
    span = Span(filename, 1, 1, "")
    scope = Scope(players=game.players)
    for r, n in role_name.items():
        scope.entries[n] = Entry("const", span, value=role_id[r])
    for d in space.vars:
        scope.entries[d.name] = Entry("var", span, decl=d)
    for d in defs.values():
        scope.entries[d.name] = Entry("set", span, definition=d)
    scope.declared.update({n: (e.kind, e.span) for n, e in scope.entries.items()})
    return scope


def _queries(prog, role_name, role_id, defs) -> tuple:
    """One query per role with goals: C = {r} forces its best goal value."""
    terminal_ref = atl.Ref("terminal", (), None, defs["terminal"])
    going_on = atl.BoolOp(
        "and", atl.Not(terminal_ref), atl.Not(atl.Ref("dead_end", (), None, defs["dead_end"]))
    )
    queries = []
    for r in prog.roles:
        if prog.goals[r]:
            top = max(prog.goals[r])
            text = (
                f"<<{role_name[r]}>> (not terminal and not dead_end) U "
                f"(terminal and goal({role_name[r]}, {top}))"
            )
            goal = atl.Ref("goal", (ir.Const(role_id[r]), ir.Const(top)), None, defs["goal"])
            queries.append(
                Query(
                    text,
                    atl.Until(
                        atl.CoalitionLit((role_id[r],)),
                        going_on,
                        atl.BoolOp("and", terminal_ref, goal),
                    ),
                )
            )
    return tuple(queries)

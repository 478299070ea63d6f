"""Hypothesis strategies shared by the tests: small random games and ATL formulas.

Games have 1–3 players, a few variables with odd ranges (negative lower
bounds, sizes that are not powers of two), sometimes a bool and an array,
sometimes an invariant, and 1–3 guarded moves whose effects mix deterministic
assignments, nondeterministic constraints and untouched (framed) variables;
dead ends arise from guards and ranges.
"""

from __future__ import annotations

from functools import lru_cache

from hypothesis import strategies as st

from symbolic import aiger, atl, ir

MAX_POSITIONS = 400


@st.composite
def spaces(draw):
    decls = []
    for i in range(draw(st.integers(1, 3))):
        lo = draw(st.integers(-3, 3))
        hi = lo + draw(st.integers(0, 5))
        decls.append(ir.VarDecl(f"x{i}", ir.IntType(lo, hi)))
    if draw(st.booleans()):
        decls.append(ir.VarDecl("b", ir.BoolType()))
    if draw(st.booleans()):
        lo = draw(st.integers(-1, 1))
        decls.append(
            ir.VarDecl("a", ir.IntType(lo, lo + draw(st.integers(1, 3))), ir.IntType(1, 2))
        )
    space = ir.Space(tuple(decls))
    while space.size > MAX_POSITIONS:  # shrink the widest int variable
        decls = list(space.vars)
        k = max(range(len(decls)), key=lambda t: decls[t].type.hi - decls[t].type.lo)
        d = decls[k]
        decls[k] = ir.VarDecl(
            d.name, ir.IntType(d.type.lo, d.type.lo + (d.type.hi - d.type.lo) // 2), d.index
        )
        space = ir.Space(tuple(decls))
    return space


@lru_cache(maxsize=64)
def _index(n: int):
    """Draws 0..n-1: which alternative (shrinks toward the first, the simplest)."""
    return st.integers(0, n - 1)


_SMALL = st.integers(-3, 5)
_BOOLS = st.booleans()
_ARITH = st.sampled_from(["+", "-", "*"])
_DIVMOD = st.sampled_from(["//", "%"])
_DIVISOR = st.integers(1, 3)
_COMPARE = st.sampled_from(["==", "!=", "<", "<=", ">", ">="])
_LOGIC = st.sampled_from(["and", "or", "implies", "iff"])
_QUANT = st.sampled_from(["forall", "exists"])
_QUANT_DOM = st.lists(st.integers(-1, 2), min_size=1, max_size=3)
_TRUTHS = st.sampled_from([ir.TRUE, ir.FALSE])


@lru_cache(maxsize=512)
def _int_leaf_kinds(space, names) -> tuple:
    """The kinds of integer leaves: None (a constant), else the expressions of one kind."""
    kinds: list = [None]
    for d in space.vars:
        if isinstance(d.type, ir.BoolType):
            continue
        if d.index is None:
            kinds.append((ir.Var(d.name),))
        else:
            kinds.append(tuple(ir.Elem(d.name, ir.Const(i)) for i in d.index.values()))
    kinds += [(ir.Name(n),) for n in names]
    return tuple(kinds)


def _pick(draw, options: tuple):
    return options[0] if len(options) == 1 else options[draw(_index(len(options)))]


def _int_expr(draw, space, names: tuple, depth: int) -> ir.Expr:
    # drawn step by step, not from a tree of strategies built per space: building and
    # validating such a tree for each random game cost most of a fuzzing run's time
    choice = draw(_index(6)) if depth > 0 else 0
    if choice <= 1:  # a leaf, twice as likely as each other form
        kind = _pick(draw, tuple(range(len(_int_leaf_kinds(space, names)))))
        exprs = _int_leaf_kinds(space, names)[kind]
        return ir.Const(draw(_SMALL)) if exprs is None else _pick(draw, exprs)
    if choice == 2:
        op = draw(_ARITH)
        return ir.Binary(
            op, _int_expr(draw, space, names, depth - 1), _int_expr(draw, space, names, depth - 1)
        )
    if choice == 3:
        op = draw(_DIVMOD)
        a = _int_expr(draw, space, names, depth - 1)
        return ir.Binary(op, a, ir.Const(draw(_DIVISOR)))
    if choice == 4:
        return ir.Unary("-", _int_expr(draw, space, names, depth - 1))
    c = _bool_expr(draw, space, names, depth - 1)
    return ir.Ite(
        c, _int_expr(draw, space, names, depth - 1), _int_expr(draw, space, names, depth - 1)
    )


def _bool_expr(draw, space, names: tuple, depth: int) -> ir.Expr:
    choice = draw(_index(5)) if depth > 0 else 0
    if choice <= 1:  # a leaf: a truth value, a comparison, or the bool variable
        leaves = 3 if space.has_var("b") else 2
        leaf = draw(_index(leaves))
        if leaf == 0:
            return draw(_TRUTHS)
        if leaf == 2:
            return ir.Var("b")
        op = draw(_COMPARE)
        sub = max(0, depth - 1)
        return ir.Binary(op, _int_expr(draw, space, names, sub), _int_expr(draw, space, names, sub))
    if choice == 2:
        op = draw(_LOGIC)
        return ir.Binary(
            op, _bool_expr(draw, space, names, depth - 1), _bool_expr(draw, space, names, depth - 1)
        )
    if choice == 3:
        return ir.Unary("not", _bool_expr(draw, space, names, depth - 1))
    kind = draw(_QUANT)
    dom = draw(_QUANT_DOM)
    body = _bool_expr(draw, space, tuple(names) + ("q",), depth - 1)
    return ir.Quant(kind, "q", tuple(sorted(set(dom))), body)


@st.composite
def int_exprs(draw, space, names=(), depth=2):
    """A random integer expression over ``space``'s variables, the bound ``names`` and
    small constants, at most ``depth`` operators deep."""
    return _int_expr(draw, space, tuple(names), depth)


@st.composite
def bool_exprs(draw, space, names=(), depth=2):
    """A random boolean expression (comparisons, connectives, quantifiers over a small
    range) over ``space``, at most ``depth`` connectives deep."""
    return _bool_expr(draw, space, tuple(names), depth)


@st.composite
def effects(draw, space, names):
    """A conjunction constraining a random subset of slots (the rest is framed)."""
    parts = []
    for slot in space.slots:
        if not draw(st.booleans()):
            continue
        target = (
            ir.Var(slot.var, primed=True)
            if slot.index is None
            else ir.Elem(slot.var, ir.Const(slot.index), primed=True)
        )
        if isinstance(slot.type, ir.BoolType):
            parts.append(target.iff(draw(bool_exprs(space, names, 1))))
            continue
        rhs = draw(int_exprs(space, names, 1))
        op = draw(st.sampled_from(["==", "==", "==", "<=", "!=", ">"]))
        parts.append(ir.Binary(op, target, rhs))
    if parts and draw(st.booleans()):
        # a constraint between two next-state values (tests the explicit solver's ordering)
        ints = [s for s in space.slots if not isinstance(s.type, ir.BoolType)]
        s = draw(st.sampled_from(ints))
        target = (
            ir.Var(s.var, primed=True)
            if s.index is None
            else ir.Elem(s.var, ir.Const(s.index), primed=True)
        )
        other = draw(st.sampled_from(ints))
        other_t = (
            ir.Var(other.var, primed=True)
            if other.index is None
            else ir.Elem(other.var, ir.Const(other.index), primed=True)
        )
        parts.append(ir.Binary(draw(st.sampled_from(["==", "<=", "!="])), target, other_t + 1))
    return ir.conj(parts)


@st.composite
def games(draw):
    space = draw(spaces())
    nplayers = draw(st.integers(1, 3))
    players = tuple(range(1, nplayers + 1))
    # the turn: a player chosen by a decision list of random conditions
    turn: ir.Expr = ir.Const(draw(st.sampled_from(players)))
    for _ in range(draw(st.integers(0, 2))):
        turn = ir.Ite(
            draw(bool_exprs(space, (), 1)), ir.Const(draw(st.sampled_from(players))), turn
        )
    moves = []
    for m in range(draw(st.integers(1, 3))):
        params = ()
        names: tuple = ()
        if draw(st.booleans()):
            params = (
                ir.Param(
                    "p",
                    tuple(sorted(set(draw(st.lists(st.integers(-1, 3), min_size=1, max_size=3))))),
                ),
            )
            names = ("p",)
        guard = draw(bool_exprs(space, names, 2))
        effect = draw(effects(space, names))
        moves.append(ir.Move(f"m{m}", params, guard, effect))
    invariant = draw(st.one_of(st.just(ir.TRUE), bool_exprs(space, (), 1)))
    return ir.Game("random", space, players, turn, tuple(moves), invariant)


@lru_cache(maxsize=64)
def coalitions(players):
    subsets = st.lists(st.sampled_from(players), max_size=len(players), unique=True)
    lit = subsets.map(lambda ms: atl.CoalitionLit(tuple(sorted(ms))))
    return st.one_of(
        lit,
        lit,
        st.just(atl.AllPlayers()),
        st.builds(
            lambda op, a: atl.CoalitionOp(op, atl.AllPlayers(), a),
            st.sampled_from(["\\", "|", "&"]),
            lit,
        ),
    )


def _formula(draw, game, depth: int, turns: bool) -> atl.Formula:
    J = coalitions(game.players)
    choice = draw(_index(9)) if depth > 0 else 0
    if choice == 0:  # a leaf: a truth value, turn(J), a state formula
        leaf = draw(_index(3 if turns else 2))
        if leaf == 0:
            return atl.Truth(draw(_BOOLS))
        if turns and leaf == 1:
            return atl.Turn(draw(J))
        return atl.Prop(_bool_expr(draw, game.space, (), 1))

    def sub():
        return _formula(draw, game, depth - 1, turns)

    if choice == 1:
        return atl.Not(sub())
    if choice == 2:
        op = draw(_LOGIC)
        return atl.BoolOp(op, sub(), sub())
    if choice == 3:
        return atl.Next(draw(J), sub())
    if choice in (4, 5):
        kind = atl.Until if choice == 4 else atl.Release
        c = draw(J)
        return kind(c, sub(), sub())
    if choice == 6:
        return atl.Eventually(draw(J), sub())
    if choice == 7:
        return atl.Always(draw(J), sub())
    return atl.Reach(sub())


@st.composite
def formulas(draw, game, depth=3, turns=True):
    """Random ATL formulas over ``game``'s players and variables (``turns=False``:
    without turn(J), which a concurrent game refuses)."""
    return _formula(draw, game, depth, turns)


@st.composite
def graph_gdl(draw):
    """The GDL text of a small random turn-based graph game: nodes 0..n-1 (the fluent
    ``(at i)``, init at 0), each owned by one of 2–3 roles, edges ``(go j)`` legal for
    the owner (the others play ``noop``), some nodes terminal with a goal value per
    role; a non-terminal node without edge is a dead end, and cycles and nodes
    unreachable from 0 arise (an inductive invariant then holds more than the
    reachable states)."""
    roles = ["r1", "r2", "r3"][: draw(st.integers(2, 3))]
    n = draw(st.integers(2, 6))
    owner = [draw(st.sampled_from(roles)) for _ in range(n)]
    terminal = [i for i in range(1, n) if draw(st.booleans())]
    lines = [f"(role {r})" for r in roles] + ["(init (at 0))"]
    for i in range(n):
        if i in terminal:
            lines.append(f"(<= terminal (true (at {i})))")
            for r in roles:
                v = draw(st.sampled_from([0, 50, 100]))
                lines.append(f"(<= (goal {r} {v}) (true (at {i})))")
            continue
        targets = sorted(set(draw(st.lists(st.integers(0, n - 1), max_size=3))))
        for j in targets:
            lines.append(f"(<= (legal {owner[i]} (go {j})) (true (at {i})))")
        for r in roles:
            if r != owner[i]:
                lines.append(f"(<= (legal {r} noop) (true (at {i})))")
    for r in roles:  # a goal value of each role somewhere, so that every role has one
        lines.append(f"(<= (goal {r} 0) (true (at {n})))")
    lines.append(f"(<= terminal (true (at {n})))")  # GDL requires a terminal rule
    lines.append("(<= (next (at ?j)) (does ?p (go ?j)))")
    return "\n".join(lines) + "\n"


def _pos(*atom):
    return ("pos", atom)


def _neg(*atom):
    return ("neg", atom)


@st.composite
def static_gdl(draw, simultaneous: bool = False):
    """A small random GDL game (rules as :mod:`tests.gdl_interp` reads them) where
    ``legal``, ``next``, ``terminal`` and ``goal`` are each, at random, facts, rules over
    static relations only, or rules over the state: roles ``a`` (and ``b``) taking turns
    by a ``control`` fluent (or not), flags ``(f i)``, a step counter up to K that ends
    the game; static relations ``succ``, ``ok``, ``val``, ``stop``, ``flag``. Some games
    give two roles a choice in a reachable state (not turn-based), some have dead ends.
    ``simultaneous``: two roles, and a role's moves are legal whoever has ``control``
    (a static condition instead), so that both usually choose at once."""
    roles = ["a", "b"][: 2 if simultaneous else draw(st.integers(1, 2))]
    k = draw(st.integers(1, 3))
    moves = ["m0", "m1"]
    rules = [((("role", r)), ()) for r in roles]
    rules += [(("init", ("control", "a")), ()), (("init", ("step", "0")), ())]
    if draw(st.booleans()):
        rules.append((("init", ("f", "0")), ()))
    rules += [(("succ", str(i), str(i + 1)), ()) for i in range(k)]
    for fact in draw(
        st.lists(
            st.sampled_from(
                [("ok", "m0"), ("ok", "m1"), ("val", "30"), ("val", "70"), ("stop",), ("flag",)]
            ),
            max_size=4,
            unique=True,
        )
    ):
        rules.append((fact, ()))
    rules.append(
        (("next", ("step", "?y")), (_pos("true", ("step", "?x")), _pos("succ", "?x", "?y")))
    )
    if len(roles) == 2 and draw(st.booleans()):
        rules += [
            (("next", ("control", "b")), (_pos("true", ("control", "a")),)),
            (("next", ("control", "a")), (_pos("true", ("control", "b")),)),
        ]
    else:
        rules.append((("next", ("control", "?r")), (_pos("true", ("control", "?r")),)))
    rules.append((("terminal",), (_pos("true", ("step", str(k))),)))
    for r in roles:
        mine = _pos("role", r) if simultaneous else _pos("true", ("control", r))
        for m in draw(st.lists(st.sampled_from(moves), min_size=1, max_size=2, unique=True)):
            rules.append(
                draw(
                    st.sampled_from(
                        [
                            (("legal", r, m), (mine,)),
                            (("legal", r, m), (mine, _neg("true", ("f", "0")))),
                            (("legal", r, m), ()),
                            (("legal", r, m), (_pos("ok", m),)),
                        ]
                    )
                )
            )
        noop = draw(st.sampled_from(["fact", "dynamic", "role", "none"]))
        if noop == "fact":
            rules.append((("legal", r, "noop"), ()))
        elif noop == "dynamic":
            rules.append((("legal", r, "noop"), (_neg("true", ("control", r)),)))
        elif noop == "role":
            rules.append((("legal", r, "noop"), (_pos("role", r),)))
    flags = [("f", "0"), ("f", "1")]
    does = [_pos("does", r, m) for r in roles for m in moves]
    for f in flags:
        for _ in range(draw(st.integers(0, 2))):
            other = draw(st.sampled_from(flags))
            rules.append(
                draw(
                    st.sampled_from(
                        [
                            (("next", f), (draw(st.sampled_from(does)),)),
                            (("next", f), (_pos("true", other),)),
                            (("next", f), (_neg("true", other),)),
                            (("next", f), ()),
                            (
                                ("next", f),
                                (
                                    _pos(
                                        "flag",
                                    ),
                                ),
                            ),
                            (("next", f), (draw(st.sampled_from(does)), _pos("true", other))),
                        ]
                    )
                )
            )
    for _ in range(draw(st.integers(0, 2))):
        rules.append(
            draw(
                st.sampled_from(
                    [
                        (("terminal",), ()),
                        (("terminal",), (_pos("true", ("f", "1")),)),
                        (
                            ("terminal",),
                            (
                                _pos(
                                    "stop",
                                ),
                            ),
                        ),
                        (("terminal",), (_neg("true", ("f", "0")), _pos("true", ("step", "1")))),
                    ]
                )
            )
        )
    for r in roles:
        for _ in range(draw(st.integers(0, 3))):
            v = draw(st.sampled_from(["0", "50", "100"]))
            f = draw(st.sampled_from(flags))
            rules.append(
                draw(
                    st.sampled_from(
                        [
                            (("goal", r, v), ()),
                            (("goal", r, v), (_pos("true", f),)),
                            (("goal", r, v), (_neg("true", f),)),
                            (("goal", r, "?v"), (_pos("val", "?v"),)),
                            (("goal", r, v), (_pos("win", r),)),
                            (
                                ("goal", r, v),
                                (
                                    _pos(
                                        "flag",
                                    ),
                                ),
                            ),
                        ]
                    )
                )
            )
    rules.append((("win", "?r"), (_pos("role", "?r"), _pos("true", ("f", "1")))))
    return rules


@st.composite
def arenas(draw):
    """A random arena (edges anywhere, back to earlier states too) and a start set."""
    n = draw(st.integers(1, 8))
    controller = {i: draw(st.sampled_from((1, 2))) for i in range(n)}
    edges = sorted(draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)))))
    start = draw(st.sets(st.integers(0, n - 1), min_size=1))
    return controller, edges, start


@st.composite
def graded_arenas(draw):
    """A random arena whose states sit in layers, every edge one layer up."""
    sizes = draw(st.lists(st.integers(1, 4), min_size=1, max_size=5))
    layers, n = [], 0
    for s in sizes:
        layers.append(list(range(n, n + s)))
        n += s
    controller = {i: draw(st.sampled_from((1, 2))) for i in range(n)}
    edges = [
        (u, v) for lo, hi in zip(layers, layers[1:]) for u in lo for v in hi if draw(st.booleans())
    ]
    target = draw(st.sets(st.integers(0, n - 1)))
    stay = draw(st.sets(st.integers(0, n - 1)))
    start = draw(st.sets(st.sampled_from(layers[0]), min_size=1))
    p = draw(st.sampled_from(sorted(set(controller.values()))))
    return controller, edges, target, stay, start, p


@st.composite
def concurrent_games(draw):
    """Random concurrent games: 1–3 players with 1–3 guarded actions each (dead ends
    where every guard of a player fails), 1–3 updates whose conditions mix state
    conditions and does(p, a) atoms and whose effects constrain random slots."""
    space = draw(spaces())
    players = tuple(range(1, draw(st.integers(1, 3)) + 1))
    actions = []
    for p in players:
        for k in range(draw(st.integers(1, 3))):
            guard = draw(st.one_of(st.just(ir.TRUE), bool_exprs(space, (), 1)))
            actions.append(ir.Action(p, f"a{k}", guard))
    shell = ir.ConcurrentGame("random", space, players, tuple(actions), ())
    does = st.sampled_from([shell.does(a.player, a.label) for a in actions])
    updates = []
    for _ in range(draw(st.integers(1, 3))):
        when = draw(
            st.one_of(
                st.just(ir.TRUE),
                does,
                bool_exprs(space, (), 1),
                st.builds(lambda a, b: a & b, does, does),
                st.builds(lambda a, b: a | b, does, bool_exprs(space, (), 0)),
            )
        )
        updates.append(ir.Update(draw(effects(space, ())), when))
    invariant = draw(st.one_of(st.just(ir.TRUE), bool_exprs(space, (), 1)))
    return ir.ConcurrentGame("random", space, players, tuple(actions), tuple(updates), invariant)


@st.composite
def graded_games(draw):
    """A random graded game and a start condition: a step counter ``s`` in 0..L that
    every move increments (guard s < L, effect s' = s + 1) added to a random game of
    :func:`games` (its guards, effects, turn and invariant), the guards sometimes
    reading ``s``, a random terminal condition (no move where it holds), and the turn
    sometimes alternating with the parity of ``s``. Returns (game, start expression),
    the start inside s = 0, so every move goes one layer further from it."""
    base = draw(games())
    steps = draw(st.integers(1, 4))
    if base.space.size * (steps + 1) > 2 * MAX_POSITIONS:
        steps = 1
    s = ir.Var("s")
    space = ir.Space((ir.VarDecl("s", ir.IntType(0, steps)),) + tuple(base.space.vars))
    terminal = draw(st.one_of(st.just(ir.FALSE), bool_exprs(space, (), 1)))
    moves = []
    for m in base.moves:
        names = tuple(p.name for p in m.params)
        guard = m.guard
        if draw(st.booleans()):
            guard = guard & draw(bool_exprs(space, names, 1))
        guard = guard & ir.Binary("<", s, ir.Const(steps)) & ir.Unary("not", terminal)
        effect = m.effect & ir.Binary("==", ir.Var("s", primed=True), s + 1)
        moves.append(ir.Move(m.name, m.params, guard, effect))
    turn = base.turn
    if len(base.players) == 2 and draw(st.booleans()):
        turn = ir.Ite(
            ir.Binary("==", ir.Binary("%", s, ir.Const(2)), ir.Const(0)), ir.Const(1), ir.Const(2)
        )
    game = ir.Game("graded", space, base.players, turn, tuple(moves), base.invariant)
    start = ir.Binary("==", s, ir.Const(0))
    if draw(st.booleans()):
        start = start & draw(bool_exprs(space, (), 1))
    return game, start


@st.composite
def graded_concurrent_games(draw):
    """A random graded concurrent game and a start condition: a step counter ``n`` in
    0..L added to a random game of :func:`concurrent_games`, which every joint action
    increments (an update ``n' == n + 1`` that always applies: the last layer n = L
    has no successor), action guards sometimes reading ``n`` or cut off by a random
    terminal condition (dead ends: a player without an action), and sometimes an
    update contradicting the counter's on some joint actions or positions (δ(c, a)
    empty while every player has an action). Returns (game, start expression), the
    start inside n = 0, so every joint action goes one layer further from it."""
    base = draw(concurrent_games())
    steps = draw(st.integers(1, 4))
    if base.space.size * (steps + 1) > 2 * MAX_POSITIONS:
        steps = 1
    n = ir.Var("n")
    space = ir.Space((ir.VarDecl("n", ir.IntType(0, steps)),) + tuple(base.space.vars))
    terminal = draw(st.one_of(st.just(ir.FALSE), bool_exprs(space, (), 1)))
    actions = []
    for a in base.actions:
        guard = a.guard
        if draw(st.booleans()):
            guard = guard & draw(bool_exprs(space, (), 1))
        if draw(st.booleans()):
            guard = guard & ir.Unary("not", terminal)
        actions.append(ir.Action(a.player, a.label, guard))
    shell = ir.ConcurrentGame("graded", space, base.players, tuple(actions), ())
    does = st.sampled_from([shell.does(a.player, a.label) for a in actions])
    step = ir.Binary("==", ir.Var("n", primed=True), n + 1)
    updates = list(base.updates) + [ir.Update(step)]
    if draw(st.booleans()):
        when = draw(
            st.one_of(
                st.just(ir.TRUE),
                does,
                bool_exprs(space, (), 1),
                st.builds(lambda a, b: a & b, does, does),
            )
        )
        updates.append(ir.Update(ir.Binary("!=", ir.Var("n", primed=True), n + 1), when))
    game = ir.ConcurrentGame(
        "graded", space, base.players, tuple(actions), tuple(updates), base.invariant
    )
    start = ir.Binary("==", n, ir.Const(0))
    if draw(st.booleans()):
        start = start & draw(bool_exprs(space, (), 1))
    return game, start


@st.composite
def outcome_games(draw):
    """A random two-player game of :func:`games` with a random declared outcome:
    normal play, misère play, or win(p) sets (a random state expression over the
    player ``p``; boards in both win sets are draws)."""
    base = draw(games().filter(lambda g: len(g.players) == 2))
    kind = draw(st.sampled_from(["normal", "misere", "win"]))
    if kind == "normal":
        outcome: ir.OutcomeRule = ir.NormalPlay()
    elif kind == "misere":
        outcome = ir.MiserePlay()
    else:
        outcome = ir.WinSets("p", draw(bool_exprs(base.space, ("p",), 1)))
    return ir.Game(
        base.name, base.space, base.players, base.turn, base.moves, base.invariant, outcome=outcome
    )


@st.composite
def aiger_circuits(draw):
    """A random small SYNTCOMP safety circuit (a symbolic.aiger.Circuit): inputs of both players, latches, gates, resets 0/1."""
    n_in, n_latch, n_and = draw(st.integers(1, 4)), draw(st.integers(0, 3)), draw(st.integers(0, 8))
    base = n_in + n_latch
    lit = lambda v: st.integers(0, 2 * v + 1)  # noqa: E731
    rhs = [sorted((draw(lit(base + k)), draw(lit(base + k))), reverse=True) for k in range(n_and)]
    maxvar = base + n_and
    latches = tuple(2 * (n_in + k + 1) for k in range(n_latch))
    names = tuple(draw(st.sampled_from(["u", "controllable_c"])) + str(k) for k in range(n_in))
    return aiger.Circuit(
        maxvar,
        tuple(2 * (k + 1) for k in range(n_in)),
        latches,
        tuple(draw(lit(maxvar)) for _ in latches),
        tuple(draw(st.integers(0, 1)) for _ in latches),
        (draw(lit(maxvar)),),
        tuple(2 * (base + k + 1) for k in range(n_and)),
        tuple(r[0] for r in rhs),
        tuple(r[1] for r in rhs),
        names,
        ("",) * n_latch,
        ("err",),
    )


@st.composite
def aiger_forced_circuits(draw):
    """A random small safety circuit whose error is widened to err ∨ (c ⊕ g) for a
    controllable input c and a random literal g (which may read c: no substitution is
    then sound), the equivalence written one of the two ways an and-inverter graph
    gives it: ¬(¬(c ∧ g) ∧ ¬(¬c ∧ ¬g)) or ¬(c ∧ ¬g) ∧ ¬(¬c ∧ g)."""
    c = draw(aiger_circuits())
    ctrl = [x for x, k in zip(c.inputs, c.controllable) if k]
    if not ctrl:
        return c
    x = draw(st.sampled_from(ctrl)) ^ draw(st.integers(0, 1))
    g = draw(st.integers(0, 2 * c.maxvar + 1))
    v = c.maxvar
    if draw(st.booleans()):  # xor = ¬(x ∧ g) ∧ ¬(¬x ∧ ¬g)
        gates = [(2 * v + 2, x, g), (2 * v + 4, x ^ 1, g ^ 1), (2 * v + 6, 2 * v + 3, 2 * v + 5)]
        differ = 2 * v + 6
    else:  # xnor = ¬(x ∧ ¬g) ∧ ¬(¬x ∧ g)
        gates = [(2 * v + 2, x, g ^ 1), (2 * v + 4, x ^ 1, g), (2 * v + 6, 2 * v + 3, 2 * v + 5)]
        differ = 2 * v + 7
    gates.append((2 * v + 8, c.error ^ 1, differ ^ 1))  # err ∨ differ = ¬(¬err ∧ ¬differ)
    return aiger.Circuit(
        v + 4,
        c.inputs,
        c.latches,
        c.next_state,
        c.reset,
        (2 * v + 9,),
        c.and_lhs + tuple(lhs for lhs, _, _ in gates),
        c.and_rhs0 + tuple(max(a, b) for _, a, b in gates),
        c.and_rhs1 + tuple(min(a, b) for _, a, b in gates),
        c.input_names,
        c.latch_names,
        c.output_names,
    )

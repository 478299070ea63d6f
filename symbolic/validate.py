"""Structural checks of the IR, run once before any engine compiles it.

Both engines trust what passes here, so neither repeats these checks (each
keeps only its own evaluation, and the type checking that is part of it). A
well-formed expression over a :class:`~symbolic.ir.Space`, with the names
``names`` bound (move parameters), has:

- every ``Var`` and ``Elem`` naming a declared variable (UnknownName), a
  scalar read as a scalar and an array as an element (WrongType);
- every ``Name`` bound by ``names`` or an enclosing ``Quant`` / ``Sum``
  (UnknownName), and every ``Quant`` / ``Sum`` domain a tuple (ModelError);
- only the operators and quantifiers of the IR's vocabulary (ModelError);
- primed variables only where allowed, i.e. in a move's effect (ModelError),
  and the index of a primed element and the right operand of ``//`` and ``%``
  reading no state variable (ModelError): they are constants once quantifiers
  and parameters are substituted, as :mod:`symbolic.ir` requires.

A game also needs, for each move, distinct parameter names whose domains are
tuples (ModelError). What needs evaluation stays with the engines: types (each
engine's compilation checks them), value errors (raised where evaluation
reaches them) and the turn being a player at every position
(:meth:`symbolic.api.GameEngine.check_turns`).

>>> from symbolic.ir import Space, VarDecl, IntType, Var, Name
>>> sp = Space((VarDecl("x", IntType(0, 3)),))
>>> check_expr(Var("x") + Name("d"), sp, ["d"])
Binary(op='+', left=Var(name='x', primed=False), right=Name(name='d'))
>>> check_expr(Var("x", primed=True).eq(0), sp)
Traceback (most recent call last):
...
symbolic.errors.ModelError: primed variable x' outside a move's effect
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from .arguments import need
from .errors import ModelError, UnknownName, WrongType
from .ir import (
    ACTION_PREFIX,
    ARITH_OPS,
    BOOL_OPS,
    COMPARE_OPS,
    QUANTIFIERS,
    UNARY_OPS,
    Binary,
    ConcurrentGame,
    Const,
    Elem,
    Expr,
    Game,
    Item,
    Ite,
    Name,
    Quant,
    Space,
    Sum,
    Unary,
    Var,
    VarDecl,
    children,
    op_text,
    reads_state,
    walk,
)

__all__ = ["check_game", "check_concurrent_game", "check_expr"]

BINARY_OPS = frozenset(ARITH_OPS + COMPARE_OPS + BOOL_OPS)


def check_game(game: Game) -> Game:
    """``game`` itself when its invariant, turn and moves are well formed, else the
    first error, in the order invariant, turn, then each move (parameters, guard,
    effect), as the engines compile them.

    >>> from symbolic.seeds.games import subtraction
    >>> from symbolic.ir import Game, Move, Param
    >>> g = subtraction(K=3)
    >>> check_game(g) is g
    True
    >>> check_game(Game("g", g.space, g.players, g.turn, (Move("m", (Param("t", [1]),)),)))
    Traceback (most recent call last):
    ...
    symbolic.errors.ModelError: move 'm': the domain of 't' must be a tuple
    """
    need(
        game,
        Game,
        "the game",
        hint=" (pass model.game, not the model)" if hasattr(game, "game") else "",
    )
    space = game.space
    check_expr(game.invariant, space)
    check_expr(game.turn, space)
    for m in game.moves:
        names = [p.name for p in m.params]
        if len(set(names)) != len(names):
            raise ModelError(f"move {m.name!r}: a parameter is declared twice: {names}", m.span)
        for p in m.params:
            if not isinstance(p.domain, tuple):
                raise ModelError(
                    f"move {m.name!r}: the domain of {p.name!r} must be a tuple", m.span
                )
        check_expr(m.guard, space, names)
        check_expr(m.effect, space, names, primed=True)
    return game


def check_concurrent_game(game: ConcurrentGame) -> ConcurrentGame:
    """``game`` itself when its invariant, action guards (over the positions) and
    updates (over the joint space; ``then`` may prime position variables, never an
    action variable) are well formed, else the first error in that order."""
    space, joint = game.space, game.joint_space
    check_expr(game.invariant, space)
    for a in game.actions:
        check_expr(a.guard, space)
    for u in game.updates:
        check_expr(u.when, joint)
        check_expr(u.then, joint, primed=True)
        for e in walk(u.then):
            if isinstance(e, Var) and e.primed and e.name.startswith(ACTION_PREFIX):
                raise ModelError("an action cannot be primed", e.span or u.span)
    return game


def check_expr(e: Expr, space: Space, names: Iterable[str] = (), *, primed: bool = False) -> Expr:
    """``e`` itself when it is a well-formed expression over ``space`` with the
    free names ``names`` (module docstring); ``primed`` allows primed variables."""
    # An explicit stack, not recursion: ir.conj builds left-deep chains as long
    # as the list of conjuncts.
    stack = [(e, frozenset(names))]
    while stack:
        node, bound = stack.pop()
        rule = _RULES.get(type(node))
        if rule is None:
            raise AssertionError(node)
        inner = rule(node, space, bound, primed)
        stack.extend((c, inner) for c in reversed(children(node)))
    return e


# --------------------------------------------------------------------------- rules
#
# One rule per node class: check the node itself, return the names bound in
# its children (check_expr then visits them).


def _decl(space: Space, name: str, e: Expr) -> VarDecl:
    if not space.has_var(name):
        raise UnknownName(f"unknown variable {name!r}", e.span)
    return space.decl(name)


def _no_primes(e: Var | Elem, allowed: bool) -> None:
    if e.primed and not allowed:
        label = e.name if isinstance(e, Var) else e.array + "[..]"
        raise ModelError(f"primed variable {label}' outside a move's effect", e.span)


def _leaf(e: Const, space, bound, primed) -> frozenset:
    return bound


def _name(e: Name, space, bound, primed) -> frozenset:
    if e.name not in bound:
        raise UnknownName(f"unbound name {e.name!r}", e.span)
    return bound


def _var(e: Var, space, bound, primed) -> frozenset:
    if _decl(space, e.name, e).is_array:
        raise WrongType(f"{e.name!r} is an array: use an element {e.name}[i]", e.span)
    _no_primes(e, primed)
    return bound


def _elem(e: Elem, space, bound, primed) -> frozenset:
    if not _decl(space, e.array, e).is_array:
        raise WrongType(f"{e.array!r} is a scalar: it cannot be indexed", e.span)
    _no_primes(e, primed)
    if e.primed and reads_state(e.index):
        raise ModelError(
            f"the index of the primed element {e.array}'[..] must be constant once "
            f"quantifiers and parameters are substituted",
            e.span,
        )
    return bound


def _unary(e: Unary, space, bound, primed) -> frozenset:
    if e.op not in UNARY_OPS:
        raise ModelError(f"unknown unary operator {op_text(e.op)}", e.span)
    return bound


def _binary(e: Binary, space, bound, primed) -> frozenset:
    if e.op not in BINARY_OPS:
        raise ModelError(f"unknown binary operator {op_text(e.op)}", e.span)
    if e.op in ("//", "%") and reads_state(e.right):
        raise ModelError(
            f"the right operand of {op_text(e.op)} must be a positive constant "
            f"(it reads the state)",
            e.right.span or e.span,
        )
    return bound


def _binder(e: Quant | Sum, space, bound, primed) -> frozenset:
    if isinstance(e, Quant) and e.kind not in QUANTIFIERS:
        raise ModelError(f"unknown quantifier {e.kind!r}", e.span)
    if not isinstance(e.domain, tuple):
        raise ModelError(f"the domain of {e.var!r} must be a tuple of constants", e.span)
    return bound | {e.var}


#: node class -> its rule (a rule takes a node of its key's class)
_RULES: dict[type[Expr], Callable[[Any, Space, frozenset, bool], frozenset]] = {
    Const: _leaf,
    Name: _name,
    Var: _var,
    Elem: _elem,
    Item: _leaf,
    Unary: _unary,
    Binary: _binary,
    Ite: _leaf,
    Quant: _binder,
    Sum: _binder,
}

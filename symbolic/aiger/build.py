"""A SYNTCOMP safety circuit as a checked model: the turn-based game both AIGER engines
solve, its names, sets and query — built as objects, no model text written or parsed.

The game (docs/aiger.md): two players, ``controller`` (player 1) and ``environment``
(player 2), and two kinds of positions, told apart by the bool ``env_moved``:

- the environment's positions (``env_moved`` false): the latch values and ``error``, the
  error output of the step that led there (the environment's inputs are all 0 there);
  the environment picks its inputs u, leading to
- the controller's positions (``env_moved`` true): the latch values and u (``error`` is
  0 there); the controller, seeing them, picks its inputs c, leading to the
  environment's position of the latches' next values, ``error`` = err(x, u, c).

So a step of the circuit is two moves, and ⟨⟨controller⟩⟩□¬error holds at an
environment's position x with ``error`` 0 iff x ∈ W = νZ. {x | ∀u ∃c : ¬err(x,u,c) ∧
next(x,u,c) ∈ Z}: the controller's information (it sees u) is the turn order itself.
Variables: ``env_moved``, ``error``, one bool per latch, one per environment input (named
from the symbol table: :func:`variable_names`); the controllable inputs are the
controller's choices, not variables. Sets: ``initial`` (the environment's position of the
reset values, ``error`` 0; a latch without a reset value is free in it). The model's query:
``<<controller>> [] not error``.

>>> from .reader import parse_aiger
>>> m = aiger_model(parse_aiger("aag 3 2 1 1 0\\n2\\n4\\n6 2\\n6\\ni0 u\\ni1 controllable_c\\n"))
>>> [s.label for s in m.game.space.slots], m.queries[0].text
(['env_moved', 'error', 'l0', 'u'], '<<controller>> [] not error')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .. import atl, ir
from ..errors import Span
from ..lang.checked import CheckedModel, Query
from ..lang.scope import Entry, Scope
from ..lang.vocabulary import RESERVED, SOFT_KEYWORDS
from .circuit import Circuit, check_safety_game

__all__ = ["AigerGame", "AigerNames", "CONTROLLER", "ENVIRONMENT", "aiger_model", "variable_names"]

#: the players' ids
CONTROLLER, ENVIRONMENT = 1, 2

#: the names every circuit's model has (never taken by a symbol)
PUBLIC = ("env_moved", "error", "initial", "controller", "environment")

_BUILTINS = {"lcg", "len", "min", "max", "sum", "count", "abs", "pow", "int", "tuple"}
_BUILTINS |= {"sorted", "range", "xor", "dyck", "players", "turn", "reach"}


@dataclass(frozen=True)
class AigerNames:
    """The names of a circuit's model: ``latches[k]`` the variable of latch k,
    ``env_inputs`` the variables of the environment's inputs with ``env_index`` their
    input indices (in file order), ``ctrl_index`` the indices of the controllable inputs."""

    latches: tuple[str, ...]
    env_inputs: tuple[str, ...]
    env_index: tuple[int, ...]
    ctrl_index: tuple[int, ...]


@dataclass(frozen=True)
class AigerGame(ir.Game):
    """An :class:`~symbolic.ir.Game` built from a circuit (module docstring): the AIGER
    engines (:mod:`symbolic.aiger.symbolic`, :mod:`symbolic.aiger.explicit`) read
    ``circuit``, never the IR moves (which only name the two players' moves)."""

    circuit: Circuit | None = field(default=None, compare=False, repr=False)
    names: AigerNames | None = field(default=None, compare=False, repr=False)


def variable_names(circuit: Circuit) -> tuple[list[str], list[str]]:
    """(latch variables, input variables): each symbol made an identifier (every run of
    other characters becomes ``_``: ``a<3>`` is ``a_3``), unique, not a keyword nor one of
    :data:`PUBLIC`; ``lK`` / ``iK`` for a latch / input without a symbol.

    >>> from .reader import parse_aiger
    >>> variable_names(parse_aiger("aag 2 1 1 1 0\\n2\\n4 2\\n4\\ni0 a<3>\\nl0 error\\n"))
    (['error_2'], ['a_3'])
    """
    used = set(RESERVED) | set(SOFT_KEYWORDS) | _BUILTINS | set(PUBLIC)

    def take(wanted: str, fallback: str) -> str:
        base = re.sub(r"[^0-9A-Za-z_]+", "_", wanted).strip("_") or fallback
        if base[0].isdigit():
            base = "n" + base
        name, i = base, 1
        while name in used:
            i += 1
            name = f"{base}_{i}"
        used.add(name)
        return name

    latches = [take(n, f"l{k}") for k, n in enumerate(circuit.latch_names)]
    inputs = [take(n, f"i{k}") for k, n in enumerate(circuit.input_names)]
    return latches, inputs


def aiger_model(circuit: Circuit, filename: str = "<aiger>") -> CheckedModel:
    """The checked model of ``circuit`` (module docstring); ModelError unless it has
    exactly one output (the error)."""
    check_safety_game(circuit, filename)
    name = Path(filename).name
    latch_vars, input_vars = variable_names(circuit)
    ctrl = circuit.controllable
    env_index = tuple(k for k, c in enumerate(ctrl) if not c)
    names = AigerNames(
        tuple(latch_vars),
        tuple(input_vars[k] for k in env_index),
        env_index,
        tuple(k for k, c in enumerate(ctrl) if c),
    )
    bool_ = ir.BoolType()
    decls = [ir.VarDecl("env_moved", bool_), ir.VarDecl("error", bool_)]
    decls += [ir.VarDecl(v, bool_) for v in names.latches + names.env_inputs]
    space = ir.Space(tuple(decls))
    moved, error = ir.Var("env_moved"), ir.Var("error")
    # the environment's positions hold no input, the controller's no error
    invariant = ir.conj(
        [ir.Unary("not", ir.conj([moved, error]))]
        + [ir.Unary("not", ir.conj([ir.Unary("not", moved), ir.Var(u)])) for u in names.env_inputs]
    )
    turn = ir.Ite(moved, ir.Const(CONTROLLER), ir.Const(ENVIRONMENT))
    moves = (
        ir.Move("environment_inputs", guard=ir.Unary("not", moved)),
        ir.Move("controller_inputs", guard=moved),
    )
    description = (
        f"AIGER safety game {name}: latches {len(circuit.latches)}, inputs of the "
        f"environment {len(env_index)}, controllable inputs {len(names.ctrl_index)}, "
        f"AND gates {len(circuit.and_lhs)}"
    )
    game = AigerGame(
        name,
        space,
        (CONTROLLER, ENVIRONMENT),
        turn,
        moves,
        invariant,
        description,
        circuit=circuit,
        names=names,
    )
    return _checked(game, filename, circuit, names)


def _initial(names: AigerNames, circuit: Circuit) -> ir.Expr:
    """The environment's position of the reset values, error 0 (open latches free)."""
    parts: list[ir.Expr] = [ir.Unary("not", ir.Var("env_moved")), ir.Unary("not", ir.Var("error"))]
    for v, reset in zip(names.latches, circuit.reset):
        if reset in (0, 1):
            parts.append(ir.Var(v) if reset else ir.Unary("not", ir.Var(v)))
    return ir.conj(parts)


def _checked(game: AigerGame, filename: str, circuit: Circuit, names: AigerNames) -> CheckedModel:
    """The model of ``game``: its set ``initial``, its query, the names formulas see."""
    initial = atl.Definition("initial", (), atl.Prop(_initial(names, circuit)))
    defs = {"initial": initial}
    safe = atl.Prop(ir.Unary("not", ir.Var("error")))
    query = Query("<<controller>> [] not error", atl.Always(atl.CoalitionLit((CONTROLLER,)), safe))
    span = Span(filename, 1, 1, "")
    scope = Scope(players=game.players)
    consts = {"controller": CONTROLLER, "environment": ENVIRONMENT}
    for n, v in consts.items():
        scope.entries[n] = Entry("const", span, value=v)
    for d in game.space.vars:
        scope.entries[d.name] = Entry("var", span, decl=d)
    scope.entries["initial"] = Entry("set", span, definition=initial)
    scope.declared.update({n: (e.kind, e.span) for n, e in scope.entries.items()})
    return CheckedModel(
        name=game.name,
        description=game.description,
        source=filename,
        params={},
        consts=consts,
        game=game,
        definitions=defs,
        queries=(query,),
        scope=scope,
    )

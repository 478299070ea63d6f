"""One reader and one printer of positions for every command (issue 34).

Reading: ``--at`` takes a partial position, ``LABEL=VALUE, ...``; a slot it leaves
out takes the value every position of the model's set ``initial`` gives it (those
agreeing with the given slots, when some do), so ``--at 'k[1]=3'`` is Nim's start with
3 matches in the first heap. A slot that ``initial`` does not fix is named in the
error. Printing: a position shows through the model's ``display`` when it has one and
its drawing fits a terminal (at most :data:`MAX_COLUMNS` characters wide and
:data:`MAX_LINES` lines: a 255-wide chocolate bar does not), a GDL state as its true
fluents, else as ``j=1, k[1]=3``; a drawing too large is replaced by the slots and says
so, ``l=50, r=49  (drawing too large: 255 columns × 256 lines)``.

>>> from symbolic.model import load_model
>>> from symbolic.engines import make_engine
>>> m = load_model("nim")
>>> e = make_engine(m.game, "explicit")
>>> read_position(m, e, "k[1]=3")
(1, 3, 7, 7)
>>> print(position_shower(m)((1, 3, 7, 7)))
heap 1: ||| (3)
heap 2: ||||||| (7)
heap 3: ||||||| (7)
player 1 to move
"""

from __future__ import annotations

from typing import Callable

from .. import atl
from ..analysis.play import drawer
from ..api import GameEngine, PositionSet
from ..errors import QueryError, SymbolicError
from ..gdl.game import GdlGame
from ..gdl.ground import term_text
from ..ir import BoolType, Const, Elem, Expr, Var, conj
from ..limits import int_text, short_text
from ..model import Model, parse_formula
from .common import build_engine, parse_assignments, position_text, shown_positions

__all__ = [
    "read_position",
    "complete",
    "filled",
    "fixed_slots",
    "positions_lines",
    "listed",
    "fitting",
    "slot_expr",
    "start_set",
    "position_shower",
    "MAX_COLUMNS",
    "MAX_LINES",
    "fluents_text",
    "one_line",
    "entry",
    "headed",
]


def slot_expr(space, label: str, value: int) -> Expr:
    """The IR condition ``slot = value`` for the slot named ``label``.

    >>> from symbolic.ir import IntType, Space, VarDecl
    >>> sp = Space((VarDecl("k", IntType(0, 3), IntType(1, 2)),))
    >>> slot_expr(sp, "k[2]", 1)  # doctest: +ELLIPSIS
    Binary(op='==', left=Elem(array='k', index=Const(value=2)...)
    """
    slot = next(s for s in space.slots if s.label == label)
    var = Var(slot.var) if slot.index is None else Elem(slot.var, Const(slot.index))
    const = Const(bool(value)) if isinstance(slot.type, BoolType) else Const(value)
    return var.eq(const)


def complete(model: Model, engine: GameEngine | None, given: dict[str, int], shown: str) -> tuple:
    """The position of ``given`` (``{label: value}``, some slots) with the other slots
    taken from ``initial`` where every candidate agrees on them: the candidates are the
    positions of ``initial`` that agree with ``given``, or all of ``initial`` when none
    does. QueryError naming the slots left without a value (``shown``: what was read,
    ``position 'j=1'``).
    The ``engine`` (evaluating ``initial``) is needed only when a slot is left out."""
    space = model.game.space
    values = filled(model, engine, given, shown)
    try:
        return space.check_position(tuple(values[s.label] for s in space.slots))
    except SymbolicError as err:
        raise QueryError(f"{shown}: {err}") from None


def filled(
    model: Model, engine: GameEngine | None, given: dict[str, int], shown: str, free=()
) -> dict[str, int]:
    """``{label: value}`` for every slot but those of ``free`` (a grid's axes): ``given``,
    the others completed from ``initial`` as :func:`complete` says, else a QueryError
    naming the slots left without a value."""
    labels = [s.label for s in model.game.space.slots if s.label not in free]
    missing = [label for label in labels if label not in given]
    values = dict(given)
    if missing:
        assert engine is not None, "a partial position is completed on an engine"
        values.update(_from_initial(model, engine, given, missing))
    left = [label for label in labels if label not in values]
    if left:
        some = ", ".join(left[:12]) + (", ..." if len(left) > 12 else "")
        why = (
            "the model declares no set 'initial' to complete it from"
            if "initial" not in model.definitions
            else "the positions of 'initial' do not agree on "
            + ("it" if len(left) == 1 else "them")
        )
        raise QueryError(f"{shown}: no value for {some} ({why}; give it with --at)")
    return values


def _from_initial(model, engine, given: dict, missing: list[str]) -> dict[str, int]:
    """``{label: value}`` for the ``missing`` slots every candidate of :func:`complete`
    gives the same value (one emptiness test per slot, none when one candidate is left)."""
    if "initial" not in model.definitions:
        return {}
    space = model.game.space
    init = atl.evaluate(engine, model.formula("initial"), model.definitions)
    agree = init & engine.from_expr(conj(slot_expr(space, k, v) for k, v in given.items()))
    cand = init if agree.is_empty() else agree
    first = cand.first()
    if first is None:
        return {}
    index = {s.label: i for i, s in enumerate(space.slots)}
    if cand.count() == 1:
        return {label: first[index[label]] for label in missing}
    out = {}
    for label in missing:
        v = first[index[label]]
        if (cand - engine.from_expr(slot_expr(space, label, v))).is_empty():
            out[label] = v
    return out


def read_position(model: Model, engine: GameEngine | None, text: str, flag: str = "--at") -> tuple:
    """The position ``text`` names (``LABEL=VALUE, ...``, completed by :func:`complete`),
    checked to be a position of the game (``flag``: the option named in the error); an
    empty text is the position of ``initial``, when it has one. Without an ``engine``
    (a command that builds its engines later) a position given in full is only checked
    against the slots' ranges, and a partial one is completed on a symbolic engine
    built for it."""
    space = model.game.space
    given = parse_assignments(space, text) if text.strip() else {}
    shown = f"position {short_text(text)}" if given else "no position given"
    if engine is None and len(given) < len(space.slots):
        engine = build_engine(model.game, "symbolic", check=False)
    pos = complete(model, engine, given, shown)
    if engine is not None and pos not in engine.positions():
        raise QueryError(
            f"{flag} {short_text(text)}: {position_text(space, pos)} is not a position "
            f"of the game (it breaks an invariant)"
        )
    return pos


def fixed_slots(model: Model, engine: GameEngine, text: str | None, free) -> dict[str, int]:
    """The slots a grid over ``free`` (its axes) does not vary: those ``--at`` gives
    (``text``, ``LABEL=VALUE, ...``), the others completed from ``initial`` as by
    :func:`complete`, else a QueryError naming them. An axis given in ``text`` is kept,
    and an axis that is no slot or named twice makes this return ``text``'s slots
    alone: the picture names each of these mistakes."""
    space = model.game.space
    given = parse_assignments(space, text) if text and text.strip() else {}
    if len(set(free)) < len(free) or not set(free) <= {s.label for s in space.slots}:
        return given
    shown = f"position {short_text(text)}" if given else "no position given"
    return filled(model, engine, given, shown, free=free)


def positions_lines(model: Model, ps: PositionSet, limit: int) -> list[str]:
    """At most ``limit`` positions of ``ps`` (0: all), each through
    :func:`position_shower`: one indented line each, or, when the model's display
    draws a board of several lines, each board numbered with its lines below; then how
    many were left out (an exact count, however large the set)."""
    show = position_shower(model)
    shown = shown_positions(ps, limit)
    lines = listed([show(pos) for pos in shown])
    total = ps.count()
    if len(shown) < total:
        lines.append(f"    ... ({int_text(total - len(shown))} more; --limit 0 shows all)")
    return lines


def listed(texts: list[str]) -> list[str]:
    """The lines of a list of positions' texts: one indented line each, or, where a
    text spans several lines (a board), numbered with its lines below.

    >>> print("\\n".join(listed(["j=1", "O .\\n. X"])))
        j=1
         2) O .
            . X
    """
    lines = []
    for i, text in enumerate(texts, 1):
        if "\n" in text:
            lines.append(f"    {i:>2}) " + one_line(text, " " * 8))
        else:
            lines.append("    " + text)
    return lines


def start_set(model: Model, engine: GameEngine, args, *, note: str = "") -> PositionSet:
    """The start given as ``--from SET`` (a formula of the model) or ``--at POSITION``
    (:func:`read_position`): exactly one of them, else a QueryError (``note`` qualifies
    --from in it)."""
    if (args.start is None) == (args.at is None):
        raise QueryError(
            f"give the start as --from SET{note} or as --at POSITION"
            + ("" if note else " (one of them)")
        )
    if args.at is not None:
        return engine.singleton(read_position(model, engine, args.at))
    return atl.Evaluator(engine, model.definitions)(parse_formula(args.start, model))


def fluents_text(game: GdlGame, pos: tuple) -> str:
    """A GDL state as its true fluents, as GDL writes them: ``(cell 1 1 x) (control oplayer)``."""
    fluent_of = {v: f for f, v in game.names.var_of.items()}
    true = [term_text(fluent_of[s.var]) for s, v in zip(game.space.slots, pos) if v]
    return " ".join(true) if true else "(no fluent true)"


#: the widest drawing (characters) a command prints; a wider one is shown by its slots
MAX_COLUMNS = 80
#: the tallest drawing (lines) a command prints; a taller one is shown by its slots
MAX_LINES = 40


def fitting(draw: Callable[[tuple], str], slots: Callable[[tuple], str]):
    """position -> ``draw``'s text when it is at most :data:`MAX_COLUMNS` wide and
    :data:`MAX_LINES` tall, else ``slots``' text and the drawing's size.

    >>> show = fitting(lambda pos: "#" * pos[0], lambda pos: f"l={pos[0]}")
    >>> show((3,))
    '###'
    >>> show((255,))
    'l=255  (drawing too large: 255 columns × 1 line)'
    """

    def show(pos: tuple) -> str:
        text = draw(pos)
        lines = text.split("\n")
        width = max(map(len, lines))
        if width <= MAX_COLUMNS and len(lines) <= MAX_LINES:
            return text
        tall = f"{len(lines)} line" + ("s" if len(lines) > 1 else "")
        return f"{slots(pos)}  (drawing too large: {width} columns × {tall})"

    return show


def position_shower(model: Model) -> Callable[[tuple], str]:
    """position -> its text: the model's ``display`` (it may span lines) when its
    drawing fits (:func:`fitting`), else a GDL state's true fluents, else
    ``j=1, k[1]=3``."""
    game = model.game
    if model.display is None and isinstance(game, GdlGame):
        return lambda pos: fluents_text(game, pos)
    space = game.space

    def slots(pos: tuple) -> str:
        return position_text(space, pos)

    if model.display is None:
        return slots
    return fitting(drawer(model.display, space, slots), slots)


def one_line(text: str, indent: str) -> str:
    """``text`` of several lines with every line after the first indented by ``indent``
    (a display inside a list).

    >>> print(one_line("a\\nb", "  "))
    a
      b
    """
    return text.replace("\n", "\n" + indent)


def entry(head: str, text: str, indent: str = "        ") -> str:
    """A line of a list: ``head  ->  text``, or, for a drawing of several lines, ``head``
    with the drawing below it, indented.

    >>> entry("  1) take(1, 2)", "j=2, k[1]=0")
    '  1) take(1, 2)  ->  j=2, k[1]=0'
    >>> print(entry("  1) take(1, 2)", "a\\nb", "    "))
      1) take(1, 2)
        a
        b
    """
    if "\n" not in text:
        return f"{head}  ->  {text}"
    return head + "\n" + "\n".join(indent + line for line in text.split("\n"))


def headed(text: str, note: str) -> str:
    """A position and a note on it: ``text  (note)`` on one line, or below a drawing of
    several lines.

    >>> headed("j=1", "player 1 to move")
    'j=1  (player 1 to move)'
    """
    return f"{text}  ({note})" if "\n" not in text else f"{text}\n({note})"

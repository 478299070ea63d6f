"""Models: a game read from model text, with its parameters, constants, named
sets and formulas, and queries.

>>> m = parse_model('''
... game "take 1 or 2"
... param K = 5
... players 1, 2
... var j : 1..2
... var k : 0..K
... turn j
... move take(t in {1, 2}) when k >= t then k' = k - t; j' = 3 - j
... formula win(p) = <<{p}>> <> (turn(players \\\\ {p}) and k == 0)
... query win(1)
... ''')
>>> m.game.space.size, [mv.name for mv in m.game.moves], m.queries[0].text
(12, ['take'], 'win(1)')
>>> parse_model(m.text, params={"K": 9}).params
{'K': 9}
>>> parse_formula("<<1>> X k == 0", m)
Next(coalition=CoalitionLit(members=(1,)), arg=Prop(expr=Binary(op='==', left=Var(name='k', primed=False), right=Const(value=0))))
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from . import atl, ir
from .errors import FileError, Span


@dataclass(frozen=True)
class Query:
    """A ``query`` of a model file: its source text, formula and place."""
    text: str
    formula: atl.Formula
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Model:
    """A checked model.

    ``params`` holds the parameter values in force (defaults and overrides),
    ``consts`` the constants (sets as sorted tuples, as in the IR),
    ``definitions`` the named sets and formulas (for :func:`symbolic.atl.evaluate`),
    ``queries`` the model's queries in source order.
    """
    name: str
    description: str
    source: str
    params: dict
    consts: dict
    game: ir.Game
    definitions: dict
    queries: tuple[Query, ...]
    text: str = field(default="", repr=False, compare=False)
    scope: object = field(default=None, repr=False, compare=False)  # names for parse_formula

    @property
    def players(self) -> tuple[int, ...]:
        return self.game.players

    @property
    def space(self) -> ir.Space:
        return self.game.space

    def formula(self, text: str) -> atl.Formula:
        """``parse_formula(text, self)``."""
        return parse_formula(text, self)

    def with_params(self, params: Mapping[str, object]) -> "Model":
        """The same model text checked again with other parameter values."""
        return parse_model(self.text, self.source, {**self.params, **dict(params)})


def load_model(path, params: Mapping[str, object] | None = None) -> Model:
    """Read and check the model file at ``path``; ``params`` override its parameters
    (values are ints, bools, or strings such as ``"3"`` or ``"true"``)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileError(f"{p}: no such model file") from None
    except IsADirectoryError:
        raise FileError(f"{p}: is a directory, not a model file") from None
    except UnicodeDecodeError as err:
        raise FileError(f"{p}: not a UTF-8 text file ({err.reason} at byte {err.start})") \
            from None
    except OSError as err:
        raise FileError(f"{p}: cannot read the model file ({err.strerror})") from None
    if p.name.endswith(".json"):  # seed 002's arena format
        from .arena import arena_to_model_text
        text = arena_to_model_text(text, str(path))
    return parse_model(text, str(path), params)


def parse_model(text: str, filename: str = "<string>",
                params: Mapping[str, object] | None = None) -> Model:
    """Parse and check model ``text``; errors name ``filename``."""
    from .lang.check import check_model
    from .lang.parser import parse_model_text
    return check_model(parse_model_text(text, filename), filename, params, text)


def parse_formula(text: str, model: Model) -> atl.Formula:
    """An ATL formula over ``model``'s names (``--query`` text, Python API).

    Errors point into ``text`` (file name ``<formula>``).
    """
    from .lang.check import check_formula
    from .lang.parser import parse_formula_text
    return check_formula(parse_formula_text(text, "<formula>"), model.scope)


def parse_state_expr(text: str, model: Model) -> ir.Expr:
    """A boolean state expression over ``model``'s names, as IR (e.g. to build a set
    of positions with ``engine.from_expr``)."""
    from .lang.check import check_state_expr
    from .lang.parser import parse_formula_text
    return check_state_expr(parse_formula_text(text, "<expression>"), model.scope)

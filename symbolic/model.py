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

import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Mapping

from . import atl, ir
from .arguments import is_loaded_instance, need_int
from .errors import ArgumentTypeError, ArgumentValueError, FileError
from .lang.checked import CheckedModel, Query
from .lang.scope import Scope
from .limits import ensure_recursion_headroom
from .shipped import missing_model, model_file, shipped_model, shipped_models

__all__ = [
    "Model",
    "Query",
    "load_model",
    "missing_model",
    "model_file",
    "parse_arena",
    "parse_formula",
    "parse_model",
    "parse_state_expr",
    "shipped_model",
    "shipped_models",
    "check_params",
]


@dataclass(frozen=True)
class Model(CheckedModel):
    """A checked model: a :class:`~symbolic.lang.checked.CheckedModel` with its text.

    ``text`` is the model text (for :meth:`with_params`; empty for a GDL description,
    a circuit or an arena, whose models are built without text). The other fields are
    the checked model's: ``params``, ``consts``, ``definitions`` (for
    :func:`symbolic.atl.evaluate`), ``queries``, ``scope`` (for :func:`parse_formula`)
    and ``display`` (:mod:`symbolic.display`).
    """

    text: str = field(default="", repr=False, compare=False)

    @classmethod
    def of(cls, checked: CheckedModel, text: str) -> "Model":
        """The model of a checked model file and its text; its definitions are
        marked as checked against its space (:class:`symbolic.atl.Definition`)."""
        for d in checked.definitions.values():
            # set once, before anyone sees the definition (formulas refer to it by identity)
            object.__setattr__(d, "space", checked.game.space)
        return cls(**{f.name: getattr(checked, f.name) for f in fields(checked)}, text=text)

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
        if is_loaded_instance(self.game, "symbolic.gdl.game", "GdlGame"):
            raise FileError(f"{self.source}: a GDL description has no parameters to override")
        if is_loaded_instance(self.game, "symbolic.aiger.build", "AigerGame"):
            raise FileError(f"{self.source}: an AIGER circuit has no parameters to override")
        if not self.text:
            raise FileError(f"{self.source}: an arena has no parameters to override")
        return parse_model(self.text, self.source, {**self.params, **check_params(params)})


def check_params(params) -> dict:
    """``params`` as a dict of parameter overrides, or ArgumentTypeError: names are
    strings, values ints, bools or strings (never converted silently)."""
    if params is None:
        return {}
    if not isinstance(params, Mapping):
        raise ArgumentTypeError(f"params must be a mapping NAME -> value, got {params!r}")
    for k, v in params.items():
        if not isinstance(k, str):
            raise ArgumentTypeError(f"params: a parameter name is a string, got {k!r}")
        if not isinstance(v, (int, str)):
            raise ArgumentTypeError(
                f"params: {k} = {v!r:.60}: a value is an int, a bool or a string"
            )
        if isinstance(v, int) and not isinstance(v, bool):
            need_int(v, f"params: {k}")  # digits bounded, as in text (decls checks those)
    return dict(params)


def _check_model(model) -> "Model":
    if not isinstance(model, Model):
        raise ArgumentTypeError(f"expected a Model (from load_model or parse_model), got {model!r}")
    return model


def _scope(model: "Model") -> Scope:
    """The top-level names of ``model``, which text is read against."""
    if model.scope is None:
        raise ArgumentValueError(
            "this Model has no names to read text against (load_model and parse_model "
            "give models that have)"
        )
    return model.scope


def _check_text(text, what: str) -> str:
    if not isinstance(text, str):
        raise ArgumentTypeError(f"{what} must be a string, got {text!r}")
    return text


def load_model(path, params: Mapping[str, object] | None = None) -> Model:
    """Read and check the model file at ``path``; ``params`` override its parameters
    (values are ints, bools, or strings such as ``"3"`` or ``"true"``)."""
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentTypeError(f"load_model: the path must be a string or a path, got {path!r}")
    params = check_params(params)
    p = model_file(path)
    if p != Path(path):
        path = p  # a shipped model's file
    if p.name.lower().endswith((".aag", ".aig")):  # a SYNTCOMP safety circuit (AIGER)
        if params:
            raise FileError(f"{p}: an AIGER circuit has no parameters to override")
        from .aiger import read_aiger  # the front ends load on first use (start-up)
        from .aiger.build import aiger_model

        return Model.of(aiger_model(read_aiger(p), str(path)), "")
    try:
        text = p.read_text(encoding="utf-8-sig")  # a leading BOM is not part of the model
    except FileNotFoundError:
        raise missing_model(p) from None
    except IsADirectoryError:
        raise FileError(f"{p}: is a directory, not a model file") from None
    except UnicodeDecodeError as err:
        raise FileError(f"{p}: not a UTF-8 text file ({err.reason} at byte {err.start})") from None
    except OSError as err:
        raise FileError(f"{p}: cannot read the model file ({err.strerror})") from None
    if p.name.lower().endswith(".kif"):  # a GDL game description
        if params:
            raise FileError(f"{p}: a GDL description has no parameters to override")
        from .gdl.load import gdl_model

        return Model.of(gdl_model(text, str(path)), "")
    if p.name.lower().endswith(".json"):  # the arena format of the reachability-games TD
        return parse_arena(text, str(path), params)
    return parse_model(text, str(path), params)


def parse_arena(
    text: str, filename: str = "<string>", params: Mapping[str, object] | None = None
) -> Model:
    """Read and check the arena JSON ``text`` (:mod:`symbolic.lang.arena`); errors name
    ``filename``. An arena declares no parameter, so any in ``params`` is an error.
    The model's ``text`` is the JSON: :meth:`Model.with_params` refuses it."""
    _check_text(text, "the arena text")
    _check_text(filename, "the file name")
    params = check_params(params)
    from .lang.arena import arena_model_ast, read_arena  # lark: loaded when a text is read
    from .lang.decls import check_model  # the checker: loaded when a text is checked

    tree = arena_model_ast(read_arena(text, filename), filename)
    return Model.of(check_model(tree, filename, params), "")


def parse_model(
    text: str, filename: str = "<string>", params: Mapping[str, object] | None = None
) -> Model:
    """Parse and check model ``text``; errors name ``filename``."""
    _check_text(text, "the model text")
    _check_text(filename, "the file name")
    params = check_params(params)
    ensure_recursion_headroom()  # the checker is recursive, to MAX_NESTING levels
    from .lang.decls import check_model  # the checker: loaded when a text is checked
    from .lang.parser import parse_model_text  # lark: loaded when a text is parsed
    from .lang.source import paused_gc

    with paused_gc():
        return Model.of(check_model(parse_model_text(text, filename), filename, params), text)


def parse_formula(text: str, model: Model) -> atl.Formula:
    """An ATL formula over ``model``'s names (``--query`` text, Python API).

    Errors point into ``text`` (file name ``<formula>``).
    """
    _check_text(text, "a formula")
    ensure_recursion_headroom()
    model = _check_model(model)
    from .lang.formulas import check_formula  # the checker: loaded when a text is checked
    from .lang.parser import parse_formula_text  # lark: loaded when a text is parsed

    return atl.checked_against(
        check_formula(parse_formula_text(text, "<formula>"), _scope(model)), model.game.space
    )


def parse_state_expr(text: str, model: Model) -> ir.Expr:
    """A boolean state expression over ``model``'s names, as IR (e.g. to build a set
    of positions with ``engine.from_expr``)."""
    _check_text(text, "a state expression")
    ensure_recursion_headroom()
    from .lang.formulas import check_state_expr  # the checker: loaded when a text is checked
    from .lang.parser import parse_formula_text  # lark: loaded when a text is parsed

    tree = parse_formula_text(text, "<expression>")
    return check_state_expr(tree, _scope(_check_model(model)))

"""The ``param`` declarations of a model and the values given for them from outside.

A parameter is an int, a bool or a string with a default (``param N = 3`` or
``param N : 1..9 = 3``); an override (``N=5`` on the command line, ``params=`` in
the API) replaces the default, once checked against the declared type and range.
Override values arrive as ints, bools or text: :func:`override_value` reads text as
``true``, ``false`` or a decimal int.

>>> from symbolic.lang.decls import check_model
>>> from symbolic.lang.parser import parse_model_text
>>> text = "param N : 1..9 = 3\\nplayers 1\\nvar x : 0..N\\nturn 1"
>>> check_model(parse_model_text(text), "<s>", {"N": "5"}).params
{'N': 5}
"""

from __future__ import annotations

from ..errors import RangeError, Span, UnknownName, WrongType
from ..limits import MAX_INT_DIGITS, is_int_text
from . import ast
from .core import CheckerCore
from .scope import EMPTY, Entry, did_you_mean
from .types import BOOL, INT, STR, Type, article, type_of

__all__ = ["ParamDecls", "override_value", "show_value"]


class ParamDecls(CheckerCore):
    """The parameter declarations and overrides (a base of :class:`~.decls.ModelChecker`)."""

    #: the model checker's: the values given from outside, by parameter name
    overrides: dict[str, object]

    def _override_span(self, name: str) -> Span:
        """A span in the text ``N=3, K=5`` showing the parameter overrides."""
        text, at = "", 1
        for k, v in self.overrides.items():
            if text:
                text += ", "
            if k == name:
                at = len(text) + 1
            text += f"{k}={show_value(v)}"
        return Span("<params>", 1, at, text, len(name))

    def _check_override_names(self) -> None:
        params = [n for n, (k, _) in self.scope.declared.items() if k == "param"]
        for name in self.overrides:
            if name not in params:
                hint = did_you_mean(name, params)
                known = (
                    f"; the parameters are {', '.join(params)}"
                    if params
                    else "; this model has no parameters"
                )
                raise UnknownName(
                    f"unknown parameter '{name}'{hint}{known}", self._override_span(name)
                )

    def _param(self, d: ast.ParamDecl) -> None:
        name = d.name.name
        lo = hi = None
        want: Type | None = None
        if isinstance(d.type, ast.BoolSpec):
            want = BOOL
        elif isinstance(d.type, ast.RangeSpec):
            want = INT
            lo = self.int_value(d.type.lo, EMPTY, "a parameter bound")
            hi = self.int_value(d.type.hi, EMPTY, "a parameter bound")
            if lo > hi:
                raise RangeError(f"empty range {lo}..{hi} for the parameter '{name}'", d.type.span)
        elif isinstance(d.type, ast.ArraySpec):
            raise WrongType("a parameter is an int or a bool, not an array", d.type.span)
        elif d.type is not None:
            raise AssertionError(d.type)
        if name in self.overrides:
            span = self._override_span(name)
            default = self.value(d.default, EMPTY, what=f"the default of '{name}'")
            want = want or default.type
            raw = self.overrides[name]
            # a string parameter takes the override text as it is
            v = raw if want == STR and isinstance(raw, str) else override_value(name, raw, span)
            if type_of(v) != want:
                raise WrongType(
                    f"parameter '{name}' is {article(want)}, got "
                    f"{article(type_of(v))} ({show_value(v)})",
                    span,
                )
        else:
            span = d.default.span
            t = self.value(d.default, EMPTY, what=f"the parameter '{name}'")
            if t.type not in (INT, BOOL, STR):
                raise WrongType(
                    f"a parameter is an int, a bool or a string, not "
                    f"{article(t.type)}; use const for other values",
                    d.default.span,
                )
            if want is not None:
                self.expect(t, want, d.default.span, f"for the parameter '{name}'")
            v = t.value
        if lo is not None:
            assert hi is not None and isinstance(v, int)  # a range's values are ints: checked
            if not lo <= v <= hi:
                raise RangeError(
                    f"parameter '{name}' = {v} is outside its declared range {lo}..{hi}", span
                )
        self.scope.entries[name] = Entry("param", d.name.span, value=v)


def show_value(v) -> str:
    """A parameter value as the model language writes it: ``true``, ``false``, ``42``."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def override_value(name: str, v, span: Span):
    """A parameter override as an int or a bool (strings are read as literals)."""
    if isinstance(v, (bool, int)):
        return v
    if isinstance(v, str):
        s = v.strip()
        if s in ("true", "false"):
            return s == "true"
        if is_int_text(s):  # ASCII digits only, as every integer on the command line
            if len(s.lstrip("+-")) > MAX_INT_DIGITS:  # int() refuses beyond 4300 digits
                raise RangeError(
                    f"parameter '{name}': a value of {len(s.lstrip('+-'))} "
                    f"digits, at most {MAX_INT_DIGITS} are allowed",
                    span,
                )
            return int(s)
        raise WrongType(f"parameter '{name}': cannot read {v!r} as an int or a boolean", span)
    raise WrongType(f"parameter '{name}' must be an int or a bool, got {v!r:.60}", span)

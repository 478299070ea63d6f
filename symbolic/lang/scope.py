"""What a name means while a model is checked: the top-level names table
(:class:`Scope`), the local context of an expression (:class:`Ctx`: bound
names, formula parameters, primes) and the messages for names that mean
nothing ("did you mean...").

A model's :class:`Scope` outlives its check: ``Model.scope`` keeps it so that
formulas given later (``--query``, :func:`symbolic.model.parse_formula`) see
the model's names.

>>> s = Scope()
>>> s.entries["K"] = Entry("param", Span("m", 1, 7), value=3)
>>> str(s.unknown_name("k", Span("m", 2, 1), EMPTY)).splitlines()[0]
"m:2:1: error: unknown name 'k' (did you mean 'K'?)"
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field, replace
from typing import Mapping

from .. import atl, ir
from ..errors import Span, UnknownName
from . import ast
from .builtins import BUILTINS
from .types import Typed

__all__ = [
    "Entry",
    "Scope",
    "FormulaParam",
    "Ctx",
    "EMPTY",
    "inlinable",
    "arity_message",
    "did_you_mean",
]


@dataclass
class Entry:
    """A top-level name: ``kind`` is param, const, var, set or formula."""

    kind: str
    span: Span
    value: object = None  # params and consts
    decl: ir.VarDecl | None = None  # variables
    definition: atl.Definition | None = None  # sets and formulas


@dataclass
class Scope:
    """The names visible at the top level, filled in declaration order.

    ``declared`` holds every top-level name of the model from the start (to
    tell "used before its declaration" from "unknown"), ``entries`` those
    checked so far, ``players`` the players once declared.
    """

    entries: dict[str, Entry] = field(default_factory=dict)
    declared: dict[str, tuple[str, Span]] = field(default_factory=dict)
    players: tuple[int, ...] | None = None
    #: the set or formula whose body is being checked (to call self-reference recursion)
    defining: str | None = None

    def visible(self) -> list[str]:
        """The names usable now."""
        return list(self.entries)

    def require_players(self, span: Span) -> tuple[int, ...]:
        """The players, or an error at ``span`` if they are not declared yet."""
        if self.players is None:
            raise UnknownName("'players' is used before the players declaration", span)
        return self.players

    def unknown_name(
        self, name: str, span: Span, ctx: "Ctx", functions: bool = False
    ) -> UnknownName:
        """The error for a name that means nothing here, with a suggestion."""
        if name in self.declared and name not in self.entries:
            kind, where = self.declared[name]
            if name == self.defining:
                return UnknownName(
                    f"'{name}' refers to itself: a {kind} cannot be recursive "
                    f"(fixpoints are written with the strategic operators "
                    f"U, R, <> and [])",
                    span,
                )
            return UnknownName(
                f"'{name}' is used before its declaration as a {kind} "
                f"(line {where.line}); declare it earlier",
                span,
            )
        pool = list(ctx.bound) + list(ctx.fparams) + self.visible()
        if functions:
            pool += list(BUILTINS)
        msg = f"unknown {'function' if functions else 'name'} '{name}'"
        return UnknownName(msg + did_you_mean(name, pool), span)


@dataclass
class FormulaParam:
    """A parameter of a formula being checked, and how it has been used."""

    name: str
    kind: str | None  # declared kind ("int" | "coalition") or None to infer
    span: Span
    used_as_int: bool = False


@dataclass(frozen=True)
class Ctx:
    """What an expression may see besides the top level: bound names, formula
    parameters, and whether primed variables are allowed."""

    bound: Mapping[str, Typed] = field(default_factory=dict)
    fparams: Mapping[str, FormulaParam] = field(default_factory=dict)
    primes: bool = False
    #: the values of the names bound by a quantifier read symbolically (``does`` checks
    #: its instances against them)
    domains: Mapping[str, tuple] = field(default_factory=dict)

    def bind(self, name: str, t: Typed) -> "Ctx":
        """This context with ``name`` bound to ``t``."""
        return replace(self, bound={**self.bound, name: t})

    def is_local(self, name: str) -> bool:
        """True when ``name`` is a bound name or a formula parameter here."""
        return name in self.bound or name in self.fparams

    def check_unbound(self, ident: ast.Ident) -> None:
        """A bound name may hide a top-level name, not another bound name."""
        if self.is_local(ident.name):
            raise UnknownName(
                f"'{ident.name}' is already bound here; choose another name", ident.span
            )


#: the context of a top-level expression
EMPTY = Ctx()


def inlinable(d: atl.Definition) -> bool:
    """A definition usable inside state expressions: a state predicate with int parameters."""
    return isinstance(d.body, atl.Prop) and all(k == "int" for _, k in d.params)


def arity_message(d: atl.Definition, got: int, kind: str) -> str:
    """The message for a set or formula called with ``got`` arguments."""
    names = ", ".join(p for p, _ in d.params)
    want = len(d.params)
    if want == 0:
        return f"{kind} '{d.name}' takes no arguments, got {got}"
    return f"{kind} '{d.name}' takes {want} argument{'s' if want != 1 else ''} ({names}), got {got}"


def did_you_mean(name: str, pool) -> str:
    """`` (did you mean 'x'?)`` for the closest name of ``pool``, or nothing.

    >>> did_you_mean("kmax", ["Kmax", "x"]), did_you_mean("zzz", ["x"])
    (" (did you mean 'Kmax'?)", '')
    """
    pool = sorted(set(pool))
    lower = {p.lower(): p for p in pool}
    if name.lower() in lower and lower[name.lower()] != name:
        return f" (did you mean '{lower[name.lower()]}'?)"
    close = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""

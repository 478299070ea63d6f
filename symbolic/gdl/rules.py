"""GDL rules from KIF forms: facts and ``(<= head body...)`` rules, with their literals.

Terms are plain Python values: a constant is a ``str``, a variable a ``str``
starting with ``?``, a compound term ``(f a b)`` the tuple ``("f", "a", "b")``.
An atom is ``(relation, args)``. A body literal is one of

- ``("pos", atom)`` and ``("neg", atom)`` (``(not atom)``), where ``true`` and
  ``does`` are ordinary relation names here;
- ``("distinct", s, t)``.

``(or ...)`` (possibly nested, with ``(and ...)`` inside) is expanded: a rule
whose body has a disjunction becomes one rule per disjunct.

>>> from .kif import parse_kif
>>> r = read_rules(parse_kif("(<= (p ?x) (q ?x) (or (r ?x) (not (s ?x))))"))
>>> [(x.head, x.body) for x in r]
[(('p', ('?x',)), (('pos', ('q', ('?x',))), ('pos', ('r', ('?x',))))), (('p', ('?x',)), (('pos', ('q', ('?x',))), ('neg', ('s', ('?x',)))))]
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from ..errors import ModelError, Span
from .kif import Form, SList, Sym, Variable

__all__ = ["Rule", "read_rules", "is_var", "variables", "KEYWORDS"]

#: words with a fixed meaning in GDL bodies; they cannot head a rule
KEYWORDS = ("true", "does", "not", "distinct", "or", "and", "<=")


@dataclass(frozen=True)
class Rule:
    """``head :- body`` (a fact has an empty body)."""

    head: tuple
    body: tuple
    span: Span | None = field(default=None, compare=False, repr=False)


def is_var(t) -> bool:
    return isinstance(t, str) and t[:1] == "?"


def variables(t) -> set:
    """The variables of a term, atom or literal (nested tuples)."""
    if t.__class__ is str:
        return {t} if t[:1] == "?" else set()
    out: set = set()
    for x in t:
        if x.__class__ is str:
            if x[:1] == "?":
                out.add(x)
        else:
            out |= variables(x)
    return out


def _term(f: Form):
    if isinstance(f, Sym):
        return f.name
    if isinstance(f, Variable):
        return f.name
    if not f.items:
        raise ModelError("an empty list '()' is not a term", f.span)
    head = f.items[0]
    if not isinstance(head, Sym):
        raise ModelError(f"a compound term starts with a function name, not {head}", head.span)
    return (head.name,) + tuple(_term(x) for x in f.items[1:])


def _atom(f: Form, role: str):
    """``(relation, args)`` of a sentence form (a symbol or a list headed by a symbol)."""
    if isinstance(f, Variable):
        raise ModelError(f"a variable cannot stand for a whole {role}", f.span)
    if isinstance(f, Sym):
        return (f.name, ())
    if not f.items or not isinstance(f.items[0], Sym):
        raise ModelError(f"expected a {role} such as (relation arg ...)", f.span)
    return (f.items[0].name, tuple(_term(x) for x in f.items[1:]))


def _arity(f: SList, n: int, what: str) -> None:
    if len(f.items) != n + 1:
        raise ModelError(
            f"({what} ...) takes {n} argument{'s' if n > 1 else ''}, got {len(f.items) - 1}", f.span
        )


def _literal(f: Form) -> list[tuple]:
    """The disjuncts of one body literal, each a tuple of literals (``or`` expands)."""
    if isinstance(f, SList) and f.items and isinstance(f.items[0], Sym):
        key = f.items[0].name
        if key == "not":
            _arity(f, 1, "not")
            inner = f.items[1]
            if (
                isinstance(inner, SList)
                and inner.items
                and isinstance(inner.items[0], Sym)
                and inner.items[0].name in ("or", "and", "not", "distinct")
            ):
                if inner.items[0].name == "distinct":
                    _arity(inner, 2, "distinct")
                    return [
                        (("neg", ("distinct", (_term(inner.items[1]), _term(inner.items[2])))),)
                    ]
                raise ModelError(
                    f"(not ({inner.items[0].name} ...)) is not supported: "
                    "negate an atom (define a helper relation)",
                    inner.span,
                )
            return [(("neg", _body_atom(inner)),)]
        if key == "distinct":
            _arity(f, 2, "distinct")
            return [(("distinct", _term(f.items[1]), _term(f.items[2])),)]
        if key == "or":
            return [d for x in f.items[1:] for d in _literal(x)]
        if key == "and":
            return _conjunction(f.items[1:])
        if key == "<=":
            raise ModelError("a rule (<= ...) cannot appear inside a body", f.span)
        if key == "true":
            _arity(f, 1, "true")
        if key == "does":
            _arity(f, 2, "does")
    return [(("pos", _body_atom(f)),)]


def _body_atom(f: Form):
    """The atom of a body literal; ``next`` is refused there (GDL: only in rule heads)."""
    atom = _atom(f, "literal")
    if atom[0] == "next":
        raise ModelError(
            "'next' may only appear in the head of a rule (GDL): it defines the "
            "next state; read the current one with (true ...) in a body",
            f.span,
        )
    return atom


def _conjunction(forms) -> list[tuple]:
    out = []
    for combo in itertools.product(*(_literal(x) for x in forms)):
        out.append(tuple(lit for part in combo for lit in part))
    return out


def _check_safe(head, body, span) -> None:
    """GDL safety: every variable of the head, of a negation and of a distinct
    occurs in a positive literal of the body."""
    bound = set().union(*(variables(lit[1]) for lit in body if lit[0] == "pos")) if body else set()
    for what, part in [("the head", head)] + [
        ("a negation" if lit[0] == "neg" else "a distinct", lit[1:])
        for lit in body
        if lit[0] != "pos"
    ]:
        free = sorted(variables(part) - bound)
        if free:
            raise ModelError(
                f"unsafe rule: variable {free[0]} of {what} occurs in no positive "
                "literal of the body",
                span,
            )


def read_rules(forms: list[Form]) -> list[Rule]:
    """The rules of a GDL description (facts have an empty body); located
    ModelErrors for constructs GDL does not allow or this reader does not support."""
    rules = []
    for f in forms:
        if (
            isinstance(f, SList)
            and f.items
            and isinstance(f.items[0], Sym)
            and f.items[0].name == "<="
        ):
            if len(f.items) < 2:
                raise ModelError("a rule (<= head body...) needs a head", f.span)
            head = _atom(f.items[1], "rule head")
            bodies = _conjunction(f.items[2:])
        else:
            head = _atom(f, "fact")
            bodies = [()]
        if head[0] in KEYWORDS:
            raise ModelError(f"'{head[0]}' cannot be defined by a rule or a fact", f.span)
        for body in bodies:
            # (not (distinct a b)) is a = b: kept as its own literal kind
            body = tuple(
                ("same",) + lit[1][1] if lit[0] == "neg" and lit[1][0] == "distinct" else lit
                for lit in body
            )
            _check_safe(head, body, f.span)
            rules.append(Rule(head, body, f.span))
    return rules

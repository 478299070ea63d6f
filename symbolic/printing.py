"""ATL formulas and state expressions printed back as model-language text.

Definition. :func:`formula_text` writes a checked formula (:mod:`symbolic.atl`) in the
syntax the model language reads (``docs/language.md``), :func:`expr_text` an IR state
expression, :func:`coalition_text` a coalition: reading the text back with
``model.formula`` gives the same formula (``tests/test_printing.py`` checks it on every
query of every shipped model and on random formulas). Parentheses appear only where the
precedence table of the language needs them; ``if``, ``forall`` and ``exists``, whose
last part extends to the right, are always parenthesized. Derived operators print in
their short forms: ``<<J>> <> g`` for ``<<J>> true U g``, ``<<J>> [] g`` for
``<<J>> false R g``. Every node class has a rule; an unknown one raises.

>>> from symbolic import atl, ir
>>> k = ir.Var("k")
>>> one = atl.CoalitionLit((1,))
>>> formula_text(atl.Until(one, atl.Prop(ir.conj([k > 0, k < 3])), atl.Not(atl.Turn(one))))
'<<{1}>> (k > 0 and k < 3) U (not turn({1}))'
>>> formula_text(atl.Eventually(atl.AllPlayers(), atl.Prop(((k + 1) * 2).eq(k))))
'<<players>> <> (k + 1) * 2 = k'
"""

from __future__ import annotations

from typing import Callable

from . import atl, ir

__all__ = ["coalition_text", "expr_text", "formula_text"]

#: the precedence levels of docs/language.md ("Operators and precedence")
IFF, IMPLIES, OR, AND, PREFIX, COMPARE, RANGE, ADD, MUL, NEG, INDEX, ATOM = range(1, 13)

#: a binary operator: (its level, the least level of its left and right operands, spelling)
_BINARY = {
    "iff": (IFF, IMPLIES, IMPLIES, "iff"),
    "implies": (IMPLIES, OR, IMPLIES, "implies"),
    "or": (OR, OR, AND, "or"),
    "and": (AND, AND, PREFIX, "and"),
    "==": (COMPARE, RANGE, RANGE, "="),
    "!=": (COMPARE, RANGE, RANGE, "!="),
    "<": (COMPARE, RANGE, RANGE, "<"),
    "<=": (COMPARE, RANGE, RANGE, "<="),
    ">": (COMPARE, RANGE, RANGE, ">"),
    ">=": (COMPARE, RANGE, RANGE, ">="),
    "+": (ADD, ADD, MUL, "+"),
    "-": (ADD, ADD, MUL, "-"),
    "*": (MUL, MUL, NEG, "*"),
    "//": (MUL, MUL, NEG, "div"),
    "%": (MUL, MUL, NEG, "mod"),
}


def _wrap(text: str, level: int, least: int) -> str:
    """``text`` of precedence ``level``, in parentheses where ``least`` is asked."""
    return f"({text})" if level < least else text


# --------------------------------------------------------------------------- expressions


def expr_text(e: ir.Expr, least: int = 0) -> str:
    """An IR state expression as model-language text, parenthesized when its level is
    below ``least``.

    >>> expr_text(ir.Binary("//", -ir.Var("x"), ir.Const(2)).eq(ir.Const(-1)))
    '-x div 2 = -1'
    """
    text, level = _expr(e)
    return _wrap(text, level, least)


def _expr(e: ir.Expr) -> tuple[str, int]:
    rule = _EXPR.get(type(e))
    if rule is None:
        raise AssertionError(e)
    return rule(e)


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, tuple):
        return "(" + ", ".join(map(_value, v)) + ("," if len(v) == 1 else "") + ")"
    raise AssertionError(v)


def _const(e: ir.Const) -> tuple[str, int]:
    text = _value(e.value)
    return text, NEG if text.startswith("-") else ATOM


def _domain(values: tuple) -> str:
    """A binder's domain: ``lo..hi`` when it is a run of ints, else a set literal."""
    ints = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
    if ints and len(values) > 1 and list(values) == list(range(values[0], values[-1] + 1)):
        return f"{_value(values[0])}..{_value(values[-1])}"
    return "{" + ", ".join(map(_value, values)) + "}"


def _unary(e: ir.Unary) -> tuple[str, int]:
    if e.op == "-":
        return "-" + expr_text(e.arg, NEG), NEG
    if e.op == "not":
        return "not " + expr_text(e.arg, PREFIX), PREFIX
    raise AssertionError(e.op)


def _binary(e: ir.Binary) -> tuple[str, int]:
    level, left, right, word = _BINARY[e.op]
    return f"{expr_text(e.left, left)} {word} {expr_text(e.right, right)}", level


def _elem(e: ir.Elem) -> tuple[str, int]:
    return f"{e.array}{chr(39) if e.primed else ''}[{expr_text(e.index)}]", INDEX


_EXPR: dict[type, Callable] = {
    ir.Const: _const,
    ir.Name: lambda e: (e.name, ATOM),
    ir.Var: lambda e: (e.name + ("'" if e.primed else ""), ATOM),
    ir.Elem: _elem,
    ir.Item: lambda e: (f"{expr_text(e.base, INDEX)}[{expr_text(e.index)}]", INDEX),
    ir.Unary: _unary,
    ir.Binary: _binary,
    ir.Ite: lambda e: (
        f"(if {expr_text(e.cond)} then {expr_text(e.then)} else {expr_text(e.other)})",
        ATOM,
    ),
    ir.Quant: lambda e: (f"({e.kind} {e.var} in {_domain(e.domain)}: {expr_text(e.body)})", ATOM),
    ir.Sum: lambda e: (f"sum({expr_text(e.body)} for {e.var} in {_domain(e.domain)})", ATOM),
}


# --------------------------------------------------------------------------- coalitions


def coalition_text(c: atl.Coalition, nested: bool = False) -> str:
    """A coalition as the language writes it: ``{1, 2}``, ``players``, ``J``,
    ``players \\ {p}`` (``nested``: an operation in parentheses).

    >>> print(coalition_text(atl.CoalitionOp("\\\\", atl.AllPlayers(), atl.CoalitionLit(("p",)))))
    players \\ {p}
    """
    if isinstance(c, atl.CoalitionLit):
        return "{" + ", ".join(map(str, c.members)) + "}"
    if isinstance(c, atl.AllPlayers):
        return "players"
    if isinstance(c, atl.CoalitionRef):
        return c.name
    if isinstance(c, atl.CoalitionOp):
        text = f"{coalition_text(c.left, True)} {c.op} {coalition_text(c.right, True)}"
        return f"({text})" if nested else text
    raise AssertionError(c)


def _strategic(c: atl.Coalition) -> str:
    """``<<J>>``: a coalition expression inside the brackets."""
    return f"<<{coalition_text(c)}>>"


# --------------------------------------------------------------------------- formulas


def formula_text(f: atl.Formula, least: int = 0) -> str:
    """A formula as model-language text (module docstring), parenthesized when its
    level is below ``least``.

    >>> formula_text(atl.BoolOp("and", atl.Ref("legal"), atl.Not(atl.Ref("wins", (1,)))))
    'legal and not wins(1)'
    """
    rule = _FORMULA.get(type(f))
    if rule is None:
        raise AssertionError(f)
    text, level = rule(f)
    return _wrap(text, level, least)


def _ref(f: atl.Ref) -> tuple[str, int]:
    if not f.args:
        return f.name, ATOM
    return f"{f.name}({', '.join(map(_argument, f.args))})", ATOM


def _argument(a) -> str:
    if isinstance(a, atl.Coalition):
        return coalition_text(a)
    if isinstance(a, ir.Expr):
        return expr_text(a)
    if isinstance(a, int):
        return _value(a)
    raise AssertionError(a)


def _bool_op(f: atl.BoolOp) -> tuple[str, int]:
    level, left, right, word = _BINARY[f.op]
    return f"{formula_text(f.left, left)} {word} {formula_text(f.right, right)}", level


def _until(f: atl.Until) -> tuple[str, int]:
    J = _strategic(f.coalition)
    if f.left == atl.Truth(True):
        return f"{J} <> {formula_text(f.right, PREFIX)}", PREFIX
    return f"{J} {formula_text(f.left, COMPARE)} U {formula_text(f.right, COMPARE)}", PREFIX


def _release(f: atl.Release) -> tuple[str, int]:
    J = _strategic(f.coalition)
    if f.left == atl.Truth(False):
        return f"{J} [] {formula_text(f.right, PREFIX)}", PREFIX
    return f"{J} {formula_text(f.left, COMPARE)} R {formula_text(f.right, COMPARE)}", PREFIX


_FORMULA: dict[type, Callable] = {
    atl.Truth: lambda f: ("true" if f.value else "false", ATOM),
    atl.Turn: lambda f: (f"turn({coalition_text(f.coalition)})", ATOM),
    atl.Prop: lambda f: _expr(f.expr),
    atl.Ref: _ref,
    atl.Not: lambda f: ("not " + formula_text(f.arg, PREFIX), PREFIX),
    atl.BoolOp: _bool_op,
    atl.Next: lambda f: (f"{_strategic(f.coalition)} X {formula_text(f.arg, PREFIX)}", PREFIX),
    atl.Until: _until,
    atl.Release: _release,
    atl.Reach: lambda f: (f"reach({formula_text(f.arg)})", ATOM),
}

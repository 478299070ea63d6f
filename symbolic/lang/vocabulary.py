"""The vocabulary of the model language: every keyword, operator and punctuation
spelling, grouped by role, each mapped to its canonical name.

This is the one table of spellings (in the spirit of dd's ``dd/_abc.py``).
The grammar (``grammar.lark``) necessarily spells the same literals; a test
checks that its string terminals and this table agree exactly. Every other
set the front end uses (keywords, reserved words, the tokens that start an
expression, the connectives of formulas, the operators of coalitions...) is
derived here from the groups, never retyped.

A canonical name is what the AST stores: ``ast.Binary.op``, ``ast.Unary.op``,
``ast.Quantifier.kind`` and ``ast.Strategic.op`` take their values from
:data:`OPERATORS`. Keywords and punctuation are their own canonical names,
except the Unicode coalition brackets ``⟨⟨ ⟩⟩`` (``<< >>``).

Keyword policy. Every word of the table is a keyword (:data:`KEYWORDS`). The
words of the temporal operators (``X``, ``U``) are *soft*
(:data:`SOFT_KEYWORDS`): the parser, whose lexer is contextual, reads them as
operators only where an operator may stand (``<<1>> X p``, ``<<1>> p U q``)
and as names anywhere else (``var U : 0..3``, ``const X = 2``), so adding a
temporal operator breaks no model that uses its letter as a name. Every other
keyword is reserved (:data:`RESERVED`): it is never a name, and using one as
a name is a syntax error ("'if' is a reserved word").

Adding an ATL operator touches three places of the front end, one line each
(this is how release ``<<J>> f R g`` was added):

1. ``grammar.lark``: its spelling in the rule ``infix_temporal_op`` (or
   ``prefix_temporal_op`` for a prefix operator such as ``X``);
2. this module: ``"R": "R"`` in :data:`TEMPORAL_INFIX` (a word, hence a soft
   keyword);
3. ``formulas.py``: ``"R": atl.Release`` in the table of strategic operators
   of the formula checker.

The parser, its error messages and the keyword policy follow from the table.

>>> OPERATORS["∧"], OPERATORS["div"], OPERATORS["not in"], OPERATORS["◇"]
('and', '//', 'notin', '<>')
>>> "if" in RESERVED, "U" in RESERVED, "U" in SOFT_KEYWORDS
(True, False, True)
>>> sorted(set(SLIPS) & TOKENS), sorted(set(SLIPS.values()) - TOKENS)
([], [])
"""

from __future__ import annotations

__all__ = [
    "DECLARATIONS",
    "OUTCOME_RULES",
    "DECLARATION_WORDS",
    "EXPRESSION_OPENERS",
    "EXPRESSION_WORDS",
    "PREFIX",
    "CONNECTIVES",
    "COMPARISONS",
    "ARITHMETIC",
    "QUANTIFIERS",
    "TEMPORAL_PREFIX",
    "TEMPORAL_INFIX",
    "BRACKETS",
    "PUNCTUATION",
    "LOGIC",
    "COALITION_OPERATORS",
    "PARAMETER_KINDS",
    "OPERATORS",
    "TEMPORAL",
    "GROUPS",
    "TOKENS",
    "KEYWORDS",
    "SOFT_KEYWORDS",
    "RESERVED",
    "EXPRESSION_START",
    "INFIX_OPERATORS",
    "FORMULA_FUNCTION_NAMES",
    "SLIPS",
]


def _same(*spellings: str) -> dict[str, str]:
    """Spellings that are their own canonical names."""
    return {s: s for s in spellings}


# --------------------------------------------------------------------------- keywords

#: the top-level declarations (in the order error messages list them)
DECLARATIONS = _same(
    "game",
    "description",
    "param",
    "const",
    "players",
    "var",
    "turn",
    "invariant",
    "move",
    "set",
    "formula",
    "query",
    "display",
    "concurrent",
    "action",
    "update",
    "outcome",
)

#: the outcome rules of ``outcome RULE`` (:mod:`symbolic.ir.outcome`): normal play, misère
#: play, the model's win(p) sets
OUTCOME_RULES = ("normal", "misere", "win")

#: words inside declarations: types (``array[1..3] of bool``) and moves (``when``, ``then``)
DECLARATION_WORDS = _same("bool", "array", "of", "when", "then")

#: words that start an expression: literals, the set of players, ``turn(J)``, if-then-else
EXPRESSION_OPENERS = _same("true", "false", "players", "turn", "if")

#: words inside expressions: if-then-else, binders (``x in D``), comprehensions
EXPRESSION_WORDS = _same("then", "else", "for", "in")

# --------------------------------------------------------------------------- operators

#: prefix operators: boolean negation and arithmetic negation
PREFIX = {"not": "not", "!": "not", "~": "not", "¬": "not", "-": "-"}

#: boolean connectives; ``|`` and ``&`` stay apart from ``or`` and ``and``
#: because they are also set union and intersection
CONNECTIVES = {
    "iff": "iff",
    "<=>": "iff",
    "⇔": "iff",
    "implies": "implies",
    "=>": "implies",
    "⇒": "implies",
    "or": "or",
    "\\/": "or",
    "∨": "or",
    "|": "|",
    "and": "and",
    "/\\": "and",
    "∧": "and",
    "&": "&",
}

#: comparisons (they chain: ``a < b <= c``) and membership
COMPARISONS = {
    "==": "==",
    "=": "==",
    "!=": "!=",
    "/=": "!=",
    "≠": "!=",
    "<": "<",
    "<=": "<=",
    "≤": "<=",
    ">": ">",
    ">=": ">=",
    "≥": ">=",
    "in": "in",
    "∈": "in",
    "not in": "notin",
    "∉": "notin",
}

#: arithmetic and set difference (``\\``); ``/`` is only there to be rejected kindly
ARITHMETIC = {"+": "+", "-": "-", "\\": "\\", "*": "*", "div": "//", "%": "%", "mod": "%", "/": "/"}

#: quantifiers over constant domains
QUANTIFIERS = {"forall": "forall", "∀": "forall", "exists": "exists", "∃": "exists"}

#: strategic operators written between the coalition and their formula: ``<<J>> X f``
TEMPORAL_PREFIX = {"X": "X", "○": "X", "<>": "<>", "◇": "<>", "[]": "[]", "□": "[]"}

#: strategic operators written between two formulas: ``<<J>> f U g``
TEMPORAL_INFIX = {"U": "U", "R": "R"}

# --------------------------------------------------------------------------- punctuation

#: opening brackets and their closers (``<< >>`` enclose a coalition)
BRACKETS = {"(": ")", "[": "]", "{": "}", "<<": ">>", "⟨⟨": "⟩⟩"}

#: punctuation (``=`` also defines, in ``const c = 3``; ``'`` primes a variable)
PUNCTUATION = {
    **_same("(", ")", "[", "]", "{", "}", "<<", ">>", ",", ":", ";", "..", "=", "'"),
    "⟨⟨": "<<",
    "⟩⟩": ">>",
}

# --------------------------------------------------------------------------- by meaning

#: canonical operator -> the boolean connective it is between formulas
#: (``|`` and ``&`` are ``or`` and ``and`` on booleans)
LOGIC = {op: {"|": "or", "&": "and"}.get(op, op) for op in CONNECTIVES.values()}

#: canonical operator -> the coalition operator it is between coalitions:
#: union (``|``, ``or``, ``+``), intersection (``&``, ``and``), difference (``\\``, ``-``)
COALITION_OPERATORS = {"|": "|", "or": "|", "+": "|", "&": "&", "and": "&", "\\": "\\", "-": "\\"}

#: the kinds a set or formula parameter may be declared with (``formula f(J: coalition)``);
#: these are names, not keywords
PARAMETER_KINDS = {"int": "int", "player": "int", "coalition": "coalition"}

# --------------------------------------------------------------------------- derived


def _merge(*groups: dict[str, str]) -> dict[str, str]:
    """The union of groups, where a spelling shared by two groups means one thing."""
    out: dict[str, str] = {}
    for group in groups:
        for spelling, canonical in group.items():
            if out.setdefault(spelling, canonical) != canonical:
                raise AssertionError(spelling)
    return out


#: every operator spelling -> its canonical name (what the AST stores)
OPERATORS = _merge(
    PREFIX, CONNECTIVES, COMPARISONS, ARITHMETIC, QUANTIFIERS, TEMPORAL_PREFIX, TEMPORAL_INFIX
)

#: the strategic operators, prefix and infix
TEMPORAL = _merge(TEMPORAL_PREFIX, TEMPORAL_INFIX)

#: every group of spellings of the grammar
GROUPS = (
    DECLARATIONS,
    DECLARATION_WORDS,
    EXPRESSION_OPENERS,
    EXPRESSION_WORDS,
    PREFIX,
    CONNECTIVES,
    COMPARISONS,
    ARITHMETIC,
    QUANTIFIERS,
    TEMPORAL_PREFIX,
    TEMPORAL_INFIX,
    PUNCTUATION,
)


def _tokens(*groups: dict[str, str]) -> frozenset[str]:
    """The single tokens of the spellings of ``groups`` (``not in`` is two tokens)."""
    return frozenset(token for group in groups for s in group for token in s.split())


#: every literal token of the language (the grammar's string terminals)
TOKENS = _tokens(*GROUPS)

#: the tokens that are words
KEYWORDS = frozenset(t for t in TOKENS if t.isidentifier())

#: keywords that are names where the parser expects no operator: the temporal letters
SOFT_KEYWORDS = frozenset(s for s in TEMPORAL if s.isidentifier())

#: keywords that are never names
RESERVED = KEYWORDS - SOFT_KEYWORDS

#: the literal tokens an expression may start with
EXPRESSION_START = _tokens(EXPRESSION_OPENERS, PREFIX, QUANTIFIERS) | (frozenset(BRACKETS) - {"["})

#: the literal tokens of the binary operators that may follow an operand
INFIX_OPERATORS = _tokens(CONNECTIVES, COMPARISONS, ARITHMETIC)


#: names of the functions on formulas (``reach(F)``), called like builtins; not
#: keywords: a model may declare a set or formula of the same name, which wins
FORMULA_FUNCTION_NAMES = frozenset({"reach"})

#: spellings of other languages that are not tokens here, with the one to write
#: instead (the hints of syntax errors: ``c' := c + d`` is written ``c' = c + d``)
SLIPS = {":=": "=", "&&": "and", "||": "or", "->": "implies"}

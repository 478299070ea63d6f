"""The model language front end: text -> lark parse tree -> AST -> checked IR.

- :mod:`.vocabulary`: every keyword, operator and punctuation spelling, by role;
- :mod:`.builtins`: the constant functions (``lcg``, ``len``, ``xor``...);
- :mod:`.ast`: dataclass nodes with source spans, and their traversal;
- :mod:`.grammar`: the grammar (``grammar.lark``), the keyword policy and the
  LALR parser, cached on disk;
- :mod:`.source`: spans of the text being parsed;
- :mod:`.comments`: the located warning for a ``//`` that reads as the rest of an expression;
- :mod:`.syntax_errors`: lark's syntax errors as messages in human terms;
- :mod:`.builder`: the parse tree to the AST;
- :mod:`.driver`: text to AST fast, on lark's own tables and lexers (no parse tree);
- :mod:`.parser`: the entry points, text to AST;
- :mod:`.types`: the checker's types and typed results (:class:`~.types.Known`,
  :class:`~.types.Sym`);
- :mod:`.scope`: the top-level names table and an expression's local context;
- :mod:`.checked`: a checked model's parts, :class:`~.checked.CheckedModel` and its
  queries, apart from the checker (a front end that builds its model as objects loads only
  this);
- :mod:`.core`: what the checker's parts use of it, declared once for the type checker;
- :mod:`.calls`, :mod:`.operators`, :mod:`.binders`, :mod:`.exprs`: expressions to
  load-time values or :mod:`symbolic.ir` (calls, operators, quantifiers and
  comprehensions, then the checker that dispatches to them);
- :mod:`.formulas`: formulas to :mod:`symbolic.atl`;
- :mod:`.display`: a model's ``display`` to :mod:`symbolic.display` nodes;
- :mod:`.actions`: a concurrent game's actions, updates and ``does(p, a)``;
- :mod:`.depth`: how deep a definition's body nests once the sets it names are expanded;
- :mod:`.params`: ``param`` declarations and the overrides of their values;
- :mod:`.decls`: every declaration, in order, to a :class:`~.decls.CheckedModel`;
- :mod:`.arena`: the TD's JSON arenas read into the AST (a second front end).

Each module imports only modules listed before it, and none imports
:mod:`symbolic.model`, which holds the public entry points (``load_model``,
``parse_model``, ``parse_formula``, ``parse_state_expr``). See
``docs/language.md``.

The names below load their modules on first use (PEP 562), so that a front end that
builds its models as objects (:mod:`symbolic.aiger.build`) imports the checker's
types without the parser and lark.
"""

import importlib

#: {public name: the module defining it}
_HOMES = {
    "CheckedModel": "checked",
    "KEYWORDS": "vocabulary",
    "Query": "checked",
    "check_formula": "formulas",
    "check_model": "decls",
    "check_state_expr": "formulas",
    "parse_formula_text": "parser",
    "parse_model_text": "parser",
}


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)


__all__ = [
    "CheckedModel",
    "KEYWORDS",
    "Query",
    "check_formula",
    "check_model",
    "check_state_expr",
    "parse_formula_text",
    "parse_model_text",
]

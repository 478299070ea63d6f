"""The model language front end: text -> lark parse tree -> AST -> checked IR.

- :mod:`.parser`: the grammar (``grammar.lark``), the AST builder and syntax errors;
- :mod:`.vocabulary`: every keyword and operator spelling and its canonical name;
- :mod:`.ast`: dataclass nodes with source spans;
- :mod:`.check`: names, constants, types; produces :mod:`symbolic.ir` and
  :mod:`symbolic.atl` objects;
- :mod:`.builtins`: the constant functions (``lcg``, ``len``, ``xor``...).

The public entry points are in :mod:`symbolic.model` (``load_model``,
``parse_model``, ``parse_formula``). See ``docs/language.md``.
"""
from .parser import parse_formula_text, parse_model_text
from .vocabulary import KEYWORDS

__all__ = ["KEYWORDS", "parse_formula_text", "parse_model_text"]

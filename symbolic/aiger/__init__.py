"""AIGER circuits (SYNTCOMP's safety games): reading ``.aag`` / ``.aig`` files and writing them.

A front end: it turns a file into a :class:`Circuit` (arrays of literals and
the symbol table's names) and knows nothing of engines. Modules, each
importing only those before it: ``circuit`` (the dataclass, one-step
simulation), ``text`` (lines, fields, located errors), ``checks``
(definitions, uses, the gates' order), ``reader`` (:func:`read_aiger`,
:func:`parse_aiger`), ``writer`` (:func:`to_aag`, :func:`to_aig`).

>>> parse_aiger("aag 1 1 0 1 0\\n2\\n3\\ni0 u\\n").output_names
('',)
"""

from .circuit import CONTROLLABLE, Circuit, literal_value, simulate
from .reader import parse_aiger, read_aiger
from .writer import canonical, to_aag, to_aig

__all__ = [
    "CONTROLLABLE",
    "Circuit",
    "canonical",
    "literal_value",
    "parse_aiger",
    "read_aiger",
    "simulate",
    "to_aag",
    "to_aig",
]

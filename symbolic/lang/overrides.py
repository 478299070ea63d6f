"""Parameter override values (the `params` of a model) read as ints or booleans.

>>> override_value("n", " 3", None), override_value("b", "true", None), show_value(False)
(3, True, 'false')
"""

from __future__ import annotations

from ..errors import RangeError, Span, WrongType
from ..limits import MAX_INT_DIGITS, is_int_text


def show_value(v) -> str:
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

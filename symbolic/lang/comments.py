"""Warnings about comments that look like code: ``//`` is a line comment in a model, so
``k // 2`` (Python's floor division, written ``div`` here) silently drops the rest of the
line. :func:`division_warnings` finds a ``//`` right after an operand (a name, a number,
``)``, ``]`` or a primed name) whose comment text reads as the rest of an expression (terms
joined by operators, the first a number or ``(`` or followed by an operator), and gives a located warning for each.
A trailing comment in words (``move take(d in R)  // one instance per d``) is not warned.

>>> text = "game g\\nvar k : 0..9\\nset half = k // 2 == 1\\n"
>>> for w in division_warnings(text, "m.game"):
...     print(w)
m.game:3:14: warning: '//' starts a comment: the rest of the line ('// 2 == 1') is not read; integer division is written 'div'
    set half = k // 2 == 1
                 ^^^^^^^^^
>>> division_warnings("move take(d in R)  // one instance per d in R", "m.game")
[]
"""

from __future__ import annotations

import re

from ..errors import Span

__all__ = ["division_warnings"]

_BLOCK = re.compile(r"/\*.*?\*/", re.S)
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
# an operand's last character, spaces, then the comment
_AFTER_OPERAND = re.compile(r"[\w)\]'](\s*)(//.*)$")
# the comment text as the tail of an expression: a number or "(" first, or words and
# numbers joined by operators or the ";" between updates (never two words in a row, as
# prose has: `k' = k // 2; j' = 3 - j` is code, `// 2 rows; then more` is not)
_TERM = r"[\w\[\]().']+"
_OP = r"\s*(?:[-+*%<>=!]=?|;|div|mod|and|or)\s*"
_CODE = re.compile(rf"\s*(?:[\d(][^\s;]*|{_TERM}(?:{_OP}{_TERM})+)(?:{_OP}{_TERM})*\s*;?\s*$")


def _blank(match: re.Match) -> str:
    """The matched text with every character but newlines made a space."""
    return re.sub(r"[^\n]", " ", match.group(0))


def division_warnings(text: str, filename: str) -> list[str]:
    """One located warning (``FILE:LINE:COL: warning: ...``) for each ``//`` of ``text``
    that follows an operand and reads as code (see the module's doc)."""
    shown = text.split("\n")
    # block comments and strings do not hold a comment: blank them, keeping the columns
    masked = _STRING.sub(_blank, _BLOCK.sub(_blank, text)).split("\n")
    out = []
    for number, line in enumerate(masked, 1):
        if "//" not in line:
            continue
        first = line.index("//")
        m = _AFTER_OPERAND.search(line)
        if m is None or m.start(2) != first:
            continue
        comment = shown[number - 1][first:].rstrip("\r")
        if not _CODE.match(comment[2:]):
            continue
        span = Span(filename, number, first + 1, shown[number - 1].rstrip("\r"), len(comment))
        out.append(
            span.render(
                f"'//' starts a comment: the rest of the line ({comment!r}) is not read; "
                "integer division is written 'div'",
                "warning",
            )
        )
    return out

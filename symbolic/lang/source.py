"""Spans of a text being parsed: :class:`Source` makes the
:class:`~symbolic.errors.Span` of a line and column, a lark token or a parse-tree
node; :func:`join_spans` joins two.

>>> s = Source("a + bc", "f")
>>> join_spans(s.span(1, 1, 1, 2), s.span(1, 5, 1, 7))
Span(file='f', line=1, column=1, text='a + bc', length=6)
"""

from __future__ import annotations

import contextlib
import gc

from lark import Token

from ..errors import Span

__all__ = ["Source", "join_spans", "paused_gc"]


class Source:
    """A text being parsed, able to make spans.

    >>> Source("a\\nbcd", "f").span(2, 2, 2, 4)
    Span(file='f', line=2, column=2, text='bcd', length=2)
    """

    def __init__(self, text: str, filename: str):
        self.text = text
        self.filename = filename
        self.lines = text.split("\n")
        self._last = (0, "")  # the line asked for last: nodes come line by line

    def line(self, n: int) -> str:
        last = self._last
        if last[0] == n:
            return last[1]
        text = self.lines[n - 1].rstrip("\r") if 1 <= n <= len(self.lines) else ""
        self._last = (n, text)
        return text

    def span(
        self, line: int, column: int, end_line: int | None = None, end_column: int | None = None
    ) -> Span:
        text = self.line(line)
        if end_line == line and end_column is not None:
            length = max(1, end_column - column)
        elif end_line is not None and end_line > line:
            length = max(1, len(text) - column + 1)
        else:
            length = 1
        return Span(self.filename, line, column, text, length)

    def of_meta(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return self.span(1, 1)
        return self.span(meta.line, meta.column, meta.end_line, meta.end_column)

    def of_token(self, tok: Token) -> Span:
        assert tok.line is not None and tok.column is not None  # the lexer's tokens have both
        return self.span(tok.line, tok.column, tok.end_line, tok.end_column)

    def end(self) -> Span:
        """The position just after the last non-blank character."""
        stripped = self.text.rstrip()
        line = stripped.count("\n") + 1
        column = len(stripped) - (stripped.rfind("\n") + 1) + 1
        return self.span(line, column)


def join_spans(a: Span, b: Span) -> Span:
    """The span from the start of ``a`` to the end of ``b`` (same line) or to the line's end."""
    if a.line == b.line:
        return Span(a.file, a.line, a.column, a.text, max(1, b.column + b.length - a.column))
    return Span(a.file, a.line, a.column, a.text, max(1, len(a.text) - a.column + 1))


@contextlib.contextmanager
def paused_gc():
    """Python's cyclic garbage collector paused while a file is read (and restored
    after, as it was). Reading allocates millions of small objects (tokens, trees,
    nodes, spans) and almost no cycles; each full collection walks every one of them,
    which took a large part of the time to read a large model. After a large read,
    what survives is moved to the oldest generation without a walk (``freeze`` and
    ``unfreeze``), where a full collection still reclaims any cycle.

    The move is not counted among the objects that trigger a full collection: garbage
    moved with it would wait long (a fuzzing loop of small reads grew to 24 GB so),
    hence the young generations are collected first (a few thousand objects) and
    small reads are not moved at all.

    >>> import gc
    >>> with paused_gc():
    ...     gc.isenabled()
    False
    """
    was = gc.isenabled()
    if was:
        gc.collect(1)  # the garbage made before this read goes now, not with the move
    gc.disable()
    try:
        yield
    finally:
        if was:
            if gc.get_count()[0] > LARGE_READ:
                # else the first young collection after enable() walks every object read
                gc.freeze()
                gc.unfreeze()
            gc.enable()


#: objects allocated by a read above which :func:`paused_gc` moves them to the
#: oldest generation at once (a model of some hundred kB)
LARGE_READ = 200_000

"""The one exception root of symbolic and its specific subclasses.

Internal invariants raise ``AssertionError(value)``; everything a user can
cause (a bad model, an impossible request) raises a :class:`SymbolicError`.
What the caller may change to get past one is its :class:`Hint` (machine-readable):
the text names it in the Python API's words, the command line as a flag.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Callable, Sequence

__all__ = [
    "Span",
    "HINT_KINDS",
    "PYTHON_NAMES",
    "Hint",
    "spelled",
    "python_words",
    "Message",
    "SymbolicError",
    "ModelError",
    "ParseError",
    "UnknownName",
    "WrongType",
    "RangeError",
    "QueryError",
    "UnknownPlayer",
    "ArgumentTypeError",
    "ArgumentValueError",
    "EngineMismatch",
    "LimitExceeded",
    "OutOfMemory",
    "TooManyVariables",
    "TooManyPositions",
    "BadLimit",
    "BadLimitType",
    "FileError",
]


@dataclass(frozen=True)
class Span:
    """A source position: file, 1-based line and column, and the source line.

    >>> Span("m.game", 3, 7, "var x : 0..")
    Span(file='m.game', line=3, column=7, text='var x : 0..', length=1)
    """

    file: str
    line: int
    column: int
    text: str = ""
    length: int = 1

    def render(self, message: str, kind: str = "error") -> str:
        """``FILE:LINE:COL: error: message`` then the source line and a caret."""
        head = f"{self.file}:{self.line}:{self.column}: {kind}: {message}"
        if not self.text:
            return head
        text, start, length = self.text, self.column - 1, max(1, self.length)
        if len(text) > _SHOWN:  # a huge line (generated input): show a window around the column
            lo = max(0, start - _SHOWN // 2)
            length = min(length, _SHOWN // 2)
            text = (
                ("…" if lo else "")
                + text[lo : lo + _SHOWN]
                + ("…" if lo + _SHOWN < len(text) else "")
            )
            start = start - lo + (1 if lo else 0)
        marked = text[start : start + length]
        carets = "^" * max(1, length - len(marked) + _width(marked))
        return f"{head}\n    {text}\n    {_blank(text[:start])}{carets}"


#: source lines longer than this are shown as a window around the column
_SHOWN = 160


def _width(text: str) -> int:
    """Terminal columns of ``text``: wide (East Asian) characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _blank(text: str) -> str:
    """Blanks as wide as ``text`` on a terminal, keeping its tabs, so that a caret
    after them lines up under the character it marks.

    >>> _blank("x 漢")  # a wide character takes two columns
    '    '
    """
    return "".join("\t" if c == "\t" else " " * _width(c) for c in text)


#: what a :class:`Hint` may advise (see there)
HINT_KINDS = ("raise", "lower", "choose", "give", "omit", "given")

#: how a message names each setting a hint is about, in the Python API's words (the
#: command line spells the same hints as its flags: symbolic.cli.common.flag_words)
PYTHON_NAMES = {
    "max_memory": "Limits.max_memory",
    "threads": "Limits.threads",
    "cache_bits": "Limits.cache_bits",
    "timeout": "Limits.timeout",
    "backend": "backend",
    "layered": "mode",
    "at": "at",
    "x": "x",
    "y": "y",
    "x_window": "x_window=(LO, HI)",
    "y_window": "y_window=(LO, HI)",
    "params": "params",
    "start": "strategy.outcome(SET)",
    "store": "Spread(store=TaskStore(DIR))",
    "engine": "engine",
}


@dataclass(frozen=True)
class Hint:
    """What a caller may change to get past an error, for a program to read.

    ``setting`` is a :class:`~symbolic.limits.Limits` field (``max_memory``,
    ``threads``, ``cache_bits``, ``timeout``) or the argument of a request
    (``backend``, ``layered``: the layered ``mode``, ``at``, ``x``, ``y``,
    ``params``, ``start``, ``store``: a distributed run's work directory,
    ``engine``); ``kind`` says what to do with it: ``raise`` or
    ``lower`` its value, ``choose`` another value (one of ``values`` when given),
    ``give`` it (a value for each name of ``values``), ``omit`` ``values`` from
    it; ``given`` is no advice but the value the request had (``values``), which
    the message is about. A message names its hints where it speaks of them: in
    the Python API's words (:func:`python_words`) in the error's text, as flags on
    the command line.

    >>> h = Hint("choose", "backend", ("cudd",))
    >>> python_words(h)
    "backend='cudd'"
    >>> python_words(Hint("give", "at", ("j", "k")))
    "at={'j': ..., 'k': ...}"
    """

    kind: str
    setting: str
    values: tuple[str, ...] = ()

    def __post_init__(self):
        if self.kind not in HINT_KINDS or self.setting not in PYTHON_NAMES:
            raise AssertionError(self)


def spelled(
    hint: Hint,
    name: str,
    sep: str,
    quote: Callable[[str], str],
    assign: Callable[[str], str],
    braces: str,
) -> str:
    """``hint`` written with ``name`` for its setting, then ``sep`` and its values
    when it names some: the values of a ``choose`` or a ``given`` as ``quote(v)``
    joined by `` or ``; the names a ``give`` needs as ``assign(v)`` between ``braces``.

    >>> spelled(Hint("choose", "layered", ("auto", "off")), "--layered", " ", str, str, "''")
    '--layered auto or off'
    """
    if not hint.values or hint.kind in ("raise", "lower", "omit"):
        return name
    if hint.kind == "give":
        return f"{name}{sep}{braces[0]}{', '.join(map(assign, hint.values))}{braces[1]}"
    return f"{name}{sep}{' or '.join(map(quote, hint.values))}"


def python_words(hint: Hint) -> str:
    """How the text of an error names ``hint`` (see :class:`Hint`)."""
    return spelled(hint, PYTHON_NAMES[hint.setting], "=", repr, lambda v: f"{v!r}: ...", "{}")


#: the text of an error: a string, or its parts (strings and hints)
Message = str | Sequence[str | Hint]


class SymbolicError(Exception):
    """Root of every error a user of symbolic can cause.

    ``message`` is a text, or its parts: texts and :class:`Hint` objects, which
    the message names in the Python API's words; ``hints`` holds them in order,
    and :meth:`text` spells them otherwise (the command line, as its flags).

    >>> err = QueryError(["too large: use ", Hint("choose", "backend", ("oxidd",))])
    >>> str(err), err.hints
    ("too large: use backend='oxidd'", (Hint(kind='choose', setting='backend', values=('oxidd',)),))
    >>> err.text(lambda h: "--backend " + h.values[0])
    'too large: use --backend oxidd'
    """

    def __init__(self, message: Message, span: Span | None = None):
        self.parts = (message,) if isinstance(message, str) else tuple(message)
        self.hints = tuple(p for p in self.parts if isinstance(p, Hint))
        self.message = self.text()
        super().__init__(self.message)
        self.span = span

    def text(self, words: Callable[[Hint], str] = python_words) -> str:
        """The message, each hint in it spelled by ``words``."""
        return "".join(p if isinstance(p, str) else words(p) for p in self.parts)

    def __str__(self) -> str:
        if self.span is not None:
            return self.span.render(self.message)
        return self.message


class ModelError(SymbolicError):
    """A model (text or Python-built IR) is malformed."""


class ParseError(ModelError):
    """Text does not follow the grammar (model files, formulas)."""


class UnknownName(ModelError, NameError):
    """A name is used but never declared (unknown variable, set, player...).

    Also a :class:`NameError`, so ``except NameError`` catches it too.
    """


class WrongType(ModelError, TypeError):
    """An expression has the wrong type (int where bool expected, ...).

    Also a :class:`TypeError`, so ``except TypeError`` catches it too.
    """


class RangeError(ModelError):
    """A value lies outside a declared range (index, parameter, position)."""


class QueryError(SymbolicError):
    """A request cannot be answered as asked (unknown player, bad position...)."""


class UnknownPlayer(QueryError):
    """A coalition names a player id the game does not have.

    ``unknown`` and ``players`` are the ids; ``origin`` is where the coalition is
    written (inside a definition when the call site is elsewhere).
    """

    def __init__(
        self,
        unknown,
        players,
        span: Span | None = None,
        origin: Span | None = None,
        through: tuple[str, ...] = (),
    ):
        self.unknown, self.players = list(unknown), list(players)
        self.origin = origin if origin is not None else span
        self.through = through
        msg = f"unknown player(s) {self.unknown}: the players are {self.players}"
        if through and self.origin is not None:
            msg += (
                f" (passed to {' -> '.join(through)}, whose coalition is at line "
                f"{self.origin.line}, column {self.origin.column} of {self.origin.file})"
            )
        super().__init__(msg, span)


class ArgumentTypeError(QueryError, TypeError):
    """A function of the Python API got an argument of the wrong type (a string
    where a formula is expected, ``None`` for a path, a float in a position...).

    Also a :class:`TypeError`, so ``except TypeError`` catches it too.
    """


class ArgumentValueError(QueryError, ValueError):
    """A function of the Python API got an argument of the right type but an
    impossible value (a negative limit...). Also a :class:`ValueError`."""


class EngineMismatch(SymbolicError):
    """Objects of two different engines or BDD managers were mixed."""


class LimitExceeded(SymbolicError):
    """A resource limit ended the request: ``limit`` names it (``"timeout"``,
    ``"max-memory"``, ``"positions"``), ``stage`` says where the work was, and
    ``solved`` (None, or a list set by the caller that catches it) what was finished
    before it: the rows of a ply-by-ply table solved so far.

    The command line exits with status 3 on it.
    """

    def __init__(self, message: Message, limit: str = "", stage: str = ""):
        super().__init__(message)
        self.limit = limit
        self.stage = stage
        self.solved: list | None = None


class OutOfMemory(LimitExceeded):
    """The BDD backend ran out of its memory budget."""

    def __init__(self, message: Message, limit: str = "max-memory", stage: str = ""):
        super().__init__(message, limit, stage)


class TooManyVariables(LimitExceeded):
    """A position space needs more BDD variables than the chosen backend can declare:
    its index bound, or the variables its memory cap holds.

    A limit (exit status 3), not a bad model: the same model may fit with a larger
    memory cap or on another backend, as a space too large for the explicit
    engine is a :class:`TooManyPositions`."""

    def __init__(self, message: Message, limit: str = "bdd-variables", stage: str = ""):
        super().__init__(message, limit, stage)


class TooManyPositions(LimitExceeded, QueryError):
    """The explicit engine refuses to enumerate a space above its position limit.

    Also a :class:`QueryError` (the request cannot be answered as asked)."""

    def __init__(self, message: Message, limit: str = "positions", stage: str = ""):
        super().__init__(message, limit, stage)


class BadLimit(QueryError, ValueError):
    """A resource limit with an impossible value (negative, zero, not finite).

    Also a :class:`ValueError`."""


class BadLimitType(QueryError, TypeError):
    """A resource limit of the wrong type (a string, a bool...).

    Also a :class:`TypeError`."""


class FileError(SymbolicError):
    """A model file cannot be read."""

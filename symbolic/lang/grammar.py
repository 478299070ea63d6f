"""The model language's lark parser: the grammar, the keyword policy, and the
built LALR parser cached on disk between runs.

:func:`_parser` is the one parser of the process, read from the cache
(:func:`load_parser`, :func:`cache_dir`) or built (:func:`build_parser`, the
slow way). The keyword policy (soft ``X`` and ``U``, every other keyword
reserved) is :class:`_SoftKeywords`, from :mod:`.vocabulary`.

>>> sorted(_parser().options.start)
['formula_start', 'start']
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sys
import tempfile
from importlib import resources
from pathlib import Path

import lark

from lark import Lark
from lark.lark import PostLex
from lark.lexer import TerminalDef

from .vocabulary import SOFT_KEYWORDS

__all__ = ["build_parser", "cache_dir", "cache_file", "load_parser"]


class _SoftKeywords(PostLex):
    """The keyword policy of the lexer: every terminal is lexed in every parser
    state, except the soft keywords (:data:`~.vocabulary.SOFT_KEYWORDS`).

    lark's contextual lexer lexes, in each state, the terminals the parser can
    take there plus the postlexer's ``always_accept``: here every terminal but
    the soft keywords. So reserved words and operators lex as with a basic
    lexer (``in`` is never a name, ``<<`` is never ``<`` ``<``), and a soft
    keyword is an operator where the parser can take it, a NAME elsewhere.
    The stream itself passes unchanged.
    """

    def __init__(self) -> None:
        self.always_accept: list[str] = []

    def record(self, terminal: TerminalDef) -> None:
        """lark's ``edit_terminals`` hook (called before the lexer is built):
        notes every terminal but the soft keywords."""
        if not (terminal.pattern.type == "str" and terminal.pattern.value in SOFT_KEYWORDS):
            self.always_accept.append(terminal.name)

    def process(self, stream):
        return stream


#: bump when the parser's construction changes in a way the cache key does not see
_CACHE_FORMAT = 2  # 2: the policy class moved to symbolic.lang.grammar


def _grammar_text() -> str:
    return resources.files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")


def build_parser(grammar: str | None = None) -> Lark:
    """The model language's lark parser, built from the grammar (the LALR analysis, the
    largest part of a command's start-up; :func:`_parser` caches it)."""
    policy = _SoftKeywords()
    return Lark(
        _grammar_text() if grammar is None else grammar,
        parser="lalr",
        lexer="contextual",
        start=["start", "formula_start"],
        propagate_positions=True,
        maybe_placeholders=True,
        postlex=policy,
        edit_terminals=policy.record,
    )


def cache_dir() -> Path | None:
    """Where the built parser is kept between runs: ``$SYMBOLIC_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/symbolic``, else ``~/.cache/symbolic``; ``SYMBOLIC_CACHE_DIR=""``
    turns the cache off (``None``)."""
    explicit = os.environ.get("SYMBOLIC_CACHE_DIR")
    if explicit is not None:
        return Path(explicit) if explicit else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "symbolic"


def cache_file(grammar: str, directory: Path) -> Path:
    """The cache file of ``grammar``'s parser: named by a hash of everything the
    built parser depends on (grammar, keyword policy, lark and Python versions)."""
    key = "\0".join(
        [
            grammar,
            " ".join(sorted(SOFT_KEYWORDS)),
            lark.__version__,
            sys.version,
            str(_CACHE_FORMAT),
        ]
    )
    return directory / f"model-parser-{hashlib.sha256(key.encode()).hexdigest()[:24]}.pickle"


def load_parser(directory: Path | None) -> Lark:
    """The parser, read from its cache file in ``directory`` when one is there and
    readable, else built and (best effort) written there for the next run.

    The cache only saves time: a missing, unreadable, stale or corrupt file, or a
    directory that cannot be written, means the parser is built as without one.
    lark's own ``cache=`` option cannot be used: it does not replay the
    ``edit_terminals`` hook, so the soft-keyword policy would be lost; ``Lark.save``
    keeps the postlexer, and with it the policy's terminal list.
    """
    grammar = _grammar_text()
    if directory is None:
        return build_parser(grammar)
    path = cache_file(grammar, directory)
    try:
        with open(path, "rb") as f:
            cached = Lark.load(f)
        policy = cached.options.postlex
        if isinstance(policy, _SoftKeywords) and policy.always_accept:
            return cached
    except Exception:  # noqa: BLE001 - any unreadable cache is rebuilt, never trusted
        pass
    built = build_parser(grammar)
    tmp_name = None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".tmp-", delete=False) as tmp:
            tmp_name = tmp.name
            built.save(tmp)
        os.replace(tmp_name, path)  # atomic: a concurrent reader sees all or nothing
    except OSError:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)
    return built


@functools.cache
def _parser() -> Lark:
    return load_parser(cache_dir())

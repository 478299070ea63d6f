"""Reachability arenas in the format of the TD on reachability games and tic-tac-toe.

An arena file is JSON with the keys of the TD's game dictionary::

    {"etats": [0, 1, ...], "init": 0,
     "controles": {"0": 1, "1": 2, ...},
     "transitions": {"0": [1, 4], "1": [2], ...},
     "objectifs1": [5], "objectifs2": [6]}

(English keys ``states``, ``initial``, ``controller``, ``edges``,
``objective1``, ``objective2`` are accepted too; ``name`` and ``description``
are optional strings). The file is validated before anything else: states are
the integers 0..n-1, each listed once; every state has exactly one
controller, a player id (any integer); transitions, the initial state and the
objectives name states only; a state with no ``transitions`` entry is a dead
end. Any other content (an unknown key, a float, a boolean or a string where a
state is expected, ``null``, a number of more than 18 digits, nesting deeper than
:data:`MAX_DEPTH`) is an error located in the JSON the user wrote.

The optional ``objectifs3`` (or ``objective3``) lists the draw states, the TD's
Ω₃: the model gets a set ``Obj3`` (absent key: no such set).

The players are the controllers' ids in increasing order; ``objectifs1`` is the
objective of the first of them and ``objectifs2`` of the second (for the TD's
ids 1 and 2: players 1 and 2).

:func:`arena_model_ast` gives the validated arena as the AST of a model — one
variable ``s``, the turn as one membership test per player, one move
``edge(e in E)``, sets ``initial``, ``Obj1``, ``Obj2`` and the queries
``<<p>> <> Objk`` — which the model checker turns into IR, so an arena is
checked and solved like any model (:func:`symbolic.model.parse_arena`).

Note: ATL's ``<<p>> <>`` counts an opponent's dead end as forced (ENS
convention); the TD's attractor does not (``symbolic.api.attractor``). They agree
on arenas without dead ends, such as ``models/td_example.arena.json``.

>>> from symbolic.model import parse_arena
>>> text = '{"etats": [0, 1], "init": 0, "controles": {"0": 5, "1": 7},'
>>> text += ' "transitions": {"0": [1]}, "objectifs1": [1], "objectifs2": []}'
>>> m = parse_arena(text, "a.json")
>>> m.name, m.players, [s.label for s in m.space.slots], [q.text for q in m.queries][:2]
('a', (5, 7), ['s'], ['<<5>> <> Obj1', 'initial and <<5>> <> Obj1'])
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..errors import ModelError, Span
from . import ast

__all__ = [
    "KEYS",
    "OPTIONAL",
    "OPTIONAL_STATES",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "Located",
    "Arena",
    "read_arena",
    "arena_model_ast",
]

#: English key -> the TD's key; either spelling is accepted, not both
KEYS = {
    "states": "etats",
    "initial": "init",
    "controller": "controles",
    "edges": "transitions",
    "objective1": "objectifs1",
    "objective2": "objectifs2",
}
OPTIONAL = ("name", "description")
#: optional keys holding states: English -> the TD's key
OPTIONAL_STATES = {"objective3": "objectifs3"}
#: an arena needs depth 3 ({"transitions": {"0": [1]}}); deeper is refused early
MAX_DEPTH = 32
#: integers longer than this are refused (no state or player id is that large)
MAX_DIGITS = 18

_JSON_GRAMMAR = r"""
    ?start: value
    ?value: object | array
          | STRING -> string
          | NUMBER -> number
          | "true" -> true
          | "false" -> false
          | "null" -> null
    array: "[" [value ("," value)*] "]"
    object: "{" [pair ("," pair)*] "}"
    pair: STRING ":" value
    STRING: /"(?:[^"\\\x00-\x1f]|\\(?:["\\\/bfnrt]|u[0-9a-fA-F]{4}))*"/
    NUMBER: /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/
    %ignore /[ \t\r\n]+/
"""


@functools.cache
def _json_parser() -> Lark:
    # built on first use: a start-up cost that a command reading no arena should not pay
    return Lark(_JSON_GRAMMAR, parser="lalr", propagate_positions=True, maybe_placeholders=False)


_INT = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")


@dataclass(frozen=True)
class Located:
    """A JSON value with where it starts in the file.

    ``value`` is a dict (key -> (key's Span, Located)), a list of Located, a
    str, the number's text (``kind == "number"``), a bool or None.
    """

    kind: str  # object, array, string, number, true, false, null
    value: object
    span: Span


class _Unlocated(Exception):
    """The fast reading of an arena met what only the located parser can report."""


def _wrapped(v, here: Span) -> Located:
    """A value of :func:`json.loads` (its numbers and objects already Located) as a
    Located value at ``here``."""
    if isinstance(v, Located):
        return v
    if isinstance(v, str):
        return Located("string", v, here)
    if isinstance(v, list):
        return Located("array", [_wrapped(x, here) for x in v], here)
    if v is None:
        return Located("null", None, here)
    if isinstance(v, bool):
        return Located("true" if v else "false", v, here)
    raise AssertionError(v)


def _describe(v: Located) -> str:
    if v.kind == "number":
        assert isinstance(v.value, str)  # a number's text
        return f"the number {v.value if len(v.value) <= 20 else v.value[:20] + '...'}"
    if v.kind == "string":
        return f"the string {json.dumps(v.value)[:40]}"
    return {
        "object": "an object",
        "array": "a list",
        "true": "true",
        "false": "false",
        "null": "null",
    }[v.kind]


class _Reader:
    """Parses and validates one arena file; every error names a place in it."""

    def __init__(self, text: str, filename: str):
        self.text = text
        self.filename = filename
        self.lines = text.splitlines()

    def span(self, line: int, column: int, length: int = 1) -> Span:
        src = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return Span(self.filename, line, column, src, length)

    def error(self, message: str, where: Span) -> ModelError:
        return ModelError(f"arena: {message}", where)

    # -- JSON with positions -------------------------------------------------
    def parse(self) -> Located:
        self._check_depth()
        try:
            tree = _json_parser().parse(self.text)
        except UnexpectedEOF:
            n = len(self.lines)
            raise self.error(
                "the JSON ends too early",
                self.span(max(n, 1), len(self.lines[-1]) + 1 if self.lines else 1),
            )
        except UnexpectedCharacters as err:
            raise self.error(
                "not JSON here (expected a value, a comma, a colon or a bracket)",
                self.span(err.line, err.column),
            )
        except UnexpectedToken as err:
            if err.token.type == "$END":
                raise self.error(
                    "the JSON ends too early",
                    self.span(
                        max(len(self.lines), 1), len(self.lines[-1]) + 1 if self.lines else 1
                    ),
                )
            raise self.error(
                f"unexpected {err.token.value!r} in JSON",
                self.span(err.line, err.column, len(err.token.value)),
            )
        except UnexpectedInput as err:  # pragma: no cover - the three above are all lark raises
            raise self.error("not JSON", self.span(err.line, err.column))
        return self._located(tree)

    def parse_fast(self) -> Located:
        """The document read by :func:`json.loads`, every value located at the file's
        start (a placeholder: any error found in it sends :func:`read_arena` to
        :meth:`parse`); :class:`_Unlocated` for what only :meth:`parse` can report
        (not JSON, a key twice in an object, ``NaN`` or ``Infinity``, which JSON does
        not have)."""
        self._check_depth()
        here = self.span(1, 1)

        def number(text: str) -> Located:
            return Located("number", text, here)

        def members(pairs: list) -> Located:
            items: dict[str, tuple[Span, Located]] = {}
            for key, value in pairs:
                if key in items:
                    raise _Unlocated(key)
                items[key] = (here, _wrapped(value, here))
            return Located("object", items, here)

        def constant(word: str):
            raise _Unlocated(word)

        try:
            doc = json.loads(
                self.text,
                object_pairs_hook=members,
                parse_int=number,
                parse_float=number,
                parse_constant=constant,
            )
        except json.JSONDecodeError as err:
            raise _Unlocated(err.msg) from None
        return _wrapped(doc, here)

    def _check_depth(self) -> None:
        """Refuse nesting deeper than MAX_DEPTH before parsing (brackets outside strings)."""
        depth, in_string, escaped, line, col = 0, False, False, 1, 0
        for ch in self.text:
            col += 1
            if ch == "\n":
                line, col = line + 1, 0
            elif in_string:
                if escaped:
                    escaped = False
                elif ch == "\\":
                    escaped = True
                elif ch == '"':
                    in_string = False
            elif ch == '"':
                in_string = True
            elif ch in "[{":
                depth += 1
                if depth > MAX_DEPTH:
                    raise self.error(
                        f"JSON nested deeper than {MAX_DEPTH} levels", self.span(line, col)
                    )
            elif ch in "]}":
                depth -= 1

    def _located(self, tree) -> Located:
        """The Located value of a parse tree, built bottom-up without recursion."""
        if isinstance(tree, Token):  # pragma: no cover - the start rule is a tree
            raise AssertionError(tree)
        done: dict[int, Located] = {}
        for t in tree.iter_subtrees():  # children before parents
            span = self.span(t.meta.line, t.meta.column)
            if t.data == "string":
                v = Located("string", json.loads(t.children[0].value), span)
            elif t.data == "number":
                v = Located("number", t.children[0].value, span)
            elif t.data in ("true", "false", "null"):
                v = Located(t.data, {"true": True, "false": False, "null": None}[t.data], span)
            elif t.data == "array":
                v = Located("array", [done[id(c)] for c in t.children], span)
            elif t.data == "object":
                items: dict[str, tuple[Span, Located]] = {}
                for pair in t.children:
                    key_tok, value = pair.children
                    key = json.loads(key_tok.value)
                    where = self.span(key_tok.line, key_tok.column, len(key_tok.value))
                    if key in items:
                        raise self.error(f"key {key_tok.value} appears twice in this object", where)
                    items[key] = (where, done[id(value)])
                v = Located("object", items, span)
            elif t.data == "pair":
                continue
            else:  # pragma: no cover
                raise AssertionError(t.data)
            done[id(t)] = v
        return done[id(tree)]

    # -- typed reads ----------------------------------------------------------
    def integer(self, v: Located, what: str) -> int:
        if v.kind != "number" or not _INT.match(str(v.value)):
            raise self.error(f"{what} must be an integer, got {_describe(v)}", v.span)
        assert isinstance(v.value, str)  # a number's text
        if len(v.value.lstrip("-")) > MAX_DIGITS:
            raise self.error(f"{what}: {_describe(v)} has more than {MAX_DIGITS} digits", v.span)
        return int(v.value)

    def state(self, v: Located, n: int, what: str) -> int:
        s = self.integer(v, what)
        if not 0 <= s < n:
            raise self.error(f"{what}: {s} is not a state (the states are 0..{n - 1})", v.span)
        return s

    def state_key(self, key: str, where: Span, n: int, what: str) -> int:
        if not _INT.match(key) or len(key) > MAX_DIGITS or not 0 <= int(key) < n:
            raise self.error(
                f"{what}: key {json.dumps(key)} is not a state (the states are "
                f'0..{n - 1}, written as strings: "0", "1", ...)',
                where,
            )
        return int(key)

    def expect(self, v: Located, kind: str, what: str) -> Located:
        if v.kind != kind:
            raise self.error(
                f"{what} must be {'a list' if kind == 'array' else 'an object'}, "
                f"got {_describe(v)}",
                v.span,
            )
        return v

    def items(self, v: Located, what: str) -> list[Located]:
        """The items of the array ``v``; a located error when ``v`` is not an array."""
        items = self.expect(v, "array", what).value
        assert isinstance(items, list)  # an array's value
        return items

    def members(self, v: Located, what: str) -> dict[str, tuple[Span, Located]]:
        """The members of the object ``v``; a located error when ``v`` is not an object."""
        members = self.expect(v, "object", what).value
        assert isinstance(members, dict)  # an object's value
        return members

    def states_list(self, v: Located, n: int, what: str) -> list[int]:
        return [self.state(x, n, f"{what}[{i}]") for i, x in enumerate(self.items(v, what))]


@dataclass(frozen=True)
class Arena:
    """A validated arena: states 0..n-1, their controllers, edges, initial
    state and the two objectives."""

    name: str
    description: str
    controller: tuple[int, ...]  # controller[s]
    edges: tuple[tuple[int, int], ...]  # sorted, no duplicates
    initial: int
    objectives: tuple[tuple[int, ...], tuple[int, ...]]
    draws: tuple[int, ...] | None = None  # Ω₃, when the file gives it

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(sorted(set(self.controller)))


def read_arena(text: str, filename: str) -> Arena:
    """The validated :class:`Arena` of the JSON ``text`` (errors name ``filename``).

    A valid file is read by Python's own JSON reader (:meth:`_Reader.parse_fast`),
    which keeps no positions; a file the fast reading refuses, whatever the reason, is
    read again by the located parser, whose error says where the mistake is (the two
    readings agree on every text: tests/test_arena.py)."""
    r = _Reader(text, filename)
    try:
        return _validated(r, r.parse_fast())
    except (ModelError, _Unlocated):
        pass
    arena = _validated(r, r.parse())
    raise AssertionError(arena)  # the located reading accepted what the fast one refused


def _validated(r: _Reader, doc: Located) -> Arena:
    """The :class:`Arena` of the parsed JSON ``doc``, checked (errors raised by ``r``)."""
    filename = r.filename
    top = r.span(doc.span.line, doc.span.column)
    if doc.kind != "object":
        raise r.error(
            f"expected a JSON object with the keys {', '.join(KEYS.values())}, "
            f"got {_describe(doc)}",
            top,
        )
    fields = _fields(r, doc, top)
    said = _spelling(doc)  # errors name a key as the file spells it
    n = _state_count(r, fields["states"], said["states"])
    controller = _controllers(r, fields["controller"], n, said["controller"])
    edges = _edges(r, fields["edges"], n, said["edges"])
    initial = r.state(fields["initial"], n, said["initial"])
    objective1, objective2 = (
        tuple(sorted(set(r.states_list(fields[k], n, said[k]))))
        for k in ("objective1", "objective2")
    )
    draws = (
        tuple(sorted(set(r.states_list(fields["objective3"], n, said["objective3"]))))
        if "objective3" in fields
        else None
    )
    name = fields["name"].value if "name" in fields else Path(filename).name.split(".")[0]
    desc = fields["description"].value if "description" in fields else ""
    return Arena(
        str(name),
        str(desc),
        tuple(controller[s] for s in range(n)),
        tuple(sorted(edges)),
        initial,
        (objective1, objective2),
        draws,
    )


def _spelling(doc: Located) -> dict[str, str]:
    """{English key: the key as ``doc`` spells it} (the TD's French by default)."""
    said = KEYS | OPTIONAL_STATES
    french = {v: k for k, v in said.items()}
    assert isinstance(doc.value, dict), doc.kind  # _fields has checked it is an object
    spelled = dict(said)
    for k in doc.value:
        english = french.get(k, k)
        if english in said:
            spelled[english] = k
    return spelled


def _fields(r: _Reader, doc: Located, top: Span) -> dict[str, Located]:
    """The top-level values of an arena by their English key (``states`` for ``etats``);
    a located error for a key unknown, repeated (in either spelling) or missing."""
    fields: dict[str, Located] = {}
    english = {v: k for k, v in KEYS.items()}
    for key, (where, value) in r.members(doc, "the arena").items():
        if key in OPTIONAL:
            if value.kind != "string":
                raise r.error(f"{key} must be a string, got {_describe(value)}", value.span)
            fields[key] = value
            continue
        canonical = english.get(key, key)
        optional_states = {v: k for k, v in OPTIONAL_STATES.items()}
        if key in optional_states or key in OPTIONAL_STATES:
            canonical = optional_states.get(key, key)
            if canonical in fields:
                raise r.error(
                    f"{json.dumps(key)} repeats {json.dumps(OPTIONAL_STATES[canonical])} "
                    f"(give one spelling)",
                    where,
                )
            fields[canonical] = value
            continue
        if canonical not in KEYS:
            raise r.error(
                f"unknown key {json.dumps(key)} (expected "
                f"{', '.join(f'{fr} or {en}' for en, fr in KEYS.items())}; optional: "
                "objectifs3 or objective3, name, description)",
                where,
            )
        if canonical in fields:
            raise r.error(
                f"{json.dumps(key)} repeats {json.dumps(KEYS[canonical])} (give one spelling)",
                where,
            )
        fields[canonical] = value
    for key, td in KEYS.items():
        if key not in fields:
            raise r.error(f"missing key {json.dumps(td)} (or {json.dumps(key)})", top)
    return fields


def _state_count(r: _Reader, states: Located, key: str = "etats") -> int:
    """The number of states of ``etats`` (the file's ``key``): a non-empty array of the
    states 0..n-1, each once."""
    raw_states = r.items(states, key)
    if not raw_states:
        raise r.error(f"{key} is empty: an arena needs at least one state", states.span)
    n = len(raw_states)
    seen: dict[int, Located] = {}
    for i, v in enumerate(raw_states):
        s = r.state(v, n, f"{key}[{i}]")
        if s in seen:
            raise r.error(f"state {s} is listed twice in {key}", v.span)
        seen[s] = v
    return n


def _controllers(r: _Reader, controls: Located, n: int, key: str = "controles") -> dict[int, int]:
    """{state: the player controlling it} from ``controles`` (the file's ``key``): one for
    each of the n states."""
    controller: dict[int, int] = {}
    for name, (where, v) in r.members(controls, key).items():
        s = r.state_key(name, where, n, key)
        if s in controller:
            raise r.error(f"state {s} has two controllers", where)
        controller[s] = r.integer(v, f"the controller of state {s}")
    missing = [s for s in range(n) if s not in controller]
    if missing:
        raise r.error(
            f"states without a controller in {key}: {missing[:10]}"
            + (" ..." if len(missing) > 10 else ""),
            controls.span,
        )
    return controller


def _edges(
    r: _Reader, transitions: Located, n: int, key: str = "transitions"
) -> set[tuple[int, int]]:
    """The (state, successor) pairs of ``transitions`` (the file's ``key``)."""
    edges: set[tuple[int, int]] = set()
    for name, (where, v) in r.members(transitions, key).items():
        s = r.state_key(name, where, n, key)
        for t in r.states_list(v, n, f"{key}[{json.dumps(name)}]"):
            edges.add((s, t))
    return edges


def arena_model_ast(arena: Arena, filename: str) -> ast.ModelAst:
    """The model of a validated arena, as the AST a model file would give (the
    arena is a second front end: no model text is written or parsed again).

    Every node points at the start of the arena file: ``read_arena`` has located
    every mistake already, so the checker finds none of its own here.
    """
    at = Span(filename, 1, 1)
    a = arena

    def name(x: str, primed: bool = False) -> ast.Name:
        return ast.Name(x, primed, at)

    def num(v: int) -> ast.Expr:
        return ast.IntLit(v, at) if v >= 0 else ast.Unary("-", ast.IntLit(-v, at), at)

    def states(xs) -> ast.SetLit:
        return ast.SetLit(tuple(num(x) for x in xs), at)

    def member(xs) -> ast.Expr:
        return ast.Binary("in", name("s"), states(xs), at) if xs else ast.BoolLit(False, at)

    def ident(x: str) -> ast.Ident:
        return ast.Ident(x, at)

    players = a.players
    n = len(a.controller)
    # one membership test per player (not per state): thousands of states stay shallow
    turn: ast.Expr = num(players[-1])
    for p in reversed(players[:-1]):
        mine = [s for s in range(n) if a.controller[s] == p]
        turn = ast.IfThenElse(ast.Binary("in", name("s"), states(mine), at), num(p), turn, at)
    decls: list[ast.Decl] = [
        ast.GameDecl(a.name, None, at),
        ast.DescriptionDecl(a.description, at),
        ast.PlayersDecl(tuple(num(p) for p in players), at),
        ast.VarDecl((ident("s"),), ast.RangeSpec(num(0), num(n - 1), at), at),
        ast.TurnDecl(turn, at),
    ]
    if a.edges:
        e0 = ast.Index(name("e"), num(0), at)
        e1 = ast.Index(name("e"), num(1), at)
        decls += [
            ast.ConstDecl(
                ident("E"),
                ast.SetLit(tuple(ast.TupleLit((num(x), num(y)), at) for x, y in a.edges), at),
                at,
            ),
            ast.MoveDecl(
                ident("edge"),
                (ast.Binder((ident("e"),), name("E"), at),),
                ast.Binary("==", name("s"), e0, at),
                (ast.Binary("==", name("s", True), e1, at),),
                at,
            ),
        ]
    sets = [
        ("initial", ast.Binary("==", name("s"), num(a.initial), at)),
        ("Obj1", member(a.objectives[0])),
        ("Obj2", member(a.objectives[1])),
    ]
    if a.draws is not None:  # Ω₃, the draw states: optional
        sets.append(("Obj3", member(a.draws)))
    decls += [ast.SetDecl(ident(x), (), body, at) for x, body in sets]
    for k, p in enumerate(players[:2], 1):
        reach = ast.Strategic("<>", (num(p),), (name(f"Obj{k}"),), at)
        decls += [
            ast.QueryDecl(reach, f"<<{p}>> <> Obj{k}", at),
            ast.QueryDecl(
                ast.Binary("and", name("initial"), reach, at), f"initial and <<{p}>> <> Obj{k}", at
            ),
        ]
    return ast.ModelAst(tuple(decls), at)

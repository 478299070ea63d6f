"""The model-language parser: text to AST (shapes, precedence, spans, lexical details)."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from symbolic.lang import ast
from symbolic.lang.parser import parse_formula_text, parse_model_text
from symbolic.model import parse_model

DOCS = Path(__file__).resolve().parent.parent / "docs" / "language.md"


def show(e: ast.Expr) -> str:
    """A fully parenthesised rendering of an AST expression, for precedence tests."""
    if isinstance(e, ast.IntLit):
        return str(e.value)
    if isinstance(e, ast.BoolLit):
        return str(e.value).lower()
    if isinstance(e, ast.Name):
        return e.name + ("'" if e.primed else "")
    if isinstance(e, ast.Index):
        return f"{show(e.base)}[{show(e.index)}]"
    if isinstance(e, ast.Unary):
        return f"({e.op} {show(e.arg)})"
    if isinstance(e, ast.Binary):
        return f"({show(e.left)} {e.op} {show(e.right)})"
    if isinstance(e, ast.Range):
        return f"({show(e.lo)}..{show(e.hi)})"
    if isinstance(e, ast.IfThenElse):
        return f"(if {show(e.cond)} then {show(e.then)} else {show(e.other)})"
    if isinstance(e, ast.Quantifier):
        bs = ", ".join(
            f"{','.join(i.name for i in b.names)} in {show(b.domain)}" for b in e.binders
        )
        return f"({e.kind} {bs}: {show(e.body)})"
    if isinstance(e, ast.Strategic):
        J = ",".join(show(m) for m in e.coalition)
        if e.op == "U":
            return f"(<<{J}>> {show(e.args[0])} U {show(e.args[1])})"
        return f"(<<{J}>> {e.op} {show(e.args[0])})"
    if isinstance(e, ast.Players):
        return "players"
    if isinstance(e, ast.TurnOf):
        return f"turn({', '.join(map(show, e.coalition))})"
    if isinstance(e, ast.Call):
        return f"{e.name}({', '.join(map(show, e.args))})"
    if isinstance(e, ast.SetLit):
        return "{" + ", ".join(map(show, e.items)) + "}"
    if isinstance(e, ast.TupleLit):
        return "(" + ", ".join(map(show, e.items)) + ("," if len(e.items) == 1 else "") + ")"
    raise AssertionError(e)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("a + b * c", "(a + (b * c))"),
        ("a - b - c", "((a - b) - c)"),
        ("-a * b", "((- a) * b)"),
        ("a div b mod c", "((a // b) % c)"),
        ("x = 1 or y = 2 and z", "((x == 1) or ((y == 2) and z))"),
        ("not x == 1", "(not (x == 1))"),
        ("a implies b implies c", "(a implies (b implies c))"),
        ("a => b <=> c", "((a implies b) iff c)"),
        ("a & b | c", "((a & b) | c)"),
        ("p /\\ q \\/ r", "((p and q) or r)"),
        ("¬p ∧ q ⇒ r", "(((not p) and q) implies r)"),
        ("0 <= x < n", "((0 <= x) and (x < n))"),
        ("x in 0..K-1", "(x in (0..(K - 1)))"),
        ("x not in S", "(x notin S)"),
        ("k'[i] = k[i] - d[i-1]", "(k'[i] == (k[i] - d[(i - 1)]))"),
        ("forall i in 1..n: k[i] > 0 and b", "(forall i in (1..n): ((k[i] > 0) and b))"),
        ("b and forall i in D: p or q", "(b and (forall i in D: (p or q)))"),
        ("exists x, y in S, z in T: x = z", "(exists x,y in S, z in T: (x == z))"),
        ("if c then 1 else 2 + 3", "(if c then 1 else (2 + 3))"),
        ("<<J>> X p and q", "((<<J>> X p) and q)"),
        ("<<1, 2>> <> p", "(<<1,2>> <> p)"),
        ("<<>> [] not p", "(<<>> [] (not p))"),
        ("<<J>> p U q", "(<<J>> p U q)"),
        ("<<J>> (p and q U r)", "(<<J>> (p and q) U r)"),
        (
            "<<J>> (<<players>> X true) U (turn(players \\ J) and <<J>> X false)",
            "(<<J>> (<<players>> X true) U (turn((players \\ J)) and (<<J>> X false)))",
        ),
        ("⟨⟨J⟩⟩ ○ p", "(<<J>> X p)"),
        ("F({1}) and Gagne(2)", "(F({1}) and Gagne(2))"),
        ("(1,) + (2, 3) + ()", "(((1,) + (2, 3)) + ())"),
    ],
)
def test_precedence(text, expected):
    assert show(parse_formula_text(text)) == expected


def test_model_declarations_in_order():
    m = parse_model_text(
        """
        game "g" "what it is"
        param N : 1..5 = 3, b = true
        const c = 2, d = c + 1
        players 1..N
        var j : 1..N
        var x, y : 0..3
        var k : array[1..2] of bool
        turn j
        invariant x <= y
        move m(a in 1..2, p, q in {0, 1}) when x < 3 then x' = x + a; y' = y
        set s(i) = x = i
        formula f(J: coalition, j) = <<J>> X s(j)
        query f({1}, 2), s(1)
    """,
        "g.game",
    )
    kinds = [type(d).__name__ for d in m.decls]
    assert kinds == [
        "GameDecl",
        "ParamDecl",
        "ParamDecl",
        "ConstDecl",
        "ConstDecl",
        "PlayersDecl",
        "VarDecl",
        "VarDecl",
        "VarDecl",
        "TurnDecl",
        "InvariantDecl",
        "MoveDecl",
        "SetDecl",
        "FormulaDecl",
        "QueryDecl",
        "QueryDecl",
    ]
    game, n_param = m.decls[0], m.decls[1]
    assert (game.name, game.description) == ("g", "what it is")
    assert isinstance(n_param.type, ast.RangeSpec)
    move = m.decls[11]
    assert [[i.name for i in b.names] for b in move.params] == [["a"], ["p", "q"]]
    assert len(move.effects) == 2
    formula = m.decls[13]
    assert [(f.name.name, f.kind.name if f.kind else None) for f in formula.params] == [
        ("J", "coalition"),
        ("j", None),
    ]
    assert [q.text for q in m.decls[14:]] == ["f({1}, 2)", "s(1)"]


def test_spans_point_at_source():
    text = "players 1, 2\nvar x : 0..3\nturn 1 + x % 2\nset big = x >= 2"
    m = parse_model_text(text, "s.game")
    set_decl = m.decls[-1]
    assert (set_decl.span.file, set_decl.span.line, set_decl.span.column) == ("s.game", 4, 1)
    body = set_decl.body
    assert (body.span.line, body.span.column, body.span.length) == (4, 11, 6)
    assert body.span.text == "set big = x >= 2"
    assert set_decl.name.span.column == 5


def test_comments_and_strings():
    m = parse_model_text('''
        // line comment
        # another one
        /* a block
           comment */
        game "a \\"quoted\\" name"
        description """
            First line.
              Indented.
        """
    ''')
    game, desc = m.decls
    assert game.name == 'a "quoted" name'
    assert desc.text == "First line.\n  Indented."


def test_unicode_names():
    f = parse_formula_text("Traître_1 and é")
    assert (f.left.name, f.right.name) == ("Traître_1", "é")


def test_comprehensions_and_generators():
    e = parse_formula_text("{ (x, y) for x in 0..3 for y in 0..3 if x < y }")
    assert isinstance(e, ast.SetComp) and len(e.clauses) == 3
    assert isinstance(e.clauses[2], ast.IfClause)
    g = parse_formula_text("sum(k[i] for i in 1..n)")
    assert isinstance(g, ast.Call) and isinstance(g.args[0], ast.Generator)


def test_docs_examples_parse_and_check():
    """Every model shown in docs/language.md (a block starting with `game`) loads."""
    blocks = re.findall(r"^```(\w*)\n(.*?)^```", DOCS.read_text(encoding="utf-8"), re.S | re.M)
    models = [b for lang, b in blocks if not lang and re.match(r"(/\*.*?\*/\s*)?game ", b, re.S)]
    assert len(models) >= 2
    for b in models:
        m = parse_model(b, "language.md")
        assert m.game.moves and m.queries


# ---------------------------------------------------------------- the parser cache


@functools.cache
def _built():
    """A parser built from the grammar, no cache read (building takes a second: once)."""
    from symbolic.lang.grammar import build_parser

    return build_parser()


def _trees_agree(parser, reference):
    """Both parsers give the same trees on every shipped model and on formulas where
    the soft keywords X and U are names, operators or both."""
    texts = [
        (p.read_text(encoding="utf-8"), "start") for p in sorted(Path("models").glob("*.game"))
    ]
    texts += [
        (f, "formula_start") for f in ("X and U", "<<1>> X x > 0", "<<1>> (X) U (U)", "U + X > 0")
    ]
    for text, start in texts:
        assert parser.parse(text, start=start) == reference.parse(text, start=start), text[:60]


def test_parser_cache_round_trip(tmp_path):
    from symbolic.lang.grammar import _grammar_text, cache_file, load_parser

    first = load_parser(tmp_path)
    path = cache_file(_grammar_text(), tmp_path)
    assert path.is_file(), sorted(tmp_path.iterdir())
    stamp = path.stat().st_mtime_ns
    second = load_parser(tmp_path)
    assert path.stat().st_mtime_ns == stamp  # read, not rewritten
    # the soft-keyword policy survives the cache (lark's own cache= loses it)
    assert sorted(second.options.postlex.always_accept) == sorted(
        first.options.postlex.always_accept
    )
    _trees_agree(second, _built())


def test_parser_cache_corrupt_or_unwritable(tmp_path):
    from symbolic.lang.grammar import _grammar_text, cache_file, load_parser

    path = cache_file(_grammar_text(), tmp_path)
    path.write_bytes(b"not a pickle")
    built = _built()
    _trees_agree(load_parser(tmp_path), built)
    assert path.read_bytes() != b"not a pickle"  # replaced by a good one
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    _trees_agree(load_parser(blocker / "sub"), built)  # cannot write: still works
    _trees_agree(load_parser(None), built)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".tmp-")] == []


def test_parser_cache_directory_from_environment(monkeypatch, tmp_path):
    from symbolic.lang.grammar import cache_dir

    monkeypatch.setenv("SYMBOLIC_CACHE_DIR", str(tmp_path))
    assert cache_dir() == tmp_path
    monkeypatch.setenv("SYMBOLIC_CACHE_DIR", "")
    assert cache_dir() is None
    monkeypatch.delenv("SYMBOLIC_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "symbolic"

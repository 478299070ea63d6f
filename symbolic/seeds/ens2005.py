"""The answer sheet of the ENS 2005 exam "Jeux à plusieurs et coalitions".

Questions 1 and 3–12 for a given u0, computed from the model ``ens2005.game``
(the game Nim(N, n, K, r), its sets and ATL formulas; shipped in the package as
``symbolic/models/ens2005.game``, also reachable as ``models/ens2005.game`` in a
checkout) and the engines' set API.
Reading decisions (fixed so that answers compare):

- pre∀ at a position with no successor is true (the text's definition);
- Q3 c) intersects the sets of a) and b);
- Q4: A over x, y, z ∈ 0..10 (zeros included); B for n = 0..100 inclusive;
- Q10 b): σ is every position;
- an initial position is (j, k, ..., k) for any player j and any k ≤ K;
- Q11 a) lists the initial positions c with c ⊨ F_{1}.

>>> sheet = answer_sheet(0)             # doctest: +SKIP
>>> sheet["Q1"]["a"]                     # doctest: +SKIP
269
"""

from __future__ import annotations

from importlib import resources

from .. import atl, ir
from ..api import DeadEnds
from ..engines import make_engine, make_sets
from ..errors import QueryError
from .games import lcg
from ..model import Model, load_model

__all__ = [
    "MODEL",
    "load_nim",
    "answer_sheet",
    "sequence_answers",
    "triple_answers",
    "rule_answers",
    "step_answers",
    "until_answers",
    "atl_answers",
    "format_sheet",
    "QUESTIONS",
]

#: each answer's question in one line (our own words; the exam's text is in French)
QUESTIONS = {
    "Q1": {
        "a": "u_1, the term after u_0",
        "b": "u_100",
        "c": "u_1000",
        "d": "how many i in 1..4999 have u_i + u_(5000-i) <= u_1 + u_4999",
    },
    "Q3": {
        "a": "how many elements {(0, 0, 1)} | {(0, 2, 1)} has",
        "b": "how many elements {(0, 0, 1)} | {(0, 0, 1)} has",
        "c": "how many elements the intersection of those two sets has",
    },
    "Q4": {
        "a": "|A|, A the triples (x, y, z) of 0..10 with x^2 + y^2 = z^2",
        "b": "|B|, B the triples (u_3n mod 11, u_3n+1 mod 11, u_3n+2 mod 11), n in 0..100",
        "c": "|A & B|",
        "d": "the triples of A & B",
    },
    "Q5": {
        "a": "the rules R (moves taking d[i] from heap i) for n = 2 heaps, r = 2",
        "b": "the rules R for n = 3 heaps, r = 3",
    },
    "Q6": {
        "a": "the successors of (1, 5, 9) in Nim(2, 2, 20, 2)",
        "b": "the successors of (2, 3, 7, 2) in Nim(2, 3, 20, 3)",
        "c": "the successors of (1, 1, 9, 3, 4, 7) in Nim(3, 5, 20, 6)",
    },
    "Q7": {
        "a": "pre_exists({1}, {(2, 1, 5)}) in Nim(2, 2, 20, 2)",
        "b": "pre_exists({1}, {(2, 1, 1)}) in Nim(2, 2, 3, 2)",
        "c": "pre_exists({1}, {(2, 1, 2, 3), (1, 3, 2, 1)}) in Nim(2, 3, 5, 3)",
    },
    "Q8": {
        "a": "|pre_forall({1}, {(2, 0, 0)})| in Nim(2, 2, 4, 2)",
        "b": "|pre_forall({1}, {(2, 1, 1)})| in Nim(2, 2, 3, 2)",
        "c": "|pre_forall({1}, {(2, 0, 0, 0)})| in Nim(2, 3, 5, 3)",
    },
    "Q9": {
        "a": "|pre({1}, both heaps <= 2)| in Nim(2, 2, 20, 2)",
        "b": "how many of those positions have player 2 to move",
        "c": "|pre({1}, every heap empty)| in Nim(3, 3, 5, 3)",
        "d": "the same with J = {1, 2}",
        "e": "the same with J empty",
    },
    "Q10": {
        "a": "|until({1}, k[2] >= k[3], dead ends of players 2 and 3)| in Nim(3, 3, 5, 3)",
        "b": "|until({1, 2}, every position, dead ends of players 1 and 3)| in Nim(3, 3, 5, 3)",
    },
    "Q11": {
        "a": "the initial positions of Nim(3, 2, 20, 3) from which player 1 alone surely wins",
        "b": "how many positions satisfy F({1}) (player 1 alone surely wins)",
        "c": "how many satisfy F({1, 2}) (players 1 and 2 together make 3 lose)",
        "d": "how many of those are initial",
    },
    "Q12": {
        "a": "how many positions satisfy Traître_1 (1 sides with 2 until 3 is lost, then wins alone)",
        "b": "how many of those are initial",
    },
}

#: the exam's model, package data: found alike in a checkout and in an installed copy
MODEL = resources.files("symbolic") / "models" / "ens2005.game"


def _size(s) -> int:
    """The exact number of positions of ``s`` (``len`` stops at sys.maxsize)."""
    return s.count()


def load_nim(N: int, n: int, K: int, r: int, u0: int) -> Model:
    """The exam's game Nim(N, n, K, r) for the candidate number u0, from ``MODEL``.

    >>> load_nim(2, 2, 3, 2, 0).params
    {'N': 2, 'n': 2, 'K': 3, 'r': 2, 'u0': 0}
    """
    if not MODEL.is_file():
        raise QueryError(
            f"cannot find the ENS model {MODEL} (was symbolic installed without its package data?)"
        )
    # as_file: a real file even when the package is imported from a zip archive
    with resources.as_file(MODEL) as path:
        return load_model(path, {"N": N, "n": n, "K": K, "r": r, "u0": u0})


def _game(N, n, K, r, u0, engine, backend):
    model = load_nim(N, n, K, r, u0)
    return model, make_engine(model.game, engine, backend)


def _sorted(ps) -> list:
    return [list(t) for t in ps.tuples()]


def answer_sheet(u0: int, engine: str = "symbolic", backend: str = "auto") -> dict:
    """All answers for ``u0`` as a JSON-ready dict (keys Q1, Q3..Q12), one
    function per group of questions below."""
    if not 0 <= u0 < 4_890_367:
        raise QueryError(f"u0 must be in 0..4890366 (a value of the sequence), got {u0}")
    out: dict = {"u0": u0}
    out.update(sequence_answers(u0))
    out.update(triple_answers(u0, engine, backend))
    out.update(rule_answers(u0))
    out.update(step_answers(u0, engine, backend))
    out.update(until_answers(u0, engine, backend))
    out.update(atl_answers(u0, engine, backend))
    return out


def sequence_answers(u0: int) -> dict:
    """Q1: the sequence u itself (a–c its terms, d the pairs i with uᵢ + u₅₀₀₀₋ᵢ ≤ u₁ + u₄₉₉₉).

    >>> sequence_answers(0)["Q1"]["a"]
    269
    """
    u = lcg(u0, 5000)
    bound = u[1] + u[4999]
    return {
        "Q1": {
            "a": u[1],
            "b": u[100],
            "c": u[1000],
            "d": sum(1 for i in range(1, 5000) if u[i] + u[5000 - i] <= bound),
        }
    }


def triple_answers(u0: int, engine: str, backend: str) -> dict:
    """Q3–Q4: sets of triples (x, y, z) over 0..10: unions of singletons, the
    Pythagorean triples A, the sequence's triples B, and A ∩ B."""
    space = ir.Space(tuple(ir.VarDecl(v, ir.IntType(0, 10)) for v in "xyz"))
    S = make_sets(space, engine, backend)
    a = S.singleton((0, 0, 1)) | S.singleton((0, 2, 1))
    b = S.singleton((0, 0, 1)) | S.singleton((0, 0, 1))
    x, y, z = ir.Var("x"), ir.Var("y"), ir.Var("z")
    A = S.from_expr((x * x + y * y).eq(z * z))
    u = lcg(u0, 303)
    B = S.from_tuples([(u[3 * k] % 11, u[3 * k + 1] % 11, u[3 * k + 2] % 11) for k in range(101)])
    return {
        "Q3": {"a": _size(a), "b": _size(b), "c": _size(a & b)},
        "Q4": {"a": _size(A), "b": _size(B), "c": _size(A & B), "d": _sorted(A & B)},
    }


def rule_answers(u0: int) -> dict:
    """Q5: the rule sets R of Nim(2, n, 1, r), as the model computes them."""
    q5 = {}
    for key, (n, r) in (("a", (2, 2)), ("b", (3, 3))):
        m = load_nim(2, n, 1, r, u0)
        q5[key] = [list(t) for t in sorted(m.consts["R"])]
    return {"Q5": q5}


def step_answers(u0: int, engine: str, backend: str) -> dict:
    """Q6–Q9: one step of the game: δ(c), pre∃, |pre∀| and |pre|."""
    V = DeadEnds.VACUOUS
    out: dict = {"Q6": {}, "Q7": {}, "Q8": {}}
    for key, (params, c) in (
        ("a", ((2, 2, 20, 2), (1, 5, 9))),
        ("b", ((2, 3, 20, 3), (2, 3, 7, 2))),
        ("c", ((3, 5, 20, 6), (1, 1, 9, 3, 4, 7))),
    ):
        _, E = _game(*params, u0, engine, backend)
        out["Q6"][key] = _sorted(E.successors(c))
    for key, (params, tau) in (
        ("a", ((2, 2, 20, 2), [(2, 1, 5)])),
        ("b", ((2, 2, 3, 2), [(2, 1, 1)])),
        ("c", ((2, 3, 5, 3), [(2, 1, 2, 3), (1, 3, 2, 1)])),
    ):
        _, E = _game(*params, u0, engine, backend)
        out["Q7"][key] = _sorted(E.pre_exists({1}, E.from_tuples(tau)))
    for key, (params, tau) in (
        ("a", ((2, 2, 4, 2), [(2, 0, 0)])),
        ("b", ((2, 2, 3, 2), [(2, 1, 1)])),
        ("c", ((2, 3, 5, 3), [(2, 0, 0, 0)])),
    ):
        _, E = _game(*params, u0, engine, backend)
        out["Q8"][key] = _size(E.pre_forall({1}, E.from_tuples(tau), dead_ends=V))
    _, E = _game(2, 2, 20, 2, u0, engine, backend)
    k1, k2 = ir.Elem("k", ir.Const(1)), ir.Elem("k", ir.Const(2))
    p = E.pre({1}, E.from_expr((k1 <= 2) & (k2 <= 2)), dead_ends=V)
    q9 = {"a": _size(p), "b": _size(p & E.turn_set({2}))}
    _, E = _game(3, 3, 5, 3, u0, engine, backend)
    zeros = E.from_expr(ir.conj(ir.Elem("k", ir.Const(i)).eq(0) for i in (1, 2, 3)))
    for key, J in (("c", {1}), ("d", {1, 2}), ("e", set())):
        q9[key] = _size(E.pre(J, zeros, dead_ends=V))
    out["Q9"] = q9
    return out


def until_answers(u0: int, engine: str, backend: str) -> dict:
    """Q10: |until| on Nim(3, 3, 5, 3), towards the opponents' dead ends."""
    V = DeadEnds.VACUOUS
    model, E = _game(3, 3, 5, 3, u0, engine, backend)
    ev = atl.Evaluator(E, model.definitions)
    stuck = ev(atl.Ref("stuck"))
    sigma = E.from_expr(ir.Elem("k", ir.Const(2)) >= ir.Elem("k", ir.Const(3)))
    return {
        "Q10": {
            "a": _size(E.until({1}, sigma, stuck - E.turn_set({1}), dead_ends=V).result),
            "b": _size(E.until({1, 2}, E.positions(), stuck - E.turn_set({2}), dead_ends=V).result),
        }
    }


def atl_answers(u0: int, engine: str, backend: str) -> dict:
    """Q11–Q12: the model's ATL formulas F_J and Traître_1 on Nim(3, 2, 20, 3)."""
    model, E = _game(3, 2, 20, 3, u0, engine, backend)
    ev = atl.Evaluator(E, model.definitions)
    one, one_two = atl.CoalitionLit((1,)), atl.CoalitionLit((1, 2))
    initial = ev(atl.Ref("initial"))
    F1 = ev(atl.Ref("F", (one,)))
    F12 = ev(atl.Ref("F", (one_two,)))
    T = ev(atl.Ref("Traître_1"))
    return {
        "Q11": {
            "a": _sorted(F1 & initial),
            "b": _size(F1),
            "c": _size(F12),
            "d": _size(F12 & initial),
        },
        "Q12": {"a": _size(T), "b": _size(T & initial)},
    }


def format_sheet(sheet: dict) -> str:
    """The answer sheet as text, one line per answer, after its question
    (:data:`QUESTIONS`)."""
    lines = [f"ENS 2005, 'Jeux à plusieurs et coalitions': answers for u0 = {sheet['u0']}"]
    for q, answers in sheet.items():
        if q == "u0":
            continue
        lines.append(f"Question {q[1:]}")
        for k, v in answers.items():
            if isinstance(v, list):
                v = "{" + ", ".join("(" + ", ".join(map(str, t)) + ")" for t in v) + "}"
            lines.append(f"  {k}) {QUESTIONS[q][k]}: {v}")
    return "\n".join(lines)

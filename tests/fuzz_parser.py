"""The parser and model fuzzer of issue 8: hostile texts in, located errors or answers out.

Inputs, all generated from a seed (so every run is reproducible):

- mutations of the shipped models: token deletion, duplication and swap,
  truncation at a line, random bytes, unicode, CRLF line ends and a BOM, an
  expression nested 10 000 deep, a literal of thousands of digits;
- random model texts and query texts from a small grammar of the language;
- malformed arenas (the TD's JSON format) and GDL-style s-expressions;
- (issue 23) strategy files of ``execute``, ``--at`` position texts, scripts
  fed to ``play``'s standard input, and GDL ``.kif`` texts
  (:mod:`tests.fuzz_inputs`);
- (issue 35) AIGER circuits, ASCII and binary: hostile literals, lines lost or
  doubled, bytes flipped, truncations, chains of up to 50 000 gates.

Each input is read as a model (or a query over ``models/nim.game``, or an
arena); a model that checks and has at most 4 096 positions is also solved by
the explicit engine (its first query). The verdicts: ``ok`` (an answer),
``located`` (a ModelError with file, line and column, or another
SymbolicError such as a refused request), ``unlocated`` (a ModelError, or an
error about a strategy file, without a location), ``traceback`` (any other exception: a bug), ``slow`` (over
:data:`SLOW` seconds; the limits stop such an input at :data:`STOP` seconds;
``slow only under load`` when it used less than SLOW/2 seconds of processor
time: a busy machine, not a slow input, and not saved),
``memory`` (Python ran out of the fuzzer's :data:`MEMORY_CAP`).

``python -m tests.fuzz_parser N [SEED [EVERY]]`` runs N inputs (counts on stderr every EVERY) in this process and
prints the counts; inputs that failed are written to ``tests/fuzz_cases/``
(pin them in ``tests/test_fuzz_parser.py``). ``make fuzz-parser`` runs 10**5.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

from symbolic import atl
from symbolic.engines import make_engine
from symbolic.errors import LimitExceeded, ModelError, SymbolicError
from symbolic.limits import Limits, ensure_recursion_headroom, using
from symbolic.model import load_model, parse_arena, parse_formula, parse_model

from .fuzz_inputs import (
    aiger_input,
    at_input,
    kif_input,
    kif_sources,
    play_input,
    run_input,
    strategy_input,
)
from .conftest import ROOT

MODELS = ROOT / "symbolic" / "models"
CASES = Path(__file__).resolve().parent / "fuzz_cases"

#: an input over this many seconds counts as slow; the limits stop it at STOP
SLOW = 5.0
STOP = 8.0

_TOKEN = re.compile(
    r'"""[\s\S]*?"""|"[^"\n]*"|//[^\n]*|/\*[\s\S]*?\*/|\d+|[A-Za-z_]\w*'
    r"|<<|>>|\.\.|[<>=!]=|[^\s\w]|\s+"
)


def _sources() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(MODELS.glob("*.game"))]


def _arenas() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(MODELS.glob("*.json"))]


# --------------------------------------------------------------------------- mutations


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def mutate(text: str, rnd: random.Random) -> str:
    """One random mutation of model text."""
    kind = rnd.randrange(12)
    toks = _tokens(text)
    if kind == 0 and toks:  # delete tokens
        for _ in range(rnd.randint(1, 3)):
            if toks:
                del toks[rnd.randrange(len(toks))]
        return "".join(toks)
    if kind == 1 and toks:  # duplicate a token
        i = rnd.randrange(len(toks))
        toks.insert(i, toks[i])
        return "".join(toks)
    if kind == 2 and len(toks) > 1:  # swap two tokens
        i, j = rnd.randrange(len(toks)), rnd.randrange(len(toks))
        toks[i], toks[j] = toks[j], toks[i]
        return "".join(toks)
    if kind == 3:  # truncate at a line (or inside it)
        lines = text.split("\n")
        k = rnd.randrange(len(lines) + 1)
        cut = "\n".join(lines[:k])
        return (
            cut
            if rnd.random() < 0.5
            else cut + lines[k][: rnd.randint(0, 20)]
            if k < len(lines)
            else cut
        )
    if kind == 4:  # random bytes, decoded as a reader would
        i = rnd.randrange(len(text) + 1)
        junk = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 8)))
        return text[:i] + junk.decode("utf-8", "replace") + text[i:]
    if kind == 5:  # unicode: letters, marks, wide, RTL, NUL
        i = rnd.randrange(len(text) + 1)
        return (
            text[:i]
            + rnd.choice(
                ["é", "漢字", "\u0301", "\u202e", "\x00", "𝔵", "\ufeff", "\t", "\u00a0", "\r"]
            )
            + text[i:]
        )
    if kind == 6:  # CRLF and a BOM
        return "\ufeff" + text.replace("\n", "\r\n")
    if kind == 7:  # nesting 10 000 deep in an expression
        d = rnd.choice([300, 10_000])
        inner = rnd.choice(
            [
                "(" * d + "1" + ")" * d,
                "not " * d + "true",
                "-" * d + "1",
                "+".join(["1"] * d),
                "{" * d + "1" + "}" * d,
                "<<1>> X " * d + "true",
            ]
        )
        return text + f"\nset deep = {inner} = 1\n"
    if kind == 8:  # a huge literal for a number
        nums = [i for i, t in enumerate(toks) if t.isdigit()]
        if nums:
            toks[rnd.choice(nums)] = "9" * rnd.choice([20, 400, 1001, 5000])
            return "".join(toks)
        return text + "\nconst big = " + "9" * 5000
    if kind == 9 and toks:  # replace a token by another of the text
        toks[rnd.randrange(len(toks))] = rnd.choice(toks)
        return "".join(toks)
    if kind == 10:  # a huge pow / range
        return text + rnd.choice(
            [
                "\nconst P = pow(2, 100000)\n",
                "\nvar zz : 0..pow(10, 40)\n",
                "\nconst R = 0..100000000\n",
                "\nparam Q = pow(2, 20000)\n",
            ]
        )
    lines = text.split("\n")  # swap two lines
    i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


# --------------------------------------------------------------------------- generated texts

_NAMES = ["x", "j", "k", "k[1]", "k[2]", "n", "K", "initial", "wins(1)", "mover_wins", "foo"]


def random_expr(rnd: random.Random, depth: int = 3) -> str:
    """A random expression or formula of the language (often ill-typed on purpose)."""
    if depth <= 0 or rnd.random() < 0.3:
        return rnd.choice(
            _NAMES + ["0", "1", "7", "true", "false", "-3", '"s"', "players", "{1, 2}", "(1, 2)"]
        )
    d = depth - 1
    form = rnd.randrange(10)
    if form == 0:
        return (
            f"{random_expr(rnd, d)} {rnd.choice(['+', '-', '*', 'div', 'mod', '/', '%'])} "
            f"{random_expr(rnd, d)}"
        )
    if form == 1:
        return (
            f"{random_expr(rnd, d)} {rnd.choice(['=', '!=', '<', '<=', '>', '>=', 'in'])} "
            f"{random_expr(rnd, d)}"
        )
    if form == 2:
        return (
            f"{random_expr(rnd, d)} {rnd.choice(['and', 'or', 'implies', 'iff'])} "
            f"{random_expr(rnd, d)}"
        )
    if form == 3:
        return f"{rnd.choice(['not ', '-', ''])}({random_expr(rnd, d)})"
    if form == 4:
        return (
            f"<<{rnd.choice(['1', '2', '1, 2', 'players', '{1}', '3', ''])}>> "
            f"{rnd.choice(['X ', '<> ', '[] ', ''])}{random_expr(rnd, d)}"
        )
    if form == 5:
        return (
            f"<<{rnd.choice(['1', '2'])}>> {random_expr(rnd, d)} {rnd.choice(['U', 'R', 'W'])} "
            f"{random_expr(rnd, d)}"
        )
    if form == 6:
        return (
            f"{rnd.choice(['forall', 'exists'])} i in {rnd.choice(['1..n', '0..3', 'x', '{}'])}: "
            f"{random_expr(rnd, d)}"
        )
    if form == 7:
        return (
            f"{rnd.choice(['abs', 'min', 'max', 'len', 'pow', 'sum', 'count', 'turn', 'dyck', 'lcg'])}"
            f"({random_expr(rnd, d)}{rnd.choice(['', ', ' + random_expr(rnd, d)])})"
        )
    if form == 8:
        return f"if {random_expr(rnd, d)} then {random_expr(rnd, d)} else {random_expr(rnd, d)}"
    return f"{{ {random_expr(rnd, d)} for i in 0..{rnd.randint(-1, 4)} }}"


def random_model(rnd: random.Random) -> str:
    """A random model text from the language's declarations."""
    lines = [f'game "g{rnd.randrange(100)}"']
    if rnd.random() < 0.5:
        lines.append(f"param n : 1..{rnd.randint(0, 4)} = {rnd.randint(-1, 5)}")
    lines.append(rnd.choice(["players 1, 2", "players 1..3", "players 1", "players", "players 0"]))
    lines.append(f"var j : 1..{rnd.randint(1, 3)}")
    lines.append(
        rnd.choice(
            [
                "var k : array[1..2] of 0..3",
                "var k : 0..4",
                "var b : bool",
                "var k : array[1..n] of 0..2",
                "var k : 3..1",
            ]
        )
    )
    lines.append(rnd.choice(["turn j", "turn 1", "turn k", "turn " + random_expr(rnd, 1)]))
    for _ in range(rnd.randint(0, 3)):
        lines.append(
            rnd.choice(
                [
                    f"move m{rnd.randrange(9)}(t in 1..2) when {random_expr(rnd, 2)} then "
                    f"{rnd.choice(['k', 'k[1]', 'j'])}' = {random_expr(rnd, 2)}; j' = 3 - j",
                    f"set s{rnd.randrange(9)} = {random_expr(rnd, 2)}",
                    f"formula f{rnd.randrange(9)}(p) = {random_expr(rnd, 3)}",
                    f"const c{rnd.randrange(9)} = {random_expr(rnd, 2)}",
                    f"invariant {random_expr(rnd, 2)}",
                ]
            )
        )
    lines.append(f"query {random_expr(rnd, 3)}")
    return "\n".join(lines) + "\n"


def malformed_arena(rnd: random.Random, arenas: list[str]) -> str:
    """An arena document with a key removed, a value of the wrong type, or broken JSON."""
    doc = json.loads(rnd.choice(arenas))
    kind = rnd.randrange(5)
    if kind == 0:
        doc.pop(rnd.choice(sorted(doc)), None)
    elif kind == 1:
        doc[rnd.choice(sorted(doc))] = rnd.choice(
            [None, "x", -1, 10**30, [], {}, [[1]], True, {"0": "a"}, list(range(300))]
        )
    elif kind == 2:
        doc["transitions"] = {str(rnd.randint(-2, 9)): [rnd.randint(-2, 9)] for _ in range(4)}
    elif kind == 3:
        doc["controles"] = {str(s): rnd.choice([0, 1, 2, 3, "1"]) for s in range(7)}
    text = json.dumps(doc)
    if kind == 4:
        text = mutate(text, rnd)
    return text


def gdl_like(rnd: random.Random) -> str:
    """A GDL-style s-expression text (not the model language: must be refused in place)."""
    atoms = [
        "role",
        "init",
        "true",
        "next",
        "legal",
        "does",
        "goal",
        "terminal",
        "<=",
        "cell",
        "?x",
        "?y",
        "b",
        "x",
        "o",
        "1",
        "2",
        "(",
        ")",
    ]
    out = []
    for _ in range(rnd.randint(1, 6)):
        out.append("(" + " ".join(rnd.choice(atoms) for _ in range(rnd.randint(1, 6))) + ")")
    return "\n".join(out)


# --------------------------------------------------------------------------- running one input

#: the kinds of input read by :func:`run_one` through :func:`tests.fuzz_inputs.run_input`
OTHER_KINDS = ("strategy", "at", "play", "kif", "aiger")


def generate(
    rnd: random.Random, sources: list[str], arenas: list[str], kifs: list[str] | None = None
) -> tuple[str, str]:
    """(kind, text) of one input: kind is "model", "query", "arena" or one of
    :data:`OTHER_KINDS`."""
    r = rnd.random()
    if r < 0.45:
        return "model", mutate(rnd.choice(sources), rnd)
    if r < 0.57:
        return "model", random_model(rnd)
    if r < 0.69:
        return "query", rnd.choice(
            [random_expr(rnd, rnd.randint(1, 5)), mutate(random_expr(rnd, 3), rnd)]
        )
    if r < 0.77:
        return "arena", malformed_arena(rnd, arenas)
    if r < 0.80:
        return "model", gdl_like(rnd)
    if r < 0.87:
        return "strategy", strategy_input(rnd, mutate)
    if r < 0.93:
        return "at", at_input(rnd, mutate)
    if r < 0.96:
        return "play", play_input(rnd, mutate)
    if r < 0.97:  # grounding is slow (up to seconds an input): a small share
        return "kif", kif_input(rnd, mutate, kifs if kifs is not None else kif_sources())
    if r < 0.99:
        return "aiger", aiger_input(rnd, mutate)
    return "model", mutate(rnd.choice(sources), rnd)


_NIM = None


def _nim():
    global _NIM
    if _NIM is None:
        _NIM = load_model(MODELS / "nim.game")
    return _NIM


def _solve(model) -> None:
    """Solve the first query of a small model with the explicit engine."""
    if model.game.space.size > 4096 or not model.queries:
        return
    eng = make_engine(model.game, "explicit")
    atl.evaluate(eng, model.queries[0].formula, model.definitions).count()


def run_one(kind: str, text: str) -> str:
    """The verdict on one input (see the module docstring)."""
    limits = Limits(timeout=STOP)
    try:
        with limits.enforced():
            if kind in OTHER_KINDS:
                with using(limits):
                    run_input(kind, text)
            elif kind == "query":
                parse_formula(text, _nim())
            else:
                with using(limits):
                    _solve(
                        parse_arena(text, "fuzz.arena.json")
                        if kind == "arena"
                        else parse_model(text, "fuzz.game")
                    )
        return "ok"
    except LimitExceeded:
        return "slow"
    except MemoryError:  # beyond the address-space cap of fuzz(): a resource bug
        return "memory"
    except ModelError as err:
        return "located" if err.span is not None and err.span.line >= 1 else "unlocated"
    except SymbolicError as err:  # a strategy file's errors name FILE:LINE:COL
        return "unlocated" if kind == "strategy" and err.span is None else "located"
    except Exception:  # noqa: BLE001 - a bug: counted and saved
        return "traceback"


def save_case(kind: str, text: str, detail: str) -> Path:
    """Write a failing input to tests/fuzz_cases/ (named by its hash) for pinning."""
    CASES.mkdir(exist_ok=True)
    h = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    path = CASES / f"{kind}-{h}.txt"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    (CASES / f"{kind}-{h}.why").write_text(detail, encoding="utf-8")
    return path


def fuzz(n: int, seed: int = 0, report_every: int = 0, save: bool = True) -> Counter:
    """Run ``n`` inputs from ``seed``; return the counts of verdicts (and "seconds")."""
    ensure_recursion_headroom()
    restore = _cap_memory()
    try:
        return _fuzz(n, seed, report_every, save)
    finally:
        restore()


def _fuzz(n: int, seed: int, report_every: int, save: bool) -> Counter:
    rnd = random.Random(seed)
    sources, arenas, kifs = _sources(), _arenas(), kif_sources()
    counts: Counter = Counter()
    t_start = time.monotonic()
    for i in range(n):
        kind, text = generate(rnd, sources, arenas, kifs)
        t0, c0 = time.monotonic(), time.process_time()
        verdict = run_one(kind, text)
        dt, cpu = time.monotonic() - t0, time.process_time() - c0
        if dt > SLOW and verdict != "slow":
            verdict = "slow"
        if verdict == "slow" and cpu < SLOW / 2:
            # over SLOW seconds of wall time on less than half as much processor time:
            # the machine was busy (other runs), not the input slow; counted apart
            verdict = "slow only under load"
        counts[verdict] += 1
        counts[f"{kind} inputs"] += 1
        if verdict in ("traceback", "unlocated", "slow", "memory") and save:
            detail = verdict
            if verdict == "traceback":
                try:
                    run_one_raising(kind, text)
                except Exception:  # noqa: BLE001
                    detail = traceback.format_exc()
            save_case(kind, text, detail)
        if report_every and (i + 1) % report_every == 0:
            print(
                f"{i + 1} inputs, {time.monotonic() - t_start:.0f} s: {dict(counts)}",
                file=sys.stderr,
                flush=True,
            )
    counts["seconds"] = round(time.monotonic() - t_start)
    return counts


#: the fuzzer's address-space cap: an input that makes Python allocate more gets
#: a MemoryError (verdict "memory") instead of taking the machine down
MEMORY_CAP = 4 * 2**30


def _cap_memory():
    """Lower the address-space limit to MEMORY_CAP; return a function restoring it."""
    try:
        import resource
    except ImportError:  # not POSIX: no cap
        return lambda: None
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY or soft > MEMORY_CAP:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, hard))
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def run_one_raising(kind: str, text: str) -> None:
    """Like :func:`run_one` but lets a bug's exception through (for its traceback)."""
    try:
        if kind in OTHER_KINDS:
            run_input(kind, text)
        elif kind == "query":
            parse_formula(text, _nim())
        else:
            _solve(
                parse_arena(text, "fuzz.arena.json")
                if kind == "arena"
                else parse_model(text, "fuzz.game")
            )
    except SymbolicError:
        pass


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 1000
    seed = int(argv[1]) if len(argv) > 1 else 0
    every = int(argv[2]) if len(argv) > 2 else max(1, n // 20)
    counts = fuzz(n, seed, report_every=every)
    print(f"fuzz-parser: {n} inputs (seed {seed}) in {counts['seconds']} s")
    for k in sorted(counts):
        if k != "seconds":
            print(f"  {k}: {counts[k]}")
    bad = counts["traceback"] + counts["unlocated"] + counts["slow"] + counts["memory"]
    print(
        "result: "
        + (
            f"OK, 0 tracebacks, 0 unlocated errors, 0 inputs over {SLOW:g} s"
            if not bad
            else f"{bad} failing inputs in {CASES}"
        )
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

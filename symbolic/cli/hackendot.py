"""``symbolic hackendot``: Ulehla's method on a forest, checked against the nimbers;
or on many random forests from the report's grammar."""

from __future__ import annotations

import random
import time
from importlib import resources
from typing import Any

from ..seeds import hackendot as H
from ..errors import QueryError
from ..analysis.grundy import layered_nimbers, mex_nimbers
from ..limits import is_int_text, short_text
from ..model import load_model
from .output import emit
from .common import (
    ENGINE_CHOICES,
    backend_arg,
    build_engine,
    engine_arg,
    engine_kinds,
    int_arg,
    json_arg,
)

__all__ = ["MODEL", "check_random", "check_words", "cmd_hackendot", "register"]

MODEL = resources.files("symbolic") / "models" / "hackendot.game"


def _model_nimber(word: str, engine: str, backend: str) -> int:
    """The nimber of the full forest from models/hackendot.game, on one engine."""
    with resources.as_file(MODEL) as path:
        model = load_model(path, {"word": word})
    eng = build_engine(model.game, engine, backend)
    start = (1,) + (0,) * model.consts["N"]
    if engine == "explicit":
        return mex_nimbers(eng)[start]
    return layered_nimbers(eng).of(start)


def _one(args) -> int:
    f = H.Forest.from_word(args.word)
    if not len(f):
        raise QueryError("the forest is empty: give a Dyck word with at least one pair")
    reading = H.READINGS[args.reading]
    seq = H.sequence(f, reading)
    rips = [H.rip(g) for g in seq]
    move = H.winning_move(f, reading)
    truth = H.nimber(f)
    engine_nimbers = {}
    for kind in engine_kinds(args.engine):
        engine_nimbers[kind] = _model_nimber(args.word, kind, args.backend)
    after = H.nimber(f.remove_path(move)) if move is not None else None
    if args.json:
        emit(
            args,
            {
                "word": f.word(),
                "reading": reading.name,
                "sequence": [
                    {
                        "nodes": [v + 1 for v in g.nodes],
                        "word": g.word(),
                        "white": [v + 1 for v, w in zip(g.nodes, H.colours(g)) if w],
                        "rip": r,
                    }
                    for g, r in zip(seq, rips)
                ],
                "criterion_wins": H.wins(f, reading),
                "ulehla_value": H.ulehla_value(f, reading),
                "winning_move": None if move is None else move + 1,
                "nimber": truth,
                "nimber_after_move": after,
                "engine_nimbers": engine_nimbers,
            },
        )
    else:
        print(
            f"forest {f.word()}: {len(f)} node{'s' if len(f) != 1 else ''}, numbered "
            f"1..{len(f)} in preorder "
            f"(node v is gone[v] of models/hackendot.game)"
        )
        print(
            f"reading: {reading.name} (rip(f0) counts: {reading.count_start}; "
            f"children of removed white nodes go to: {reading.reattach}; "
            f"a candidate move must zero: {reading.move_check})"
        )
        for i, (g, r) in enumerate(zip(seq, rips)):
            white = [v + 1 for v, w in zip(g.nodes, H.colours(g)) if w]
            print(
                f"  f{i} = {g.word() or '(empty)':<24} nodes {[v + 1 for v in g.nodes]}, "
                f"white {white}, rip {r}"
            )
        print(
            f"criterion: the player to move {'wins' if H.wins(f, reading) else 'loses'}; "
            f"rips as a binary number (f0 lowest): {H.ulehla_value(f, reading)}"
        )
        if move is None:
            print("winning move: none (the criterion says the player to move loses)")
        else:
            print(
                f"winning move: node {move + 1}; nimber after it: {after}"
                + ("" if after == 0 else "  (NOT a winning move)")
            )
        print(f"nimber (mex over all moves): {truth}")
        for kind, nimber in engine_nimbers.items():
            print(f"nimber ({kind} engine, models/hackendot.game): {nimber}")
    return 0 if all(g == truth for g in engine_nimbers.values()) else 1


def check_random(count: int, low: int, high: int, seed: int) -> dict:
    """Ulehla's method under every reading against the nimbers, on ``count``
    random forests of ``low``..``high`` nodes from the report's grammar."""
    rng = random.Random(seed)
    doc = check_words([H.random_dyck(rng.randint(low, high), rng) for _ in range(count)])
    doc.update({"nodes": [low, high], "seed": seed})
    return doc


def check_words(words) -> dict:
    """Ulehla's method under every reading against the nimbers, on the forests
    ``words``: how often each reading's criterion, value (Σ rip·2ⁱ) and move are
    wrong, and the first forest where it goes wrong."""
    words = list(words)
    out: dict[str, dict[str, Any]] = {
        name: {
            "criterion_wrong": 0,
            "move_wrong": 0,
            "value_wrong": 0,
            "first_criterion_counterexample": None,
            "first_move_counterexample": None,
        }
        for name in H.READINGS
    }
    losing = 0
    for w in words:
        f = H.Forest.from_word(w)
        g = H.nimber(f)
        losing += g == 0
        for name, reading in H.READINGS.items():
            o = out[name]
            if H.wins(f, reading) != (g != 0):
                o["criterion_wrong"] += 1
                o["first_criterion_counterexample"] = o["first_criterion_counterexample"] or w
            o["value_wrong"] += H.ulehla_value(f, reading) != g
            if g != 0:
                m = H.winning_move(f, reading)
                if m is None or H.nimber(f.remove_path(m)) != 0:
                    o["move_wrong"] += 1
                    o["first_move_counterexample"] = o["first_move_counterexample"] or w
    return {"forests": len(words), "first_player_loses": losing, "readings": out}


def _many(args) -> int:
    t0 = time.perf_counter()
    if args.all is not None:
        if not 1 <= args.all <= 12:
            raise QueryError(f"--all: need 1 <= MAX <= 12 nodes, got {args.all}")
        doc = check_words(w for n in range(1, args.all + 1) for w in H.all_dyck(n))
        title = f"all {doc['forests']} forests of 1..{args.all} nodes"
    else:
        doc, title = _random_doc(args)
    if args.json:
        emit(args, doc)
        return 0
    print(f"{title}; {doc['first_player_loses']} have nimber 0; {time.perf_counter() - t0:.1f} s")
    print(
        f"{'reading':<16}{'criterion wrong':>16}{'value wrong':>13}{'move wrong':>12}"
        f"  first counterexample"
    )
    for name, o in doc["readings"].items():
        ex = o["first_criterion_counterexample"] or o["first_move_counterexample"] or "-"
        print(
            f"{name:<16}{o['criterion_wrong']:>16}{o['value_wrong']:>13}{o['move_wrong']:>12}  {ex}"
        )
    return 0


def _random_doc(args):
    low, sep, high = args.nodes.partition("..")
    if not (is_int_text(low) and (not sep or is_int_text(high))) or len(args.nodes) > 20:
        raise QueryError(f"--nodes expects MIN..MAX (e.g. 1..14), got {short_text(args.nodes)}")
    low, high = int(low), int(high or low)
    if not 1 <= low <= high <= 40:
        raise QueryError(f"--nodes: need 1 <= MIN <= MAX <= 40, got {args.nodes!r}")
    if args.random < 1:
        raise QueryError("--random: give a positive number of forests")
    doc = check_random(args.random, low, high, args.seed)
    return doc, (
        f"{doc['forests']} random forests of {low}..{high} nodes from the grammar "
        f"S -> () | ()S | (S) | (S)S (seed {args.seed})"
    )


def cmd_hackendot(args) -> int:
    if sum(x is not None for x in (args.word, args.random, args.all)) != 1:
        raise QueryError("give one of: a Dyck word, --random N, --all MAX")
    return _one(args) if args.word is not None else _many(args)


def register(sub) -> None:
    c = sub.add_parser(
        "hackendot",
        help="Ulehla's method for Hackendot (report's reading or corrected), "
        "checked against the nimbers",
        description="Hackendot on a forest given as a Dyck word: Ulehla's colouring, the "
        "sequence f0, f1 = l(f0), ..., rip of each, the criterion, the winning move, "
        "and the true nimber (mex recursion, and the engines on "
        "models/hackendot.game). With --random N: the method under every reading "
        "on N random forests from the report's grammar.",
    )
    c.add_argument("word", nargs="?", metavar="WORD", help="a Dyck word, e.g. '((())())'")
    c.add_argument(
        "--reading",
        choices=list(H.READINGS),
        default="corrected",
        help="how to read the report (default: corrected; literal: as written)",
    )
    engine_arg(
        c,
        ENGINE_CHOICES + ("none",),
        "also compute the nimber with this engine on models/hackendot.game",
    )
    backend_arg(c, "BDD backend of the symbolic engine")
    c.add_argument("--random", type=int_arg(), metavar="N", help="check N random forests")
    c.add_argument(
        "--all",
        type=int_arg(),
        metavar="MAX",
        help="check every forest of 1..MAX nodes (MAX <= 12)",
    )
    c.add_argument(
        "--nodes",
        default="1..14",
        metavar="MIN..MAX",
        help="sizes of the random forests (default 1..14)",
    )
    c.add_argument("--seed", type=int_arg(), default=0, help="seed of the random forests")
    json_arg(c)
    c.set_defaults(func=cmd_hackendot)

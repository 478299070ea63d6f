"""``symbolic layers``: the positions reachable from the model's initial set, counted
layer by layer (k moves played), one layer held at a time when the model declares
levels (:mod:`symbolic.analysis.layer_counts`)."""

from __future__ import annotations

import sys

from ..analysis.layer_counts import reachable_counts
from ..analysis.layered import initial_set
from ..errors import LimitExceeded
from ..limits import current as current_limits
from .common import (
    ENGINE_CHOICES,
    build_engine,
    engine_arg,
    engine_kinds,
    json_arg,
    load,
    model_args,
    note_work,
    title_text,
    tuning,
)
from .output import emit

__all__ = ["cmd_layers", "register"]


def _rows(counts) -> list[dict]:
    return [{"layer": k, "positions": n} for k, n in enumerate(counts)]


def _counted(model, engine, show: bool) -> tuple[int, ...]:
    """:func:`reachable_counts` on ``engine``, each row printed as it is counted
    (``show``); a limit that stops it carries the rows counted (``solved``)."""
    counted: list[int] = []
    lim = current_limits()
    lim.solved = lambda: _rows(counted)  # the watchdog's stop document carries them too

    def on_layer(k: int, n: int) -> None:
        counted.append(n)
        if show:
            print(f"{k:>5} {n:>20}", flush=True)

    try:
        return reachable_counts(
            engine, model.definitions, initial_set(engine, model.definitions), on_layer
        )
    except LimitExceeded as err:
        if counted:
            err.solved = _rows(counted)
        raise
    finally:
        lim.solved = None


def cmd_layers(args) -> int:
    model = load(args)
    kinds = engine_kinds(args.engine)
    note_work(args, True)
    counts = {}
    held = "level" in model.definitions  # reachable_counts checks the declaration
    for kind in sorted(kinds, key=lambda k: k != "explicit"):  # size check first
        eng = build_engine(model.game, kind, **tuning(args))
        show = not args.json and len(kinds) == 1
        if show:
            print(title_text(model))
            print(_heading(held))
        counts[kind] = _counted(model, eng, show)
    main = counts[kinds[0]]
    status = 0
    if args.engine == "both" and counts["symbolic"] != counts["explicit"]:
        status = 1
        print(
            f"MISMATCH: symbolic {list(counts['symbolic'])}, explicit {list(counts['explicit'])}",
            file=sys.stderr,
        )
    if args.json:
        doc = {"layers": _rows(main), "total": sum(main), "one_layer_held": held}
        emit(args, doc, model, eng)
        return status
    if len(kinds) > 1:
        print(title_text(model))
        print(_heading(held))
        for k, n in enumerate(main):
            print(f"{k:>5} {n:>20}")
    print(f"total {sum(main)} positions in {len(main)} layers")
    if args.engine == "both" and status == 0:
        print("symbolic and explicit agree on every layer")
    return status


def _heading(held: bool) -> str:
    how = (
        "one layer held at a time: the model declares disjoint levels"
        if held
        else "the layers seen kept: the model declares no levels"
    )
    return (
        f"positions reachable from initial, by number of moves played ({how}):\n"
        f"\n{'layer':>5} {'positions':>20}"
    )


def register(sub) -> None:
    c = sub.add_parser(
        "layers",
        help="the positions reachable from initial, counted layer by layer",
        description="Count the positions reachable from the model's initial set, layer "
        "by layer: layer k holds the positions first reached after k moves. When the "
        "model declares levels (set level(k) = ..., disjoint, each holding its layer: "
        "checked), one layer is held at a time and the union of the layers is never "
        "made; otherwise the layers seen are kept to tell the new positions.",
    )
    model_args(c)
    engine_arg(
        c,
        ENGINE_CHOICES,
        "symbolic (BDD images), explicit (enumeration) or both (cross-check; exit 1 on "
        "any difference)",
    )
    json_arg(c)
    c.set_defaults(func=cmd_layers)

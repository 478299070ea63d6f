"""``symbolic strategy`` on a concurrent game: one joint action of the coalition per
position (:mod:`symbolic.analysis.joint_strategy`), for ``<<J>> f U g`` (``<>``) and
``<<J>> [] g``, optionally verified against every joint response of the others."""

from __future__ import annotations


from .. import atl
from ..analysis.joint_strategy import reach_joint_strategy, safety_joint_strategy, verify_joint
from ..errors import QueryError
from ..model import parse_formula
from .output import emit
from .common import NOT_ANSWERED, position_text
from .positions import start_set

__all__ = ["concurrent_strategy"]


def _strategy(model, engine, formula):
    ev = atl.Evaluator(engine, model.definitions)
    players = model.game.players
    if isinstance(formula, atl.Until):
        J = atl.coalition_value(formula.coalition, players, {})
        return reach_joint_strategy(engine, J, ev(formula.left), ev(formula.right))
    if isinstance(formula, atl.Release) and formula.left == atl.Truth(False):
        J = atl.coalition_value(formula.coalition, players, {})
        return safety_joint_strategy(engine, J, ev(formula.right))
    raise QueryError(
        "on a concurrent game, strategy takes <<J>> f U g, <<J>> <> g or <<J>> [] g",
        getattr(formula, "span", None),
    )


def concurrent_strategy(model, engine, args) -> int:
    """The ``strategy`` command on a concurrent game."""
    if args.count is not None:
        raise QueryError("--count counts the strategies of turn-based games only")
    if not args.query:
        raise QueryError("strategy needs --query FORMULA")
    start = start_set(model, engine, args).tuples()
    s = _strategy(model, engine, parse_formula(args.query, model))
    sp = model.game.space
    won = [c for c in start if c in s.table or (s.kind == "reach" and c in s.target)]
    doc = {
        "coalition": list(s.coalition),
        "kind": s.kind,
        "start": len(start),
        "start_won": len(won),
        "table": [{"at": sp.as_dict(c), "actions": list(a)} for c, a in sorted(s.labels.items())],
    }
    lost = [c for c in start if c not in won]
    if args.verify:
        doc["verified"] = verify_joint(model.game, s, won) and not lost
        if lost:
            doc["not_won"] = (
                f"the start is not won at {len(lost)} of {len(start)} "
                f"position(s) (e.g. {position_text(sp, lost[0])})"
            )
    if args.json:
        emit(args, doc, model, engine)
        return 0 if doc.get("verified", True) else NOT_ANSWERED
    J = "{" + ", ".join(map(str, s.coalition)) + "}"
    print(f"{model.name}: joint strategy of {J} for {args.query} ({s.kind}; engine {engine.kind})")
    print(
        f"positions with an action: {len(s.table)}; start: {len(start)} position(s), {len(won)} won"
    )
    rows = doc["table"] if args.limit == 0 else doc["table"][: args.limit]
    for row in rows:
        print(
            f"  {position_text(sp, tuple(row['at'].values()))}  ->  "
            f"{', '.join(row['actions']) or '(no player)'}"
        )
    if len(rows) < len(doc["table"]):
        print(f"  ... ({len(doc['table']) - len(rows)} more; --limit 0 shows all)")
    if args.verify:
        if lost:
            print(
                f"not verified: {doc['not_won']}: "
                + (
                    "nothing to verify"
                    if not won
                    else "from the others, every joint response of the others loses"
                    if verify_joint(model.game, s, won)
                    else "FAILED"
                )
            )
            return NOT_ANSWERED
        print(
            "verified: "
            + ("every joint response of the others loses" if doc["verified"] else "FAILED")
        )
        return 0 if doc["verified"] else NOT_ANSWERED
    return 0

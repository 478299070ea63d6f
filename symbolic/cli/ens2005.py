"""``symbolic ens2005``: the ENS 2005 answer sheet for one u0."""

from __future__ import annotations


from ..seeds.ens2005 import answer_sheet, format_sheet
from ..limits import current as current_limits
from .output import emit
from .common import backend_arg, engine_arg, int_arg, json_arg

__all__ = ["cmd_ens2005", "register"]


def cmd_ens2005(args) -> int:
    with current_limits().stage(f"computing the ENS 2005 answer sheet for u0 = {args.u0}"):
        sheet = answer_sheet(args.u0, engine=args.engine, backend=args.backend)
    if args.json:
        emit(args, sheet)
    else:
        print(format_sheet(sheet))
    return 0


def register(sub) -> None:
    e = sub.add_parser(
        "ens2005",
        help="the whole ENS 2005 answer sheet for one u0",
        description="Answer Questions 1 and 3-12 of the ENS 2005 exam "
        "'Jeux à plusieurs et coalitions' for a given u0, from "
        "the model ens2005.game shipped with symbolic "
        "(models/ens2005.game in a checkout).",
    )
    e.add_argument("--u0", type=int_arg(), required=True, help="the candidate's number u_0")
    json_arg(e)
    engine_arg(e)
    backend_arg(e, None)
    e.set_defaults(func=cmd_ens2005)

"""Who wins what in the GGP corpus: a sweep's table (``bench/ggp_corpus.py``) as a table
people read and as JSON (issue 36, item 4).

Every number comes from the ``forced`` cell of a solved row, ``{C}r=v``: from the initial
state the coalition C can force role r's goal to at least v, whatever the others do (the
CLI's ``symbolic gdl`` table). Per solved game:

- *alone*: a_r = the value of ``{r}r``, what role r forces by itself;
- *together*: t_r = the value of ``{all roles}r``, the best r gets when every role helps;
- *verdict*, read off those numbers only: with one role, "forces a_r"; with several,
  "r forces its best (v)" when exactly one role r has a_r = t_r, "each forces its best"
  when all do, "each forces v" when no role does and every a_r equals one v (50 in a
  drawn zero-sum game), else "alone: ..." (no role can force what cooperation gives).

The games a GGP player recognises (tic-tac-toe, Connect Four, Nim, Chomp, Breakthrough, Hex,
Pentago, checkers, chess, Othello, the Tower of Hanoi, ...) are called out by family, with
each member's verdict or the stage where its run stopped (:data:`FAMILIES`, matched on the
file name).

    python bench/ggp_answers.py TABLE.tsv [--json OUT.json] [--readme]

``--json`` writes every solved game's answer (default: beside the table,
``<table>-answers.json``); ``--readme`` puts the markdown between the ``ggp-answers`` markers
of ``bench/README.md``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import ggp_corpus  # noqa: E402  (a script beside this one, not a package)

sys.path.pop(0)
README_BEGIN, README_END = "<!-- ggp-answers -->", "<!-- /ggp-answers -->"

#: (family, pattern on the game's file name): the first that matches names its family
FAMILIES = [
    ("Tic-tac-toe", r"tictac|tactoe|tictic|tictoe|toetictac|ticblock|cittaceot|^eotc"),
    ("Gomoku", r"gomoku|connect5"),
    ("Connect Four", r"connect|conn4"),
    ("Nim", r"^nim"),
    ("Chomp", r"chomp"),
    ("Breakthrough", r"breakthrough|knightthrough"),
    ("Hex", r"^hex$|_hex$"),
    ("Pentago", r"pentago"),
    ("Chinese checkers", r"chinesecheckers"),
    ("Checkers", r"checkers|draughts|chinook"),
    ("Chess", r"chess|^pawn|^endgame"),
    ("Knight's tour", r"knightstour"),
    ("Othello", r"othello|reversi"),
    ("Tower of Hanoi", r"hanoi"),
    ("Lights Out", r"^lights"),
    ("Sliding puzzles", r"puzzle|slidingpieces|pancakes"),
    ("Peg solitaire", r"peg"),
    ("Amazons", r"^amazons"),
    ("Sudoku and nonograms", r"sudoku|nonogram|hitori"),
    ("Quarto", r"quarto"),
]


def family_of(game: str) -> str | None:
    """The family of a game (:data:`FAMILIES`), None when it is in none."""
    name = game.lower()
    for family, pattern in FAMILIES:
        if re.search(pattern, name):
            return family
    return None


def parse_forced(cell: str) -> list[dict]:
    """``{a,b}r=v ...`` as [{"coalition": [a, b], "role": r, "value": v or None}]."""
    out = []
    for item in cell.split():
        coalition, rest = item[1:].split("}", 1)
        role, value = rest.rsplit("=", 1)
        out.append(
            {
                "coalition": coalition.split(","),
                "role": role,
                "value": None if value == "None" else int(value),
            }
        )
    return out


def answer(row: dict) -> dict:
    """The answer of a solved row: roles, states, alone, together, verdict, referee."""
    forced = parse_forced(row["forced"])
    roles = [
        f["role"] for f in forced if len(f["coalition"]) == 1 and f["coalition"][0] == f["role"]
    ]
    alone = {f["role"]: f["value"] for f in forced if f["coalition"] == [f["role"]]}
    together = {f["role"]: f["value"] for f in forced if sorted(f["coalition"]) == sorted(roles)}
    return {
        "game": row["game"],
        "family": family_of(row["game"]),
        "roles": roles,
        "moves": row["moves"],
        # None: --search-best found a play before it visited every state
        "reachable": int(row["reachable"]) if row["reachable"] else None,
        "alone": alone,
        "together": together,
        "verdict": verdict(roles, alone, together),
        "referee": row.get("referee") or "none",
        "seconds": float(row["seconds"]),
        "forced": forced,
        # --stop-at-best: the states explored up to the best goal, not every reachable one
        **({"explored_only": True} if row.get("stage", "").startswith("best goal at") else {}),
        # --search-best: the value proved by a play (the stage says how long, how many searched)
        **({"by_play": row["stage"]} if row.get("stage", "").startswith("best goal by") else {}),
    }


def _states(a: dict) -> str:
    """The states column: the reachable states, or those explored up to the best goal."""
    if a["reachable"] is None:
        return a["by_play"].replace("best goal by ", "")
    return f"{a['reachable']:,}" + (" explored" if a.get("explored_only") else "")


def verdict(roles: list[str], alone: dict, together: dict) -> str:
    """What the numbers say (the module's rule)."""
    if len(roles) == 1:
        return f"forces {alone[roles[0]]}"
    best = [r for r in roles if alone[r] is not None and alone[r] == together[r]]
    if len(best) == 1:
        return f"{best[0]} forces its best ({alone[best[0]]})"
    if len(best) == len(roles):
        return "each forces its best"
    values = {alone[r] for r in roles}
    if not best and len(values) == 1:
        return f"each forces {values.pop()}"
    return "alone: " + ", ".join(f"{r} {alone[r]}" for r in roles)


def _stop(row: dict) -> str:
    """How an unsolved row ended: ``timeout in exploration``, ``refused``, ..."""
    return f"{row['outcome']} in {row['stage']}" if row["stage"] else row["outcome"]


def _values(d: dict) -> str:
    return ", ".join(f"{r} {v}" for r, v in d.items())


def markdown(rows: list[dict]) -> str:
    """The families called out, then every solved game, largest first."""
    solved = [answer(r) for r in rows if r["outcome"] == "solved"]
    by_game = {a["game"]: a for a in solved}
    out = ["Games a GGP player recognises (file names matched by family):", ""]
    for family, _ in FAMILIES:
        members = sorted(
            (r for r in rows if family_of(r["game"]) == family), key=lambda r: r["game"]
        )
        if not members:
            continue
        done = [by_game[r["game"]] for r in members if r["game"] in by_game]
        items = [f"{a['game']}: {a['verdict']}" for a in done]
        stopped = [f"{r['game']} ({_stop(r)})" for r in members if r["game"] not in by_game]
        text = f"- **{family}**, {len(done)} of {len(members)} solved"
        text += (": " + "; ".join(items)) if items else ""
        text += (". Stopped: " + ", ".join(stopped)) if stopped else ""
        out.append(text + ".")
    out += ["", f"Every solved game ({len(solved)}), the most states first:", ""]
    out += [
        "| game | roles | states | each role alone forces | all roles together | verdict | referee |"
    ]
    out += ["|---|---:|---:|---|---|---|---|"]
    for a in sorted(solved, key=lambda a: (-(a["reachable"] or 0), a["game"])):
        out.append(
            f"| {a['game']} | {len(a['roles'])} | {_states(a)} | {_values(a['alone'])} | "
            f"{_values(a['together'])} | {a['verdict']} | {a['referee']} |"
        )
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("table", type=Path, help="a TSV written by bench/ggp_corpus.py")
    ap.add_argument("--json", type=Path, help="where the answers go (default: beside the table)")
    ap.add_argument("--readme", action="store_true", help="write the markdown into bench/README.md")
    args = ap.parse_args(argv)
    rows = ggp_corpus.read_rows(args.table)
    text = markdown(rows)
    print(text)
    out = args.json or args.table.with_name(args.table.stem + "-answers.json")
    answers = [answer(r) for r in rows if r["outcome"] == "solved"]
    out.write_text(json.dumps({"table": args.table.name, "games": answers}, indent=1) + "\n")
    if args.readme:
        ggp_corpus.write_readme(
            text, args.table, README_BEGIN, README_END, after=ggp_corpus.README_END
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

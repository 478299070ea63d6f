"""The GGP corpus swept by ``symbolic gdl`` (``make bench-ggp``; issue 36).

Each ``.kif`` of the corpus (``$SYMBOLIC_GGP_CORPUS``, else the shared ``corpus/ggp-repository``
beside the checkout or beside its parent) is solved in its own process,
``symbolic gdl FILE --json --timeout S --max-memory MB``, smallest file first; the sweep
kills it at S + 30 s (a *hang*: the CLI's own limit did not act) or past twice the memory
limit. Where the symbolic engine solved a game with at most ``--explicit-max-states``
reachable states, a second run ``--engine explicit`` (same limits) is compared with it
(reachable states, dead ends, the forced table): column ``agree``. Where it solved one with
at most ``--interp-max-states`` states, the plain interpreter of the tests
(``tests/gdl_interp.py``: no code shared with ``symbolic.gdl``) solves it too, in its own
process killed at ``--interp-seconds``, and is compared the same way: columns ``interp``
(its outcome), ``interp_seconds``, ``interp_agree``; ``referee`` says which referees
confirmed the answer (``explicit``, ``interp``, ``both`` or ``none``). A referee that
disagrees makes the row a ``mismatch``, listed first in the summary.

One row per game is appended to a TSV (``--out``, default ``bench/results/ggp_corpus.tsv``),
so a sweep stopped halfway resumes where it was (games already in the file are skipped;
``--redo`` runs the games asked for again, their old rows replaced; a table written before
a column was added gets it, empty).
Columns: game, roles, moves (concurrent / turn-based, from the answer; ``?`` when none),
fluents (ground state atoms), reachable, forced (the table, ``{coalition}role=value``),
forced_found (entries with a value), seconds (wall), peak_mb (the child's maximum resident
set, ``os.wait4``), outcome, stage, detail, and the explicit run's columns. Outcomes:

- ``solved``: exit 0 and the JSON answer;
- ``timeout`` / ``memory``: the CLI stopped at its limit (exit 3); ``stage`` is where:
  ``grounding`` (reading the model), ``building`` (the model's moves as IR terms, the
  BDD moves, δ), ``exploration`` (the reachable states), ``search`` (``--search-best``), ``fixpoint`` (a forced entry, an until, the dead ends); ``detail`` the
  CLI's words (the ``stopped`` document of its ``--json`` output, else its message);
- ``refused``: exit 2 with a message naming what is not supported; ``error``: exit 2
  otherwise (``detail`` starts ``located`` when it reads FILE:LINE:COL);
- ``crash``: a traceback, a signal or another exit status (the last line in ``detail``);
- ``hang``: killed by the sweep at the limit + 30 s; ``mismatch``: the explicit engine or
  the interpreter answered otherwise (``detail`` says which, and what).

``--summary`` prints the counts of a TSV without running anything; ``--readme`` also writes
them into ``bench/README.md``'s GGP section.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the checkout's own command: its virtual environment's, else this Python's ``-m symbolic``
#: with the checkout first on the path (a git worktree has no .venv of its own)
SYMBOLIC = (
    [str(ROOT / ".venv" / "bin" / "symbolic")]
    if (ROOT / ".venv" / "bin" / "symbolic").exists()
    else [sys.executable, "-m", "symbolic"]
)
GRACE = 30  # seconds past the limit before the sweep kills a child itself
COLUMNS = [
    "game",
    "roles",
    "moves",
    "fluents",
    "reachable",
    "forced",
    "forced_found",
    "seconds",
    "peak_mb",
    "outcome",
    "stage",
    "detail",
    "explicit",
    "explicit_seconds",
    "explicit_peak_mb",
    "agree",
    "limit_s",
    "limit_mb",
    "referee",
    "interp",
    "interp_seconds",
    "interp_agree",
]
#: the start of a child process running the interpreter: ``interp`` loaded from argv[1]
_LOAD_INTERP = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("gdl_interp", sys.argv[1])
interp = sys.modules["gdl_interp"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(interp)
sys.setrecursionlimit(100000)
with open(sys.argv[2]) as f:
    rules = interp.read_kif(f.read())
"""
#: the interpreter's run (a child process): the game file, "1" for a concurrent game;
#: prints the answer as the CLI's JSON names it
INTERP_CHILD = (
    _LOAD_INTERP
    + """
res = interp.explore(rules, concurrent=sys.argv[3] == "1")
forced = [{"coalition": list(c), "role": r, "value": v} for (c, r), v in res.forced.items()]
doc = {"reachable": len(res.states), "dead_ends": res.dead_ends, "forced": forced}
print(json.dumps(doc))
"""
)
#: a ``--search-best`` play replayed by the interpreter: its last state's terminal and goals
REPLAY_CHILD = (
    _LOAD_INTERP
    + """
with open(sys.argv[3]) as f:
    play = json.load(f)
print(json.dumps(interp.replay(rules, play)))
"""
)
INTERP = ROOT / "tests" / "gdl_interp.py"
#: the words of a stage (the CLI's ``while ...``), first match wins
STAGES = [
    ("building", ("building the model",)),
    ("grounding", ("reading the model",)),
    (
        "fixpoint",
        ("forc", "until", "attractor", "release", "fixpoint", "predecessor", "dead ends"),
    ),
    ("exploration", ("exploring", "reachable", "sorting")),
    ("search", ("searching depth first",)),
    ("building", ("building", "joint moves", "making the BDD manager", "domain")),
]
REFUSAL_WORDS = ("not supported", "unsupported", "refuse", "is not allowed", "cannot")
README_BEGIN, README_END = "<!-- ggp-corpus -->", "<!-- /ggp-corpus -->"


def corpus_dir() -> Path | None:
    """The corpus: ``$SYMBOLIC_GGP_CORPUS``, else the shared ``corpus/ggp-repository`` beside
    the checkout or beside its parent (worktrees); None when absent."""
    env = os.environ.get("SYMBOLIC_GGP_CORPUS")
    if env:
        return Path(env) if Path(env).is_dir() else None
    for base in (ROOT.parent, ROOT.parent.parent):
        d = base / "shared" / "corpus" / "ggp-repository"
        if d.is_dir():
            return d
    return None


def read_index(corpus: Path) -> dict[str, dict]:
    """``index.tsv`` of the corpus by game name (empty when there is none)."""
    path = corpus / "index.tsv"
    if not path.exists():
        return {}
    lines = path.read_text().splitlines()
    head = lines[0].split("\t")
    return {r[0]: dict(zip(head, r)) for r in (line.split("\t") for line in lines[1:]) if r}


def stage_of(where: str) -> str:
    """The stage (``grounding``, ``building``, ``exploration``, ``fixpoint``) of a
    ``while ...`` text; ``other`` when none of their words appears."""
    low = where.lower()
    for name, words in STAGES:
        if any(w in low for w in words):
            return name
    return "other"


def run_child(cmd: list[str], limit: float, max_mb: float, grace: float = GRACE) -> dict:
    """Run ``cmd``; kill it (its whole process group) at ``limit`` + ``grace`` seconds or
    past twice ``max_mb`` of resident memory. Exit status, wall seconds, peak KB, out, err."""
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
        t0 = time.monotonic()
        env = dict(
            os.environ,
            PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        )
        p = subprocess.Popen(cmd, stdout=fo, stderr=fe, start_new_session=True, env=env)
        killed = None
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if killed is None and time.monotonic() - t0 > limit + grace:
                killed = "hang"
            elif killed is None and _rss_mb(p.pid) > 2 * max_mb:
                killed = "memory"
            if killed:
                os.killpg(p.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(p.pid, 0)
                break
            time.sleep(0.1)
        p.returncode = os.waitstatus_to_exitcode(status)
        fo.seek(0)
        fe.seek(0)
        return {
            "status": p.returncode,
            "seconds": time.monotonic() - t0,
            "peak_mb": usage.ru_maxrss / 1024,
            "out": fo.read().decode(errors="replace"),
            "err": fe.read().decode(errors="replace"),
            "killed": killed,
        }


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def classify(res: dict, limit: float) -> tuple[str, str, str, dict | None]:
    """(outcome, stage, detail, JSON answer) of one run (:func:`run_child`)."""
    err = res["err"].strip()
    last = err.splitlines()[-1] if err else ""
    if res["killed"] == "hang":
        return "hang", "", f"killed at {limit + GRACE:g} s; stderr: {last[:200]}", None
    if res["killed"] == "memory":
        return "memory", "", f"killed past {res['peak_mb']:.0f} MB resident", None
    if "Traceback (most recent call last)" in err:
        return "crash", "", last[:300], None
    status = res["status"]
    if status == 0:
        try:
            return "solved", "", "", json.loads(res["out"])
        except json.JSONDecodeError:
            return "crash", "", f"exit 0 without a JSON answer: {res['out'][:200]!r}", None
    if status == 3:
        stopped = _stopped(res["out"])
        if stopped is not None:  # --json: the document saying where the run stopped
            kind = "timeout" if stopped.get("limit") == "timeout" else "memory"
            where = stopped.get("stage") or ""
            return kind, stage_of(where), " ".join(str(stopped.get("message")).split())[:300], None
        m = re.search(r"(time|memory) limit of .*? reached while (.*)", err, re.S)
        if m:
            kind = "timeout" if m.group(1) == "time" else "memory"
            where = " ".join(m.group(2).split())
            return kind, stage_of(where), where[:300], None
        return "memory", "other", last[:300], None
    if status == 2:
        first = err.splitlines()[0] if err else ""
        located = re.match(r"^\S+:\d+:\d+: error:", first) is not None
        text = re.sub(r"^(\S+:\d+:\d+: |symbolic: )error: ", "", first)
        if any(w in text.lower() for w in REFUSAL_WORDS):
            return "refused", "", text[:300], None
        return "error", "", ("located: " if located else "unlocated: ") + text[:300], None
    if status == 1:
        return "mismatch", "", last[:300], None
    if status < 0:
        return "crash", "", f"killed by signal {-status}; stderr: {last[:200]}", None
    return "crash", "", f"exit status {status}; stderr: {last[:200]}", None


def _stopped(out: str) -> dict | None:
    """The ``stopped`` part of the CLI's ``--json`` document of a run a limit ended."""
    try:
        doc = json.loads(out)
    except json.JSONDecodeError:
        return None
    stopped = doc.get("stopped") if isinstance(doc, dict) else None
    return stopped if isinstance(stopped, dict) else None


def forced_text(doc: dict) -> str:
    """The forced table in one cell: ``{a,b}r=v`` separated by spaces."""
    return " ".join(
        "{" + ",".join(f["coalition"]) + "}" + f"{f['role']}={f['value']}"
        for f in doc.get("forced", [])
    )


def answer_key(doc: dict) -> tuple:
    """What two engines must agree on: reachable states, dead ends, the forced table."""
    return doc.get("reachable"), doc.get("dead_ends"), forced_text(doc)


def sweep_one(path: Path, args, index: dict) -> dict:
    """One row of the table: ``path`` solved by the symbolic engine, then the explicit one
    where it fits."""
    limits = ["--json", "--timeout", f"{args.limit_seconds:g}"]
    limits += ["--max-memory", f"{args.limit_mb:g}"]
    info = index.get(path.stem, {})
    if args.stop_at_best and info.get("roles") == "1":
        limits.append("--stop-at-best")
    if args.search_best and info.get("roles") == "1":
        limits.append("--search-best")
    base = [*SYMBOLIC, "gdl", str(path)] + limits
    res = run_child(base + ["--engine", "symbolic"], args.limit_seconds, args.limit_mb)
    outcome, stage, detail, doc = classify(res, args.limit_seconds)
    row = dict.fromkeys(COLUMNS, "")
    row.update(
        game=path.stem,
        roles=info.get("roles", ""),
        moves="?",
        seconds=f"{res['seconds']:.2f}",
        peak_mb=f"{res['peak_mb']:.0f}",
        outcome=outcome,
        stage=stage,
        detail=detail,
        limit_s=f"{args.limit_seconds:g}",
        limit_mb=f"{args.limit_mb:g}",
    )
    if doc is not None:
        found = sum(f["value"] is not None for f in doc["forced"])
        row.update(
            roles=str(len(doc["roles"])),
            moves="concurrent" if doc.get("concurrent") else "turn-based",
            fluents=str(doc.get("fluents", "")),
            reachable=str(doc.get("reachable", "")),
            forced=forced_text(doc),
            forced_found=f"{found}/{len(doc['forced'])}",
        )
        if "play" in doc:  # --search-best: the play is the answer's proof
            moves = len(doc["play"])
            row["stage"] = (
                f"best goal by a play of {moves} moves, {doc['searched']} states searched"
                if not doc["complete"]
                else f"every state searched ({doc['searched']})"
            )
            _replay(row, path, args, doc)
            row["referee"] = "interp" if row["interp_agree"] == "yes" else "none"
            return row
        if not doc.get("complete", True):  # --stop-at-best stopped before the end
            row["stage"] = f"best goal at depth {doc['depth']}"
        if doc["reachable"] <= args.explicit_max_states:
            _explicit(row, base, args, doc)
        if doc["reachable"] <= args.interp_max_states and doc.get("complete", True):
            _interp(row, path, args, doc)  # (the interpreter explores every state)
    confirmed = [
        name
        for name, column in (("explicit", "agree"), ("interp", "interp_agree"))
        if row[column] == "yes"
    ]
    row["referee"] = "both" if len(confirmed) == 2 else (confirmed or ["none"])[0]
    return row


def referee_key(doc: dict) -> tuple:
    """What a referee must agree on, order aside: reachable states, dead ends, the forced
    table as a set of (coalition, role, value)."""
    forced = {(tuple(f["coalition"]), f["role"], f["value"]) for f in doc.get("forced", [])}
    return doc.get("reachable"), doc.get("dead_ends"), frozenset(forced)


def _interp(row: dict, path: Path, args, doc: dict) -> None:
    """The interpreter's run on the same game (killed at ``--interp-seconds``), compared
    with ``doc``."""
    cmd = [sys.executable, "-c", INTERP_CHILD, str(INTERP), str(path)]
    cmd.append("1" if doc.get("concurrent") else "0")
    res = run_child(cmd, args.interp_seconds, args.limit_mb, grace=0)
    row["interp_seconds"] = f"{res['seconds']:.2f}"
    err = res["err"].strip()
    last = err.splitlines()[-1] if err else ""
    if res["killed"] == "hang":
        row["interp"] = f"timeout ({args.interp_seconds:g} s)"
        return
    if res["killed"] == "memory":
        row["interp"] = f"memory ({res['peak_mb']:.0f} MB)"
        return
    try:
        other = json.loads(res["out"]) if res["status"] == 0 else None
    except json.JSONDecodeError:
        other = None
    if other is None:
        row["interp"] = f"error: {last[:200]}"  # NotTurnBased, NotStratified, ...
        return
    row["interp"] = "solved"
    same = referee_key(other) == referee_key(doc)
    row["interp_agree"] = "yes" if same else "NO"
    if not same:
        row["outcome"] = "mismatch"
        row["detail"] = (
            f"interpreter: {other['reachable']} states, {other['dead_ends']} dead ends, "
            f"{forced_text(other)}"
        )[:300]


def _replay(row: dict, path: Path, args, doc: dict) -> None:
    """A ``--search-best`` play replayed by the interpreter (killed at
    ``--interp-seconds``): it must be legal throughout and end in a terminal state where
    the role gets the value found."""
    with tempfile.NamedTemporaryFile("w", suffix=".json") as play:
        json.dump(doc["play"], play)
        play.flush()
        cmd = [sys.executable, "-c", REPLAY_CHILD, str(INTERP), str(path), play.name]
        res = run_child(cmd, args.interp_seconds, args.limit_mb, grace=0)
    row["interp_seconds"] = f"{res['seconds']:.2f}"
    if res["killed"]:
        row["interp"] = f"replay: {res['killed']} ({args.interp_seconds:g} s)"
        return
    err = res["err"].strip()
    if res["status"] != 0:
        row["interp"] = f"replay error: {(err.splitlines() or [''])[-1][:200]}"
        row["interp_agree"], row["outcome"] = "NO", "mismatch"
        row["detail"] = row["interp"]
        return
    end = json.loads(res["out"])
    value = doc["forced"][0]["value"]
    row["interp"] = "replayed"
    same = end["terminal"] and value in end["goals"]
    row["interp_agree"] = "yes" if same else "NO"
    if not same:
        row["outcome"] = "mismatch"
        row["detail"] = f"interpreter: the play ends in {end}"[:300]


def _explicit(row: dict, base: list[str], args, doc: dict) -> None:
    """The explicit engine's run on the same game, compared with ``doc``."""
    res = run_child(base + ["--engine", "explicit"], args.limit_seconds, args.limit_mb)
    outcome, stage, detail, other = classify(res, args.limit_seconds)
    row.update(
        explicit=outcome + (f" ({stage})" if stage else ""),
        explicit_seconds=f"{res['seconds']:.2f}",
        explicit_peak_mb=f"{res['peak_mb']:.0f}",
    )
    if other is None:
        if outcome in ("crash", "hang", "error", "refused"):
            row["explicit"] += f": {detail[:200]}"
        return
    same = answer_key(other) == answer_key(doc)
    row["agree"] = "yes" if same else "NO"
    if not same:
        row["outcome"] = "mismatch"
        row["detail"] = f"explicit engine: {answer_key(other)}"[:300]


def read_rows(path: Path) -> list[dict]:
    """The rows of a sweep's TSV (none when it does not exist)."""
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
    if not lines:
        return []
    head = lines[0].split("\t")
    return [dict(zip(head, line.split("\t"))) for line in lines[1:] if line.strip()]


def _header(path: Path) -> list[str]:
    with open(path) as f:
        return f.readline().rstrip("\n").split("\t")


def write_rows(path: Path, rows: list[dict]) -> None:
    """``rows`` as the whole table at ``path``, with today's :data:`COLUMNS`."""
    lines = ["\t".join(COLUMNS)]
    lines += ["\t".join(_cell(r.get(c, "")) for c in COLUMNS) for r in rows]
    path.write_text("\n".join(lines) + "\n")


def _cell(v) -> str:
    return " ".join(str(v).split())  # no tab nor newline inside a cell


def reason_of(detail: str) -> str:
    """A refusal or error message with its names and numbers blanked, to count alike ones."""
    text = re.sub(r"^(located|unlocated): ", "", detail)
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "'…'", text)
    text = re.sub(r"\([^()]*\)", "(…)", text)
    return re.sub(r"\d+", "N", text)[:120]


def summary(rows: list[dict], total: int | None = None) -> str:
    """Markdown: the counts per outcome, the solved ones, the stages that stop, the top
    reasons, and every crash, hang and mismatch."""
    by = collections.Counter(r["outcome"] for r in rows)
    n = len(rows)
    out = [f"{n} games run" + (f" of {total}" if total else "") + ":", ""]
    out += ["| outcome | games |", "|---|---|"]
    out += [f"| {k} | {v} |" for k, v in by.most_common()]
    bad = [r for r in rows if r["outcome"] == "mismatch"]
    if bad:  # first: a wrong answer matters more than any count
        out = [
            f"**{len(bad)} disagreement{'s' if len(bad) > 1 else ''} between the symbolic "
            "engine and a referee:** "
            + "; ".join(f"{r['game']} ({r['detail'][:120]})" for r in bad),
            "",
        ] + out
    solved = [r for r in rows if r["outcome"] == "solved"]
    by_ref = collections.Counter(r.get("referee") or "none" for r in solved)
    checked = len(solved) - by_ref["none"]
    out += [
        "",
        f"solved: {len(solved)} ({checked} cross-checked: {by_ref['explicit']} by the explicit "
        f"engine only, {by_ref['interp']} by the interpreter only, {by_ref['both']} by both)",
    ]
    early = [r for r in solved if r["stage"].startswith("best goal at")]
    if early:
        out.append(
            f"of which {len(early)} of one role explored up to their best goal "
            "(`--stop-at-best`: the states counted are those explored): "
            + ", ".join(f"{r['game']} ({r['stage']})" for r in early)
        )
    played = [r for r in solved if r["stage"].startswith(("best goal by", "every state"))]
    if played:
        out.append(
            f"of which {len(played)} of one role solved by a depth-first search for a play "
            "of their best goal (`--search-best`; the interpreter replays the play): "
            + ", ".join(f"{r['game']} ({r['stage']})" for r in played)
        )
    if solved:
        counted = [r for r in solved if r["reachable"]]  # (a play counts no states)
        big = sorted(counted, key=lambda r: -int(r["reachable"]))[:5]
        out.append(
            "largest solved: " + ", ".join(f"{r['game']} ({r['reachable']} states)" for r in big)
        )
    stops = collections.Counter(
        f"{r['outcome']} in {r['stage']}" for r in rows if r["outcome"] in ("timeout", "memory")
    )
    if stops:
        out += ["", "stopped by a limit: " + ", ".join(f"{k}: {v}" for k, v in stops.most_common())]
    reasons = collections.Counter(
        reason_of(r["detail"]) for r in rows if r["outcome"] in ("refused", "error")
    )
    if reasons:
        out += ["", "most frequent refusals and errors:", ""]
        out += [f"- {v} × {k}" for k, v in reasons.most_common(8)]
    bad = [r for r in rows if r["outcome"] in ("crash", "hang", "mismatch")]
    if bad:
        out += ["", "defects (crash, hang, mismatch):", ""]
        out += [f"- {r['game']}: {r['outcome']}: {r['detail']}" for r in bad]
    return "\n".join(out) + "\n"


def write_readme(
    text: str, tsv: Path, begin: str = README_BEGIN, end: str = README_END, after: str = ""
) -> None:
    """Put ``text`` between the markers ``begin`` and ``end`` of ``bench/README.md``; when
    they are absent, right after the marker ``after`` if given and present, else appended
    under a GGP heading."""
    readme = ROOT / "bench" / "README.md"
    body = readme.read_text()
    try:
        rel = tsv.resolve().relative_to(ROOT)
    except ValueError:
        rel = tsv
    block = f"{begin}\nFrom `{rel}`:\n\n{text}{end}"
    if begin in body and end in body:
        head, rest = body.split(begin, 1)
        body = head + block + rest.split(end, 1)[1]
    elif after and after in body:
        head, rest = body.split(after, 1)
        body = head + after + "\n\n" + block + rest
    else:
        body = body.rstrip("\n") + "\n\n## The GGP corpus (issue 36)\n\n" + block + "\n"
    readme.write_text(body)


def parse(argv=None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="+", metavar="NAME", help="these games (file stems)")
    ap.add_argument("--limit-seconds", type=float, default=300, help="per game (default 300)")
    ap.add_argument(
        "--stop-at-best",
        action="store_true",
        help="a game of one role (index.tsv) explored up to its best goal "
        "(symbolic gdl --stop-at-best; its stage then says at which depth)",
    )
    ap.add_argument(
        "--search-best",
        action="store_true",
        help="a game of one role (index.tsv) searched depth first for a play of its best "
        "goal (symbolic gdl --search-best); the interpreter replays the play",
    )
    ap.add_argument("--limit-mb", type=float, default=8192, help="per game (default 8192)")
    ap.add_argument(
        "--explicit-max-states",
        type=int,
        default=1_000_000,
        help="rerun with the explicit engine when the symbolic one found at most this many "
        "reachable states (0: never)",
    )
    ap.add_argument(
        "--interp-max-states",
        type=int,
        default=20_000,
        help="also solve with the tests' interpreter when the symbolic engine found at most "
        "this many reachable states (default 20000; 0: never)",
    )
    ap.add_argument(
        "--interp-seconds",
        type=float,
        default=120,
        help="the interpreter's time per game (default 120)",
    )
    ap.add_argument(
        "--redo", action="store_true", help="run the games asked for even if already in --out"
    )
    ap.add_argument("--jobs", type=int, default=1, help="games run at once (default 1)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "ggp_corpus.tsv")
    ap.add_argument("--summary", action="store_true", help="only print the summary of --out")
    ap.add_argument("--readme", action="store_true", help="write the summary to bench/README.md")
    return ap.parse_args(argv)


def main(argv=None) -> int:
    args = parse(argv)
    corpus = corpus_dir()
    if corpus is None and not args.summary:
        print(
            "ggp_corpus: the GGP corpus was not found: set SYMBOLIC_GGP_CORPUS to the folder "
            "of its .kif files (or put the corpus/ggp-repository folder in the shared directory beside the "
            "checkout)",
            file=sys.stderr,
        )
        return 2
    files = sorted(corpus.glob("*.kif"), key=lambda p: (p.stat().st_size, p.name)) if corpus else []
    if args.only:
        names = set(args.only)
        missing = names - {p.stem for p in files}
        if missing:
            print(f"ggp_corpus: not in the corpus: {', '.join(sorted(missing))}", file=sys.stderr)
            return 2
        files = [p for p in files if p.stem in names]
    if not args.summary:
        sweep(files, args, read_index(corpus))
    text = summary(read_rows(args.out), total=len(files) or None)
    print(text)
    if args.readme:
        write_readme(text, args.out)
    return 0


def sweep(files: list[Path], args, index: dict) -> None:
    """Run every game of ``files`` not yet in ``args.out``, appending its row."""
    from tqdm import tqdm

    asked = {p.stem for p in files}
    rows = read_rows(args.out)
    kept = [r for r in rows if not (args.redo and r["game"] in asked)]
    if rows and (len(kept) < len(rows) or _header(args.out) != COLUMNS):
        write_rows(args.out, kept)  # the games redone out, every column of today's table
    done = {r["game"] for r in kept}
    todo = [p for p in files if p.stem not in done]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    new = not args.out.exists() or args.out.stat().st_size == 0
    lock, counts = threading.Lock(), collections.Counter()
    with open(args.out, "a") as f, tqdm(total=len(todo), unit="game") as bar:
        if new:
            f.write("\t".join(COLUMNS) + "\n")
            f.flush()

        def one(path: Path) -> None:
            row = sweep_one(path, args, index)
            with lock:
                f.write("\t".join(_cell(row[c]) for c in COLUMNS) + "\n")
                f.flush()
                counts[row["outcome"]] += 1
                bar.set_postfix_str(f"{path.stem}: {row['outcome']}; " + _short(counts))
                bar.update()

        queue = list(reversed(todo))

        def worker() -> None:
            while True:
                with lock:
                    if not queue:
                        return
                    path = queue.pop()
                one(path)

        threads = [threading.Thread(target=worker) for _ in range(max(1, args.jobs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


def _short(counts: collections.Counter) -> str:
    return " ".join(f"{k}={v}" for k, v in counts.most_common())


if __name__ == "__main__":
    sys.exit(main())

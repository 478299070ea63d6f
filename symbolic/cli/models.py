"""``symbolic models``: the models shipped with the package, one line each.

Each line is read from the model file itself: a model's title (its ``game``
declaration) and its parameters with their defaults and ranges; an arena's
description; a GDL description's roles; an AIGER circuit's latches and inputs. Any
command that takes a MODEL also takes these names (:func:`symbolic.model.shipped_model`).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ..aiger import read_aiger
from ..gdl.kif import SList, Sym, parse_kif
from ..lang import ast
from ..lang.parser import parse_model_text
from ..model import load_model, shipped_models
from .output import emit
from .common import json_arg, value_text

__all__ = ["describe", "cmd_models", "register"]


def describe(name: str, path: Path) -> dict:
    """What ``symbolic models`` says of one shipped model: its name, file,
    title, parameters (default value and declared range, as written) and, for a
    GDL description, its roles (a circuit's title counts its latches and inputs)."""
    entry = {"name": name, "file": path.name, "title": "", "params": {}, "roles": []}
    if path.suffix in (".aag", ".aig"):  # a SYNTCOMP safety circuit: binary for .aig
        c = read_aiger(path)
        n = sum(c.controllable)
        latches = f"{len(c.latches)} latch" + ("" if len(c.latches) == 1 else "es")
        inputs = f"{len(c.inputs)} input" + ("" if len(c.inputs) == 1 else "s")
        entry["title"] = f"AIGER safety circuit, {latches}, {inputs} ({n} controllable)"
        return entry
    text = path.read_text(encoding="utf-8-sig")
    if path.suffix == ".kif":
        entry["title"] = "GDL game description"
        entry["roles"] = [
            str(f.items[1])
            for f in parse_kif(text, str(path))
            if isinstance(f, SList) and len(f.items) == 2 and f.items[0] == Sym("role")
        ]
        return entry
    model = load_model(path)
    entry["title"] = model.name if model.name != name else _first_sentence(model.description)
    if path.suffix == ".game":
        ranges = _declared_ranges(text, str(path))
        entry["params"] = {
            p: {"default": v, "range": ranges.get(p)} for p, v in model.params.items()
        }
    return entry


def _declared_ranges(text: str, filename: str) -> dict[str, str | None]:
    """Each parameter's declared type as written in the file (``1..1000``,
    ``0..m-1``, ``bool``), or None when it has none."""
    out: dict[str, str | None] = {}
    for d in parse_model_text(text, filename).decls:
        if isinstance(d, ast.ParamDecl):
            s = d.type.span if d.type is not None else None
            out[d.name.name] = s.text[s.column - 1 : s.column - 1 + s.length] if s else None
    return out


def _first_sentence(text: str, width: int = 40) -> str:
    """The first sentence of ``text``, cut after a word to at most ``width`` characters.

    >>> _first_sentence("The example arena of section 2 of the TD (a sheet). More.")
    'The example arena of section 2 of the…'
    """
    first = " ".join(text.split()).split(". ")[0].rstrip(".")
    if len(first) <= width:
        return first
    return first[: width - 1].rsplit(" ", 1)[0] + "…"


def _params_text(params: dict) -> str:
    parts = []
    for p, d in params.items():
        v = d["default"]
        shown = (
            f'"{v}"'
            if isinstance(v, str)
            else ("true" if v is True else "false" if v is False else value_text(v))
        )
        parts.append(f"{p}={shown}" + (f" ({d['range']})" if d["range"] else ""))
    return ", ".join(parts)


def _circuit(entry: dict) -> bool:
    """Is the entry (:func:`describe`'s) an AIGER circuit's?"""
    return entry["file"].lower().endswith((".aag", ".aig"))


def cmd_models(args) -> int:
    entries = [describe(n, p) for n, p in shipped_models().items()]
    if args.json:
        emit(args, {"models": entries})
        return 0
    width = max(len(e["name"]) for e in entries) + 2
    # GDL descriptions and circuits have no parameters: no column after their titles
    title_width = max(len(e["title"]) for e in entries if not (e["roles"] or _circuit(e))) + 2
    print("The models shipped with symbolic; any command that takes a MODEL takes these names.")
    for e in entries:
        if e["roles"]:
            print(f"{e['name']:<{width}}{e['title']}, roles {', '.join(e['roles'])}")
        elif _circuit(e):
            print(f"{e['name']:<{width}}{e['title']}")
        else:
            rest = _params_text(e["params"]) or "no parameters"
            print(f"{e['name']:<{width}}{e['title']:<{title_width}}{rest}".rstrip())
    print(f"(files in {resources.files('symbolic') / 'models'})")
    return 0


def register(sub) -> None:
    m = sub.add_parser(
        "models",
        help="list the shipped models (usable by name as MODEL)",
        description="The models shipped with symbolic, one line each: "
        "name, title, parameters with their default and range "
        "(GDL descriptions: their roles). Any command that takes "
        "a MODEL takes these names, e.g. `symbolic check ens2005`.",
    )
    json_arg(m, "a JSON list instead of text")
    m.set_defaults(func=cmd_models)

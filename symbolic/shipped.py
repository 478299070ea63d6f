"""The models shipped with the package (``symbolic/models/``), found by name.

A shipped model is named by its path under ``models/`` without its ending (``ens2005``,
``gdl/nim1``, ``aiger/grant``) or with it, optionally after ``models/``; any command or
:func:`symbolic.model.load_model` given such a name reads that file when no file of that
name exists. Apart from :mod:`symbolic.model` so that a command that reads a circuit
(``symbolic aiger``) finds the shipped ones without loading the model language.
"""

from __future__ import annotations

import difflib
import errno
import os
import stat
from importlib import resources
from pathlib import Path

from .errors import FileError
from .limits import short_text

__all__ = [
    "MODEL_SUFFIXES",
    "missing_model",
    "model_file",
    "shipped_model",
    "shipped_models",
]

#: the file endings of the shipped models, stripped to make their short names
MODEL_SUFFIXES = (".arena.json", ".game", ".json", ".kif", ".aag", ".aig")


def model_file(path) -> Path:
    """The file a model argument names: ``path`` itself when such a file (or folder)
    exists, else the shipped model of that name (:func:`shipped_model`), else ``path``
    (whose reading then says that there is no such file). A real file always wins over
    a shipped name; a device or a pipe is a FileError (it could be read forever).

    >>> model_file("models/aiger/grant.aag").name, model_file("ens2005").suffix
    ('grant.aag', '.game')
    """
    name = os.fsdecode(os.fspath(path))
    if "\0" in name:  # no file has such a name (the OS calls raise ValueError)
        raise FileError(
            f"{short_text(name)}: a file name cannot hold a NUL character, so "
            f"no model file has this one"
        )
    p = Path(path)
    mode = _file_mode(p, name)
    if mode is None and (shipped := shipped_model(name)) is not None:
        p = shipped
        mode = _file_mode(p, str(p))
    if mode is not None and not stat.S_ISDIR(mode) and not stat.S_ISREG(mode):
        raise FileError(f"{p}: not a regular file, so not a model file")
    return p


def _file_mode(p: Path, name: str) -> int | None:
    """The ``st_mode`` of the file at ``p``, None when there is none (a name that
    may be a shipped model's); any other failure of the look-up (a name too long for
    the file system, a loop of links, a folder that may not be searched) a FileError."""
    try:
        return p.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as err:
        shown = name if len(name) <= 200 else short_text(name)
        if err.errno == errno.ENAMETOOLONG:
            raise FileError(
                f"{shown}: no model file has this name: it is longer than the file system allows"
            ) from None
        raise FileError(f"{shown}: cannot read the model file ({err.strerror})") from None


def shipped_models() -> dict[str, Path]:
    """The models shipped with the package (``symbolic/models/``), by short name:
    the path under ``models/`` without its ending (``ens2005``, ``td_example``,
    ``gdl/nim1``), in sorted order.

    >>> names = shipped_models()
    >>> names["ens2005"].name, "gdl/nim1" in names
    ('ens2005.game', True)
    """
    root = resources.files("symbolic") / "models"
    found = {}
    for entry in _model_files(root, ""):
        found[_short_name(entry[0])] = Path(str(entry[1]))
    return dict(sorted(found.items()))


def _model_files(folder, prefix: str):
    for item in folder.iterdir():
        if item.is_dir():
            yield from _model_files(item, f"{prefix}{item.name}/")
        elif item.name.lower().endswith(MODEL_SUFFIXES):
            yield f"{prefix}{item.name}", item


def _short_name(relative: str) -> str:
    for suffix in MODEL_SUFFIXES:
        if relative.lower().endswith(suffix):
            return relative[: -len(suffix)]
    return relative


def shipped_model(name: str) -> Path | None:
    """The shipped model called ``name`` (its short name, its file name, either
    after ``models/``: ``ens2005``, ``ens2005.game``, ``models/ens2005.game``,
    ``gdl/nim1.kif``), or None.

    >>> shipped_model("models/ens2005.game") == shipped_model("ens2005")
    True
    >>> shipped_model("ens2006") is None, shipped_model("ens2005.kif") is None
    (True, True)
    """
    text = name.replace(os.sep, "/").removeprefix("models/")
    models = shipped_models()
    if text.lower().endswith(MODEL_SUFFIXES):  # a file name: its ending must be the file's
        found = models.get(_short_name(text))
        return found if found is not None and found.name == text.rsplit("/", 1)[-1] else None
    return models.get(text)


def missing_model(path) -> FileError:
    """The error for a model argument that names neither a file nor a shipped model,
    with the shipped models of a close name.

    >>> print(missing_model("kaylse"))
    kaylse: no such model file (shipped models with a close name: kayles; `symbolic models` lists them all)
    """
    return FileError(f"{path}: no such model file{_close_names(str(path))}")


def _close_names(name: str) -> str:
    """The shipped models named like ``name``, as the end of an error message."""
    by_key: dict[str, str] = {}  # a name and its last part (``nim1`` for ``gdl/nim1``)
    for n in shipped_models():
        by_key.setdefault(n.lower(), n)
        by_key.setdefault(n.rsplit("/", 1)[-1].lower(), n)
    key = _short_name(name.replace(os.sep, "/").rsplit("/", 1)[-1]).lower()
    close = [by_key[k] for k in difflib.get_close_matches(key, list(by_key), n=6, cutoff=0.6)]
    close = list(dict.fromkeys(close))[:3]
    if close:
        return (
            f" (shipped models with a close name: {', '.join(close)}; "
            f"`symbolic models` lists them all)"
        )
    return " (`symbolic models` lists the shipped models, which can be named without a path)"

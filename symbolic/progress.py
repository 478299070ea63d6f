"""Progress of long work on the terminal (stderr), drawn by tqdm.

:class:`Progress` is the ``progress`` callable of a :class:`symbolic.limits.Limits`:
the engines report their stage (``building δ: move take, valuation 3 of 600``,
``until: iteration 57``) and sizes (positions, BDD nodes) a few times a second,
and it shows the last report on one line of stderr, once the work has taken
more than ``delay`` seconds. :func:`progress_for` decides whether to show
anything: only when stderr is a terminal and neither ``--quiet`` nor
``--json`` was given.

>>> import io
>>> out = io.StringIO()
>>> p = Progress(out, delay=0, mininterval=0)
>>> p("until: iteration 3", {"positions": 12})
>>> p.close()
>>> "until: iteration 3" in out.getvalue() and "12 positions" in out.getvalue()
True
"""

from __future__ import annotations

import sys
from typing import TextIO

from .limits import int_text

__all__ = ["Progress", "progress_for"]


class Progress:
    """One status line on ``stream``: the stage, the elapsed time and the sizes,
    shown after ``delay`` seconds and erased by :meth:`close`."""

    def __init__(
        self, stream: TextIO | None = None, *, delay: float = 1.0, mininterval: float = 0.2
    ):
        from tqdm import tqdm  # on demand: start-up time that --quiet runs need not pay

        # tqdm's monitor thread is not wanted: CUDD calls hold the GIL, and the
        # engines refresh the line themselves between calls.
        tqdm.monitor_interval = 0
        self._bar = tqdm(
            total=None,
            file=stream if stream is not None else sys.stderr,
            delay=delay,
            leave=False,
            mininterval=mininterval,
            miniters=1,
            dynamic_ncols=True,
            bar_format="{desc} [{elapsed}]{postfix}",
        )

    def __call__(self, stage: str, info: dict) -> None:
        bar = self._bar
        bar.set_description_str(stage, refresh=False)
        bar.set_postfix_str(", ".join(f"{_group(v)} {k}" for k, v in info.items()), refresh=False)
        bar.update(1)

    def close(self) -> None:
        """Erase the line (if it was ever shown)."""
        self._bar.close()


def _group(v) -> str:
    """Numbers with thin groups of three digits, exactly: ``1 234 567``."""
    if isinstance(v, int) and not isinstance(v, bool):
        text = int_text(v)
        if len(text) > 30:  # a count of 10**30 and more: its size is what matters
            return f"~10^{len(text.lstrip('-')) - 1}"
        return f"{v:,}".replace(",", " ")
    return str(v)


def progress_for(quiet: bool, json_mode: bool, stream: TextIO | None = None) -> Progress | None:
    """A :class:`Progress` on ``stream`` (stderr) if it is a terminal and neither
    ``quiet`` nor ``json_mode`` is set, else None."""
    stream = stream if stream is not None else sys.stderr
    if quiet or json_mode or not _is_terminal(stream):
        return None
    return Progress(stream)


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # closed or not a file
        return False

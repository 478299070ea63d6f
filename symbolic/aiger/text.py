"""The bytes of one AIGER file, cut into lines and fields, with located errors.

Every error names ``FILE:LINE:COL`` and what was expected there; in the binary
section of an ``.aig`` file, whose bytes are no text, the line and column are
those of the byte (lines counted by newline bytes) and the message gives its offset.
"""

from __future__ import annotations

import re

from ..errors import ParseError, Span

__all__ = ["DIGITS", "Text"]

#: the largest number of decimal digits read as a number (any literal of a
#: file that fits in memory has fewer)
DIGITS = 18

_TOKEN = re.compile(rb"[^ \t\r]+")


def _fast_line(fields: int) -> re.Pattern:
    """The strict form of a line of ``fields`` numbers: the fast path's test."""
    num = rb"\d{1,%d}" % DIGITS
    return re.compile(num + (rb"[ \t]+" + num) * (fields - 1) + rb"[ \t\r]*")


_FAST = {k: _fast_line(k) for k in (1, 2, 3)}


class Text:
    """An AIGER file's bytes, a cursor (``pos``, ``line``) and located errors.

    >>> t = Text(b"aag 0 0 0 1 0\\n0\\n", "f.aag")
    >>> t.take_lines(1, "header")[2]
    [b'aag 0 0 0 1 0']
    >>> t.line, t.pos
    (2, 14)
    """

    def __init__(self, data: bytes, file: str):
        self.data, self.file = data, file
        self.pos, self.line = 0, 1

    # ---------------------------------------------------------------- errors

    def line_start(self, offset: int) -> int:
        """The offset of the first byte of the line holding ``offset``."""
        return self.data.rfind(b"\n", 0, offset) + 1

    def fail(
        self, message: str, line: int, start: int, column: int = 1, length: int = 1
    ) -> ParseError:
        """A located error on the text line starting at byte ``start``."""
        end = self.data.find(b"\n", start)
        raw = self.data[start : end if end >= 0 else len(self.data)]
        text = raw.decode("utf-8", "replace").rstrip("\r")
        return ParseError(message, Span(self.file, line, column, text, length))

    def fail_at_byte(self, message: str, offset: int) -> ParseError:
        """A located error on byte ``offset`` of the binary section (no source line shown)."""
        line = self.data.count(b"\n", 0, offset) + 1
        column = offset - self.line_start(offset) + 1
        return ParseError(f"{message} (byte {offset} of the file)", Span(self.file, line, column))

    def fail_field(
        self, message: str, first: int, start: int, index: int, field: int
    ) -> ParseError:
        """A located error on field ``field`` of line ``index`` of a section whose
        first line is number ``first`` and starts at byte ``start``."""
        offset = start
        for _ in range(index):
            offset = self.data.index(b"\n", offset) + 1
        end = self.data.find(b"\n", offset)
        raw = self.data[offset : end if end >= 0 else len(self.data)]
        tokens = list(_TOKEN.finditer(raw))
        column, length = 1, 1
        if field < len(tokens):
            column, length = tokens[field].start() + 1, len(tokens[field].group())
        return self.fail(message, first + index, offset, column, length)

    # ---------------------------------------------------------------- lines

    def take_lines(self, count: int, what: str) -> tuple[int, int, list[bytes]]:
        """The next ``count`` lines (without their newline) as (first line number,
        start offset, lines); the cursor moves past them. A file that ends
        before is a located error; the last line may lack its newline."""
        first, start = self.line, self.pos
        if count == 0:
            return first, start, []
        parts = self.data[start:].split(b"\n", count)
        if len(parts) == count + 1:
            self.pos = len(self.data) - len(parts[count])
        elif len(parts) == count and parts[-1]:
            self.pos = len(self.data)
        else:
            got = len(parts) - (0 if parts[-1] else 1)
            last = self.line_start(len(self.data))
            raise self.fail(
                f"the file ends after {got} of the {count} {what} lines the header announces",
                self.data.count(b"\n") + 1,
                last,
                len(self.data) - last + 1,
            )
        self.line += count
        return first, start, parts[:count]

    def numbers(
        self, lines: list[bytes], first: int, start: int, names: tuple[str, ...], optional: int = 0
    ) -> list[list[int | None]]:
        """The fields of ``lines`` (each ``names``' numbers, the last ``optional``
        of them may be missing: None), as one list per field."""
        n = len(names)
        for k in {n, n - optional}:
            if all(map(_FAST[k].fullmatch, lines)):
                flat: list[int | None] = list(map(int, b" ".join(lines).split()))
                return [flat[i::k] for i in range(k)] + [[None] * len(lines)] * (n - k)
        columns: list[list[int | None]] = [[] for _ in names]
        offset = start
        for index, raw in enumerate(lines):
            values = self.fields(raw, first + index, offset, names, optional)
            for column, value in zip(columns, values):
                column.append(value)
            offset += len(raw) + 1
        return columns

    def fields(
        self, raw: bytes, line: int, start: int, names: tuple[str, ...], optional: int = 0
    ) -> list[int | None]:
        """The numbers of one line: ``names`` in order, the last ``optional`` may be
        missing (None); anything else is a located error."""
        tokens = list(_TOKEN.finditer(raw))
        for i, match in enumerate(tokens):
            token, column = match.group(), match.start() + 1
            if i >= len(names):
                raise self.fail(
                    f"expected the end of the line after {names[-1]}, found {_show(token)}",
                    line,
                    start,
                    column,
                    len(token),
                )
            if not token.isdigit():
                raise self.fail(
                    f"expected {names[i]} (an unsigned decimal number), found {_show(token)}",
                    line,
                    start,
                    column,
                    len(token),
                )
            if len(token) > DIGITS:
                raise self.fail(
                    f"{names[i]} is too large ({len(token)} digits)",
                    line,
                    start,
                    column,
                    len(token),
                )
        if len(tokens) < len(names) - optional:
            column = len(raw.rstrip(b"\r")) + 1
            raise self.fail(f"expected {names[len(tokens)]} here", line, start, column)
        values: list[int | None] = [int(m.group()) for m in tokens]
        return values + [None] * (len(names) - len(values))


def _show(token: bytes) -> str:
    """A token for a message: quoted, shortened when long."""
    text = token.decode("utf-8", "replace")
    return repr(text if len(text) <= 20 else text[:20] + "…")

"""Reading AIGER 1.9 files, ASCII ``.aag`` and binary ``.aig``, into a :class:`Circuit`.

The header ``aag M I L O A`` (``aig`` for binary) may carry the counts ``B C J F``
of AIGER 1.9; bad-state properties, invariant constraints, justice and fairness
properties have no place in a safety game, so a non-zero count is refused
where it is written. Then come the inputs (ASCII only: the binary form numbers
them 1..I), the latches (``lhs next [reset]``, the lhs left out in binary), the
outputs (exactly one: the error), the AND gates (``lhs rhs0 rhs1``; binary:
two delta-encoded numbers each), the symbol table (``i3 name``, ``l0 name``,
``o0 name``) and an optional comment section after a line ``c``.

Iterative, in time linear in the file (:mod:`symbolic.aiger.checks` for the
definitions, the uses and the gates' order); every malformed line is a located
:class:`ParseError`, an unreadable file a :class:`FileError`.

>>> c = parse_aiger("aag 3 2 0 1 1\\n2\\n4\\n6\\n6 2 5\\ni1 controllable_c\\n", "f.aag")
>>> c.inputs, c.error, c.controllable
((2, 4), 6, (False, True))
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import FileError
from .checks import check_circuit
from .circuit import Circuit
from .text import Text

__all__ = ["read_aiger", "parse_aiger"]

_HEADER_NAMES = ("M", "I", "L", "O", "A", "B", "C", "J", "F")
_WHAT = {
    "B": "bad-state properties",
    "C": "invariant constraints",
    "J": "justice properties",
    "F": "fairness constraints",
}
_SYMBOL = re.compile(rb"([ilobcjf])(\d{1,18}) (.*?)\r?")
_SYMBOL_KIND = {
    b"i": "input",
    b"l": "latch",
    b"o": "output",
    b"b": "bad-state property",
    b"c": "invariant constraint",
    b"j": "justice property",
    b"f": "fairness constraint",
}


def read_aiger(path: str | Path) -> Circuit:
    """The circuit of the AIGER file at ``path`` (``.aag`` or ``.aig``: the
    header says which); :class:`FileError` if it cannot be read."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise FileError(f"cannot read {path}: {err.strerror or err}") from None
    return parse_aiger(data, str(path))


def parse_aiger(data: bytes | str, file: str = "<aiger>") -> Circuit:
    """The circuit of an AIGER text (bytes, or a str of an ASCII file)."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    text = Text(data, file)
    binary, counts = _header(text)
    maxvar, n_in, n_latch, n_out, n_and = counts
    # where each section starts (line, offset), for the checks' messages; None in a binary file
    sections: dict[str, tuple[int, int] | None]
    inputs: list[int | None]
    if binary:
        inputs = list(range(2, 2 * n_in + 1, 2))
        sections = {"inputs": None}
    else:
        first, start, lines = text.take_lines(n_in, "input")
        inputs = text.numbers(lines, first, start, ("an input literal",))[0]
        sections = {"inputs": (first, start)}
    latch_names: tuple[str, ...] = ("the latch's next-state literal", "its reset value")
    if not binary:
        latch_names = ("a latch literal", *latch_names)
    first, start, lines = text.take_lines(n_latch, "latch")
    columns = text.numbers(lines, first, start, latch_names, optional=1)
    sections["latches"] = (first, start)
    if binary:
        latches: list[int | None] = list(range(2 * n_in + 2, 2 * (n_in + n_latch) + 1, 2))
        columns.insert(0, latches)
    first, start, lines = text.take_lines(n_out, "output")
    outputs = text.numbers(lines, first, start, ("an output literal",))[0]
    sections["outputs"] = (first, start)
    ands: list[list[int | None]]
    if binary:
        ands = [list(column) for column in _binary_ands(text, n_in + n_latch + 1, n_and)]
        sections["ands"] = None
    else:
        first, start, lines = text.take_lines(n_and, "AND gate")
        ands = text.numbers(
            lines,
            first,
            start,
            ("an AND gate's literal", "its first operand", "its second operand"),
        )
        sections["ands"] = (first, start)
    (input_names, latch_symbols, output_names), comments = _symbols(text, n_in, n_latch, n_out)
    return check_circuit(
        text,
        sections,
        Circuit(
            maxvar,
            _ints(inputs),
            _ints(columns[0]),
            _ints(columns[1]),
            tuple(0 if r is None else r for r in columns[2]),
            _ints(outputs),
            _ints(ands[0]),
            _ints(ands[1]),
            _ints(ands[2]),
            input_names,
            latch_symbols,
            output_names,
            comments,
        ),
    )


def _ints(column: list[int | None]) -> tuple[int, ...]:
    """A column of required numbers (Text.numbers gives None only for optional ones)."""
    assert None not in column, column
    return tuple(v for v in column if v is not None)


def _header(text: Text) -> tuple[bool, tuple[int, int, int, int, int]]:
    """(binary?, (M, I, L, O, A)) from the header line, checked."""
    if not text.data.strip():
        raise text.fail("the file is empty: expected an AIGER header 'aag M I L O A'", 1, 0)
    first, start, (raw,) = text.take_lines(1, "header")
    magic = raw[:3]
    if magic not in (b"aag", b"aig") or raw[3:4] not in (b" ", b"\t"):
        raise text.fail(
            "expected 'aag' or 'aig' and the counts M I L O A (an AIGER header)", first, start, 1, 3
        )
    values = text.fields(b"   " + raw[3:], first, start, _HEADER_NAMES, optional=4)

    def at(i: int, message: str):
        return text.fail_field(message, first, start, 0, i + 1)

    for i in range(5, 9):
        name = _HEADER_NAMES[i]
        if values[i]:
            raise at(
                i,
                f"{values[i]} {_WHAT[name]} ({name}): a safety game has none "
                "(its one output is the error)",
            )
    maxvar, n_in, n_latch, n_out, n_and = _ints(values[:5])
    if n_out != 1:
        raise at(3, f"O = {n_out} outputs: a safety game has exactly one output, the error")
    defined = n_in + n_latch + n_and
    if magic == b"aig" and maxvar != defined:
        raise at(0, f"M = {maxvar}, but a binary file must have M = I + L + A = {defined}")
    if maxvar < defined:
        raise at(
            0, f"M = {maxvar} is below I + L + A = {defined}: some variable would be defined twice"
        )
    if maxvar > 16 * defined + 1024:
        raise at(
            0,
            f"M = {maxvar} is far above I + L + A = {defined}: this reader takes "
            f"variable indices up to 16 (I + L + A) + 1024",
        )
    return magic == b"aig", (maxvar, n_in, n_latch, n_out, n_and)


def _binary_ands(text: Text, first_var: int, count: int) -> list[list[int]]:
    """The AND gates of a binary file: gate ``k`` defines variable ``first_var + k``
    by two deltas (lhs - rhs0 > 0, rhs0 - rhs1 >= 0), each 7 bits a byte, low first."""
    data, pos, end = text.data, text.pos, len(text.data)
    lhs_list, rhs0_list, rhs1_list = [], [], []
    for k in range(count):
        lhs = 2 * (first_var + k)
        deltas = []
        for _ in range(2):
            start, x, shift = pos, 0, 0
            while True:
                if pos >= end:
                    raise text.fail_at_byte(
                        f"the file ends inside AND gate {k + 1} of {count} (literal {lhs})", pos
                    )
                byte = data[pos]
                pos += 1
                x |= (byte & 0x7F) << shift
                if byte < 0x80:
                    break
                shift += 7
                if shift > 63:
                    raise text.fail_at_byte(
                        f"the delta of AND gate {lhs} does not end within 10 bytes", start
                    )
            deltas.append((x, start))
        (d0, at0), (d1, at1) = deltas
        if d0 == 0 or d0 > lhs:
            raise text.fail_at_byte(
                f"AND gate {lhs}: its first delta must be in 1..{lhs} "
                f"(operands below the gate), found {d0}",
                at0,
            )
        rhs0 = lhs - d0
        if d1 > rhs0:
            raise text.fail_at_byte(
                f"AND gate {lhs}: its second delta must be in 0..{rhs0}, found {d1}", at1
            )
        lhs_list.append(lhs)
        rhs0_list.append(rhs0)
        rhs1_list.append(rhs0 - d1)
    text.line = data.count(b"\n", 0, pos) + 1
    text.pos = pos
    return [lhs_list, rhs0_list, rhs1_list]


def _symbols(
    text: Text, n_in: int, n_latch: int, n_out: int
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """((input names, latch names, output names), comment lines) after the gates."""
    names = {b"i": [""] * n_in, b"l": [""] * n_latch, b"o": [""] * n_out}
    rest = text.data[text.pos :]
    if not rest:
        return tuple(tuple(v) for v in names.values()), ()
    lines = rest.split(b"\n")
    offset = text.pos
    for index, raw in enumerate(lines):
        line = text.line + index
        if raw.rstrip(b" \t\r") == b"c":
            comments = b"\n".join(lines[index + 1 :]).decode("utf-8", "replace")
            comments = comments[:-1] if comments.endswith("\n") else comments
            return (
                tuple(tuple(v) for v in names.values()),
                tuple(line.removesuffix("\r") for line in comments.split("\n")) if comments else (),
            )
        if not raw and index == len(lines) - 1:
            break
        _symbol(text, raw, line, offset, names)
        offset += len(raw) + 1
    return tuple(tuple(v) for v in names.values()), ()


def _symbol(text: Text, raw: bytes, line: int, offset: int, names: dict) -> None:
    """Read one symbol line into ``names`` (a located error if it is none)."""
    match = _SYMBOL.fullmatch(raw)
    if match is None:
        raise text.fail(
            "expected a symbol ('i', 'l' or 'o', a position, a space and a name), "
            "a line 'c' starting the comments, or the end of the file",
            line,
            offset,
            1,
            max(1, len(raw.rstrip(b"\r"))),
        )
    kind, index = match.group(1), int(match.group(2))
    name = match.group(3).decode("utf-8", "replace")
    table = names.get(kind, [])
    if index >= len(table):
        raise text.fail(
            f"{_SYMBOL_KIND[kind]} {index} does not exist: the header declares {len(table)}",
            line,
            offset,
            2,
            len(match.group(2)),
        )
    if not name:
        raise text.fail("expected a name after the space", line, offset, match.end(2) + 2)
    if table[index]:
        raise text.fail(
            f"{_SYMBOL_KIND[kind]} {index} already has a name, {table[index]!r}",
            line,
            offset,
            1,
            match.end(2),
        )
    table[index] = name

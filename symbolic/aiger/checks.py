"""The checks of a circuit as read, each a loop over the file's items (linear time).

In order: the literals' ranges and parities, the definitions (each variable
once), the uses (each operand, next-state and output literal defined), and
the AND gates' order (sorted topologically if the file lists them otherwise; a
cycle is a located error). A failing item is located through its section
(``sections[name] = (first line, start offset)``, None in a binary file whose
items have no line of their own).
"""

from __future__ import annotations

from array import array
from dataclasses import replace

from ..errors import ParseError
from .circuit import Circuit
from .text import Text

__all__ = ["check_circuit"]

_KIND = {1: "an input", 2: "a latch", 3: "an AND gate"}


class _Locate:
    """Located errors about item ``index`` of a section, field ``field``."""

    def __init__(self, text: Text, sections: dict):
        self.text, self.sections = text, sections

    def __call__(self, message: str, section: str, index: int, field: int) -> ParseError:
        where = self.sections.get(section)
        if where is None:  # the binary file's implicit inputs, latch lhs, gates
            return self.text.fail(message, 1, 0, 1, 3)
        first, start = where
        if section == "latches" and self.sections.get("inputs") is None:
            field -= 1  # a binary file's latch lines leave the latch out
        return self.text.fail_field(message, first, start, index, field)

    def line(self, section: str, index: int) -> str:
        where = self.sections.get(section)
        return f"line {where[0] + index}" if where else "the header's numbering"


def check_circuit(text: Text, sections: dict, c: Circuit) -> Circuit:
    """``c`` checked, its gates in a topological order; a located ParseError else."""
    at = _Locate(text, sections)
    top = 2 * c.maxvar + 1
    _ranges(at, c, top)
    kind = _definitions(at, c)
    _uses(at, c, kind)
    order = _topological(at, c)
    if order is None:
        return c
    return replace(
        c,
        and_lhs=tuple(c.and_lhs[j] for j in order),
        and_rhs0=tuple(c.and_rhs0[j] for j in order),
        and_rhs1=tuple(c.and_rhs1[j] for j in order),
    )


def _defined_lit(
    at: _Locate, lit: int, top: int, what: str, section: str, index: int, field: int
) -> None:
    if lit & 1:
        raise at(
            f"{what} must be an even literal (a variable, not its negation), found {lit}",
            section,
            index,
            field,
        )
    if lit < 2:
        raise at(
            f"{what} must be at least 2 (literals 0 and 1 are the constants), found {lit}",
            section,
            index,
            field,
        )
    if lit > top:
        raise at(
            f"{what} {lit} is out of range: M = {top // 2} allows literals up to {top}",
            section,
            index,
            field,
        )


def _used_lit(
    at: _Locate, lit: int, top: int, what: str, section: str, index: int, field: int
) -> None:
    if lit > top:
        raise at(
            f"{what} {lit} is out of range: M = {top // 2} allows literals up to {top}",
            section,
            index,
            field,
        )


def _ranges(at: _Locate, c: Circuit, top: int) -> None:
    """Definitions even, in 2..2M; uses in 0..2M+1; resets 0, 1 or the latch."""
    for j, lit in enumerate(c.inputs):
        if lit & 1 or lit < 2 or lit > top:
            _defined_lit(at, lit, top, "an input", "inputs", j, 0)
    for j, (lit, nxt, reset) in enumerate(zip(c.latches, c.next_state, c.reset)):
        if lit & 1 or lit < 2 or lit > top or nxt > top or reset not in (0, 1, lit):
            _defined_lit(at, lit, top, "a latch", "latches", j, 0)
            _used_lit(at, nxt, top, "the next-state literal", "latches", j, 1)
            raise at(
                f"a reset value must be 0, 1 or the latch's literal {lit} (left open), "
                f"found {reset}",
                "latches",
                j,
                2,
            )
    for j, lit in enumerate(c.outputs):
        _used_lit(at, lit, top, "the output literal", "outputs", j, 0)
    for j, (lit, a, b) in enumerate(zip(c.and_lhs, c.and_rhs0, c.and_rhs1)):
        if lit & 1 or lit < 2 or lit > top or a > top or b > top:
            _defined_lit(at, lit, top, "an AND gate's literal", "ands", j, 0)
            _used_lit(at, a, top, "the operand", "ands", j, 1)
            _used_lit(at, b, top, "the operand", "ands", j, 2)


def _definitions(at: _Locate, c: Circuit) -> bytearray:
    """Per variable, what defines it (0 none, 1 input, 2 latch, 3 AND gate); a
    variable defined twice is an error at its second definition."""
    kind = bytearray(c.maxvar + 1)
    items = (("inputs", 1, c.inputs), ("latches", 2, c.latches), ("ands", 3, c.and_lhs))
    for section, code, lits in items:
        for j, lit in enumerate(lits):
            v = lit >> 1
            if kind[v]:
                first = _first_definition(at, c, v)
                raise at(
                    f"variable {v} (literal {lit}) is defined twice: it is already "
                    f"{_KIND[kind[v]]}, at {first}",
                    section,
                    j,
                    0,
                )
            kind[v] = code
    return kind


def _first_definition(at: _Locate, c: Circuit, v: int) -> str:
    for section, lits in (("inputs", c.inputs), ("latches", c.latches), ("ands", c.and_lhs)):
        for j, lit in enumerate(lits):
            if lit >> 1 == v:
                return at.line(section, j)
    raise AssertionError(v)


def _uses(at: _Locate, c: Circuit, kind: bytearray) -> None:
    """Every literal read (next states, outputs, operands) is a constant or defined."""
    kind = bytearray(kind)
    kind[0] = 1  # the constants
    uses = [
        ("latches", 1, c.next_state),
        ("outputs", 0, c.outputs),
        ("ands", 1, c.and_rhs0),
        ("ands", 2, c.and_rhs1),
    ]
    for section, field, lits in uses:
        if all(kind[lit >> 1] for lit in lits):
            continue
        for j, lit in enumerate(lits):
            if not kind[lit >> 1]:
                raise at(
                    f"literal {lit} reads variable {lit >> 1}, which is never defined "
                    "(no input, latch or AND gate has it)",
                    section,
                    j,
                    field,
                )


def _topological(at: _Locate, c: Circuit) -> list[int] | None:
    """None if the gates are listed in a topological order already, else such an
    order (gate indices); a cycle among the gates is a located error."""
    n = len(c.and_lhs)
    index = array("q", [-1]) * (c.maxvar + 1)  # variable -> the gate defining it
    for j, lit in enumerate(c.and_lhs):
        index[lit >> 1] = j
    r0, r1 = c.and_rhs0, c.and_rhs1
    if all(index[r0[j] >> 1] < j and index[r1[j] >> 1] < j for j in range(n)):
        return None
    state = bytearray(n)  # 0 unseen, 1 on the current path, 2 done
    order: list[int] = []
    for root in range(n):
        if state[root]:
            continue
        stack = [root]
        while stack:
            j = stack[-1]
            if state[j] == 0:
                state[j] = 1
                for child in (index[r0[j] >> 1], index[r1[j] >> 1]):
                    if child >= 0 and state[child] == 1:
                        raise _cycle(at, c, stack, state, child, j)
                    if child >= 0 and state[child] == 0:
                        stack.append(child)
            else:
                stack.pop()
                if state[j] == 1:
                    state[j] = 2
                    order.append(j)
    return order


def _cycle(
    at: _Locate, c: Circuit, stack: list[int], state: bytearray, child: int, j: int
) -> ParseError:
    """The error for a cycle closed by gate ``j`` reading gate ``child`` (on the path)."""
    path, seen = [], set()
    for g in reversed(stack):  # a gate's expanded copy is its highest on the stack
        if state[g] == 1 and g not in seen:
            seen.add(g)
            path.append(g)
    path.reverse()
    cycle = path[path.index(child) :]
    lits = [c.and_lhs[g] for g in cycle] + [c.and_lhs[child]]
    texts = [str(x) for x in lits]
    shown = " -> ".join(texts if len(texts) <= 9 else texts[:4] + ["…"] + texts[-4:])
    return at(
        f"the AND gates form a cycle ({shown}): gate {c.and_lhs[j]} reads gate "
        f"{c.and_lhs[child]}, which depends on it",
        "ands",
        j,
        0,
    )

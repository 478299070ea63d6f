"""Writing a :class:`Circuit` as ASCII ``.aag`` text or binary ``.aig`` bytes.

The ASCII form keeps the circuit's literals; the binary form renumbers them
as it requires (inputs 1..I, latches, then the gates in their topological
order), so reading it back gives the same circuit up to that renumbering.

>>> from .reader import parse_aiger
>>> c = parse_aiger("aag 3 2 0 1 1\\n2\\n4\\n6\\n6 2 5\\n", "f.aag")
>>> parse_aiger(to_aig(c)) == canonical(c), canonical(c).and_rhs0
(True, (5,))
"""

from __future__ import annotations

from .circuit import Circuit

__all__ = ["to_aag", "canonical", "to_aig"]


def _symbols(c: Circuit) -> list[str]:
    lines = []
    for kind, names in (("i", c.input_names), ("l", c.latch_names), ("o", c.output_names)):
        lines += [f"{kind}{k} {name}" for k, name in enumerate(names) if name]
    if c.comments:
        lines += ["c", *c.comments]
    return lines


def _latch_line(c: Circuit, k: int, lhs: str) -> str:
    reset = c.reset[k]
    return f"{lhs}{c.next_state[k]}" + ("" if reset == 0 else f" {reset}")


def to_aag(c: Circuit) -> str:
    """The ASCII AIGER text of ``c`` (its own literals)."""
    head = f"aag {c.maxvar} {len(c.inputs)} {len(c.latches)} {len(c.outputs)} {len(c.and_lhs)}"
    lines = [head, *map(str, c.inputs)]
    lines += [_latch_line(c, k, f"{lit} ") for k, lit in enumerate(c.latches)]
    lines += map(str, c.outputs)
    lines += [f"{a} {b} {d}" for a, b, d in zip(c.and_lhs, c.and_rhs0, c.and_rhs1)]
    return "\n".join(lines + _symbols(c)) + "\n"


def canonical(c: Circuit) -> Circuit:
    """``c`` renumbered as the binary format requires (inputs, latches, gates).

    >>> from .reader import parse_aiger
    >>> canonical(parse_aiger("aag 9 1 0 1 1\\n8\\n18\\n18 9 1\\n")).and_rhs0
    (3,)
    """
    new = {0: 0}
    defined = (*c.inputs, *c.latches, *c.and_lhs)
    for k, defined_lit in enumerate(defined):
        new[defined_lit >> 1] = k + 1

    def lit(x: int) -> int:
        return 2 * new[x >> 1] + (x & 1)

    rhs = [sorted((lit(a), lit(b)), reverse=True) for a, b in zip(c.and_rhs0, c.and_rhs1)]
    return Circuit(
        len(defined),
        tuple(map(lit, c.inputs)),
        tuple(map(lit, c.latches)),
        tuple(map(lit, c.next_state)),
        tuple(r if r < 2 else lit(r) for r in c.reset),
        tuple(map(lit, c.outputs)),
        tuple(map(lit, c.and_lhs)),
        tuple(r[0] for r in rhs),
        tuple(r[1] for r in rhs),
        c.input_names,
        c.latch_names,
        c.output_names,
        c.comments,
    )


def _delta(x: int, out: bytearray) -> None:
    while x >= 0x80:
        out.append(x & 0x7F | 0x80)
        x >>= 7
    out.append(x)


def to_aig(c: Circuit) -> bytes:
    """The binary AIGER bytes of ``c`` (renumbered: see :func:`canonical`)."""
    c = canonical(c)
    head = f"aig {c.maxvar} {len(c.inputs)} {len(c.latches)} {len(c.outputs)} {len(c.and_lhs)}"
    lines = [head, *[_latch_line(c, k, "") for k in range(len(c.latches))], *map(str, c.outputs)]
    out = bytearray(("\n".join(lines) + "\n").encode())
    for lhs, a, b in zip(c.and_lhs, c.and_rhs0, c.and_rhs1):
        _delta(lhs - a, out)
        _delta(a - b, out)
    tail = _symbols(c)
    if tail:
        out += ("\n".join(tail) + "\n").encode()
    return bytes(out)

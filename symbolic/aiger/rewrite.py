"""An and-inverter graph rebuilt with some variables replaced by literals: gates hashed,
constants folded, only the gates the error and the next-state functions read kept."""

from __future__ import annotations

from .circuit import Circuit

__all__ = ["substituted"]


def substituted(
    c: Circuit, gate, chosen: dict[int, int], keep: dict[int, int]
) -> tuple[Circuit, dict[int, int], dict[int, int]]:
    """``c`` with each variable of ``chosen`` (an input's or a latch's) replaced by its
    literal, rebuilt from the error and the next-state functions with hashed gates and
    constants folded; the chosen variables' literals in the new circuit; and ``keep``'s
    literals (of ``c``) rewritten in the new circuit. ``gate``: AND variable → its two
    operands. The new circuit has the same inputs and latches (a replaced one is read
    nowhere); its gates are numbered after them, in a topological order.

    >>> from .reader import parse_aiger
    >>> c = parse_aiger("aag 3 1 1 1 1\\n2\\n4 6\\n6\\n6 2 4\\n")  # err = u ∧ x
    >>> r, _, _ = substituted(c, {3: (2, 4)}, {2: 0}, {})  # x := 0
    >>> r.error, r.next_state, r.and_lhs
    (0, (0,), ())
    """
    top = max([x >> 1 for x in (*c.inputs, *c.latches)], default=0)
    new: dict[int, int] = {0: 0}
    new.update((x >> 1, x) for x in (*c.inputs, *c.latches) if x >> 1 not in chosen)
    table: dict[tuple[int, int], int] = {}
    lhs: list[int] = []
    rhs: list[tuple[int, int]] = []

    def and_(a: int, b: int) -> int:
        a, b = max(a, b), min(a, b)
        if b == 0 or a == b ^ 1:
            return 0
        if b == 1 or a == b:
            return a
        if (a, b) not in table:
            table[a, b] = 2 * (top + 1 + len(lhs))
            lhs.append(table[a, b])
            rhs.append((a, b))
        return table[a, b]

    def lit(x: int) -> int:
        stack = [x >> 1]
        while stack:
            v = stack[-1]
            if v in new:
                stack.pop()
                continue
            parts = (chosen[v],) if v in chosen else gate[v]
            todo = [p >> 1 for p in parts if p >> 1 not in new]
            if todo:
                stack.extend(todo)
                continue
            stack.pop()
            ins = [new[p >> 1] ^ (p & 1) for p in parts]
            new[v] = ins[0] if v in chosen else and_(*ins)
        return new[x >> 1] ^ (x & 1)

    outputs = tuple(lit(x) for x in c.outputs)
    nexts = tuple(lit(x) for x in c.next_state)
    forced = {v: lit(2 * v) for v in chosen}
    kept = {k: lit(x) for k, x in keep.items()}
    circuit = Circuit(
        maxvar=top + len(lhs),
        inputs=c.inputs,
        latches=c.latches,
        next_state=nexts,
        reset=c.reset,
        outputs=outputs,
        and_lhs=tuple(lhs),
        and_rhs0=tuple(a for a, _ in rhs),
        and_rhs1=tuple(b for _, b in rhs),
        input_names=c.input_names,
        latch_names=c.latch_names,
        output_names=c.output_names,
        comments=c.comments,
    )
    return circuit, forced, kept

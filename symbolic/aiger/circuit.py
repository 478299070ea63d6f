"""The circuit an AIGER file describes, as read (:class:`Circuit`).

A literal is ``2 * variable + negated``: literal 0 is false, 1 is true. Every
variable other than 0 is defined exactly once, as an input, a latch or the
output of an AND gate; the gates are stored in a topological order (each
gate's operands are inputs, latches, constants or gates stored before it).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ModelError, Span

__all__ = ["CONTROLLABLE", "Circuit", "check_safety_game", "simulate", "literal_value"]

#: the prefix of the symbol of an input the controller sets (SYNTCOMP's convention)
CONTROLLABLE = "controllable_"


@dataclass(frozen=True)
class Circuit:
    """An and-inverter graph with latches: the content of an ``.aag`` or ``.aig`` file.

    ``inputs`` and ``latches`` are even literals; ``next_state[k]`` and
    ``reset[k]`` belong to ``latches[k]`` (``reset`` is 0, 1, or the latch's own
    literal when its initial value is left open); ``outputs`` are literals; the
    AND gate ``k`` is ``and_lhs[k] = and_rhs0[k] & and_rhs1[k]``, stored in a
    topological order; the ``*_names`` come from the symbol table ("" where it
    gives none). ``maxvar`` is the header's M.

    >>> c = Circuit(maxvar=3, inputs=(2, 4), latches=(), next_state=(), reset=(),
    ...             outputs=(6,), and_lhs=(6,), and_rhs0=(2,), and_rhs1=(5,),
    ...             input_names=("u", "controllable_c"), latch_names=(), output_names=("err",))
    >>> c.controllable, c.error
    ((False, True), 6)
    """

    maxvar: int
    inputs: tuple[int, ...]
    latches: tuple[int, ...]
    next_state: tuple[int, ...]
    reset: tuple[int, ...]
    outputs: tuple[int, ...]
    and_lhs: tuple[int, ...]
    and_rhs0: tuple[int, ...]
    and_rhs1: tuple[int, ...]
    input_names: tuple[str, ...]
    latch_names: tuple[str, ...]
    output_names: tuple[str, ...]
    comments: tuple[str, ...] = ()

    @property
    def controllable(self) -> tuple[bool, ...]:
        """Per input: does its symbol start with ``controllable_`` (the controller's)?"""
        return tuple(name.startswith(CONTROLLABLE) for name in self.input_names)

    @property
    def error(self) -> int:
        """The literal of the one output of a safety game: the error."""
        if len(self.outputs) != 1:
            raise AssertionError(self.outputs)
        return self.outputs[0]

    @property
    def counts(self) -> tuple[int, int, int, int, int]:
        """The header's ``M I L O A``.

        >>> Circuit(0, (), (), (), (), (0,), (), (), (), (), (), ("e",)).counts
        (0, 0, 0, 1, 0)
        """
        return (
            self.maxvar,
            len(self.inputs),
            len(self.latches),
            len(self.outputs),
            len(self.and_lhs),
        )


def check_safety_game(circuit: Circuit, filename: str) -> None:
    """ModelError (located at the header of ``filename``) unless ``circuit`` has exactly
    one output, the error of a safety game.

    >>> check_safety_game(Circuit(0, (), (), (), (), (), (), (), (), (), (), ()), "c.aag")
    Traceback (most recent call last):
    ...
    symbolic.errors.ModelError: c.aag:1:1: error: a safety game has exactly one output (the error), this circuit has 0
    """
    if len(circuit.outputs) != 1:
        raise ModelError(
            f"a safety game has exactly one output (the error), this circuit has "
            f"{len(circuit.outputs)}",
            Span(filename, 1, 1, ""),
        )


def simulate(circuit: Circuit, state: dict[int, int], inputs: dict[int, int]) -> dict[int, int]:
    """The value (0 or 1) of every variable in one step, given the latches' values
    ``state`` and the inputs' ``inputs`` (both keyed by even literal).

    >>> c = Circuit(3, (2, 4), (), (), (), (6,), (6,), (2,), (5,), ("", ""), (), ("",))
    >>> simulate(c, {}, {2: 1, 4: 0})[3]
    1
    """
    value = {0: 0}
    for lit, bit in (*state.items(), *inputs.items()):
        value[lit >> 1] = bit
    for lhs, a, b in zip(circuit.and_lhs, circuit.and_rhs0, circuit.and_rhs1):
        value[lhs >> 1] = (value[a >> 1] ^ (a & 1)) & (value[b >> 1] ^ (b & 1))
    return value


def literal_value(value: dict[int, int], lit: int) -> int:
    """The value of literal ``lit`` under the variables' ``value`` (from :func:`simulate`).

    >>> literal_value({0: 0, 1: 1}, 3), literal_value({0: 0}, 1)
    (0, 1)
    """
    return value[lit >> 1] ^ (lit & 1)

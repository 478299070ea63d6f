"""The ground rules of a GDL game compiled to bit masks, for the explicit engine.

Every ground atom is a bit of one Python int ``v``: fluent i is bit i, ``next(f_i)``
bit n + i, then one bit per possible ``does(r, m)``, then the other atoms. A state
is the int of its fluents' bits. A ground body is ``(head bit, pos, neg)``; it holds
in ``v`` when ``v & pos == pos`` and ``v & neg == 0``. Ground atoms are acyclic
(:func:`~.ground.ground` checks it), so with level(true, does) = 0 and level(a) = 1 +
the highest level of the atoms a's bodies read, the bodies sorted by the level of
their head are evaluated in one pass (an atom's bodies come after those of every
atom it reads):

    v := state;  for (h, pos, neg) in bodies:  if v ⊇ pos and v ∩ neg = ∅:  v := v ∪ {h}

Atoms that do not read ``does`` are evaluated once per state (those ``legal``,
``terminal`` and ``next`` need); the others once per joint move, from the state's
``v`` and the bits of the moves played, with only the bodies whose positive
``does`` literal is a move played (plus those without one). The successor is then
``(v >> n) & (2^n - 1)``: the ``next`` bits.

>>> from .load import gdl_program
>>> c = CompiledRules(gdl_program("(role a) (init (s 0)) (<= (legal a go) (true (s 0))) "
...     "(<= (next (s 1)) (does a go)) (<= terminal (true (s 1))) (goal a 100)"))
>>> v = c.state_vector(c.state_of({("s", "0")}))
>>> c.legal(v), c.terminal(v), c.fluents_of(c.next_state(v, (("a", "go"),)))
({'a': ['go']}, False, frozenset({('s', '1')}))
"""
from __future__ import annotations

from .ground import GroundProgram

__all__ = ["CompiledRules"]


class CompiledRules:
    """The ground program ``prog`` as bit-mask bodies (see the module docstring)."""

    def __init__(self, prog: GroundProgram):
        self.prog = prog
        fluents = prog.fluents
        n = self.n = len(fluents)
        self.mask = (1 << n) - 1
        self.fluent_bit = {f: 1 << i for i, f in enumerate(fluents)}
        bit: dict = {}
        for i, f in enumerate(fluents):
            bit[("true", (f,))] = i
            bit[("next", (f,))] = n + i
        k = 2 * n
        for r in prog.roles:
            for m in prog.moves[r]:
                bit[("does", (r, m))] = k
                k += 1
        for atom in prog.rules:
            if atom not in bit:
                bit[atom] = k
                k += 1
        self.bit = bit
        self.level, self.reads_does = self._levels()
        self._compile()
        self._joint_bodies: dict = {}
        self._cones: dict = {}

    def _levels(self) -> tuple[dict, dict]:
        """{atom: level} and {atom: whether it reads does, directly or not}, iteratively."""
        rules = self.prog.rules
        level, does = {}, {}
        for start in rules:
            if start in level:
                continue
            stack = [start]
            while stack:
                atom = stack[-1]
                if atom in level:
                    stack.pop()
                    continue
                subs = [a for body in rules[atom] for _, a in body
                        if a[0] not in ("true", "does") and a in rules and a not in level]
                if subs:
                    stack.extend(subs)
                    continue
                stack.pop()
                lv, d = 0, False
                for body in rules[atom]:
                    for _, a in body:
                        if a[0] == "does":
                            d = True
                        elif a[0] != "true" and a in rules:
                            lv, d = max(lv, level[a]), d or does[a]
                level[atom], does[atom] = lv + 1, d
        return level, does

    def _compile(self) -> None:
        bit, rules = self.bit, self.prog.rules
        self.bodies: dict = {}  # atom -> [(head bit, pos, neg, played move or None)]
        for atom, bodies in rules.items():
            head, out = 1 << bit[atom], []
            for body in bodies:
                pos = neg = 0
                played = None
                for kind, a in body:
                    b = bit.get(a)
                    if b is None or (a[0] not in ("true", "does") and a not in rules):
                        if kind == "pos":
                            break  # an atom without rules is never true
                        continue
                    if kind == "pos":
                        pos |= 1 << b
                        if a[0] == "does" and played is None:
                            played = a[1]
                    else:
                        neg |= 1 << b
                else:
                    out.append((head, pos, neg, played))
            self.bodies[atom] = out
        needed = [a for a in rules if a[0] in ("legal", "terminal", "next")]
        cone = self.cone(needed)
        by_level = sorted((a for a in cone if not self.reads_does[a]), key=self.level.get)
        self.state_bodies = [(h, p, q) for a in by_level for h, p, q, _ in self.bodies[a]]
        self.move_atoms = sorted((a for a in cone if self.reads_does[a]), key=self.level.get)
        self.legal_bits = {r: [(m, 1 << bit[("legal", (r, m))]) for m in self.prog.moves[r]
                               if ("legal", (r, m)) in rules] for r in self.prog.roles}
        t = ("terminal", ())
        self.terminal_bit = (1 << bit[t]) if t in rules else 0

    def cone(self, atoms) -> set:
        """The atoms with rules that ``atoms`` read, directly or not, and themselves."""
        rules, out = self.prog.rules, set()
        stack = [a for a in atoms if a in rules]
        while stack:
            a = stack.pop()
            if a in out:
                continue
            out.add(a)
            stack.extend(x for body in rules[a] for _, x in body if x in rules)
        return out

    # ------------------------------------------------------------------ states

    def state_of(self, fluents) -> int:
        fb = self.fluent_bit
        return sum(fb[f] for f in fluents)

    def fluents_of(self, state: int) -> frozenset:
        fl = self.prog.fluents
        return frozenset(fl[i] for i in range(self.n) if state >> i & 1)

    def state_vector(self, state: int) -> int:
        """The state's bits and those of every atom without ``does`` that ``legal``,
        ``terminal`` and ``next`` read."""
        v = state
        for h, pos, neg in self.state_bodies:
            if v & pos == pos and not v & neg:
                v |= h
        return v

    def legal(self, v: int) -> dict:
        return {r: [m for m, b in moves if v & b] for r, moves in self.legal_bits.items()}

    def terminal(self, v: int) -> bool:
        return bool(v & self.terminal_bit)

    def _bodies_of(self, joint: tuple) -> list:
        """The bodies of the atoms reading ``does`` that can hold under ``joint``
        (``((role, move), ...)``), by level, and the bits of its moves (cached)."""
        hit = self._joint_bodies.get(joint)
        if hit is None:
            played = set(joint)
            bodies = [(h, p, q) for a in self.move_atoms for h, p, q, mv in self.bodies[a]
                      if mv is None or mv in played]
            does = sum(1 << self.bit[("does", j)] for j in joint if ("does", j) in self.bit)
            hit = self._joint_bodies[joint] = (bodies, does)
        return hit

    def next_state(self, v: int, joint: tuple) -> int:
        """The successor state of the state whose :meth:`state_vector` is ``v`` under the
        joint move ``((role, move), ...)``."""
        bodies, does = self._bodies_of(joint)
        v |= does
        for h, pos, neg in bodies:
            if v & pos == pos and not v & neg:
                v |= h
        return (v >> self.n) & self.mask

    def holds(self, atom, state: int, joint: tuple = ()) -> bool:
        """Whether the ground atom holds in ``state`` under ``joint`` (its cone only)."""
        if atom not in self.prog.rules:
            return atom[0] == "true" and bool(state & self.fluent_bit.get(atom[1][0], 0))
        bodies = self._cones.get(atom)
        if bodies is None:
            order = sorted(self.cone([atom]), key=self.level.get)
            bodies = self._cones[atom] = [b for a in order for b in self.bodies[a]]
        v = state | sum(1 << self.bit[("does", j)] for j in joint if ("does", j) in self.bit)
        played = set(joint)
        for h, pos, neg, mv in bodies:
            if (mv is None or mv in played) and v & pos == pos and not v & neg:
                v |= h
        return bool(v >> self.bit[atom] & 1)

"""The ground rules of a GDL game compiled to bit masks, for the explicit engine.

Every ground atom is a bit of one Python int ``v``: fluent i is bit n - 1 - i,
``next(f_i)`` bit 2n - 1 - i, then one bit per possible ``does(r, m)``, then the other
atoms. A state is the int of its fluents' bits: fluent 0 the highest, so that states
compare as ints as their position tuples (one 0/1 slot per fluent) compare. A ground
body is ``(head bit, pos, neg)``; it holds
in ``v`` when ``v & pos == pos`` and ``v & neg == 0``. Ground atoms are acyclic
(:func:`~.ground.ground` checks it), so with level(true, does) = 0 and level(a) = 1 +
the highest level of the atoms a's bodies read, the bodies sorted by the level of
their head are evaluated in one pass (an atom's bodies come after those of every
atom it reads):

    v := state;  for (h, pos, neg) in bodies:  if v ⊇ pos and v ∩ neg = ∅:  v := v ∪ {h}

Atoms that do not read ``does`` are evaluated once per state (those ``legal``,
``terminal`` and ``next`` need); the others once per joint move, from the state's
``v`` and the bits of the moves played. Under one joint move the ``does`` literals are
decided, so its bodies are specialised once (cached per joint move): those a move
played or not played falsifies are dropped, and among the bodies of ``next`` atoms
(which no body reads), a body left empty sets its bit whatever the state, and a
frame axiom ``next(f) :- true(f)`` copies bit f; only the others are evaluated. The
successor is then ``(v >> n) & (2^n - 1)`` (the ``next`` bits) with those bits added.

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

#: b"0" and b"1" to the bytes 0 and 1 (a binary text to a position tuple)
_DIGITS = bytes.maketrans(b"01", b"\x00\x01")


class CompiledRules:
    """The ground program ``prog`` as bit-mask bodies (see the module docstring)."""

    def __init__(self, prog: GroundProgram):
        self.prog = prog
        fluents = prog.fluents
        n = self.n = len(fluents)
        self.mask = (1 << n) - 1
        self.fluent_bit = {f: 1 << (n - 1 - i) for i, f in enumerate(fluents)}
        bit: dict = {}
        for i, f in enumerate(fluents):
            bit[("true", (f,))] = n - 1 - i
            bit[("next", (f,))] = 2 * n - 1 - i
        k = 2 * n
        for r in prog.roles:
            for m in prog.moves[r]:
                bit[("does", (r, m))] = k
                k += 1
        self.does_mask = ((1 << k) - 1) ^ ((1 << (2 * n)) - 1)
        for atom in prog.rules:
            if atom not in bit:
                bit[atom] = k
                k += 1
        self.bit = bit
        self.level, self.reads_does = self._levels()
        self._compile()
        self._joint_bodies: dict = {}
        self._by_moves: dict = {}
        self._cones: dict = {}

    def _levels(self) -> tuple[dict[tuple, int], dict[tuple, bool]]:
        """{atom: level} and {atom: whether it reads does, directly or not}, iteratively."""
        rules = self.prog.rules
        level: dict[tuple, int] = {}
        does: dict[tuple, bool] = {}
        for start in rules:
            if start in level:
                continue
            stack = [start]
            while stack:
                atom = stack[-1]
                if atom in level:
                    stack.pop()
                    continue
                subs = [
                    a
                    for body in rules[atom]
                    for _, a in body
                    if a[0] not in ("true", "does") and a in rules and a not in level
                ]
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
        by_level = sorted((a for a in cone if not self.reads_does[a]), key=self.level.__getitem__)
        groups: dict = {}
        for a in by_level:
            groups.setdefault(self.level[a], []).extend(self.bodies[a])
        self.move_atoms = sorted(
            (a for a in cone if self.reads_does[a]), key=self.level.__getitem__
        )
        # the bodies of next atoms that read no does, even through other atoms, are
        # evaluated once per state too, after every atom they may read (no body reads next)
        reads = self.does_mask | sum(1 << bit[a] for a in cone if self.reads_does[a])
        self.move_bodies: dict[tuple, list] = {}
        free: list = []
        for a in self.move_atoms:
            mine = self.move_bodies[a] = []
            for b in self.bodies[a]:
                (free if a[0] == "next" and not (b[1] | b[2]) & reads else mine).append(b)
        self.state_levels = self._keyed(list(groups.values()) + [free])
        self.legal_bits = {
            r: [
                (m, 1 << bit[("legal", (r, m))])
                for m in self.prog.moves[r]
                if ("legal", (r, m)) in rules
            ]
            for r in self.prog.roles
        }
        t = ("terminal", ())
        self.terminal_bit = (1 << bit[t]) if t in rules else 0

    def _keyed(self, groups: list) -> list[tuple[list, dict]]:
        """The bodies of ``groups`` (lists of bodies, by level), each group as (bodies
        without a positive fluent, {fluent bit: bodies keyed by it}): a body is keyed
        by the positive fluent of its that the fewest bodies read, and looked at only
        in the states holding that fluent (bodies of one level read no atom of that
        level, so their order within it is free)."""
        fluents = self.mask
        uses: dict = {}
        for group in groups:
            for _, p, _, _ in group:
                f = p & fluents
                while f:
                    b = f & -f
                    uses[b] = uses.get(b, 0) + 1
                    f ^= b
        out: list = []
        for group in groups:
            free: list = []
            keyed: dict = {}
            for h, p, q, _ in group:
                f, key = p & fluents, None
                while f:
                    b = f & -f
                    if key is None or uses[b] < uses[key]:
                        key = b
                    f ^= b
                if key is None:
                    free.append((h, p, q))
                else:
                    keyed.setdefault(key, []).append((h, p, q))
            out.append((free, keyed))
        return out

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
        fl, top = self.prog.fluents, self.n - 1
        return frozenset(fl[i] for i in range(self.n) if state >> (top - i) & 1)

    def position_of(self, state: int) -> tuple:
        """The position tuple of a state: slot i is 1 when fluent i is true."""
        return tuple(format(state, f"0{self.n}b").encode().translate(_DIGITS)) if self.n else ()

    def state_of_position(self, pos) -> int:
        """The state of a position tuple (:meth:`position_of` inverted)."""
        s = 0
        for v in pos:
            s = (s << 1) | (v & 1)
        return s

    def state_vector(self, state: int) -> int:
        """The state's bits and those of every atom without ``does`` that ``legal``,
        ``terminal`` and ``next`` read."""
        v, held, f = state, [], state
        while f:  # the state's fluents, as bits
            b = f & -f
            held.append(b)
            f ^= b
        for free, keyed in self.state_levels:
            for h, pos, neg in free:
                if v & pos == pos and not v & neg:
                    v |= h
            for b in held:
                for h, pos, neg in keyed.get(b, ()):
                    if v & pos == pos and not v & neg:
                        v |= h
        return v

    def legal(self, v: int) -> dict:
        return {r: [m for m, b in moves if v & b] for r, moves in self.legal_bits.items()}

    def terminal(self, v: int) -> bool:
        return bool(v & self.terminal_bit)

    def _bodies_of(self, joint: tuple) -> tuple:
        """(bodies, does bits, constant bits, frame mask) of the joint move ``joint``
        (``((role, move), ...)``), cached: the bodies of the atoms reading ``does``
        specialised to the moves played (see the module docstring), by level."""
        hit = self._joint_bodies.get(joint)
        if hit is not None:
            return hit
        bit, n, all_does = self.bit, self.n, self.does_mask
        played = sum(1 << bit[("does", j)] for j in joint if ("does", j) in bit)
        nexts = ((1 << (2 * n)) - 1) ^ self.mask  # the next bits
        bodies, const, frame = [], 0, 0
        for a in self.move_atoms:
            for h, p, q, _ in self.move_bodies[a]:
                if p & all_does & ~played or q & played:
                    continue  # a move not played is read, or a move played is negated
                p, q = p & ~all_does, q & ~all_does
                if h & nexts and not q and not p:
                    const |= h >> n
                elif h & nexts and not q and p == h >> n:
                    frame |= p  # next(f) :- true(f): bit f copied
                else:
                    bodies.append((h, p, q))
        hit = self._joint_bodies[joint] = (bodies, played, const, frame)
        return hit

    def of_moves(self, moves: tuple) -> tuple:
        """:meth:`_bodies_of` the joint move of ``moves`` (one move per role, in role
        order), cached by ``moves`` (the explorer's inner loop)."""
        hit = self._by_moves.get(moves)
        if hit is None:
            hit = self._by_moves[moves] = self._bodies_of(tuple(zip(self.prog.roles, moves)))
        return hit

    def next_state(self, v: int, joint: tuple) -> int:
        """The successor state of the state whose :meth:`state_vector` is ``v`` under the
        joint move ``((role, move), ...)``."""
        bodies, played, const, frame = self._bodies_of(joint)
        w = v | played
        for h, pos, neg in bodies:
            if w & pos == pos and not w & neg:
                w |= h
        return ((w >> self.n) & self.mask) | const | (v & frame)

    def holds(self, atom, state: int, joint: tuple = ()) -> bool:
        """Whether the ground atom holds in ``state`` under ``joint`` (its cone only)."""
        if atom not in self.prog.rules:
            return atom[0] == "true" and bool(state & self.fluent_bit.get(atom[1][0], 0))
        bodies = self._cones.get(atom)
        if bodies is None:
            order = sorted(self.cone([atom]), key=self.level.__getitem__)
            bodies = self._cones[atom] = [b for a in order for b in self.bodies[a]]
        v = state | sum(1 << self.bit[("does", j)] for j in joint if ("does", j) in self.bit)
        played = set(joint)
        for h, pos, neg, mv in bodies:
            if (mv is None or mv in played) and v & pos == pos and not v & neg:
                v |= h
        return bool(v >> self.bit[atom] & 1)

    def holding(self, atom, states) -> list[int]:
        """The indices of the ``states`` where the ground atom (not depending on
        ``does``) holds: :meth:`holds` for many states, its cone walked once per state."""
        if atom not in self.prog.rules:
            b = self.fluent_bit.get(atom[1][0], 0) if atom[0] == "true" else 0
            return [i for i, s in enumerate(states) if s & b]
        self.holds(atom, 0)  # the cone, cached
        bodies = [(h, p, q) for h, p, q, mv in self._cones[atom] if mv is None]
        out, bit = [], 1 << self.bit[atom]
        for i, s in enumerate(states):
            v = s
            for h, pos, neg in bodies:
                if v & pos == pos and not v & neg:
                    v |= h
            if v & bit:
                out.append(i)
        return out

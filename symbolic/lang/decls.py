"""Declaration checking: a parsed model file to a :class:`CheckedModel`.

:class:`ModelChecker` first collects every top-level name (a name must be
declared once, and before it is used), checks the parameter overrides against
the declared parameters, then checks the declarations in source order through
:data:`DECL_HANDLERS`: parameters and constants are evaluated once, variables
make the state space, moves become :class:`ir.Move`, sets and formulas become
:class:`atl.Definition`, queries :class:`Query`. The result is a plain
:class:`CheckedModel`; :mod:`symbolic.model` wraps it as a ``Model``.

>>> from symbolic.lang.parser import parse_model_text
>>> m = check_model(parse_model_text("players 1, 2\\nvar x : 0..3\\nturn 1 + x % 2"), "<s>")
>>> m.game.turn
Binary(op='+', left=Const(value=1), right=Binary(op='%', left=Var(name='x', primed=False), right=Const(value=2)))
"""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path
from typing import Any, Callable, Mapping

from .. import atl, display, ir
from ..errors import ModelError, RangeError, Span, UnknownName, WrongType
from ..limits import MAX_EXPANDED_NESTING
from . import ast
from ..validate import check_expr
from .actions import ActionDecls
from .builtins import canonical_key
from .display import DrawingChecker
from .binders import flat_binders
from .checked import CheckedModel, Query
from .depth import expanded_depth
from .formulas import FormulaChecker
from .params import ParamDecls
from .scope import EMPTY, Ctx, Entry, FormulaParam, Scope
from .types import BOOL, INT, SetT, Sym, article, exported_value
from .vocabulary import OUTCOME_RULES, PARAMETER_KINDS

__all__ = [
    "MAX_ARRAY_LENGTH",
    "Query",
    "CheckedModel",
    "ModelChecker",
    "DECL_HANDLERS",
    "DECLARED_KINDS",
    "declared_names",
    "expanded_depth",
    "check_model",
]


#: the most elements an array variable may have: each is at least one BDD variable
#: and one slot of every explicit position, so more is refused, not attempted
MAX_ARRAY_LENGTH = 100_000


class ModelChecker(ActionDecls, ParamDecls, FormulaChecker):
    """Checks a whole model: declarations in order, then the game."""

    def __init__(self, tree: ast.ModelAst, filename: str, overrides: Mapping[str, object] | None):
        super().__init__(Scope())
        self.tree = tree
        self.filename = filename
        self.overrides = dict(overrides or {})
        self.name: str | None = None
        self.description = ""
        self.game_span: Span | None = None
        self.vars: list[ir.VarDecl] = []
        self.turn: ir.Expr | None = None
        self.invariants: list[ir.Expr] = []
        self.moves: list[ir.Move] = []
        self.queries: list[Query] = []
        self.definitions: dict[str, atl.Definition] = {}
        self.display: display.Drawing | None = None
        self.display_span: Span | None = None
        self.outcome_decl: ast.OutcomeDecl | None = None
        # the expanded depth of each definition, and of each node seen (by id; the
        # node is kept so that its id is not reused): see _check_depth
        self.depths: dict[str, int] = {}
        self._depth_memo: dict[int, tuple[object, int]] = {}

    def run(self) -> CheckedModel:
        """Check the model."""
        self._collect_names()
        self._check_override_names()
        for d in self.tree.decls:
            self.declaration(d)
        return self._result()

    def _collect_names(self) -> None:
        declared = self.scope.declared
        moves: dict[str, Span] = {}
        for d in self.tree.decls:
            for ident, kind in declared_names(d):
                if kind == "move":
                    if ident.name in moves:
                        raise ModelError(
                            f"move '{ident.name}' is already declared at line "
                            f"{moves[ident.name].line}",
                            ident.span,
                        )
                    moves[ident.name] = ident.span
                    continue
                if ident.name in declared:
                    k, where = declared[ident.name]
                    raise ModelError(
                        f"'{ident.name}' is already declared at line {where.line} (as a {k})",
                        ident.span,
                    )
                declared[ident.name] = (kind, ident.span)

    # ------------------------------------------------------------------ declarations

    def declaration(self, d: ast.Decl) -> None:
        """Check one declaration: the handler of its class in :data:`DECL_HANDLERS`."""
        handler = DECL_HANDLERS.get(type(d))
        if handler is None:
            raise AssertionError(d)
        handler(self, d)

    def _game(self, d: ast.GameDecl) -> None:
        if self.name is not None:
            raise ModelError("the game is named twice", d.span)
        self.name, self.game_span = d.name, d.span
        if d.description is not None:
            self.description = d.description

    def _description(self, d: ast.DescriptionDecl) -> None:
        self.description = (self.description + "\n" + d.text).strip()

    def _const(self, d: ast.ConstDecl) -> None:
        v = self.value(d.expr, EMPTY, what=f"the constant '{d.name.name}'")
        self.scope.entries[d.name.name] = Entry("const", d.name.span, value=v.value)

    def _turn_decl(self, d: ast.TurnDecl) -> None:
        if self.turn is not None:
            raise ModelError("the turn is declared twice", d.span)
        self.turn = self.state(d.expr, EMPTY, INT, "for the player whose turn it is")
        if (
            isinstance(self.turn, ir.Const)
            and self.scope.players is not None
            and self.turn.value not in self.scope.players
        ):
            raise RangeError(f"turn {self.turn.value} is not a player", d.expr.span)

    def _invariant(self, d: ast.InvariantDecl) -> None:
        self.invariants.append(self.state(d.expr, EMPTY, BOOL, "as an invariant"))

    def _query(self, d: ast.QueryDecl) -> None:
        self.queries.append(Query(d.text, self.formula(d.formula, EMPTY), d.span))

    def _outcome_decl(self, d: ast.OutcomeDecl) -> None:
        if self.outcome_decl is not None:
            raise ModelError(
                f"the outcome is declared twice (first at line {self.outcome_decl.span.line})",
                d.span,
            )
        if d.rule.name not in OUTCOME_RULES:
            raise ModelError(
                f"unknown outcome {d.rule.name!r}: expected one of {', '.join(OUTCOME_RULES)}",
                d.rule.span,
            )
        self.outcome_decl = d

    def _outcome(self) -> ir.OutcomeRule:
        """The declared outcome (``outcome ...``), else win(p) sets when the model
        defines ``set win(p)`` with one parameter, else normal play."""
        rule = self.outcome_decl.rule.name if self.outcome_decl is not None else None
        win = self.definitions.get("win")
        usable = (
            win is not None
            and len(win.params) == 1
            and win.params[0][1] == "int"
            and isinstance(win.body, atl.Prop)
        )
        if rule == "win" and not usable:
            assert self.outcome_decl is not None  # the rule is its
            raise ModelError(
                "'outcome win' needs a set win(p) with one parameter, the "
                "player (e.g. set win(p) = ...)",
                self.outcome_decl.span,
            )
        if rule == "misere":
            return ir.MiserePlay()
        if rule in (None, "win") and usable:
            assert win is not None and isinstance(win.body, atl.Prop)  # usable says so
            return ir.WinSets(win.params[0][0], win.body.expr)
        return ir.NormalPlay()

    def _display(self, d: ast.DisplayDecl) -> None:
        if self.display is not None:
            assert self.display_span is not None  # set with the display
            raise ModelError(
                f"the display is declared twice (first at line {self.display_span.line})", d.span
            )
        self.display = DrawingChecker(self).draw(d.expr, EMPTY)
        self.display_span = d.span

    def _players_decl(self, d: ast.PlayersDecl) -> None:
        if self.scope.players is not None:
            raise ModelError("the players are declared twice", d.span)
        ids: set[int] = set()
        for item in d.items:
            v = self.value(item, EMPTY, what="a player")
            if v.type == INT:
                assert isinstance(v.value, int)  # as its type says
                ids.add(v.value)
            elif isinstance(v.type, SetT) and v.type.elem in (INT, None):
                assert isinstance(v.value, frozenset)  # as its type says
                ids.update(v.value)
            else:
                raise WrongType(
                    f"players are ints (1..N, or a list), got {article(v.type)}", item.span
                )
        if not ids:
            raise RangeError("the game has no players", d.span)
        self.scope.players = tuple(sorted(ids))

    def _type(self, spec: ast.TypeSpec, what: str) -> ir.IntType | ir.BoolType:
        if isinstance(spec, ast.BoolSpec):
            return ir.BoolType()
        if isinstance(spec, ast.RangeSpec):
            lo = self.int_value(spec.lo, EMPTY, "a range bound")
            hi = self.int_value(spec.hi, EMPTY, "a range bound")
            if lo > hi:
                raise RangeError(f"empty range {lo}..{hi} for {what}", spec.span)
            return ir.IntType(lo, hi)
        if isinstance(spec, ast.ArraySpec):
            raise WrongType(
                "arrays of arrays are not supported: use one array per row, "
                "or index a flat array by i*width + j",
                spec.span,
            )
        raise AssertionError(spec)

    def _var(self, d: ast.VarDecl) -> None:
        for ident in d.names:
            what = f"the variable '{ident.name}'"
            if isinstance(d.type, ast.ArraySpec):
                lo = self.int_value(d.type.lo, EMPTY, "an index bound")
                hi = self.int_value(d.type.hi, EMPTY, "an index bound")
                if lo > hi:
                    raise RangeError(
                        f"empty index range {lo}..{hi} for the array '{ident.name}'", d.type.span
                    )
                if hi - lo + 1 > MAX_ARRAY_LENGTH:
                    raise RangeError(
                        f"the array '{ident.name}' would have {hi - lo + 1} "
                        f"elements, more than the {MAX_ARRAY_LENGTH} a variable "
                        f"may have",
                        d.type.span,
                    )
                decl = ir.VarDecl(
                    ident.name, self._type(d.type.elem, what), ir.IntType(lo, hi), ident.span
                )
            else:
                decl = ir.VarDecl(ident.name, self._type(d.type, what), None, ident.span)
            self.vars.append(decl)
            self.scope.entries[ident.name] = Entry("var", ident.span, decl=decl)

    def _move(self, d: ast.MoveDecl) -> None:
        self.moves.append(self._checked_move(d))

    def _checked_move(self, d: ast.MoveDecl) -> ir.Move:
        ctx = EMPTY
        params = []
        for ident, dom in flat_binders(d.params):
            ctx.check_unbound(ident)
            values, elem = self.domain(dom, ctx, ident.name)
            values = tuple(sorted(set(values), key=canonical_key))
            params.append(ir.Param(ident.name, values))
            ctx = ctx.bind(ident.name, Sym(ir.Name(ident.name, ident.span), elem))
        if any(not p.domain for p in params):  # no instance: nothing to check
            return ir.Move(d.name.name, tuple(params), ir.FALSE, ir.TRUE, d.span)
        guard = (
            ir.TRUE
            if d.guard is None
            else self.state(d.guard, ctx, BOOL, "as the guard (after 'when')")
        )
        effect = ir.conj(
            self.state(e, replace(ctx, primes=True), BOOL, "as the effect (after 'then')")
            for e in d.effects
        )
        return ir.Move(d.name.name, tuple(params), guard, effect, d.span)

    def _formals(
        self, formals: tuple[ast.Formal, ...], allowed: tuple[str, ...]
    ) -> list[FormulaParam]:
        out, seen = [], set()
        for f in formals:
            n = f.name.name
            if n in seen:
                raise UnknownName(f"parameter '{n}' is listed twice", f.name.span)
            seen.add(n)
            kind = None
            if f.kind is not None:
                kind = PARAMETER_KINDS.get(f.kind.name)
                if kind is None or kind not in allowed:
                    names = [k for k, v in PARAMETER_KINDS.items() if v in allowed]
                    raise WrongType(
                        f"unknown parameter kind '{f.kind.name}': write "
                        + (", ".join(names[:-1]) + " or " if len(names) > 1 else "")
                        + names[-1],
                        f.kind.span,
                    )
            out.append(FormulaParam(n, kind, f.name.span))
        return out

    def _set(self, d: ast.SetDecl) -> None:
        self.scope.defining = d.name.name
        try:
            self._set_body(d)
        finally:
            self.scope.defining = None

    def _set_body(self, d: ast.SetDecl) -> None:
        params = self._formals(d.params, ("int",))
        ctx = EMPTY
        for p in params:
            ctx = ctx.bind(p.name, Sym(ir.Name(p.name, p.span), INT))
        if self.is_temporal(d.body, ctx):
            raise WrongType(
                f"the body of set '{d.name.name}' is an ATL formula; declare it "
                f"with 'formula' instead",
                d.body.span,
            )
        body = self.state(d.body, ctx, BOOL, f"as the body of set '{d.name.name}'")
        defn = atl.Definition(
            d.name.name, tuple((p.name, "int") for p in params), atl.Prop(body, d.body.span), d.span
        )
        self._check_depth(defn, d)
        self.definitions[defn.name] = defn
        self.scope.entries[defn.name] = Entry("set", d.name.span, definition=defn)

    def _formula_decl(self, d: ast.FormulaDecl) -> None:
        self.scope.defining = d.name.name
        try:
            self._formula_body(d)
        finally:
            self.scope.defining = None

    def _formula_body(self, d: ast.FormulaDecl) -> None:
        params = self._formals(d.params, ("int", "coalition"))
        ctx = Ctx(fparams={p.name: p for p in params})
        body = self.formula(d.body, ctx)
        kinds = tuple((p.name, p.kind or ("int" if p.used_as_int else "coalition")) for p in params)
        defn = atl.Definition(d.name.name, kinds, body, d.span)
        self._check_depth(defn, d)
        self.definitions[defn.name] = defn
        self.scope.entries[defn.name] = Entry("formula", d.name.span, definition=defn)

    def _check_depth(self, defn: atl.Definition, d: ast.SetDecl | ast.FormulaDecl) -> None:
        """A located error when ``defn`` nests more than :data:`MAX_EXPANDED_NESTING`
        levels once expanded: a set's body holds the sets it names inlined, and a
        named formula counts at the depth of its own body. Evaluation is recursive,
        so a chain of definitions each naming the previous one adds up; without
        this check it would end in an unlocated "nests too deeply"."""
        depth = expanded_depth(defn.body, self.depths, self._depth_memo)
        if depth > MAX_EXPANDED_NESTING:
            kind = "set" if isinstance(d, ast.SetDecl) else "formula"
            raise ModelError(
                f"{kind} '{defn.name}' nests {depth} levels deep once the sets "
                f"and formulas it names are expanded (at most "
                f"{MAX_EXPANDED_NESTING}): a chain of definitions, each naming "
                f"the previous one, adds up their depths",
                d.name.span,
            )
        self.depths[defn.name] = depth

    # ------------------------------------------------------------------ the result

    def _missing(self, what: str) -> ModelError:
        span = self.game_span or Span(self.filename, 1, 1, "")
        return ModelError(f"the model has no '{what}' declaration", span)

    def _result(self) -> CheckedModel:
        if self.scope.players is None:
            raise self._missing("players")
        if self.turn is None and self.concurrent_span is None:
            raise self._missing("turn")
        name = self.name or (
            Path(self.filename).stem if not self.filename.startswith("<") else "game"
        )
        if self.concurrent_span is not None:
            if self.outcome_decl is not None:
                raise ModelError(
                    "a concurrent game has no player to move at its end: "
                    "'outcome' is for turn-based games",
                    self.outcome_decl.span,
                )
            game: ir.Game | ir.ConcurrentGame = self.concurrent_game(
                name, ir.Space(tuple(self.vars)), ir.conj(self.invariants)
            )
        else:
            assert self.turn is not None  # checked above
            game = ir.Game(
                name,
                ir.Space(tuple(self.vars)),
                self.scope.players,
                self.turn,
                tuple(self.moves),
                ir.conj(self.invariants),
                self.description,
                self._outcome(),
            )
        for e in display.exprs(self.display) if self.display is not None else ():
            check_expr(e, game.space, {})
        entries = self.scope.entries
        return CheckedModel(
            name=name,
            description=self.description,
            source=self.filename,
            params={n: e.value for n, e in entries.items() if e.kind == "param"},
            consts={n: exported_value(e.value) for n, e in entries.items() if e.kind == "const"},
            game=game,
            definitions=dict(self.definitions),
            queries=tuple(self.queries),
            scope=self.scope,
            display=self.display,
        )


#: declaration class -> the method checking it (it takes a declaration of its key's class);
#: a class missing here fails loudly
DECL_HANDLERS: dict[type[ast.Decl], Callable[[ModelChecker, Any], None]] = {
    ast.GameDecl: ModelChecker._game,
    ast.DescriptionDecl: ModelChecker._description,
    ast.ParamDecl: ModelChecker._param,
    ast.ConstDecl: ModelChecker._const,
    ast.PlayersDecl: ModelChecker._players_decl,
    ast.VarDecl: ModelChecker._var,
    ast.TurnDecl: ModelChecker._turn_decl,
    ast.InvariantDecl: ModelChecker._invariant,
    ast.MoveDecl: ModelChecker._move,
    ast.ConcurrentDecl: ModelChecker._concurrent_decl,
    ast.ActionDecl: ModelChecker._action_decl,
    ast.UpdateDecl: ModelChecker._update_decl,
    ast.SetDecl: ModelChecker._set,
    ast.FormulaDecl: ModelChecker._formula_decl,
    ast.QueryDecl: ModelChecker._query,
    ast.DisplayDecl: ModelChecker._display,
    ast.OutcomeDecl: ModelChecker._outcome_decl,
}

#: declaration class -> the kind of the names it declares (None: it declares none)
DECLARED_KINDS = {
    ast.GameDecl: None,
    ast.DescriptionDecl: None,
    ast.ParamDecl: "param",
    ast.ConstDecl: "const",
    ast.PlayersDecl: None,
    ast.VarDecl: "var",
    ast.TurnDecl: None,
    ast.InvariantDecl: None,
    ast.MoveDecl: "move",
    ast.ConcurrentDecl: None,
    ast.ActionDecl: None,
    ast.UpdateDecl: None,
    ast.SetDecl: "set",
    ast.FormulaDecl: "formula",
    ast.QueryDecl: None,
    ast.DisplayDecl: None,
    ast.OutcomeDecl: None,
}


def declared_names(d: ast.Decl) -> list[tuple[ast.Ident, str]]:
    """The (identifier, kind) pairs a declaration introduces: its :class:`~.ast.Ident`
    fields (or tuples of them), of the kind :data:`DECLARED_KINDS` gives.

    >>> from symbolic.lang.parser import parse_model_text
    >>> [(i.name, k) for d in parse_model_text("var x, y : bool").decls
    ...  for i, k in declared_names(d)]
    [('x', 'var'), ('y', 'var')]
    """
    if type(d) not in DECLARED_KINDS:
        raise AssertionError(d)
    kind = DECLARED_KINDS[type(d)]
    if kind is None:
        return []
    out = []
    for f in fields(d):
        v = getattr(d, f.name)
        for item in v if isinstance(v, tuple) else (v,):
            if isinstance(item, ast.Ident):
                out.append((item, kind))
    return out


# --------------------------------------------------------------------------- entry point


def check_model(
    tree: ast.ModelAst, filename: str, params: Mapping[str, object] | None = None
) -> CheckedModel:
    """The :class:`CheckedModel` of a parsed model file; ``params`` override its parameters."""
    return ModelChecker(tree, filename, params).run()

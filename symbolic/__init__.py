"""symbolic: finite multi-player games and ATL, solved with binary decision diagrams.

One import gives the documented API (``docs/python.md``): read a model, build an engine,
ask ATL questions, and read values, nimbers and strategies off the answers.

    >>> import symbolic
    >>> m = symbolic.load_model("ens2005", {"u0": 1234})
    >>> g = symbolic.make_engine(m.game)
    >>> F1 = symbolic.evaluate(g, m.formula("F({1})"), m.definitions)
    >>> len(F1), isinstance(F1, symbolic.PositionSet)
    (666, True)

The names are loaded on first use (PEP 562), so ``import symbolic`` stays cheap: the command
line starts without importing the engines, and a Ctrl-C during start-up meets no half-imported
module.
"""

# nothing imported here: the launcher of the ``symbolic`` command imports this package
# before symbolic.__main__ installs its Ctrl-C handler, so every import here would widen
# the window where Ctrl-C is Python's own (``typing`` alone took 5-100 ms, docs/limits.md)
TYPE_CHECKING = False  # True for type checkers (mypy treats the name so)

# public name -> the module that defines it
_HOME: dict[str, str] = {
    # models: text at the top
    "Model": "symbolic.model",
    "load_model": "symbolic.model",
    "parse_model": "symbolic.model",
    "parse_formula": "symbolic.model",
    "parse_state_expr": "symbolic.model",
    "parse_arena": "symbolic.model",
    "shipped_models": "symbolic.model",
    "gdl_model": "symbolic.gdl.load",
    "read_aiger": "symbolic.aiger.reader",
    "parse_aiger": "symbolic.aiger.reader",
    # engines
    "make_engine": "symbolic.engines",
    "SymbolicGame": "symbolic.bdd",
    "ExplicitGame": "symbolic.explicit",
    "Limits": "symbolic.limits",
    # the query API and its algorithms
    "GameEngine": "symbolic.api",
    "SetEngine": "symbolic.api",
    "PositionSet": "symbolic.api",
    "DeadEnds": "symbolic.api",
    "Fixpoint": "symbolic.api",
    "ReachLayers": "symbolic.api",
    "attractor": "symbolic.api",
    "always": "symbolic.api",
    "reachable": "symbolic.api",
    "reach_layers": "symbolic.api",
    "graded_layers": "symbolic.api",
    "until_layered": "symbolic.api",
    "until_by_layer": "symbolic.api",
    "layer_turns": "symbolic.api",
    "difference_witness": "symbolic.api",
    "same_sets": "symbolic.api",
    # ATL
    "Formula": "symbolic.atl",
    "Definition": "symbolic.atl",
    "Evaluator": "symbolic.atl",
    "evaluate": "symbolic.atl",
    "formula_text": "symbolic.printing",
    # analyses: results and the functions that make them
    "Referee": "symbolic.analysis.outcome",
    "Outcome": "symbolic.analysis.outcome",
    "Values": "symbolic.analysis.values",
    "two_player_values": "symbolic.analysis.values",
    "Nimbers": "symbolic.analysis.grundy",
    "layered_nimbers": "symbolic.analysis.grundy",
    "Strategy": "symbolic.analysis.strategy",
    "Verdict": "symbolic.analysis.strategy",
    "strategy_for": "symbolic.analysis.strategy",
    "verify": "symbolic.analysis.strategy",
    "Explanation": "symbolic.analysis.explain",
    "explain": "symbolic.analysis.explain",
    # errors: one root, specific subclasses
    "SymbolicError": "symbolic.errors",
    "ModelError": "symbolic.errors",
    "ParseError": "symbolic.errors",
    "UnknownName": "symbolic.errors",
    "QueryError": "symbolic.errors",
    "UnknownPlayer": "symbolic.errors",
    "EngineMismatch": "symbolic.errors",
    "LimitExceeded": "symbolic.errors",
    "OutOfMemory": "symbolic.errors",
    "TooManyPositions": "symbolic.errors",
    "FileError": "symbolic.errors",
    "Span": "symbolic.errors",
    "Hint": "symbolic.errors",
}

__all__ = [
    "DeadEnds",
    "Definition",
    "EngineMismatch",
    "Evaluator",
    "ExplicitGame",
    "Explanation",
    "FileError",
    "Fixpoint",
    "Formula",
    "GameEngine",
    "Hint",
    "LimitExceeded",
    "Limits",
    "Model",
    "ModelError",
    "Nimbers",
    "OutOfMemory",
    "Outcome",
    "ParseError",
    "PositionSet",
    "QueryError",
    "ReachLayers",
    "Referee",
    "SetEngine",
    "Span",
    "Strategy",
    "SymbolicError",
    "SymbolicGame",
    "TooManyPositions",
    "UnknownName",
    "UnknownPlayer",
    "Values",
    "Verdict",
    "always",
    "attractor",
    "difference_witness",
    "evaluate",
    "explain",
    "formula_text",
    "gdl_model",
    "graded_layers",
    "layer_turns",
    "layered_nimbers",
    "load_model",
    "make_engine",
    "parse_aiger",
    "parse_arena",
    "parse_formula",
    "parse_model",
    "parse_state_expr",
    "reach_layers",
    "reachable",
    "read_aiger",
    "same_sets",
    "shipped_models",
    "strategy_for",
    "two_player_values",
    "until_by_layer",
    "until_layered",
    "verify",
]

if TYPE_CHECKING:  # what a type checker and an IDE see; at run time __getattr__ loads
    from symbolic.aiger.reader import parse_aiger, read_aiger
    from symbolic.analysis.explain import Explanation, explain
    from symbolic.analysis.grundy import Nimbers, layered_nimbers
    from symbolic.analysis.outcome import Outcome, Referee
    from symbolic.analysis.strategy import Strategy, Verdict, strategy_for, verify
    from symbolic.analysis.values import Values, two_player_values
    from symbolic.api import (
        DeadEnds,
        Fixpoint,
        GameEngine,
        PositionSet,
        ReachLayers,
        SetEngine,
        always,
        attractor,
        difference_witness,
        graded_layers,
        layer_turns,
        reach_layers,
        reachable,
        same_sets,
        until_by_layer,
        until_layered,
    )
    from symbolic.atl import Definition, Evaluator, Formula, evaluate
    from symbolic.bdd import SymbolicGame
    from symbolic.engines import make_engine
    from symbolic.errors import (
        EngineMismatch,
        FileError,
        Hint,
        LimitExceeded,
        ModelError,
        OutOfMemory,
        ParseError,
        QueryError,
        Span,
        SymbolicError,
        TooManyPositions,
        UnknownName,
        UnknownPlayer,
    )
    from symbolic.explicit import ExplicitGame
    from symbolic.gdl.load import gdl_model
    from symbolic.limits import Limits
    from symbolic.printing import formula_text
    from symbolic.model import (
        Model,
        load_model,
        parse_arena,
        parse_formula,
        parse_model,
        parse_state_expr,
        shipped_models,
    )


def __getattr__(name: str) -> object:
    """Load a public name from its home module on first use (PEP 562)."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'symbolic' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))

"""fiderate: rate chess events exactly the way FIDE does.

readers -> engine -> grouper -> writers. The public API:

The names are imported on first use (module ``__getattr__``), so ``import pipeline`` and the
small commands (``calc``, ``table``, ``performance``) never load pandas, pandera or pyarrow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.lazy import lazy_names

if TYPE_CHECKING:
    from pipeline.errors import FiderateError, InputError, Problem, RunError, UsageError
    from pipeline.jobs.norms import norm_files
    from pipeline.jobs.rate.outputs import write_outputs
    from pipeline.jobs.rate.stages import rate_files, rate_inputs, read_inputs
    from pipeline.model import (
        GamesInput,
        NormReport,
        PlayerList,
        RatedPeriod,
        RateOptions,
        ReadOptions,
        SidesInput,
    )
    from pipeline.norms import NORM_RULES
    from pipeline.rules.sets import RULE_SETS, RuleSet, get_rules

# name -> the module that defines it
_HOMES = {
    "FiderateError": "pipeline.errors",
    "InputError": "pipeline.errors",
    "Problem": "pipeline.errors",
    "RunError": "pipeline.errors",
    "UsageError": "pipeline.errors",
    "GamesInput": "pipeline.model",
    "NormReport": "pipeline.model",
    "PlayerList": "pipeline.model",
    "RatedPeriod": "pipeline.model",
    "RateOptions": "pipeline.model",
    "ReadOptions": "pipeline.model",
    "SidesInput": "pipeline.model",
    "NORM_RULES": "pipeline.norms",
    "RULE_SETS": "pipeline.rules.sets",
    "RuleSet": "pipeline.rules.sets",
    "get_rules": "pipeline.rules.sets",
    "norm_files": "pipeline.jobs.norms",
    "rate_files": "pipeline.jobs.rate.stages",
    "rate_inputs": "pipeline.jobs.rate.stages",
    "read_inputs": "pipeline.jobs.rate.stages",
    "write_outputs": "pipeline.jobs.rate.outputs",
}


__getattr__, __dir__ = lazy_names(__name__, _HOMES, globals())

__all__ = [
    "NORM_RULES",
    "RULE_SETS",
    "FiderateError",
    "GamesInput",
    "InputError",
    "NormReport",
    "PlayerList",
    "Problem",
    "RateOptions",
    "ReadOptions",
    "RatedPeriod",
    "RuleSet",
    "RunError",
    "SidesInput",
    "UsageError",
    "get_rules",
    "norm_files",
    "rate_files",
    "rate_inputs",
    "read_inputs",
    "write_outputs",
]

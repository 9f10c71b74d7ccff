"""fiderate: rate chess events exactly the way FIDE does.

readers -> engine -> grouper -> writers. The public API:
"""

from pipeline.errors import FiderateError, InputError, Problem, RunError, UsageError
from pipeline.model import (
    GamesInput,
    NormReport,
    PlayerList,
    RatedPeriod,
    RateOptions,
    SidesInput,
)
from pipeline.norms import NORM_RULES
from pipeline.rules.sets import RULE_SETS, RuleSet, get_rules
from pipeline.run.norms import norm_files
from pipeline.run.rate import rate_files, rate_inputs, read_inputs
from pipeline.writers import write_outputs

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

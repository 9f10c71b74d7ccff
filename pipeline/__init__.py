"""fiderate: rate chess events exactly the way FIDE does.

readers -> engine -> grouper -> writers. The public API:
"""

from pipeline.errors import FiderateError, InputError, Problem, RunError, UsageError
from pipeline.model import GamesInput, PlayerList, RatedPeriod, RateOptions, SidesInput
from pipeline.rules.sets import RULE_SETS, RuleSet, get_rules
from pipeline.run.rate import rate_files, rate_inputs, read_inputs
from pipeline.writers import write_outputs

__all__ = [
    "RULE_SETS",
    "FiderateError",
    "GamesInput",
    "InputError",
    "PlayerList",
    "Problem",
    "RateOptions",
    "RatedPeriod",
    "RuleSet",
    "RunError",
    "SidesInput",
    "UsageError",
    "get_rules",
    "rate_files",
    "rate_inputs",
    "read_inputs",
    "write_outputs",
]

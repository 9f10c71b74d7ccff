"""The rules as data: rule sets (``sets``), FIDE's tables 8.1.1 and 8.1.2 (``fide_tables``, read
from ``data/``) and the one rounding rule (``rounding``)."""

from pipeline.rules.sets import DEFAULT_RULES, RULE_SETS, KPrecedence, RuleSet, get_rules

__all__ = ["DEFAULT_RULES", "RULE_SETS", "KPrecedence", "RuleSet", "get_rules"]

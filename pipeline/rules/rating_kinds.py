"""The three kinds of rating list: standard, rapid and blitz (issue 36), one history holding them
side by side (:mod:`pipeline.history.schema`, version 5).

A kind is a family of rule sets (:data:`pipeline.rules.sets.FAMILIES`): ``fiderate period
--rules rapid`` (or an era of it, ``rapid-2022``) publishes the rapid list. Each kind has its
own months, lists, runs, events and pending results in the history; a player is one player
across the three (the same id).
"""

from __future__ import annotations

from pipeline.errors import RunError
from pipeline.rules.sets import DEFAULT_RULES, FAMILIES, get_rules

KINDS: tuple[str, ...] = FAMILIES  # standard, rapid, blitz: the order every page shows them in
DEFAULT_KIND = get_rules(DEFAULT_RULES).family


def kind_of_rules(name: str) -> str:
    """The kind of list ``--rules name`` rates: the family of the rule set (a family's own
    name, or an era's such as ``rapid-2022``)."""
    return get_rules(name).family


def check_kind(kind: str) -> str:
    """``kind`` when it is one of :data:`KINDS`; else a clear error naming them."""
    if kind not in KINDS:
        raise RunError(f"unknown kind of list {kind!r}: choose one of {', '.join(KINDS)}")
    return kind

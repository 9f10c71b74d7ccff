"""The three kinds of rating list one history holds: standard, rapid and blitz (issue 36).

A kind is a family of rule sets (``pipeline.rules.sets.FAMILIES``): ``fiderate period --rules
rapid`` (or an era of it, ``rapid-2022``) publishes the rapid list. Each kind has its own months,
lists, runs, events and pending results in the history; a player is one player across the
three (the same id).

The history stores a run's kind (``runs.rating_kind``) from schema version 5. A history written
before holds one kind, named by the ``--rules`` of the command lines its runs recorded
(:func:`kind_of_command`): the migration reads it from there.
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


def kind_of_command(command: str) -> str | None:
    """The kind named by the ``--rules`` of a recorded command line (the default's when it has
    none); None when the line cannot be read or names no known rule set."""
    # The CLI records its arguments joined by spaces (``cli.period``), unquoted: split alike.
    words = command.split()
    name = DEFAULT_RULES
    for at, word in enumerate(words):
        if word == "--rules" and at + 1 < len(words):
            name = words[at + 1]
        elif word.startswith("--rules="):
            name = word.partition("=")[2]
    try:
        return kind_of_rules(name)
    except RunError:
        return None


def check_kind(kind: str) -> str:
    """``kind`` when it is one of :data:`KINDS`; else a clear error naming them."""
    if kind not in KINDS:
        raise RunError(f"unknown kind of list {kind!r}: choose one of {', '.join(KINDS)}")
    return kind

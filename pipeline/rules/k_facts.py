"""The facts the K precedence (RULES.md section 4) reads that an input may not give, and how a K
decided without them is said: "assumed", with what was missing and how to give it.

A TRF, a crosstable or a games file gives a rating and at most a birth year; only a list in force
gives the rated games so far and whether a published rating ever reached 2400. The grouper
(``grouper.kfactor.unknown_facts``) finds which of these facts could have changed each K; the
writers and pages say it in these words.
"""

from __future__ import annotations

from collections.abc import Iterable

# The facts the precedence reads that an input may not give, one bit each in a player's
# "unknown" mask (``unknown_facts``): a TRF or a games file says none of them but the birth year.
UNKNOWN_GAMES = 1
UNKNOWN_2400 = 2
UNKNOWN_BIRTH = 4
FACT_NAMES = {
    UNKNOWN_GAMES: "games count",
    UNKNOWN_2400: "2400 history",
    UNKNOWN_BIRTH: "birth year",
}


def assumed_label(rule: str, mask: int) -> str:
    """A K's rule with what made it assumed: "standard K (assumed: no games count)"."""
    if not mask:
        return rule
    missing = [name for bit, name in FACT_NAMES.items() if mask & bit]
    return f"{rule} (assumed: no {', no '.join(missing)})"


def missing_facts(reasons: Iterable[str]) -> list[str]:
    """The facts named by any of these reasons (:func:`assumed_label`'s), in FACT_NAMES order:
    read off the few distinct labels, not per player."""
    labels = set(reasons)
    return [name for name in FACT_NAMES.values() if any(f"no {name}" in label for label in labels)]


def k_words(k: object, rule: object) -> str:
    """A K with the reason that gave it, as every face says it: "K 10: published K (used as
    given)". After a colon, not in brackets: a reason may hold brackets of its own."""
    return f"K {k}: {rule}"


# What a mark on an assumed K says (report.html's legend and the title of its mark).
ASSUMED_NOTE = "K assumed: the input cannot say it"
ASSUMED_FIX = (
    # In the CLI's words: the web says its form's field instead (errors.in_face).
    "give the list in force (--players FILE) with games, ever_2400 and birth_year columns, "
    "or a published K"
)

"""K-factor for a rating period: published K, or the precedence of RULES.md section 4, then the
700 rule. Vectorized over players; each player's K comes with the reason that gave it, and with
whether the input decided it: a K that a blank games count, 2400 history or birth year could
have changed is assumed (:func:`unknown_facts`), and the run says so in one warning.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from pipeline.rules.k_facts import (
    ASSUMED_FIX,
    FACT_NAMES,
    UNKNOWN_2400,
    UNKNOWN_BIRTH,
    UNKNOWN_GAMES,
    assumed_label,
    missing_facts,
)
from pipeline.rules.sets import KPrecedence

if TYPE_CHECKING:
    import pandas as pd

RULE_FORCED = "forced (--k)"
RULE_PUBLISHED = "published K (used as given)"
RULE_DEFAULT = "standard K"
RULE_UNRATED = "unrated: no K (first rating)"


def ever_rule(p: KPrecedence) -> str:
    return f"rating has reached {p.ever_threshold}"


def junior_rule(p: KPrecedence) -> str:
    return f"junior ({p.junior_max_age} or younger this year) below {p.junior_rating_below}"


def new_player_rule(p: KPrecedence) -> str:
    return f"fewer than {p.new_player_games_below} rated games"


def cap_suffix(p: KPrecedence) -> str:
    """Added to the rule of a K the 700 rule lowered."""
    return f"; 700 rule: K x games <= {p.period_cap}"


# The labels of the default precedence (the rule sets' values are their fields, never these).
RULE_EVER_2400 = ever_rule(KPrecedence())
RULE_JUNIOR = junior_rule(KPrecedence())
RULE_NEW = new_player_rule(KPrecedence())
RULE_700_SUFFIX = cap_suffix(KPrecedence())


def base_k(
    players: pd.DataFrame,
    precedence: KPrecedence,
    period_year: int,
    forced_k: int | None = None,
) -> tuple[pd.Series, pd.Series]:
    """(K before the 700 rule, the rule that gave it) for each row of ``players``.

    Needs columns rating, k (published), birth_year, games, ever_2400. A blank birth year means
    "not known to be a junior"; a blank games count means "established" (30 or more): a list that
    carries no games column is treated as a list of established players (and such a K is marked
    assumed where it matters: :func:`unknown_facts`).
    """
    import pandas as pd  # here, not at the top: the calculator uses k_precedence without pandas

    rating = players["rating"].fillna(0).to_numpy(dtype=np.int64)
    published = players["k"]
    k, code, labels = k_precedence_codes(
        rating,
        published.fillna(0).to_numpy(dtype=np.int64),
        published.notna().to_numpy(),
        players["ever_2400"].fillna(False).to_numpy(dtype=bool),
        players["birth_year"].fillna(-10_000).to_numpy(dtype=np.int64),
        players["games"].fillna(precedence.new_player_games_below).to_numpy(dtype=np.int64),
        precedence,
        period_year,
        forced_k,
    )
    k_series = pd.Series(pd.arrays.IntegerArray(k, rating <= 0), index=players.index)
    # Each player's rule as a code into a handful of labels: no text per player here.
    rule = pd.Categorical.from_codes(code, categories=labels)
    return k_series, pd.Series(rule, index=players.index)


def k_precedence(*args: Any, **kwargs: Any) -> tuple[np.ndarray, np.ndarray]:
    """(K, rule) per player on plain arrays (the arguments of :func:`k_precedence_codes`), each
    rule as its text."""
    k, code, labels = k_precedence_codes(*args, **kwargs)
    return k, np.asarray(labels)[code]


def k_precedence_codes(
    rating: np.ndarray,
    published: np.ndarray,
    has_published: np.ndarray,
    ever_2400: np.ndarray,
    birth_year: np.ndarray,
    games: np.ndarray,
    precedence: KPrecedence,
    period_year: int,
    forced_k: int | None = None,
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(K, rule code, rule labels) per player on plain arrays: ``rating`` 0 = unrated (K 0),
    ``published`` read where ``has_published``, a birth year of -10000 = not known, ``games``
    already filled with ``new_player_games_below`` where not known (established). A player's
    rule is ``labels[code]`` (int8 codes: a few labels, whatever the number of players)."""
    rated = rating > 0
    if forced_k is not None:
        conditions = [~rated, np.ones(len(rating), dtype=bool)]
        ks: list[Any] = [0, forced_k]
        rules = [RULE_UNRATED, RULE_FORCED]
    else:
        conditions = [~rated, has_published]
        ks = [0, published]
        rules = [RULE_UNRATED, RULE_PUBLISHED]
        for condition, k_value, label, _ in precedence_rules(
            rating, ever_2400, birth_year, games, precedence, period_year
        ):
            conditions.append(condition)
            ks.append(k_value)
            rules.append(label)
    k = np.select(conditions, ks, precedence.k_default).astype(np.int64)
    code = np.select(conditions, list(range(len(rules))), len(rules)).astype(np.int8)
    return k, code, [*rules, RULE_DEFAULT]


def precedence_rules(
    rating: np.ndarray,
    ever_2400: np.ndarray,
    birth_year: np.ndarray,
    games: np.ndarray,
    precedence: KPrecedence,
    period_year: int,
) -> list[tuple[np.ndarray, int, str, int]]:
    """The era's rules after "published K", top to bottom: (who it holds for, its K, its label,
    the fact bit that decides it). Rules not in force in the era (K None) are left out. Unknown
    facts are read as in :func:`k_precedence_codes` (no 2400, not a junior, established)."""
    ever = ever_2400 | (rating >= precedence.ever_threshold)
    age = period_year - birth_year
    junior = (age <= precedence.junior_max_age) & (rating < precedence.junior_rating_below)
    new = games < precedence.new_player_games_below
    return [
        (condition, k_value, label, fact)
        for condition, k_value, label, fact in (
            (ever, precedence.k_ever_2400, ever_rule(precedence), UNKNOWN_2400),
            (junior, precedence.k_junior, junior_rule(precedence), UNKNOWN_BIRTH),
            (new, precedence.k_new_player, new_player_rule(precedence), UNKNOWN_GAMES),
        )
        if k_value is not None
    ]


def unknown_facts(
    players: pd.DataFrame,
    k_base: pd.Series,
    precedence: KPrecedence,
    period_year: int,
    forced_k: int | None = None,
) -> np.ndarray:
    """Per player, the facts (bits ``UNKNOWN_*``) the input does not give and that could have
    given another K than ``k_base`` (:func:`base_k`'s): 0 when the K is known.

    A K is known when it was forced or published, for an unrated player, and when every rule
    above the one that gave it is decided by the input: a rule whose fact is not given (a blank
    games count or birth year, a blank ``ever_2400``) and whose K differs is a K assumed. Some
    rules are decided without their fact: a rating of 2400 or more has reached 2400; a rating
    of 2300 or more is no junior's K whatever the birth year.
    """
    n = len(players)
    mask = np.zeros(n, dtype=np.uint8)
    if forced_k is not None or not n:
        return mask
    rating = players["rating"].fillna(0).to_numpy(dtype=np.int64)
    ever_given = players["ever_2400"]
    birth = players["birth_year"]
    games = players["games"]
    precedence_given = {
        UNKNOWN_2400: ever_given.notna().to_numpy(),
        UNKNOWN_BIRTH: birth.notna().to_numpy() | (rating >= precedence.junior_rating_below),
        UNKNOWN_GAMES: games.notna().to_numpy(),
    }
    rules = precedence_rules(
        rating,
        ever_given.fillna(False).to_numpy(dtype=bool),
        birth.fillna(-10_000).to_numpy(dtype=np.int64),
        games.fillna(precedence.new_player_games_below).to_numpy(dtype=np.int64),
        precedence,
        period_year,
    )
    k = k_base.fillna(0).to_numpy(dtype=np.int64)
    # Only a rated player whose K came from the precedence (not a published K) can be assumed.
    open_ = (rating > 0) & players["k"].isna().to_numpy()
    for holds, k_value, _, fact in rules:
        # A rule held (its fact given and true): the rules below it cannot change the K.
        undecided = ~holds & ~precedence_given[fact]
        mask |= np.where(open_ & undecided & (k != k_value), np.uint8(fact), np.uint8(0))
        open_ &= ~holds
    return mask


def with_assumed(rule: pd.Series, mask: np.ndarray) -> pd.Series:
    """Each rule (categorical) with what made its K assumed (:func:`assumed_label`), in the
    labels' codes: no text is built per player."""
    import pandas as pd

    codes = rule.cat.codes.to_numpy(dtype=np.int16)
    labels = list(rule.cat.categories)
    masks = range(max(FACT_NAMES) * 2)
    combined = codes * len(masks) + mask.astype(np.int16)
    used = np.unique(combined)  # only the labels in use: at most a few dozen
    texts = [assumed_label(labels[c // len(masks)], int(c % len(masks))) for c in used]
    new_codes = np.searchsorted(used, combined).astype(np.int8)
    return pd.Series(pd.Categorical.from_codes(new_codes, categories=texts), index=rule.index)


def apply_700_rule(k: np.ndarray, games: np.ndarray, cap: int | None) -> np.ndarray:
    """If K x n > cap, K becomes floor(cap / n), the largest K with K x n <= cap (no change
    when the era has no such rule: ``cap`` None)."""
    k = np.asarray(k, dtype=np.int64)
    if cap is None:
        return k
    n = np.asarray(games, dtype=np.int64)
    over = k * n > cap
    return np.where(over, cap // np.maximum(n, 1), k)


# How many assumed players the warning names (the rest are counted; every one is marked in the
# rating list's k_assumed column and K explanation).
ASSUMED_NAMED = 5


def assumed_players(totals: pd.DataFrame) -> pd.DataFrame:
    """The id, name and K reason of each player whose K was assumed (``k_assumed``)."""
    return totals.loc[totals["k_assumed"].to_numpy(dtype=bool), ["id", "name", "k_reason"]]


def assumed_k_warning(totals: pd.DataFrame, named: int = ASSUMED_NAMED) -> str | None:
    """The one warning of a run whose K is assumed for some players (``k_assumed``): how many,
    what the input lacked, the first ``named`` of them, and the fix. None when every K is
    known."""
    assumed = assumed_players(totals)
    if assumed.empty:
        return None
    shown = [f"{name} {pid}" for pid, name in assumed[["id", "name"]].head(named).to_numpy()]
    more = len(assumed) - len(shown)
    listed = "; ".join(shown) + (f"; and {more} more" if more else "")
    players = "player" if len(assumed) == 1 else "players"
    lacked = ", no ".join(missing_facts(assumed["k_reason"]))
    return (
        f"K assumed (marked *) for {len(assumed)} {players} (no {lacked}): {listed}. "
        f"To fix: {ASSUMED_FIX}"
    )

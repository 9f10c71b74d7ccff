"""K-factor for a rating period: published K, or the precedence of RULES.md section 4, then the
700 rule. Vectorized over players; each player's K comes with the reason that gave it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

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
    carries no games column is treated as a list of established players.
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
    ever = ever_2400 | (rating >= precedence.ever_threshold)
    age = period_year - birth_year
    junior = (age <= precedence.junior_max_age) & (rating < precedence.junior_rating_below)
    new = games < precedence.new_player_games_below

    if forced_k is not None:
        conditions = [~rated, np.ones(len(rating), dtype=bool)]
        ks: list[Any] = [0, forced_k]
        rules = [RULE_UNRATED, RULE_FORCED]
    else:
        conditions = [~rated, has_published]
        ks = [0, published]
        rules = [RULE_UNRATED, RULE_PUBLISHED]
        # Rules not in force in the era (K None) are left out.
        for condition, k_value, label in (
            (ever, precedence.k_ever_2400, ever_rule(precedence)),
            (junior, precedence.k_junior, junior_rule(precedence)),
            (new, precedence.k_new_player, new_player_rule(precedence)),
        ):
            if k_value is not None:
                conditions.append(condition)
                ks.append(k_value)
                rules.append(label)
    k = np.select(conditions, ks, precedence.k_default).astype(np.int64)
    code = np.select(conditions, list(range(len(rules))), len(rules)).astype(np.int8)
    return k, code, [*rules, RULE_DEFAULT]


def apply_700_rule(k: np.ndarray, games: np.ndarray, cap: int | None) -> np.ndarray:
    """If K x n > cap, K becomes floor(cap / n), the largest K with K x n <= cap (no change
    when the era has no such rule: ``cap`` None)."""
    k = np.asarray(k, dtype=np.int64)
    if cap is None:
        return k
    n = np.asarray(games, dtype=np.int64)
    over = k * n > cap
    return np.where(over, cap // np.maximum(n, 1), k)

"""Tell what a table is from its header: a games file, an individual file or a players list."""

from __future__ import annotations

# Accepted header spellings -> canonical column names (after normalize_header).
ALIASES: dict[str, str] = {
    "white_id": "white",
    "black_id": "black",
    "weiss": "white",
    "schwarz": "black",
    "res": "result",
    "ergebnis": "result",
    "rd": "round",
    "fide_id": "id",
    "fideid": "id",
    "id_number": "id",
    "player_id": "id",
    "elo": "rating",
    "fed": "federation",
    "country": "federation",
    "birthday": "birth_year",
    "born": "birth_year",
    "b_day": "birth_year",
    "player_rating": "rating",  # fiderate's own games.csv, read back as an individual file
    "opp_rating": "opponent_rating",
    "opponent_elo": "opponent_rating",
    "opp": "opponent",
    "white_elo": "white_rating",
    "black_elo": "black_rating",
    "tournament": "event",
}

KINDS: dict[str, tuple[set[str], set[str]]] = {
    # kind: (required columns, optional columns)
    "games": (
        {"white", "black", "result"},
        {"event", "round", "date", "white_rating", "black_rating", "white_name", "black_name"},
    ),
    "individual": (
        {"player", "rating", "opponent_rating", "result"},
        {"event", "round", "k", "opponent", "name", "date"},
    ),
    "players": (
        {"id", "name", "rating"},
        {"k", "birth_year", "games", "ever_2400", "federation", "title", "sex"},
    ),
}


def canonical_columns(columns: list[str]) -> list[str]:
    return [ALIASES.get(c, c) for c in columns]


def detect_kind(columns: list[str]) -> str | None:
    """The kind whose required columns are all present (most specific first)."""
    present = set(columns)
    for kind in ("individual", "games", "players"):
        if KINDS[kind][0] <= present:
            return kind
    return None


def closest_kind(columns: list[str]) -> tuple[str, set[str]]:
    """The kind the header is nearest to, and what it lacks: for the error message."""
    present = set(columns)
    best = min(KINDS, key=lambda k: (len(KINDS[k][0] - present), k))
    return best, KINDS[best][0] - present

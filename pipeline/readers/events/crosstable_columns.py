"""Which column of a crosstable is what: header spellings of pairing programs and results sites
in several languages, as data. Headers are compared after ``tabular.normalize_header``
(``Rd.1`` -> ``rd_1``, ``1.Rd`` -> ``1_rd``, ``Runde 1`` -> ``runde_1``). ``--column NAME=ROLE``
overrides win over everything.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pipeline.errors import Code, Problem, UsageError
from pipeline.readers.tables.tabular import normalize_header

ROLES = (
    "number",
    "name",
    "rating",
    "id",
    "federation",
    "birth_year",
    "title",
    "sex",
    "points",
    "round",
    "ignore",
)

# role -> header spellings, most specific first: the first spelling found decides. A starting
# number column beats a rank column, because pairing programs number opponents by start rank.
ROLE_HEADERS: dict[str, list[str]] = {
    "number": [
        "sno",
        "snr",
        "sn",
        "start_no",
        "start_nr",
        "startno",
        "startnr",
        "starting_rank",
        "start_rank",
        "no",
        "nr",
        "num",
        "number",
        "rk",
        "rank",
        "pl",
        "place",
        "pos",
    ],
    "name": [
        "name",
        "player",
        "player_name",
        "players",
        "spieler",
        "teilnehmer",
        "nombre",
        "jugador",
        "nom",
        "joueur",
        "giocatore",
        "naam",
        "speler",
    ],
    "rating": [
        "rating",
        "elo",
        "fide_rating",
        "rtg",
        "elo_fide",
        "fide_elo",
        "rtgi",
        "fide",
        "elo_i",
        "ro",
    ],
    "id": ["fide_id", "fideid", "fide_no", "fide_nr", "id_fide", "fide_number", "fide_code", "id"],
    "federation": ["fed", "federation", "country", "land", "nat", "nation", "pais", "pays"],
    "birth_year": [
        "birth_year",
        "born",
        "yob",
        "year_of_birth",
        "b_year",
        "birth",
        "birthday",
        "jahrgang",
        "geb",
        "geburtsjahr",
        "nacimiento",
        "year",
    ],
    "title": ["title", "tit", "titel", "titulo", "titre"],
    "sex": ["sex", "gender", "geschlecht", "sexo", "sexe"],
    "points": [
        "pts",
        "points",
        "punkte",
        "pkt",
        "pkte",
        "puntos",
        "pts_",
        "score",
        "total",
        "points_total",
        "sum",
    ],
}

# A round column: a word for "round" in some language and the round number, either order
# (``1``, ``r1``, ``rd1``, ``rd_1``, ``1_rd``, ``runde_1``, ``round_1``, ``ronda_1``, ``1_runde``).
ROUND_WORDS = (
    "r",
    "rd",
    "rnd",
    "round",
    "runde",
    "rde",
    "ronda",
    "ronde",
    "tour",
    "turno",
    "kolo",
    "rodada",
    "rond",
    "kierros",
)
ROUND_PATTERNS = [
    re.compile(rf"^(?:{'|'.join(ROUND_WORDS)})_?([0-9]{{1,3}})$"),
    re.compile(rf"^([0-9]{{1,3}})(?:_?(?:{'|'.join(ROUND_WORDS)}))?$"),
]


@dataclass
class Layout:
    """The role of each column of one table (header names as normalized)."""

    roles: dict[str, str] = field(default_factory=dict)  # role -> column (single-column roles)
    rounds: dict[str, int] = field(default_factory=dict)  # column -> round number


def round_number(header: str) -> int | None:
    for pattern in ROUND_PATTERNS:
        match = pattern.match(header)
        if match:
            return int(match.group(1))
    return None


def parse_overrides(specs: Mapping[str, str] | Sequence[str] | None) -> dict[str, str]:
    """``["Rtg Int=rating", "Punkte=points"]`` -> ``{"rtg_int": "rating", "punkte": "points"}``."""
    if not specs:
        return {}
    pairs = specs.items() if isinstance(specs, Mapping) else (_split(s) for s in specs)
    result = {}
    for name, role in pairs:
        if role not in ROLES:
            raise UsageError(
                f"--column {name + '=' + role!r}: the role must be one of {', '.join(ROLES)}"
            )
        result[normalize_header(name)] = role
    return result


def _split(spec: str) -> tuple[str, str]:
    if "=" not in spec:
        raise UsageError(f"--column {spec!r}: write NAME=ROLE, e.g. --column 'Rtg Int=rating'")
    name, role = spec.rsplit("=", 1)
    return name.strip(), role.strip().lower()


def find_layout(columns: list[str], overrides: dict[str, str]) -> Layout:
    layout = Layout()
    for column, role in overrides.items():
        if column in columns and role == "round":
            layout.rounds[column] = round_number(column) or 0
        elif column in columns and role != "ignore":
            layout.roles[role] = column
    taken = set(overrides)
    for role, spellings in ROLE_HEADERS.items():
        if role in layout.roles:
            continue
        for spelling in spellings:
            if spelling in columns and spelling not in taken:
                layout.roles[role] = spelling
                taken.add(spelling)
                break
    for column in columns:
        if column in taken or column in layout.rounds:
            continue
        number = round_number(column)
        if number is not None:
            layout.rounds[column] = number
    # Rounds named without a number (overrides) take the places after the numbered ones.
    unnumbered = [c for c, n in layout.rounds.items() if n == 0]
    start = max(layout.rounds.values(), default=0)
    for offset, column in enumerate(unnumbered, start=1):
        layout.rounds[column] = start + offset
    return layout


def missing_problems(source: str, columns: list[str], layout: Layout, what: str) -> list[Problem]:
    problems = []
    if "name" not in layout.roles:
        problems.append(
            Problem(
                Code.MISSING_COLUMN,
                f"this {what} has no player name column (found: {', '.join(columns)})",
                file=source,
                row=1,
                column="name",
                fix="name the column 'Name', or say which it is with --column 'HEADER=name'",
            )
        )
    if not layout.rounds:
        problems.append(
            Problem(
                Code.MISSING_COLUMN,
                f"this {what} has no round columns (found: {', '.join(columns)})",
                file=source,
                row=1,
                column="round",
                fix="name the columns 1, 2, ... or R1, Rd1, Runde 1, ..., "
                "or use --column 'HEADER=round'",
            )
        )
    return problems

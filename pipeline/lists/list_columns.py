"""The columns of a list ``fiderate period`` publishes, in the order its CSV and TXT files give
them (the reader of such a list is :mod:`pipeline.readers.lists.published_list`)."""

LIST_TEXT_COLUMNS = [
    "id",
    "name",
    "federation",
    "sex",
    "title",
    "birth_year",
    "rating",
    "period_games",
    "games",
    "k",
    "ever_2400",
    "flags",
    "last_played",
]

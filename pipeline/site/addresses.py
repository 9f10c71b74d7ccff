"""The site's addresses: every page's path relative to the site's root, the same for the live
site (under ``/site/``) and the static one (a file of that name), and the way back from an
address to the page (the live server's one route).

A player's id comes from the files a federation rates, so it is text we do not control
(``../../etc/passwd``, ``a/b``, ``..``, ``CON``): it never reaches a file name as it is. An id is
encoded (:func:`id_token`) with lower-case letters, digits and ``-`` kept and every other byte of
its UTF-8 written ``_hh``: the token holds no ``/``, ``\\`` or ``.``, so it cannot leave its folder,
two ids never share a token even on a case-insensitive disk (upper-case letters are encoded),
and the ``p-`` before it keeps it from being a reserved Windows name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KINDS = ("standard", "rapid", "blitz")
TOPS = ("open", "women", "juniors", "girls")
# The characters of an id that its token keeps as they are (ASCII: a byte each in UTF-8); every
# other byte is written _hh. One rule: the byte set, the regular expressions' class (this
# module's and row_table's Arrow kernels) are made from it.
KEPT = "abcdefghijklmnopqrstuvwxyz0123456789-"
KEPT_CLASS = "[" + re.escape(KEPT) + "]"
_KEPT = frozenset(KEPT.encode())
_TOKEN = re.compile(f"p-((?:{KEPT_CLASS}|_[0-9a-f]{{2}})+)")
_MONTH = re.compile(r"\d{4}-(0[1-9]|1[0-2])")
_FED = re.compile(r"[A-Z]{3}")
ID_CHARS = 40  # the longest id the site takes (the history pages' limit)
_ALL_KEPT = re.compile(KEPT_CLASS + "*")


def id_token(player_id: str) -> str:
    """``player_id`` as a file name's stem: ``p-`` and its bytes, unsafe ones as ``_hh``. An
    id of kept characters alone (every FIDE id: digits) is its own stem, found by one match
    rather than a step per byte (a profile's address, 50,000 of them twice a write)."""
    if _ALL_KEPT.fullmatch(player_id):
        return "p-" + player_id
    return "p-" + "".join(chr(b) if b in _KEPT else f"_{b:02x}" for b in player_id.encode())


def token_id(token: str) -> str | None:
    """The id a token encodes; None when ``token`` is not one :func:`id_token` writes."""
    match = _TOKEN.fullmatch(token)
    if match is None:
        return None
    parts = re.findall(r"_([0-9a-f]{2})|(.)", match.group(1))
    data = bytes(int(h, 16) if h else ord(c) for h, c in parts)
    try:
        player_id = data.decode()
    except UnicodeDecodeError:
        return None
    return player_id if id_token(player_id) == token else None


def fed_token(federation: str) -> str | None:
    """A federation's page stem, or None for a code that is not three capital letters."""
    return f"fed-{federation}" if _FED.fullmatch(federation) else None


def home() -> str:
    return "index.html"


def list_page(kind: str, month: str) -> str:
    return f"lists/{kind}/{month}.html"


def download(kind: str, month: str, layout: str) -> str:
    """A list's download: ``layout`` csv, xlsx, txt (FIDE's TXT) or xml (FIDE's XML)."""
    return f"lists/{kind}/rating_list_{kind}_{month}.{layout}"


def top_page(kind: str, top: str) -> str:
    return f"top/{kind}/{top}.html"


def player_page(player_id: str) -> str:
    return f"players/{id_token(player_id)}.html"


def calculation_page(kind: str, player_id: str, period: str) -> str:
    """A player's calculation in one period of one kind of list (a month rates each kind)."""
    return f"calculations/{kind}/{period}/{id_token(player_id)}.html"


def search_page() -> str:
    return "search.html"


def search_shard(key: str) -> str:
    return f"search/{key}.js"


def rank_file(bucket: str, layout: str) -> str:
    """The world and national ranks of the players of one bucket (:mod:`.rank_files`), or
    (``bucket`` "buckets") how many buckets there are: ``layout`` js (the script a profile
    loads) or json."""
    return f"ranks/{bucket}.{layout}"


def parse_rank_file(address: str) -> tuple[str, str] | None:
    """(bucket, layout) of a rank file's address, None for any other address."""
    match = re.fullmatch(r"ranks/(buckets|[0-9a-f]{1,8})\.(js|json)", address)
    return (match.group(1), match.group(2)) if match else None


def json_of(address: str) -> str:
    """The JSON twin of a page: the same path with ``.json`` for ``.html``."""
    return address.removesuffix(".html") + ".json"


def relative(target: str, page: str) -> str:
    """``target`` as a link written on ``page`` (both addresses from the root): up to the root,
    then down (``../../players/p-1.html``), which any server and ``file://`` resolve alike."""
    return "../" * page.count("/") + target


@dataclass(frozen=True)
class Address:
    """What an address names: ``page`` (home, list, top, player, calculation, search, or
    download), and its parts."""

    page: str
    kind: str = ""
    month: str = ""
    top: str = ""
    player_id: str = ""
    layout: str = ""


def parse(address: str) -> Address | None:
    """The page an address names (the ``.html`` form), None for an address the site does not
    write: every part is checked against what the writers above produce."""
    parts = address.split("/")
    stem, _, suffix = parts[-1].rpartition(".")
    if suffix != "html" or not stem:
        return None
    head = parts[:-1]
    if not head:
        return {"index": Address("home"), "search": Address("search")}.get(stem)
    if len(head) == 2 and head[0] == "lists" and head[1] in KINDS and _MONTH.fullmatch(stem):
        return Address("list", kind=head[1], month=stem)
    if len(head) == 2 and head[0] == "top" and head[1] in KINDS:
        if stem in TOPS or (stem.startswith("fed-") and _FED.fullmatch(stem[4:])):
            return Address("top", kind=head[1], top=stem)
        return None
    player_id = token_id(stem)
    if player_id is None:
        return None
    if head == ["players"]:
        return Address("player", player_id=player_id)
    if (
        len(head) == 3
        and head[0] == "calculations"
        and head[1] in KINDS
        and _MONTH.fullmatch(head[2])
    ):
        return Address("calculation", kind=head[1], month=head[2], player_id=player_id)
    return None


def parse_download(address: str) -> Address | None:
    """A list download's address: ``lists/KIND/rating_list_KIND_YYYY-MM.LAYOUT``."""
    match = re.fullmatch(
        r"lists/([a-z]+)/rating_list_\1_(\d{4}-\d{2})\.(csv|xlsx|txt|xml)", address
    )
    if match is None or match.group(1) not in KINDS or not _MONTH.fullmatch(match.group(2)):
        return None
    return Address("download", kind=match.group(1), month=match.group(2), layout=match.group(3))

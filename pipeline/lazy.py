"""Names of a package imported on first use (PEP 562 module ``__getattr__``): the package's
public API stays one import away without loading pandas or pyarrow before a name is asked for
(the small commands start without them, issue 13)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_names(
    package: str, homes: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: ``homes`` maps each name to the module that
    defines it; a name, once imported, is kept in the package's ``namespace``."""

    def getattr_(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(home), name)
        namespace[name] = value  # later look-ups skip this function
        return value

    def dir_() -> list[str]:
        return sorted([*namespace, *homes])

    return getattr_, dir_

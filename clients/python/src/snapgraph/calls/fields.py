"""Updates send only the fields given: a field left out stays as it is, and None sends null,
which clears it (design §4). ``OMIT``, the default of every update parameter, means "left out"."""

from __future__ import annotations

import enum
from typing import Any


class Omit(enum.Enum):
    """The type of ``OMIT``."""

    OMIT = "omit"

    def __repr__(self) -> str:
        return "OMIT"


OMIT = Omit.OMIT


def changes(**values: Any) -> dict[str, Any]:
    """The fields given (None included: it clears the field)."""
    return {name: value for name, value in values.items() if value is not OMIT}

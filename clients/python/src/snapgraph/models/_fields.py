"""Reading a JSON object into a dataclass: the fields it names, unknown keys left out.

The service adds fields to its objects as it grows (a memory's ``superseded_by`` came that way),
so keys this client does not know are left out rather than refused, and a field an older server
does not send keeps the dataclass default.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any, Mapping


def known_fields(cls: type[Any], data: Mapping[str, Any], *, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """The keyword arguments of ``cls`` found in ``data`` (those in ``skip`` are built by the caller)."""
    kwargs: dict[str, Any] = {}
    for field in fields(cls):
        if field.name in skip:
            continue
        if field.name in data:
            kwargs[field.name] = data[field.name]
        elif field.default is MISSING and field.default_factory is MISSING:
            # A required field the answer lacks: None rather than a TypeError deep in the client.
            kwargs[field.name] = None
    return kwargs

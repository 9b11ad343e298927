"""How long to wait before retrying a 429 (design §5.8): the service's Retry-After when it says,
otherwise 1 s, 2 s, 4 s … up to 30 s, a bounded number of times."""

from __future__ import annotations

import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime


@dataclass(frozen=True)
class RetryPolicy:
    """``max_retries`` 429 retries per call (0 raises the first 429 at once); without Retry-After
    the wait starts at ``initial_delay`` seconds and doubles up to ``max_delay``."""

    max_retries: int = 5
    initial_delay: float = 1.0
    max_delay: float = 30.0

    def __post_init__(self) -> None:
        if not isinstance(self.max_retries, int) or self.max_retries < 0:
            raise ValueError("max_retries must be a whole number, 0 or more")

    def delay(self, retry: int, retry_after: float | None) -> float:
        """The wait before retry number ``retry`` (0 for the first)."""
        if retry_after is not None:
            return retry_after
        return float(min(self.max_delay, self.initial_delay * 2**retry))


def retry_after_seconds(header: str | None, now: float | None = None) -> float | None:
    """Retry-After as seconds: delta-seconds or an HTTP date (RFC 9110 allows both); None when
    absent or unreadable, so that the exponential sequence applies."""
    if header is None or header.strip() == "":
        return None
    text = header.strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))

"""Every failure of a call as one family of exceptions, with the fields of the service's error
body ``{ "error": { "code", "message", "details" }, "request_id" }`` (design §4)."""

from __future__ import annotations

from typing import Any, Mapping


class SnapgraphError(Exception):
    """A call failed. ``status`` is the HTTP status (0 when no answer came), ``code`` the service's
    error code (``HTTP_<status>`` when the body was not the service's), ``request_id`` the id to
    quote to support, ``details`` the error's details (for a failed import, its bad lines)."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str,
        request_id: str | None = None,
        details: dict[str, Any] | list[Any] | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.request_id = request_id
        self.details = details
        self.retry_after = retry_after

    def __str__(self) -> str:
        where = f", request_id {self.request_id}" if self.request_id else ""
        return f"{self.code} ({self.status}{where}): {self.message}"


class ValidationError(SnapgraphError):
    """400: the request was refused as it is (``details`` names the field and the reason)."""


class AuthenticationError(SnapgraphError):
    """401: no key, or a key the service does not know or has revoked."""


class PermissionDeniedError(SnapgraphError):
    """403: the key may not do this."""


class NotFoundError(SnapgraphError):
    """404: no such object for this key (another account's objects do not exist for it)."""


class ConflictError(SnapgraphError):
    """409: the request conflicts with what is stored (a reused Idempotency-Key, a taken id…)."""


class PayloadTooLargeError(SnapgraphError):
    """413: the body is larger than the route takes."""


class UnprocessableError(SnapgraphError):
    """422: the request was understood but cannot be done (a text with nothing to extract…)."""


class RateLimitError(SnapgraphError):
    """429 after the client's own retries ran out; ``retry_after`` says how long to wait."""


class ServerError(SnapgraphError):
    """5xx: the service, or a provider it depends on, failed."""


class APIConnectionError(SnapgraphError):
    """No answer: the service was not reached, or the connection broke or timed out.
    ``code`` is ``NETWORK_ERROR``; whether the request had an effect is unknown."""


_BY_STATUS: dict[int, type[SnapgraphError]] = {
    400: ValidationError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLargeError,
    422: UnprocessableError,
    429: RateLimitError,
}

# Design §4.2's codes and their statuses: a failed job keeps the error body, not the status.
_STATUS_OF_CODE: dict[str, int] = {
    "BAD_REQUEST": 400,
    "INVALID_JSON": 400,
    "UNAUTHORIZED": 401,
    "FORBIDDEN": 403,
    "NOT_FOUND": 404,
    "METHOD_NOT_ALLOWED": 405,
    "CONFLICT": 409,
    "PAYLOAD_TOO_LARGE": 413,
    "UNSUPPORTED_MEDIA_TYPE": 415,
    "UNPROCESSABLE": 422,
    "RATE_LIMITED": 429,
    "INTERNAL": 500,
    "PROVIDER_ERROR": 502,
    "PROVIDER_UNAVAILABLE": 503,
}


def error_class(status: int) -> type[SnapgraphError]:
    if status >= 500:
        return ServerError
    return _BY_STATUS.get(status, SnapgraphError)


def error_from_response(
    status: int, body: Any, request_id_header: str | None, retry_after: int | None
) -> SnapgraphError:
    """The error a failed answer stands for; works on any body, the service's or a proxy's."""
    parsed: Mapping[str, Any] = body if isinstance(body, Mapping) else {}
    error = parsed.get("error")
    error = error if isinstance(error, Mapping) else {}
    code = error.get("code")
    message = error.get("message")
    details = error.get("details")
    request_id = parsed.get("request_id")
    if retry_after is None and isinstance(details, Mapping):
        # Without a Retry-After header (a proxy may drop it), the body's own retry_after.
        seconds = details.get("retry_after", parsed.get("retry_after"))
        retry_after = int(seconds) if isinstance(seconds, (int, float)) else None
    if not isinstance(message, str):
        text = f": {body[:200]}" if isinstance(body, str) and body else ""
        message = f"the service answered {status}{text}"
    return error_class(status)(
        message,
        status=status,
        code=code if isinstance(code, str) else f"HTTP_{status}",
        request_id=request_id if isinstance(request_id, str) else request_id_header,
        details=dict(details) if isinstance(details, Mapping) else list(details) if isinstance(details, list) else None,
        retry_after=retry_after,
    )


def error_from_job(job_error: Any) -> SnapgraphError:
    """The error a failed job stands for: what the synchronous request would have raised."""
    error = job_error.get("error") if isinstance(job_error, Mapping) else None
    code = error.get("code") if isinstance(error, Mapping) else None
    status = _STATUS_OF_CODE.get(code, 500) if isinstance(code, str) else 500
    return error_from_response(status, job_error, None, None)

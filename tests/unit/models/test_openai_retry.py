"""The openai backend's retry policy: Retry-After parsing, backoff schedule, what is retried."""

from __future__ import annotations

import datetime as dt

import httpx
import pytest

from biasaudit.models.openai.http import (
    RetryPolicy,
    is_retryable_status,
    make_redactor,
    parse_retry_after,
)

NOW = dt.datetime(2015, 10, 21, 7, 27, 30, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"retry-after": "3"}, 3.0),
        ({"retry-after": " 1.5 "}, 1.5),
        ({"retry-after": "0"}, 0.0),
        ({"retry-after": "-1"}, None),
        ({"retry-after": "soon"}, None),
        ({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, 30.0),
        ({"retry-after": "Wed, 21 Oct 2015 07:00:00 GMT"}, 0.0),
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
        ({"retry-after-ms": "x", "retry-after": "9"}, 9.0),
        ({}, None),
    ],
)
def test_parse_retry_after(headers: dict[str, str], expected: float | None) -> None:
    assert parse_retry_after(headers, now=NOW) == expected


def test_parse_retry_after_reads_http_headers_case_insensitively() -> None:
    assert parse_retry_after(httpx.Headers({"Retry-After": "2"}), now=NOW) == 2.0


def test_backoff_schedule_doubles_from_base_and_is_capped() -> None:
    policy = RetryPolicy(max_retries=5, base_delay=0.5, max_delay=30.0)
    # jitter 0 gives the lower end (half the exponential step), jitter -> 1 the full step.
    assert [policy.delay(n, None, 0.0) for n in range(6)] == [0.25, 0.5, 1.0, 2.0, 4.0, 8.0]
    assert policy.delay(3, None, 0.5) == 3.0  # 4.0 * 0.75
    assert policy.delay(10, None, 0.0) == 15.0  # capped at 30 before jitter
    assert policy.delay(10, None, 0.999999) == pytest.approx(30.0, abs=1e-4)


def test_retry_after_is_honoured_but_capped() -> None:
    policy = RetryPolicy(base_delay=0.5, max_delay=30.0, max_retry_after=120.0)
    assert policy.delay(0, 7.0, 0.0) == 7.0  # longer than the backoff: wait what the server says
    assert policy.delay(2, 0.1, 0.0) == 1.0  # shorter: the backoff still applies
    assert policy.delay(0, 3600.0, 0.0) == 120.0


@pytest.mark.parametrize(
    ("status", "retried"),
    [
        *[(status, True) for status in (408, 409, 429, 500, 502, 503)],
        *[(status, False) for status in (400, 401, 403, 404, 422)],
    ],
)
def test_which_statuses_are_retried(status: int, retried: bool) -> None:
    assert is_retryable_status(status) is retried


def test_redactor_blanks_the_key() -> None:
    redact = make_redactor("sk-secret-123")
    assert redact("Incorrect API key provided: Bearer sk-secret-123.") == (
        "Incorrect API key provided: Bearer ***."
    )
    assert make_redactor(None)("Bearer sk-secret-123") == "Bearer sk-secret-123"

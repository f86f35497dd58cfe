"""The one ``Retry-After`` reader both clients use (``cnbkit._shared.retry_after``), judged by
RFC 9110 §10.2.3's own examples; the path production takes is judged by
``tests/test_errors.py::test_retry_after_is_honoured`` (the engine) and the COBS walk tests
with 429 and 503 (``tests/cobs/test_banks_that_exist.py``)."""

from __future__ import annotations

import datetime as dt

import pytest

from cnbkit._shared.retry_after import retry_after

#: RFC 9110 §10.2.3's examples: "Retry-After: Fri, 31 Dec 1999 23:59:59 GMT" and
#: "Retry-After: 120".
RFC_DATE = "Fri, 31 Dec 1999 23:59:59 GMT"


def test_delay_seconds():
    assert retry_after("120") == 120.0
    assert retry_after(" 0 ") == 0.0


def test_an_http_date_counts_from_the_answers_own_date():
    assert retry_after(RFC_DATE, date="Fri, 31 Dec 1999 23:58:59 GMT") == 60.0


def test_an_http_date_without_a_date_header_counts_from_now():
    now = dt.datetime(1999, 12, 31, 23, 59, 29, tzinfo=dt.UTC)
    assert retry_after(RFC_DATE, now=now) == 30.0


def test_an_unreadable_date_header_falls_back_to_now():
    now = dt.datetime(1999, 12, 31, 23, 59, 49, tzinfo=dt.UTC)
    assert retry_after(RFC_DATE, date="yesterday", now=now) == 10.0


def test_the_two_obsolete_date_forms_are_read():
    # RFC 9110 §5.6.7: a recipient accepts rfc850-date and asctime-date too.
    date = "Fri, 31 Dec 1999 23:58:59 GMT"
    assert retry_after("Friday, 31-Dec-99 23:59:59 GMT", date=date) == 60.0
    assert retry_after("Fri Dec 31 23:59:59 1999", date=date) == 60.0


def test_a_date_in_the_past_is_no_wait():
    assert retry_after(RFC_DATE, date="Sat, 01 Jan 2000 00:00:00 GMT") == 0.0
    assert retry_after(RFC_DATE) == 0.0  # the real time is long past 1999


@pytest.mark.parametrize("value", [None, "", "   ", "-5", "soon", "1.5", "12 s"])
def test_what_is_absent_or_unreadable_is_none(value):
    assert retry_after(value) is None

"""Build the first snapshot from the real captures of the live API (tests/data/cnbapi).

    .venv/bin/python tests/data/build_reference_snapshot.py [OUT]

writes OUT (default tests/data/snapshots/reference): every capture whose request is known, as
the answer to that request, byte for byte as the file holds it, with the fidelity and origin
that cnbapi/SOURCES.md gives it (verbatim, re-serialized, reconstructed wrapper) in the
manifest. The test suite replays it (tests/sandbox/test_snapshots.py) and checks that this
script still builds exactly it.

Which request each capture answered, and the moment it stands for (``recorded``), are written
below by hand, one row a file, from SOURCES.md:

* a capture asked with an explicit date, or for a closed period, is *final* (the fixing of
  2019-05-17 never changes): it stands for the moment its last row was published (the day's
  fixing at 14:30 Prague, the period's last fixing), whenever the file itself was made;
* a capture of an open period (the 2026 year to date) or asked with the server's default date
  stands for the moment it was recorded: the VCR cassette's ``recorded_at``, or the end of the
  day of the commit that added it (an upper bound: the day the live API was asked);
* the two captures whose request is not known (PRIBOR of 2026-06-03, the open market
  operations of 2026-06-05: a mock server's seed data) are keyed at their own day, the answer
  the API gives for that day, standing for the end of the day their commit was made.

The sandbox replays an answer only when its clock is at or after that moment, so this snapshot
adds nothing to a sandbox living on 2025-12-31 but the answers of 2019-2025.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from zoneinfo import ZoneInfo

HERE = Path(__file__).resolve().parent
CAPTURES = HERE / "cnbapi"
OUT = HERE / "snapshots" / "reference"
PRAGUE = ZoneInfo("Europe/Prague")
#: The snapshot's own moment: its newest answer's (the mock seed data's commit, 2026-06-16).
MOMENT = "2026-06-16T23:59:00+02:00"


def _fixing(day: str) -> str:
    """The moment the fixing of ``day`` was published (14:30 Prague): a final answer's."""
    return dt.datetime.combine(dt.date.fromisoformat(day), dt.time(14, 30), PRAGUE).isoformat()


_VERIFY = ("MewsSystems/developers jobs/Backend/ExchangeRateUpdater.Test/Snapshots/"
           "IntegrationTest.ExchangeRateControllerTests.*.verified.txt @ b246dff1 (Verify.Http "
           "recording of real calls, 2024-11-18)")
_MEWS = "MewsSystems/developers, a test fixture @ {commit}: {path}"
_FINAL = "final: stands for the publication of its last row"

#: file -> (path, query as asked, status, recorded, fidelity, origin, why that moment)
ROWS: dict[str, tuple[str, list[tuple[str, str]], int, str, str, str, str]] = {
    "exrates_daily_2026-03-16_EN.json": (
        "/exrates/daily", [("date", "2026-03-16"), ("lang", "EN")], 200, _fixing("2026-03-16"),
        "verbatim (VCR cassette with the live HTTP headers)",
        "lineofflight/frankfurter spec/vcr_cassettes/cnb.yml @ 36877fb3 (recorded "
        "2026-04-02 20:37 GMT)", _FINAL),
    "exrates_daily_2026-03-17_EN.json": (
        "/exrates/daily", [("date", "2026-03-17"), ("lang", "EN")], 200, _fixing("2026-03-17"),
        "verbatim (VCR cassette)", "lineofflight/frankfurter spec/vcr_cassettes/cnb.yml "
        "@ 36877fb3", _FINAL),
    "exrates_daily_2026-03-18_EN.json": (
        "/exrates/daily", [("date", "2026-03-18"), ("lang", "EN")], 200, _fixing("2026-03-18"),
        "verbatim (VCR cassette)", "lineofflight/frankfurter spec/vcr_cassettes/cnb.yml "
        "@ 36877fb3", _FINAL),
    "exrates_daily_2026-03-19_EN.json": (
        "/exrates/daily", [("date", "2026-03-19"), ("lang", "EN")], 200, _fixing("2026-03-19"),
        "verbatim (VCR cassette)", "lineofflight/frankfurter spec/vcr_cassettes/cnb.yml "
        "@ 36877fb3", _FINAL),
    "exrates_daily_2026-03-20_EN.json": (
        "/exrates/daily", [("date", "2026-03-20"), ("lang", "EN")], 200, _fixing("2026-03-20"),
        "verbatim (VCR cassette)", "lineofflight/frankfurter spec/vcr_cassettes/cnb.yml "
        "@ 36877fb3", _FINAL),
    "exrates_daily-year_2026_EN_recorded-2026-04-02.json": (
        "/exrates/daily-year", [("lang", "EN"), ("year", "2026")], 200,
        "2026-04-02T20:53:00+00:00",
        "verbatim (VCR cassette); the year to 2026-04-02, as the API answered then",
        "lineofflight/frankfurter spec/vcr_cassettes/cnb.yml @ 87e2a73e",
        "the cassette's recorded_at: the year was open"),
    "exrates_daily_2026-05-28_EN_from-rds.json": (
        "/exrates/daily", [("lang", "EN")], 200, "2026-05-28T23:59:00+02:00",
        "re-serialized (an R saveRDS fixture decoded)",
        "m-muecke/bbk tests/testthat/fixtures/cnb-fx-rates.rds @ 1139d9ff",
        "asked with the server's default date: the end of the commit's day, 2026-05-28"),
    "pribor_daily_2026-05-26_from-rds.json": (
        "/pribor/daily", [], 200, "2026-05-28T23:59:00+02:00",
        "re-serialized (an R saveRDS fixture decoded)",
        "m-muecke/bbk tests/testthat/fixtures/cnb-pribor.rds @ 1139d9ff",
        "asked with the server's default date: the end of the commit's day, 2026-05-28"),
    "pribor_daily_2026-06-03_reconstructed-wrapper.json": (
        "/pribor/daily", [("date", "2026-06-03")], 200, MOMENT,
        "reconstructed wrapper (the key 'pribs' re-added around real values)",
        "bogaczig73/ci-ews-thesis-mock-data data/cnb_cnbapi.json @ 1d7e37a3",
        "request unknown: keyed at its own day; the end of the commit's day, 2026-06-16"),
    "omo_daily_2026-06-05_reconstructed-wrapper.json": (
        "/omo/daily", [("date", "2026-06-05")], 200, MOMENT,
        "reconstructed wrapper (the key 'operations' re-added around real values)",
        "bogaczig73/ci-ews-thesis-mock-data data/cnb_cnbapi.json @ 1d7e37a3",
        "request unknown: keyed at its own day; the end of the commit's day, 2026-06-16"),
    "exrates_daily_2019-05-17_EN.json": (
        "/exrates/daily", [("date", "2019-05-17"), ("lang", "EN")], 200, _fixing("2019-05-17"),
        "pretty-printed (values identical to the Verify recording and the CNB's year file)",
        _MEWS.format(commit="4bd2f500", path="jobs/Backend/Task/UnitTests/test_data/"
                     "sample_api_response.json"), _FINAL),
    "exrates_daily_2023-05-15_EN.json": (
        "/exrates/daily", [("date", "2023-05-15"), ("lang", "EN")], 200, _fixing("2023-05-15"),
        "pretty-printed", _MEWS.format(commit="55135c1a", path="jobs/Salesforce/cnbexrates/"
                                       "…/CnbExchangeRatesResponseMock.json"), _FINAL),
    "exrates_daily_2023-09-07_EN.json": (
        "/exrates/daily", [("date", "2023-09-07"), ("lang", "EN")], 200, _fixing("2023-09-07"),
        "likely a raw copy (trailing zeros kept)",
        _MEWS.format(commit="2ee5526c", path="jobs/Backend/Task/src/Mews.ERP/…/"
                     "mockedResponse.json"), _FINAL),
    "exrates_daily_2024-01-17_EN.json": (
        "/exrates/daily", [("date", "2024-01-17"), ("lang", "EN")], 200, _fixing("2024-01-17"),
        "a test fixture (full list)", _MEWS.format(commit="d648d69a", path="jobs/Backend/"
                                                    "Task/tests/…/DailyRateResponse.json"),
        _FINAL),
    "exrates_daily_2024-04-15_CZ.json": (
        "/exrates/daily", [("date", "2024-04-15"), ("lang", "CZ")], 200, _fixing("2024-04-15"),
        "a test fixture (Czech labels and order)",
        _MEWS.format(commit="4e6763e7", path="jobs/Backend/ExchangeRateTests/testData.json"),
        _FINAL),
    "exrates_daily_2024-04-23_EN.json": (
        "/exrates/daily", [("date", "2024-04-23"), ("lang", "EN")], 200, _fixing("2024-04-23"),
        "a test fixture", _MEWS.format(commit="5bd0b63c", path="jobs/Backend/ExchangeRate"
                                       "Provider.UnitTests/Files/FullResponse.json"), _FINAL),
    "exrates_daily_2024-05-10_CZ.json": (
        "/exrates/daily", [("date", "2024-05-10"), ("lang", "CZ")], 200, _fixing("2024-05-10"),
        "a compact one-line raw body (trailing zeros kept)",
        _MEWS.format(commit="f5d926f7", path="jobs/Backend/ExchangeRateUpdaterTest/"
                     "ClientTest.cs (a string literal)"), _FINAL),
    "exrates_daily_2024-09-03_CZ.json": (
        "/exrates/daily", [("date", "2024-09-03"), ("lang", "CZ")], 200, _fixing("2024-09-03"),
        "trailing zeros kept", _MEWS.format(commit="7239606e", path="jobs/Backend/Task/"
                                            "ExchangeRateUpdater.Tests/…/default.json"),
        _FINAL),
    "exrates_daily_2025-10-22_CZ-default-lang.json": (
        "/exrates/daily", [("date", "2025-10-22")], 200, _fixing("2025-10-22"),
        "re-serialized (json.dump indent=4 of a live answer)",
        "rnovacek/homeassistant_cz_energy_spot_prices tests/fixtures/cnb-2025-10-22.json "
        "@ 51f0f107", _FINAL),
    "exrates_daily_2019-05-17_CZ-default-lang_from-verify.json": (
        "/exrates/daily", [("date", "2019-05-17")], 200, _fixing("2019-05-17"),
        "re-serialized (parsed from Verify's relaxed format)", _VERIFY, _FINAL),
    "exrates_daily-year_2019_from-verify.json": (
        "/exrates/daily-year", [("year", "2019")], 200, _fixing("2019-12-31"),
        "re-serialized; 8,283 values equal to the CNB's year file", _VERIFY, _FINAL),
    "exrates_daily-currency-month_AUD_2019-05_from-verify.json": (
        "/exrates/daily-currency-month", [("currency", "AUD"), ("yearMonth", "2019-05")], 200,
        _fixing("2019-05-31"), "re-serialized", _VERIFY, _FINAL),
    "exrates_daily-currency-month_USD_2019-05_from-verify.json": (
        "/exrates/daily-currency-month", [("currency", "USD"), ("yearMonth", "2019-05")], 200,
        _fixing("2019-05-31"), "re-serialized", _VERIFY, _FINAL),
    "exrates_daily-currency-month_INVALID_2019-05_200-empty-object_from-verify.json": (
        "/exrates/daily-currency-month", [("currency", "INVALID"), ("yearMonth", "2019-05")],
        200, _fixing("2019-05-31"), "recorded 200 with body {}", _VERIFY, _FINAL),
    "error_400_VALIDATION_ERROR_exrates_daily_date-2019-02-31_from-verify.json": (
        "/exrates/daily", [("date", "2019-02-31")], 400, "2024-11-18T23:59:00+01:00",
        "re-serialized; happenedAt and messageId absent in the recording", _VERIFY,
        "the end of the recording's commit day"),
    "error_400_VALIDATION_ERROR_exrates_daily-year_year-0_from-verify.json": (
        "/exrates/daily-year", [("year", "0")], 400, "2024-11-18T23:59:00+01:00",
        "re-serialized; happenedAt and messageId absent in the recording", _VERIFY,
        "the end of the recording's commit day"),
    "error_400_VALIDATION_ERROR_exrates_daily-currency-month_currency-empty_from-verify.json": (
        "/exrates/daily-currency-month", [("currency", ""), ("yearMonth", "2019-05")], 400,
        "2024-11-18T23:59:00+01:00",
        "re-serialized; happenedAt and messageId absent in the recording", _VERIFY,
        "the end of the recording's commit day"),
    "error_400_VALIDATION_ERROR_exrates_daily_lang-invalid.json": (
        "/exrates/daily", [("lang", "i_am_not_valid_lang")], 400, "2023-05-16T14:09:25+02:00",
        "the full five-field body", _MEWS.format(commit="55135c1a", path="jobs/Salesforce/"
                                                 "…/CnbExchangeRatesResponseMockError.json"),
        "its happenedAt (Prague time), the day the date defaulted to"),
}


def build(out: Path) -> object:
    """Write the snapshot into ``out`` (replacing one there); returns it."""
    from cnbkit.sandbox.snapshots import Recorded, write

    answers = [
        Recorded(path, query, status, (CAPTURES / name).read_bytes(), "application/json",
                 dt.datetime.fromisoformat(recorded),
                 {"capture": name, "fidelity": fidelity, "origin": origin, "recorded": why,
                  "sources": "tests/data/cnbapi/SOURCES.md"})
        for name, (path, query, status, recorded, fidelity, origin, why) in ROWS.items()
    ]
    return write(out, answers, source="https://api.cnb.cz/cnbapi",
                 recorded=dt.datetime.fromisoformat(MOMENT),
                 version="none: captures of the live API recorded by other projects",
                 details={"about": "the real captures of tests/data/cnbapi (SOURCES.md); built "
                                   "by tests/data/build_reference_snapshot.py"},
                 replace=True)


def main(argv: list[str]) -> int:
    left = sorted({p.name for p in CAPTURES.glob("*.json")} - set(ROWS)
                  - {"openapi_swagger2_cnbapi_22ops.json"})
    if left:
        raise SystemExit(f"captures without a row here: {left}")
    snapshot = build(Path(argv[0]) if argv else OUT)
    print(snapshot)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

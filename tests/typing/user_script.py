"""A user's script: the documented examples (README.md, docs/getting-started.md, docs/history.md,
docs/backends.md) as someone writes them in a notebook or an editor, with the types they expect.

``scripts/test.sh`` checks it with ``mypy --strict`` and pyright (strict), the checkers of an
editor (VS Code's Pylance and jupyterlab-lsp run pyright), each configured as a user runs it
(``mypy.ini``, ``pyrightconfig.json`` beside this file: nothing of cnbkit's own settings);
tests/test_typing.py runs it against the sandbox, so that what the checkers accept is also what
happens. ``assert_type`` is checked by
both checkers and costs nothing at run time; the ``isinstance`` checks judge the run. A call
the checkers must refuse carries ``# type: ignore[...]``: mypy --strict (warn_unused_ignores)
and pyright (the comment below) report an ignore that nothing needed.
"""
# pyright: reportUnnecessaryTypeIgnoreComment=error

from __future__ import annotations

import webbrowser
from typing import Any, assert_type

import pandas as pd
import polars as pl
import pyarrow as pa

import cnbkit
from cnbkit.cobs import AuthorizationOptions, AuthorizationResult, CobsClient, CobsConfig
from cnbkit.sandbox import Sandbox
from cnbkit.sandbox.cobs import CobsSandbox


def main() -> None:
    sandbox = Sandbox().start()                          # sandbox.url: http://127.0.0.1:<port>/cnbapi
    cnbkit.configure(base_url=sandbox.url, clock=sandbox.clock)  # "today": the sandbox's day

    # README: market data
    rates = cnbkit.exrates.daily("2019-05-17", lang="EN")
    assert_type(rates, pd.DataFrame)
    first = rates[["currency_code", "amount", "rate", "rate_per_unit"]].head()
    euro = rates.loc[rates["currency_code"] == "EUR", "rate_per_unit"]
    year = cnbkit.exrates.daily_year(2024)
    by_currency = year.groupby("currency_code", observed=True)["rate_per_unit"].mean()
    wide: pd.DataFrame = cnbkit.to_wide(year)
    pribor = cnbkit.pribor.history(2020, 2024, period="THREE_MONTH")
    units: dict[str, str] = cnbkit.czeonia.daily_year(2024).attrs["units"]
    assert isinstance(first, pd.DataFrame) and len(euro) == 1 and len(by_currency) > 30
    assert isinstance(wide, pd.DataFrame) and isinstance(pribor, pd.DataFrame)
    assert units["rate"] == "% p.a."

    # getting started: the provenance in df.attrs; a wide frame by date
    source: list[str] = rates.attrs["source"]
    eur_per_unit = wide["EUR"].mean()
    assert source and eur_per_unit > 20

    # backends: polars and Arrow when asked for, pandas whatever the backend
    frame = cnbkit.exrates.daily_year(2024, backend="polars")
    assert_type(frame, pl.DataFrame)
    euros = frame.filter(pl.col("currency_code") == "EUR").select("valid_for", "rate")
    table = cnbkit.pribor.daily_year(2024, backend="pyarrow")
    assert_type(table, pa.Table)
    operation: Any = cnbkit.provenance(table)["operation"]
    dtypes = cnbkit.as_pandas(frame).dtypes
    wide_polars = cnbkit.to_wide(frame)
    assert_type(wide_polars, pl.DataFrame)
    assert isinstance(euros, pl.DataFrame) and isinstance(table, pa.Table)
    assert isinstance(wide_polars, pl.DataFrame) and operation == "pribor.daily_year"
    assert len(dtypes) == len(frame.columns)

    # history: any range, by group or by name; a plan held, looked at, then run
    eur_usd = cnbkit.exrates.history(2015, 2017, currency=["EUR", "USD"])
    assert_type(eur_usd, pd.DataFrame)
    by_name = cnbkit.plan("exrates", 2015, 2017, currency=["EUR", "USD"]).collect()
    assert_type(by_name, pd.DataFrame)
    quarters = cnbkit.exrates.averages(2015, 2017, "EUR", kind="quarterly", backend="polars")
    assert_type(quarters, pl.DataFrame)
    plan = cnbkit.plan("czeonia", 2023, 2024)
    labels = [call.label for call in plan]
    rows = plan.collect()
    assert_type(rows, pd.DataFrame)
    client = cnbkit.default_client()
    same = client.collect(plan, backend="polars")
    assert_type(same, pl.DataFrame)
    one = client.get("czeonia.daily_year", year=2024)
    assert_type(one, pd.DataFrame)
    assert len(plan) == len(labels) == 2 and plan[0].label == labels[0]
    assert len(rows) == len(same) and by_name.equals(eur_usd) and len(one) > 200

    # one call as a plan, run under a Watch (docs/history.md)
    checked = client.plan_call("exrates.daily", date="2024-05-17")
    assert_type(checked, cnbkit.Plan)
    settled: list[tuple[int, int]] = []
    watch = cnbkit.Watch(on_progress=lambda done, total: settled.append((done, total)))
    fixing = client.collect(checked, watch=watch)
    assert_type(fixing, pd.DataFrame)
    fresh = watch.fresh_until
    assert settled == [(1, 1)] and watch.answers == 1 and not watch.cancelled
    assert fresh is None or fresh.year >= 2025
    assert fixing.equals(client.get("exrates.daily", date="2024-05-17"))
    sandbox.stop()


def authorize_a_payment() -> None:
    """docs/cobs.md: a payment the user authorizes, its options checked by name and type."""
    with CobsSandbox() as bank:
        cobs = CobsClient(CobsConfig.for_sandbox(bank, "5.0"))
        cobs.register("typed app")
        cobs.authorize_without_browser()
        iban = str(cobs.accounts().iban[0])
        payment = cobs.initiate_payment(debtor_iban=iban,
                                        creditor_iban="CZ6330300000000000000123",
                                        amount=12.5, currency="CZK")
        in_a_notebook: AuthorizationOptions = {"open_url": webbrowser.open, "timeout": 60}
        assert in_a_notebook["timeout"] == 60
        try:
            cobs.authorize_payment(payment, time_out=60)  # type: ignore[call-arg]
        except TypeError as refused:  # a misspelt option: refused by the checkers and the run
            assert "time_out" in str(refused)
        else:
            raise AssertionError("a misspelt option was taken")
        result = cobs.authorize_payment(payment, open_url=cobs.follow_without_browser,
                                        timeout=60)
        assert_type(result, AuthorizationResult)
        assert result.state == "DONE" and result.status is not None
        cobs.close()


if __name__ == "__main__":
    main()
    authorize_a_payment()

"""The panels: set a control's value, check what was plotted. Data comes from small frames
(no requests), except one FixingExplorer run against the sandbox."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("ipywidgets", reason="ipywidgets is missing: pip install -e '.[notebooks]'")
pytest.importorskip("matplotlib", reason="matplotlib is missing: pip install -e '.[notebooks]'")

from cnbkit import analysis
from cnbkit.widgets import (
    BondsPanel,
    FixingExplorer,
    ForwardPanel,
    MoneyMarketPanel,
    OmoPanel,
    OtherCurrenciesPanel,
    PolicyPathPanel,
    data_source,
    source_banner,
)

from ..helpers import last_published, notebook_episode

#: The slow tier (conftest.py): draws every panel's matplotlib figure, one run against the sandbox.
pytestmark = pytest.mark.slow

DAYS = pd.bdate_range("2015-01-01", "2016-12-31")


def _fixing(first: int = 2015, last: int = 2016) -> pd.DataFrame:
    days = DAYS[(DAYS.year >= first) & (DAYS.year <= last)]
    rng = np.random.default_rng(1)
    frames = []
    for code, level in (("EUR", 27.0), ("USD", 24.0), ("GBP", 35.0)):
        path = level * np.exp(np.cumsum(rng.normal(0, 0.004, len(days))))
        frames.append(pd.DataFrame({"valid_for": days, "currency_code": code,
                                    "rate_per_unit": path}))
    return pd.concat(frames, ignore_index=True)


def _averages(kind: str, currency: str, years: tuple[int, int]) -> pd.DataFrame:
    freq = "MS" if kind == "monthly" else "QS"
    starts = pd.date_range(f"{years[0]}-01-01", f"{years[1]}-12-31", freq=freq)
    ends = starts + (pd.offsets.MonthEnd(1) if kind == "monthly" else pd.offsets.QuarterEnd(1))
    return pd.DataFrame({"period_start": starts, "period_end": ends,
                         "average_per_unit": 27.0 + np.arange(len(starts)) / 100})


@pytest.fixture
def explorer() -> FixingExplorer:
    calls: list[tuple[int, int]] = []

    def load(first: int, last: int) -> pd.DataFrame:
        calls.append((first, last))
        return _fixing(first, last)

    panel = FixingExplorer(["EUR", "USD"], (2015, 2016), loader=load, averages_loader=_averages)
    panel.calls = calls  # type: ignore[attr-defined]
    return panel


def test_fixing_explorer_redraws_on_every_control(explorer: FixingExplorer) -> None:
    assert set(explorer.plotted) == {"EUR", "USD"}
    assert explorer.years.continuous_update is False and explorer.window.continuous_update is False
    first_png = explorer.png
    explorer.currencies.value = ("GBP",)
    assert set(explorer.plotted) == {"GBP"}
    assert explorer.png != first_png
    assert explorer.output.outputs[0]["data"]["image/png"]
    explorer.currencies.value = ("EUR", "USD")
    explorer.view.value = "rolling volatility"
    vol = explorer.plotted["EUR"]
    assert vol.between(2, 15).all()  # 0.4 % daily moves ~ 6 % p.a.
    explorer.window.value = 63
    assert len(explorer.plotted["EUR"]) == len(vol) - 42
    explorer.view.value = "rolling correlation"
    assert list(explorer.plotted) == ["EUR/USD"]
    assert explorer.plotted["EUR/USD"].between(-1, 1).all()
    explorer.view.value = "vs averages"
    assert explorer.plotted["EUR monthly average"].iloc[0] == pytest.approx(27.0)
    assert explorer.calls == [(2015, 2016)]  # picking views and currencies costs no request
    explorer.view.value = "rate per unit"
    explorer.years.value = (2016, 2016)
    assert explorer.calls == [(2015, 2016), (2016, 2016)]
    assert explorer.plotted["EUR"].index.min().year == 2016
    assert explorer.redraws == 9  # one redraw per change


def test_correlation_needs_two_currencies(explorer: FixingExplorer) -> None:
    explorer.currencies.value = ("EUR",)
    explorer.view.value = "rolling correlation"
    assert explorer.plotted == {}
    assert "two currencies" in explorer.status.value


def test_panel_displays_as_a_widget_with_a_plain_summary(explorer: FixingExplorer) -> None:
    bundle = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"] == "FixingExplorer: EUR, USD"


def test_a_panel_keeps_its_first_drawing_for_readers_without_a_kernel(
        explorer: FixingExplorer) -> None:
    """The notebook output of a panel holds the widget and the PNG of its first drawing (what
    the docs and GitHub show); the table of that drawing follows. Later changes redraw the
    widget, not the stored first drawing."""
    import base64

    first = explorer.first_png
    bundle = explorer._repr_mimebundle_()
    assert base64.b64decode(bundle["image/png"]) == first and first.startswith(b"\x89PNG")
    assert explorer.figure_text() == "<figure: FixingExplorer: EUR, USD (720x320 px)>"
    table = explorer.first_table
    assert list(table.columns) == ["from", "to", "last", "low", "high"]
    assert table.loc["EUR", "last"] == pytest.approx(
        explorer.plotted["EUR"].iloc[-1], abs=1e-4)
    explorer.currencies.value = ("EUR",)
    assert explorer.png != first and explorer.first_png == first
    assert list(explorer.first_table.index) == ["EUR", "USD"]


def test_policy_path_panel(client) -> None:
    pribor = _sandbox("pribor", client, 2022, 2025)
    omo = _sandbox("omo", client, "2021-12-01", 2025)
    panel = PolicyPathPanel(pribor=pribor, omo=omo, date=dt.date(2023, 6, 30))
    assert set(panel.plotted) == {"2W repo rate", "implied 1x3", "implied 3x6", "implied 6x12"}
    path = panel.path()
    fixed = path[path["valid_for"] == pd.Timestamp("2023-06-30")].set_index("forward")
    segment = panel.plotted["implied 3x6"]
    assert segment.index.tolist() == [fixed.loc["3x6", "start"], fixed.loc["3x6", "end"]]
    assert segment.tolist() == [fixed.loc["3x6", "implied_repo_pct"]] * 2
    assert "implied minus realised" in panel.status.value and "3x6" in panel.status.value
    panel.date.value = dt.date(2025, 12, 31)  # the last fixing: its periods are not over
    assert "not over" in panel.status.value
    ax = panel.figure.axes[0]
    assert "% p.a." in ax.get_ylabel()


def _pribor() -> pd.DataFrame:
    rows = []
    for i, day in enumerate(DAYS[:40]):
        for j, period in enumerate(("ONE_DAY", "ONE_MONTH", "THREE_MONTH", "ONE_YEAR")):
            rows.append((day, period, np.nan, 0.5 + j * 0.1 + i * 0.01))
    return pd.DataFrame(rows, columns=["valid_for", "period", "pribid", "pribor"])


def test_money_market_panel() -> None:
    from cnbkit.widgets.money_market import SPREAD_LABEL

    czeonia = pd.DataFrame({"valid_for": DAYS[:40], "rate": 0.4})
    panel = MoneyMarketPanel(pribor=_pribor(), czeonia=czeonia)
    assert panel.plotted[SPREAD_LABEL].iloc[0] == pytest.approx(30.0)  # 0.7 - 0.4
    panel.tenor.value = "ONE_YEAR"
    assert panel.plotted[SPREAD_LABEL].iloc[0] == pytest.approx(40.0)
    panel.date.value = dt.date(2015, 1, 1)
    assert panel.plotted["PRIBOR curve"].tolist() == pytest.approx([0.5, 0.6, 0.7, 0.8])
    assert panel.plotted["PRIBOR curve"].index.tolist()[0] == "ONE_DAY"


def test_money_market_panel_shows_units_on_every_axis_and_the_spread_in_the_legend() -> None:
    czeonia = pd.DataFrame({"valid_for": DAYS[:40], "rate": 0.4})
    panel = MoneyMarketPanel(pribor=_pribor(), czeonia=czeonia)
    left, right, twin = panel.figure.axes
    assert "% p.a." in left.get_ylabel() and "bp" in twin.get_ylabel()
    assert "% p.a." in right.get_ylabel() and "tenor" in right.get_xlabel()
    # the tenors at their nominal days on a log scale: to scale, one tick each, in order
    assert right.get_xscale() == "log"
    days = [analysis.TENOR_DAYS[t] for t in ("ONE_DAY", "ONE_MONTH", "THREE_MONTH", "ONE_YEAR")]
    assert list(right.lines[0].get_xdata()) == days and list(right.get_xticks()) == days
    legend = [text.get_text() for text in left.get_legend().get_texts()]
    assert any("CZEONIA" in label and "bp" in label for label in legend), legend


def test_forward_panel_exact_cip_on_value_dates() -> None:
    days = DAYS[:30]
    points = pd.concat([pd.DataFrame({"valid_for": days, "currency_pair": pair,
                                      "maturity": mat, "forward_points": pts})
                        for pair, mat, pts in (("EUR_TO_CZK", "THREE_MONTH", 100.0),
                                               ("EUR_TO_CZK", "SIX_MONTH", 200.0),
                                               ("USD_TO_CZK", "THREE_MONTH", 50.0),
                                               ("USD_TO_CZK", "SIX_MONTH", 90.0))])
    rates = pd.concat([pd.DataFrame({"valid_for": days, "currency_code": c,
                                     "rate_per_unit": r}) for c, r in (("EUR", 25.0),
                                                                        ("USD", 20.0))])
    pribor = pd.concat([pd.DataFrame({"valid_for": days, "period": p, "pribor": 4.0})
                        for p in ("THREE_MONTH", "SIX_MONTH")])
    panel = ForwardPanel(points=points, rates=rates, pribor=pribor)
    # traded Friday 2 Jan 2015: spot Tuesday 6 Jan (Prague and TARGET), 3 months later Monday
    # 6 Apr is Easter Monday, so the forward settles on Tuesday 7 Apr: 91 days
    days = (analysis.value_date("2015-01-02", "THREE_MONTH", pair="EUR/CZK")
            - analysis.spot_date("2015-01-02", pair="EUR/CZK")).days
    assert days == 91
    eur = (1 + 0.04 * days / 360) * 25 / 25.1
    assert panel.plotted["implied EUR rate"].iloc[1] == pytest.approx((eur - 1) * 360 / days
                                                                      * 100)
    assert panel.plotted["differential (CZK - foreign)"].iloc[1] == pytest.approx(
        4.0 - panel.plotted["implied EUR rate"].iloc[1])
    panel.pair.value = "USD_TO_CZK"
    panel.maturity.value = "SIX_MONTH"
    table = panel.table()
    usd = (1 + 0.04 * table["days"] / 360) * 20 / 20.09
    assert panel.plotted["implied USD rate"].tolist() == pytest.approx(
        ((usd - 1) * 360 / table["days"] * 100).tolist())
    top, bottom = panel.figure.axes
    assert "CZK/1000" in top.get_ylabel() and "% p.a." in bottom.get_ylabel()


def test_other_currencies_search_and_cross() -> None:
    months = pd.date_range("2024-01-31", periods=6, freq="ME")
    fx = pd.concat([pd.DataFrame({"valid_for": months, "currency_code": code,
                                  "currency": name, "country": country,
                                  "rate_per_unit": rate})
                    for code, name, country, rate in (("AMD", "dram", "Armenia", 0.05),
                                                      ("ARS", "peso", "Argentina", 0.025),
                                                      ("MXN", "peso", "Mexico", 1.25))])
    fixing = pd.DataFrame({"valid_for": pd.bdate_range("2024-01-01", "2024-06-30"),
                           "currency_code": "EUR", "rate_per_unit": 25.0})
    panel = OtherCurrenciesPanel(fx=fx, fixing=fixing, currency="AMD", base="EUR")
    assert panel.plotted["AMD per EUR"].tolist() == pytest.approx([500.0] * 6)
    assert panel.plotted["CZK per AMD"].tolist() == pytest.approx([0.05] * 6)
    panel.search.value = "peso"
    assert [code for _, code in panel.currency.options] == ["ARS", "MXN"]
    assert panel.currency.value == "ARS"
    assert panel.plotted["ARS per EUR"].iloc[0] == pytest.approx(1000.0)
    panel.currency.value = "MXN"
    panel.base.value = "CZK"
    assert list(panel.plotted) == ["CZK per MXN"]


def test_omo_panel_types_and_frequency() -> None:
    trade = pd.to_datetime(["2024-01-03", "2024-02-10", "2024-05-01", "2024-05-02",
                            "2024-12-31"])
    omo = pd.DataFrame({
        "trade_date": trade, "settlement_date": trade,
        "maturity_date": trade + pd.to_timedelta([14, 14, 14, 1, 14], unit="D"),
        "operation_type": ["Repo", "Repo", "Repo", "Depozitní facilita", "Repo"],
        "allotted_volume_czk_bn": [100.0, 300.0, 50.0, 10.0, 91.0],
        "avg_allotted_rate_pct": [4.0, 5.0, 6.0, 3.0, 4.0]})
    panel = OmoPanel(omo=omo, freq="quarter")
    # Q1 starts before the first repo + 14 days: not whole, left out and said so
    assert panel.plotted["2-week repo turnover"].tolist() == [50.0, 0.0, 91.0]
    assert panel.plotted["2-week repo outstanding"].tolist() == pytest.approx(
        [50 * 14 / 91, 0.0, 91.0 / 92])  # the last repo is out on 31 Dec only
    assert "1 quarter(s)" in panel.status.value
    panel.types.value = ("Depozitní facilita",)
    assert list(panel.plotted) == ["deposit facility outstanding", "deposit facility turnover",
                                   "deposit facility rate"]
    assert [label for label, _ in panel.types.options] == ["deposit facility", "2-week repo"]
    panel.types.value = ("Repo",)
    panel.freq.value = "year"
    assert panel.plotted == {}  # one year, not covered whole
    outstanding, turnover, rate = panel.figure.axes
    assert "CZK bn" in outstanding.get_ylabel() and "CZK bn per year" in turnover.get_ylabel()
    assert "% p.a." in rate.get_ylabel()


def test_bonds_panel_issue_picker() -> None:
    skd = pd.DataFrame({
        "settlement_date": list(DAYS[:3]) * 2 + [DAYS[0], DAYS[1]],
        "isin": ["CZ3"] * 3 + ["CZ2"] * 3 + ["CZ1", "CZ0"],
        "issue_name": ["SPP ČR 01.03.2026"] * 3 + ["SPP ČR 01.02.2026"] * 3
        + ["SPP ČR 01.01.2026"] * 2,
        "average_price_to_value": [99.0, 99.1, 99.2, 99.5, 99.6, 99.7, 99.9, 99.8],
        "settlement_nominal_czk": 1.0})
    panel = BondsPanel(skd=skd, issues=2)
    # the chosen first (the list shows them without scrolling), then by maturity and ISIN:
    # two ISINs share the name "SPP ČR 01.01.2026"
    assert [value for _, value in panel.issues.options] == ["CZ2", "CZ3", "CZ0", "CZ1"]
    assert panel.issues.options[2][0] == "SPP ČR 01.01.2026 (CZ0)"
    assert panel.issues.value == ("CZ2", "CZ3")  # busiest
    panel.issues.value = ("CZ1", "CZ0")
    assert panel.plotted["SPP ČR 01.01.2026 (CZ1)"].tolist() == [99.9]
    assert panel.plotted["SPP ČR 01.01.2026 (CZ0)"].tolist() == [99.8]


def test_source_banner_describes_the_client_in_use(monkeypatch: pytest.MonkeyPatch) -> None:
    import cnbkit

    for name in ("CNBKIT_SOURCE", "CNBKIT_BASE_URL", "CNBKIT_TODAY"):
        monkeypatch.delenv(name, raising=False)
    live = cnbkit.Client(cache=False)
    assert data_source(live).kind == "live"
    assert "live data from api.cnb.cz" in repr(source_banner(live))
    sandbox = cnbkit.Client("http://127.0.0.1:9/cnbapi", cache=False, clock="2025-12-31")
    assert repr(source_banner(sandbox)).startswith("Data: sandbox data (clock 2025-12-31)")
    unknown_day = cnbkit.Client("http://127.0.0.1:9/cnbapi", cache=False)
    assert repr(source_banner(unknown_day)) == "Data: sandbox data from cnbkit's local sandbox"
    for banner in (source_banner(sandbox), source_banner(unknown_day)):  # no port: it changes
        assert "127.0.0.1" not in repr(banner) and "127.0.0.1" not in banner._repr_html_()
    monkeypatch.setenv("CNBKIT_SOURCE", "sandbox-fallback")
    monkeypatch.setenv("CNBKIT_TODAY", "2025-12-31")
    fallback = cnbkit.Client("http://127.0.0.1:9/cnbapi", cache=False)
    html = source_banner(fallback)._repr_html_()
    assert "(clock 2025-12-31) - the live API did not answer" in html


def test_the_banner_follows_configure(monkeypatch: pytest.MonkeyPatch) -> None:
    import cnbkit
    from cnbkit import default_client

    for name in ("CNBKIT_SOURCE", "CNBKIT_BASE_URL", "CNBKIT_TODAY"):
        monkeypatch.delenv(name, raising=False)
    previous = default_client()
    try:
        cnbkit.configure(base_url="http://127.0.0.1:9/cnbapi", cache=False)
        assert source_banner().source.kind == "sandbox"  # after configure, never "live"
        cnbkit.configure(cache=False)
        assert source_banner().source.kind == "live"
    finally:
        cnbkit.configure(previous)


def test_fixing_explorer_against_the_sandbox(tmp_path) -> None:
    import cnbkit
    from cnbkit.sandbox import Sandbox

    with Sandbox() as sandbox:
        client = cnbkit.Client(base_url=sandbox.url, cache_dir=tmp_path, progress=False)
        panel = FixingExplorer(["EUR"], (2013, 2017), client=client)
        eur = panel.plotted["EUR"]
        assert eur.loc["2014-06-02"] >= 27.0 - 1e-9  # the floor held
        panel.view.value = "vs averages"
        assert panel.plotted["EUR quarterly average"].notna().all()
        client.close()


def test_accounts_panel_months_and_categories() -> None:
    from cnbkit.widgets import AccountsPanel

    accounts = pd.DataFrame({"id": ["A", "B"], "name": ["Běžný účet", "Spoření"],
                             "currency": ["CZK", "CZK"], "iban": ["CZ01", "CZ02"]})
    tx = pd.DataFrame({
        "booking_date": pd.to_datetime(["2025-01-05", "2025-01-20", "2025-02-01"]),
        "amount": [100.0, -40.0, -10.0],
        "remittance": ["mzda", "/VS/123/KS/558 nájem", "nájem"]})
    fetched: list[str] = []

    def load(account: str) -> pd.DataFrame:
        fetched.append(account)
        return tx if account == "A" else tx.iloc[:1]

    panel = AccountsPanel(accounts, load)
    assert panel.plotted["spending"].tolist() == [40.0, 10.0]
    assert next(label for label, _ in panel.account.options) == \
        "Běžný účet (current account), CZK, CZ01"
    panel.by.value = "category"
    assert list(panel.plotted) == ["nájem (rent)"]
    assert panel.plotted["nájem (rent)"].tolist() == [40.0, 10.0]
    panel.by.value = "month"
    panel.account.value = "B"
    assert panel.plotted["income"].tolist() == [100.0]
    assert fetched == ["A", "B"]


UNITS = ("% p.a.", "bp", "CZK", "index", "days", "ratio", "-1 to 1", "count")


def _static_figures(client) -> dict:
    """Every static figure of cnbkit.figures, drawn from the sandbox's data."""
    from cnbkit import figures

    czeonia = cnbkit_czeonia(client)
    pribor = _sandbox("pribor", client, 2024, 2025)
    omo = _sandbox("omo", client, "2023-12-01", 2025)
    eur = _sandbox("exrates", client, 2013, 2017, ["EUR"]).set_index("valid_for")[
        "rate_per_unit"]
    points = _sandbox("forward", client, 2025, 2025)
    rates = _sandbox("exrates", client, 2025, 2025, ["EUR", "USD", "PLN"])
    wide = rates.pivot_table(index="valid_for", columns="currency_code", values="rate_per_unit")
    yields = analysis.tbill_yields(_sandbox("skd", client, "2025-12-01", "2025-12-31"))
    repo = analysis.repo_rate(omo)
    premium = analysis.term_premium(pribor, czeonia, repo=repo)
    cross = analysis.cross_rate_series(wide, ["EUR/USD", "EUR/PLN"])
    rates_in_force = analysis.policy_rates(omo)
    changes = analysis.repo_changes(rates_in_force)
    premia = analysis.deposit_term_premia(pribor, rates_in_force)
    path = analysis.implied_policy_path(pribor, rates_in_force, premia)
    czeonia_frame = _sandbox("czeonia", client, 2024, 2025)
    position = analysis.corridor_position(czeonia_frame, rates_in_force)
    halves = {"H1": ("2025-01-01", "2025-06-30"), "H2": ("2025-07-01", "2025-12-31")}
    pln = analysis.cross_rate_series(wide, ["EUR/CZK", "USD/CZK", "EUR/PLN"])
    extra = {
        "PRIBOR curve": figures.pribor_curve_figure(
            {"end": analysis.term_structure(pribor, "2025-12-31")}),
        "tenders": figures.tender_figure(analysis.tender_table(omo)),
        "policy path": figures.policy_path_figure(path, rates_in_force, ["2024-06-03"]),
        "curve moves": figures.curve_moves_figure(analysis.curve_moves(pribor, changes)),
        "hedge cost": figures.hedge_cost_figure(analysis.forward_premium(points, rates)),
        "rolling hedge": figures.rolling_hedge_figure(
            {"EUR 3M": analysis.rolling_hedge(points, rates, start="2025-01-02")}),
        "liquidity": figures.liquidity_figure(analysis.liquidity_absorbed(omo),
                                              analysis.tender_table(omo)),
        "corridor": figures.corridor_figure(position,
                                            analysis.period_end_kind(position.index)),
        "period ends": figures.period_end_figure(
            analysis.period_end_table(czeonia_frame, rates_in_force)),
        "FX risk": figures.fx_risk_figure(pln, analysis.fx_risk_by_regime(pln, halves)),
        "spreads": figures.spread_figure(pd.DataFrame({"3M": analysis.spread_bp(
            pribor[pribor["period"] == "THREE_MONTH"].set_index("valid_for")["pribor"],
            czeonia)}), rates_in_force["repo_pct"]),
        "currency moves": figures.currency_moves_figure(
            pd.Series({"AED": 0.0, "PLN": -3.0, "HUF": 4.0, "VES": 600.0}), ["AED"],
            pd.Timestamp("2024-01-31"), pd.Timestamp("2025-12-31")),
    }
    return extra | {
        "floor": figures.floor_figure(eur, notebook_episode("01")["floor_phases"](eur)),
        "czeonia": figures.czeonia_figure(czeonia, analysis.czeonia_averages(czeonia)),
        "term premium": figures.term_premium_figure(premium, repo),
        "ex ante": figures.ex_ante_figure(premium),
        "forward curve": figures.forward_curve_figure(
            analysis.implied_yield_curve(points, rates, pribor, "2025-12-31"),
            analysis.term_structure(pribor, "2025-12-31")),
        "offered rate": figures.offered_rate_figure(analysis.forward_table(
            points, rates, pribor, "EUR_TO_CZK", "THREE_MONTH", czk_bid_offer_bp=10.0)),
        "cross rates": figures.cross_rates_figure(cross),
        "return statistics": figures.return_statistics_figure(
            analysis.robust_return_statistics(cross, {"H1": ("2025-01-01", "2025-06-30"),
                                                      "H2": ("2025-07-01", "2025-12-31")})),
        "omo": figures.omo_figure(analysis.omo_by_type(omo, "YE")),
        "T-bill curve": figures.tbill_curve_figure(
            {day: analysis.tbill_curve(yields, day) for day in ("2025-12-15", "2025-12-31")},
            analysis.term_structure(pribor, "2025-12-31")),
    }


def cnbkit_czeonia(client) -> pd.Series:
    return _sandbox("czeonia", client, 2024, 2025).set_index("valid_for")["rate"]


def _sandbox(group: str, client, start, end, *args) -> pd.DataFrame:
    import cnbkit

    return getattr(cnbkit, group).history(start, end, *args, client=client)


def test_static_figures_have_a_title_and_units_on_every_axis(client) -> None:
    for name, figure in _static_figures(client).items():
        assert figure.title and repr(figure).startswith(f"<figure: {figure.title} (")
        for ax in figure.axes:
            if not ax.get_ylabel():  # a panel sharing its neighbour's y axis
                assert ax.get_shared_y_axes().get_siblings(ax) != [ax], name
                continue
            assert any(unit in ax.get_ylabel() for unit in UNITS), (name, ax.get_ylabel())
        assert any(ax.get_xlabel() for ax in figure.axes), name
        png = figure.png()
        assert png.startswith(b"\x89PNG") and png == figure.png(), name  # no timestamp


def test_every_figure_function_is_drawn_by_the_figure_tests(client) -> None:
    from cnbkit import figures

    drawn = {figure.title for figure in _static_figures(client).values()}
    functions = [name for name in figures.__all__ if name.endswith("_figure")]
    assert len(drawn) == len(functions) == 22


def test_the_floor_figure_s_legend_covers_no_fixing(client) -> None:
    """The legend sits below the axes, so no line of the 2013-2017 fixing is under it."""
    from cnbkit import figures

    eur = _sandbox("exrates", client, 2013, 2017, ["EUR"]).set_index("valid_for")[
        "rate_per_unit"]
    import matplotlib as mpl
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    figure = figures.floor_figure(eur, notebook_episode("01")["floor_phases"](eur))
    canvas = FigureCanvasAgg(figure)
    with mpl.rc_context(figures.STYLE):  # drawn as the PNG is
        canvas.draw()
    renderer = canvas.get_renderer()
    legend = figure.legends[0].get_window_extent(renderer)
    axes = figure.axes[0].get_window_extent(renderer)
    assert not legend.overlaps(axes) and legend.y1 <= axes.y0
    assert figure.axes[0].get_legend() is None


def test_the_omo_figure_names_each_operation_in_english_and_shows_every_bar(client) -> None:
    """05 c6: the legend below the axes, inside the figure (it was clipped at both sides), the
    types in English, and every type's bars visible on a log axis (the deposit facility's ten
    bn were invisible stacked on the repos' 2,700)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from cnbkit import figures

    omo = _sandbox("omo", client, "2023-12-01", 2025)
    figure = figures.omo_figure(analysis.omo_by_type(omo, "YE"))
    labels = [text.get_text().split(" (mean")[0] for text in figure.legends[0].get_texts()]
    assert labels == ["deposit facility", "marginal lending facility", "2-week repo"]
    canvas = FigureCanvasAgg(figure)
    import matplotlib as mpl

    with mpl.rc_context(figures.STYLE):
        canvas.draw()
    renderer = canvas.get_renderer()
    whole = figure.bbox
    legend = figure.legends[0].get_window_extent(renderer)
    assert whole.x0 <= legend.x0 and legend.x1 <= whole.x1 and whole.y0 <= legend.y0
    left = figure.axes[0]
    assert left.get_yscale() == "log" and left.get_legend() is None
    for container, name in zip(left.containers, labels, strict=True):
        heights = [bar.get_window_extent(renderer).height for bar in container
                   if np.isfinite(bar.get_height())]
        if name != "marginal lending facility":  # (a year without any has no bar)
            assert heights and min(heights) >= 10, (name, heights)


def _drawn(figure):
    """The figure drawn as its PNG is (the constrained layout settled), and its renderer."""
    import matplotlib as mpl
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from cnbkit import figures

    canvas = FigureCanvasAgg(figure)
    with mpl.rc_context(figures.STYLE):
        canvas.draw()
    return canvas.get_renderer()


def test_the_omo_panel_s_title_and_every_type_can_be_read(client) -> None:
    """05 c3: the title inside the figure (it was clipped), the outstanding amount and the
    turnover on log axes where each type spans rows of pixels (the deposit and marginal
    lending lines lay flat at zero on a 0-2,800 scale)."""
    omo = _sandbox("omo", client, "2019-12-01", 2025)
    panel = OmoPanel(omo=omo, freq="quarter")
    renderer = _drawn(panel.figure)
    outstanding, turnover, _rate = panel.figure.axes
    title = outstanding.title.get_window_extent(renderer)
    assert panel.figure.bbox.x0 <= title.x0 and title.x1 <= panel.figure.bbox.x1
    assert outstanding.get_yscale() == turnover.get_yscale() == "log"
    deposit = outstanding.lines[0]
    top = outstanding.transData.transform((0, np.nanmax(deposit.get_ydata())))[1]
    bottom = outstanding.transData.transform((0, outstanding.get_ylim()[0]))[1]
    assert top - bottom >= 20  # ten bn stands well above the axis, not flat at zero
    assert [t.get_text() for t in panel.figure.legends[0].get_texts()] == [
        "deposit facility", "marginal lending facility", "2-week repo"]


def test_controls_are_laid_out_for_their_values(explorer: FixingExplorer) -> None:
    """The Years slider wide enough for its handles to stay apart (at least 9 px a year) and
    for its readout ("2013 – 2017", 11 characters); lists and dropdowns as wide as their
    longest label; the chosen currencies first in the list, inside its rows."""
    years = explorer.years
    width = int(years.layout.width.removesuffix("px"))
    assert width >= 9 * (years.max - years.min) + 11 * 7
    assert years.style.description_width == "initial"
    assert list(explorer.currencies.options[:2]) == ["EUR", "USD"]
    assert explorer.currencies.rows >= len(explorer.currencies.value)
    for control in (explorer.currencies, explorer.view):
        longest = max(len(str(label)) for label in control._options_labels)
        assert int(control.layout.width.removesuffix("px")) >= 7 * longest + 40, control


def test_a_search_for_a_fixing_currency_says_where_it_is() -> None:
    """04: PLN and THB are in the daily fixing, not among the other currencies: the search
    says so, in the status line and in the figure, instead of drawing empty 0-1 axes."""
    months = pd.date_range("2024-01-31", periods=3, freq="ME")
    fx = pd.DataFrame({"valid_for": months, "currency_code": "AMD", "currency": "dram",
                       "country": "Armenia", "rate_per_unit": 0.05})
    days = pd.bdate_range("2024-01-01", "2024-03-31")
    fixing = pd.concat([pd.DataFrame({"valid_for": days, "currency_code": code,
                                      "rate_per_unit": 25.0}) for code in ("EUR", "PLN", "THB")])
    panel = OtherCurrenciesPanel(fx=fx, fixing=fixing, currency="AMD", base="EUR")
    for code in ("PLN", "thb"):
        panel.search.value = code
        assert panel.currency.value is None
        assert "daily fixing" in panel.status.value and code.upper() in panel.status.value
        assert panel.figure.axes == []  # no empty axes
        assert any("daily fixing" in text.get_text() for text in panel.figure.texts)
    panel.search.value = "zzz"
    assert "no other currency matches 'zzz'" in panel.status.value
    assert panel.matches("arm") == ["AMD"] and panel.search.value == "zzz"


def test_the_premia_of_one_year_are_named_by_that_year(client) -> None:
    """08: the first choice of the premia window read "2022-2022"."""
    pribor = _sandbox("pribor", client, 2022, 2025)
    omo = _sandbox("omo", client, "2021-12-01", 2025)
    panel = PolicyPathPanel(pribor=pribor, omo=omo)
    labels = [label for label, _ in panel.premia.options]
    assert labels[0] == "2022" and labels[1] == "2022-2023"


def test_panels_take_what_their_cell_asks_for(client) -> None:
    """The values a second panel is built with are the ones it shows (the notebooks build one
    rather than change the first)."""
    omo = _sandbox("omo", client, "2023-12-01", 2025)
    panel = OmoPanel(omo=omo, types=("Repo",), freq="month")
    assert panel.types.value == ("Repo",) and panel.freq.value == "month"
    assert list(panel.plotted) == ["2-week repo outstanding", "2-week repo turnover",
                                   "2-week repo rate"]


def test_the_policy_rate_steps_are_behind_czeonia_spreads_and_hedge_cost(client) -> None:
    """02 c3, c9, c14 and 03 c16: the CNB's repo rate in force is drawn behind the series
    that follow its steps."""
    from cnbkit import figures

    pribor = _sandbox("pribor", client, 2024, 2025)
    czeonia = _sandbox("czeonia", client, 2024, 2025)
    omo = _sandbox("omo", client, "2023-12-01", 2025)
    repo = analysis.policy_rates(omo)["repo_pct"]
    rates = czeonia.set_index("valid_for")["rate"]
    label = "CNB 2W repo rate in force"
    panel = MoneyMarketPanel(pribor=pribor, czeonia=czeonia, omo=omo)
    assert label in panel.plotted
    assert panel.plotted[label].index.min() >= rates.index.min()
    shown = {
        "czeonia": figures.czeonia_figure(rates, analysis.czeonia_averages(rates, "ME"), repo),
        "spreads": figures.spread_figure(pd.DataFrame({"3M": analysis.spread_bp(
            pribor[pribor["period"] == "THREE_MONTH"].set_index("valid_for")["pribor"],
            rates)}), repo),
        "hedge cost": figures.hedge_cost_figure(analysis.forward_premium(
            _sandbox("forward", client, 2025, 2025),
            _sandbox("exrates", client, 2024, 2025, ["EUR", "USD"])), repo)}
    for name, figure in shown.items():
        labels = [line.get_label() for ax in figure.axes for line in ax.lines]
        assert label in labels, (name, labels)
    top = shown["czeonia"].axes[0]
    averages = [line.get_label() for line in top.lines if "average" in line.get_label()
                or "mean" in line.get_label()]
    assert averages == ["compounded average (ACT/360, calendar periods)"]  # not two at once


def test_the_liquidity_figure_keeps_the_allotments_apart_from_the_stock(client) -> None:
    """08 c14: each tender's allotment (a flow, CZK bn per tender) was drawn on the axis of
    the amount outstanding (a stock); it has an axis of its own."""
    from cnbkit import figures

    omo = _sandbox("omo", client, "2023-12-01", 2025)
    figure = figures.liquidity_figure(analysis.liquidity_absorbed(omo), analysis.tender_table(omo))
    stock, deposits, flow = figure.axes
    assert "end of day" in stock.get_ylabel() and not stock.lines  # the stack only
    assert [line.get_label() for line in flow.lines] == [
        "allotted in each 2-week repo tender (a flow)"]
    assert "per tender" in flow.get_ylabel() and "outstanding" in deposits.get_ylabel()


def test_the_offered_rate_figure_shows_its_point_on_one_axis(client) -> None:
    """03 c10: the point (the implied rate carries half the CZK bid-offer spread) was visible
    only in the bottom panel; one axis in bp now holds the gap and half the spread, which lie
    on each other."""
    from cnbkit import figures

    points = _sandbox("forward", client, 2017, 2020)
    rates = _sandbox("exrates", client, 2017, 2020, ["EUR"])
    pribor = _sandbox("pribor", client, 2017, 2020, "THREE_MONTH")
    table = analysis.forward_table(points, rates, pribor, "EUR_TO_CZK", "THREE_MONTH",
                                   czk_bid_offer_bp=10.0).dropna(subset=["pribor_pct"])
    figure = figures.offered_rate_figure(table, czk_bid_offer_bp=10.0)
    (ax,) = figure.axes
    assert ax.get_ylabel() == "bp"
    half, gap = (line.get_ydata() for line in ax.lines)
    assert np.nanmedian(np.abs(np.asarray(half) - np.asarray(gap))) < 0.5


def test_the_currency_moves_axis_spans_the_bulk_and_names_the_rest() -> None:
    """04 c5: one currency's +569 % stretched the axis to +600 %, squeezing the others into a
    few bins; the axis spans the quartiles widened by three interquartile ranges, and the
    few beyond are named at its edge."""
    from cnbkit import figures

    change = pd.Series(np.linspace(-15, 15, 60), index=[f"C{i:02d}" for i in range(60)])
    change["VES"], change["ARS"] = 568.8, 78.0
    figure = figures.currency_moves_figure(change, ["C30"], pd.Timestamp("2024-01-31"),
                                           pd.Timestamp("2025-12-31"))
    (ax,) = figure.axes
    q1, q3 = change.quantile([0.25, 0.75])
    assert ax.get_xlim()[1] < min(change.max(), q3 + 3 * (q3 - q1)) + 5
    notes = [text.get_text() for text in ax.texts]
    assert any("VES +569 %" in note and "ARS +78 %" in note for note in notes), notes


def test_the_tbill_figure_draws_a_curve_per_day(client) -> None:
    """06 c9: one line per day, each through that day's issues in order of maturity."""
    from cnbkit import figures

    yields = analysis.tbill_yields(_sandbox("skd", client, "2025-11-01", "2025-12-31"))
    settled = yields["settlement_date"]
    days = list(settled.groupby(settled.dt.to_period("M")).max())  # each month's last day
    assert days[-1] == last_published("skd.daily")  # the data ends where the catalog says
    figure = figures.tbill_curve_figure({d: analysis.tbill_curve(yields, d) for d in days})
    (ax,) = figure.axes
    curves = [line for line in ax.lines if line.get_label().startswith("T-bills")]
    assert [line.get_label()[-11:] for line in curves] == [f"{d:%d %b %Y}" for d in days]
    for line in curves:
        x = np.asarray(line.get_xdata(), dtype=float)
        assert len(x) >= 3 and (np.diff(x) >= 0).all()  # joined in order of maturity

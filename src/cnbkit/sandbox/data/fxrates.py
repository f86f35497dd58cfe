"""Deterministic synthetic monthly rates of other currencies (the ``/fxrates`` operations).

124 real ISO currencies that the daily fixing does not quote, with Czech and English country and
currency names. One row per currency and month from :data:`START` (2004-01) on; ``validFor`` is
the month's last day and ``order`` is the month number (1..12).

The CNB sets these rates "every last working day in a month" (CNB, *Methodology - rates of
other currencies*,
https://www.cnb.cz/en/financial-markets/foreign-exchange-market/methodology-rates-of-other-currencies),
and the API dates them on the month's last day (``validFor``). So the rate of month M is built
from the real USD/CZK fixing of **M's last business day** (the day it is set), divided by the
currency's units per USD (a late-2025 level), times a per-currency log-normal random walk
that ends near 1 in 2025-12 (seeded by currency code; so two currencies of about the same
level, such as ARS and NGN, still differ). The currencies in :data:`PEGGED_TO_USD` keep their
peg: no walk, so for BMD, BSD and PAB (1:1) the rate per unit is that day's USD fixing; those
in :data:`PEGGED_TO_FIXING` are set from the fixing of the currency they are pegged to (the
CFA francs from the EUR fixing at 655.957 per euro, the rand's neighbours from the ZAR
fixing, ...). ``amount`` is 1, 100 or 1000 so that quotes have useful digits. VEF is ``0.000`` from
2019-01 and ZWL from 2024-05, as in the live data.

Example:
    >>> rows = month_rows(0, 2024, 5)
    >>> len(rows), rows[0].code
    (124, 'AED')
"""

from __future__ import annotations

import calendar as _calendar
import datetime
import functools
import math
import random
from dataclasses import dataclass

from cnbkit.sandbox.data.fixing import load

__all__ = ["CURRENCIES", "PEGGED_TO_FIXING", "PEGGED_TO_USD", "START", "FxRow", "month_rows",
           "names"]

#: The first month of the series.
START = (2004, 1)
#: ``(code, country CZ, currency CZ, country EN, currency EN, units per USD)``
CURRENCIES: tuple[tuple[str, str, str, str, str, float], ...] = (
    ("AED", "Spojené arabské emiráty", "dirham", "United Arab Emirates", "dirham", 3.67),
    ("AFN", "Afghánistán", "afghán", "Afghanistan", "afghani", 66),
    ("ALL", "Albánie", "lek", "Albania", "lek", 83),
    ("AMD", "Arménie", "dram", "Armenia", "dram", 385),
    ("ANG", "Curaçao", "gulden", "Curaçao", "guilder", 1.79),
    ("AOA", "Angola", "kwanza", "Angola", "kwanza", 915),
    ("ARS", "Argentina", "peso", "Argentina", "peso", 1450),
    ("AWG", "Aruba", "zlatý", "Aruba", "florin", 1.79),
    ("AZN", "Ázerbájdžán", "manat", "Azerbaijan", "manat", 1.7),
    (
        "BAM",
        "Bosna a Hercegovina",
        "konvertibilní marka",
        "Bosnia and Herzegovina",
        "convertible mark",
        1.67,
    ),
    ("BBD", "Barbados", "dolar", "Barbados", "dollar", 2),
    ("BDT", "Bangladéš", "taka", "Bangladesh", "taka", 122),
    ("BHD", "Bahrajn", "dinár", "Bahrain", "dinar", 0.376),
    ("BIF", "Burundi", "frank", "Burundi", "franc", 2950),
    ("BMD", "Bermudy", "dolar", "Bermuda", "dollar", 1),
    ("BND", "Brunej", "dolar", "Brunei", "dollar", 1.29),
    ("BOB", "Bolívie", "boliviano", "Bolivia", "boliviano", 6.91),
    ("BSD", "Bahamy", "dolar", "Bahamas", "dollar", 1),
    ("BTN", "Bhútán", "ngultrum", "Bhutan", "ngultrum", 89),
    ("BWP", "Botswana", "pula", "Botswana", "pula", 13.5),
    ("BYN", "Bělorusko", "rubl", "Belarus", "ruble", 2.95),
    ("BZD", "Belize", "dolar", "Belize", "dollar", 2.0),
    ("CDF", "Kongo (Kinshasa)", "frank", "Congo (Kinshasa)", "franc", 2200),
    ("CLP", "Chile", "peso", "Chile", "peso", 930),
    ("COP", "Kolumbie", "peso", "Colombia", "peso", 3800),
    ("CRC", "Kostarika", "colón", "Costa Rica", "colon", 500),
    ("CUP", "Kuba", "peso", "Cuba", "peso", 24),
    ("CVE", "Kapverdy", "escudo", "Cape Verde", "escudo", 94),
    ("DJF", "Džibutsko", "frank", "Djibouti", "franc", 178),
    ("DOP", "Dominikánská republika", "peso", "Dominican Republic", "peso", 63),
    ("DZD", "Alžírsko", "dinár", "Algeria", "dinar", 130),
    ("EGP", "Egypt", "libra", "Egypt", "pound", 47.5),
    ("ERN", "Eritrea", "nakfa", "Eritrea", "nakfa", 15),
    ("ETB", "Etiopie", "birr", "Ethiopia", "birr", 150),
    ("FJD", "Fidži", "dolar", "Fiji", "dollar", 2.25),
    ("GEL", "Gruzie", "lari", "Georgia", "lari", 2.7),
    ("GHS", "Ghana", "cedi", "Ghana", "cedi", 11),
    ("GMD", "Gambie", "dalasi", "Gambia", "dalasi", 72),
    ("GNF", "Guinea", "frank", "Guinea", "franc", 8700),
    ("GTQ", "Guatemala", "quetzal", "Guatemala", "quetzal", 7.66),
    ("GYD", "Guyana", "dolar", "Guyana", "dollar", 209),
    ("HNL", "Honduras", "lempira", "Honduras", "lempira", 26.3),
    ("HTG", "Haiti", "gourde", "Haiti", "gourde", 131),
    ("IQD", "Irák", "dinár", "Iraq", "dinar", 1310),
    ("IRR", "Írán", "rijál", "Iran", "rial", 42000),
    ("JMD", "Jamajka", "dolar", "Jamaica", "dollar", 160),
    ("JOD", "Jordánsko", "dinár", "Jordan", "dinar", 0.709),
    ("KES", "Keňa", "šilink", "Kenya", "shilling", 129),
    ("KGS", "Kyrgyzstán", "som", "Kyrgyzstan", "som", 87.4),
    ("KHR", "Kambodža", "riel", "Cambodia", "riel", 4010),
    ("KMF", "Komory", "frank", "Comoros", "franc", 420),
    ("KWD", "Kuvajt", "dinár", "Kuwait", "dinar", 0.307),
    ("KYD", "Kajmanské ostrovy", "dolar", "Cayman Islands", "dollar", 0.83),
    ("KZT", "Kazachstán", "tenge", "Kazakhstan", "tenge", 510),
    ("LAK", "Laos", "kip", "Laos", "kip", 21700),
    ("LBP", "Libanon", "libra", "Lebanon", "pound", 89500),
    ("LKR", "Srí Lanka", "rupie", "Sri Lanka", "rupee", 300),
    ("LRD", "Libérie", "dolar", "Liberia", "dollar", 180),
    ("LSL", "Lesotho", "loti", "Lesotho", "loti", 17.3),
    ("LYD", "Libye", "dinár", "Libya", "dinar", 5.45),
    ("MAD", "Maroko", "dirham", "Morocco", "dirham", 9.2),
    ("MDL", "Moldavsko", "leu", "Moldova", "leu", 17),
    ("MGA", "Madagaskar", "ariary", "Madagascar", "ariary", 4500),
    ("MKD", "Severní Makedonie", "denár", "North Macedonia", "denar", 52.6),
    ("MMK", "Myanmar", "kyat", "Myanmar", "kyat", 2100),
    ("MNT", "Mongolsko", "tugrik", "Mongolia", "tugrik", 3580),
    ("MOP", "Macao", "pataca", "Macao", "pataca", 8.0),
    ("MRU", "Mauritánie", "ouguiya", "Mauritania", "ouguiya", 39.8),
    ("MUR", "Mauricius", "rupie", "Mauritius", "rupee", 46),
    ("MVR", "Maledivy", "rupie", "Maldives", "rufiyaa", 15.4),
    ("MWK", "Malawi", "kwacha", "Malawi", "kwacha", 1735),
    ("MZN", "Mosambik", "metical", "Mozambique", "metical", 63.9),
    ("NAD", "Namibie", "dolar", "Namibia", "dollar", 17.3),
    ("NGN", "Nigérie", "naira", "Nigeria", "naira", 1450),
    ("NIO", "Nikaragua", "córdoba", "Nicaragua", "cordoba", 36.8),
    ("NPR", "Nepál", "rupie", "Nepal", "rupee", 142),
    ("OMR", "Omán", "rijál", "Oman", "rial", 0.385),
    ("PAB", "Panama", "balboa", "Panama", "balboa", 1),
    ("PEN", "Peru", "sol", "Peru", "sol", 3.37),
    ("PGK", "Papua-Nová Guinea", "kina", "Papua New Guinea", "kina", 4.2),
    ("PKR", "Pákistán", "rupie", "Pakistan", "rupee", 281),
    ("PYG", "Paraguay", "guarani", "Paraguay", "guarani", 7000),
    ("QAR", "Katar", "rijál", "Qatar", "riyal", 3.64),
    ("RSD", "Srbsko", "dinár", "Serbia", "dinar", 100),
    ("RWF", "Rwanda", "frank", "Rwanda", "franc", 1450),
    ("SAR", "Saúdská Arábie", "rijál", "Saudi Arabia", "riyal", 3.75),
    ("SBD", "Šalamounovy ostrovy", "dolar", "Solomon Islands", "dollar", 8.2),
    ("SCR", "Seychely", "rupie", "Seychelles", "rupee", 14),
    ("SDG", "Súdán", "libra", "Sudan", "pound", 600),
    ("SLE", "Sierra Leone", "leone", "Sierra Leone", "leone", 23),
    ("SOS", "Somálsko", "šilink", "Somalia", "shilling", 571),
    ("SRD", "Surinam", "dolar", "Suriname", "dollar", 38),
    ("SSP", "Jižní Súdán", "libra", "South Sudan", "pound", 4600),
    ("STN", "Svatý Tomáš a Princův ostrov", "dobra", "Sao Tome and Principe", "dobra", 21),
    ("SVC", "Salvador", "colón", "El Salvador", "colon", 8.75),
    ("SYP", "Sýrie", "libra", "Syria", "pound", 13000),
    ("SZL", "Eswatini", "lilangeni", "Eswatini", "lilangeni", 17.3),
    ("TJS", "Tádžikistán", "somoni", "Tajikistan", "somoni", 9.3),
    ("TMT", "Turkmenistán", "manat", "Turkmenistan", "manat", 3.5),
    ("TND", "Tunisko", "dinár", "Tunisia", "dinar", 2.95),
    ("TOP", "Tonga", "paanga", "Tonga", "pa'anga", 2.4),
    ("TTD", "Trinidad a Tobago", "dolar", "Trinidad and Tobago", "dollar", 6.78),
    ("TWD", "Tchaj-wan", "dolar", "Taiwan", "dollar", 31),
    ("TZS", "Tanzanie", "šilink", "Tanzania", "shilling", 2450),
    ("UAH", "Ukrajina", "hřivna", "Ukraine", "hryvnia", 42),
    ("UGX", "Uganda", "šilink", "Uganda", "shilling", 3600),
    ("UYU", "Uruguay", "peso", "Uruguay", "peso", 39.8),
    ("UZS", "Uzbekistán", "sum", "Uzbekistan", "som", 12000),
    ("VEF", "Venezuela", "bolívar", "Venezuela", "bolivar", 10),
    ("VES", "Venezuela", "bolívar", "Venezuela", "bolivar", 250),
    ("VND", "Vietnam", "dong", "Vietnam", "dong", 26300),
    ("VUV", "Vanuatu", "vatu", "Vanuatu", "vatu", 120),
    ("WST", "Samoa", "tala", "Samoa", "tala", 2.8),
    ("XAF", "Kamerun", "frank CFA", "Cameroon", "CFA franc", 560),
    ("XCD", "Antigua a Barbuda", "dolar", "Antigua and Barbuda", "dollar", 2.7),
    ("XOF", "Senegal", "frank CFA", "Senegal", "CFA franc", 560),
    ("XPF", "Francouzská Polynésie", "frank CFP", "French Polynesia", "CFP franc", 102),
    ("YER", "Jemen", "rijál", "Yemen", "rial", 239),
    ("ZMW", "Zambie", "kwacha", "Zambia", "kwacha", 23),
    ("ZWL", "Zimbabwe", "dolar", "Zimbabwe", "dollar", 360),
    ("CUC", "Kuba", "peso", "Cuba", "convertible peso", 1),
    ("GIP", "Gibraltar", "libra", "Gibraltar", "pound", 0.75),
    ("FKP", "Falklandské ostrovy", "libra", "Falkland Islands", "pound", 0.75),
    ("SHP", "Svatá Helena", "libra", "Saint Helena", "pound", 0.75),
)
_BY_CODE = {row[0]: row for row in CURRENCIES}
#: Currencies with a fixed rate to the US dollar (their units per USD in :data:`CURRENCIES`).
PEGGED_TO_USD = frozenset({"AED", "ANG", "AWG", "BBD", "BHD", "BMD", "BSD", "BZD", "CUC", "DJF",
                           "JOD", "OMR", "PAB", "QAR", "SAR", "XCD"})
#: Currencies with a fixed rate to a currency of the CNB's daily fixing: ``code -> (that
#: currency, units of code per unit of it)``. The public pegs: the CFA francs (655.957), the
#: CFP franc (119.331742), the convertible mark (1.95583), the Cape Verde escudo (110.265) and
#: the Comorian franc (491.96775) per euro; the Gibraltar, Falkland and Saint Helena pounds at
#: par with sterling; the loti, the Namibian dollar and the lilangeni at par with the rand;
#: the Brunei dollar at par with the Singapore dollar; the pataca at 1.03 per Hong Kong
#: dollar; the ngultrum at par and the Nepalese rupee at 1.6 per Indian rupee.
PEGGED_TO_FIXING: dict[str, tuple[str, float]] = {
    "XAF": ("EUR", 655.957), "XOF": ("EUR", 655.957), "XPF": ("EUR", 119.331742),
    "BAM": ("EUR", 1.95583), "CVE": ("EUR", 110.265), "KMF": ("EUR", 491.96775),
    "GIP": ("GBP", 1.0), "FKP": ("GBP", 1.0), "SHP": ("GBP", 1.0),
    "LSL": ("ZAR", 1.0), "NAD": ("ZAR", 1.0), "SZL": ("ZAR", 1.0),
    "BND": ("SGD", 1.0), "MOP": ("HKD", 1.03), "BTN": ("INR", 1.0), "NPR": ("INR", 1.6),
}  # fmt: skip
_ZERO_FROM = {"VEF": (2019, 1), "ZWL": (2024, 5)}


@dataclass(frozen=True)
class FxRow:
    """One monthly rate: ``rate`` CZK per ``amount`` units of ``code`` for a month."""

    valid_for: datetime.date
    order: int
    code: str
    amount: int
    rate: float


def names(code: str, lang: str) -> tuple[str, str]:
    """``(country, currency)`` in ``lang``; ``KeyError`` for a code not in :data:`CURRENCIES`."""
    row = _BY_CODE[code]
    return (row[3], row[4]) if lang == "EN" else (row[1], row[2])


def _months() -> list[tuple[int, int]]:
    out = []
    year, month = START
    while (year, month) <= (2025, 12):
        out.append((year, month))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


@functools.lru_cache(maxsize=8)
def _table(seed: int) -> dict[tuple[int, int], tuple[FxRow, ...]]:
    months = _months()
    fixing: dict[tuple[int, int], dict[str, float]] = {}  # CZK per unit, month's last day
    anchors = {"USD", *(anchor for anchor, _ in PEGGED_TO_FIXING.values())}
    for year, month in months:
        last_day = datetime.date(year, month, _calendar.monthrange(year, month)[1])
        day = load().last_valid(last_day)  # the month's last business day: the rates' day
        fixing[(year, month)] = {code: day.rates[code][1] / day.rates[code][0]
                                 for code in anchors if day and code in day.rates}
    walks: dict[str, list[float]] = {}
    for code, *_rest in CURRENCIES:
        rng = random.Random(f"{seed}:fxrates:{code}")
        level, path = rng.gauss(0.0, 0.01), []  # near the late-2025 level, not on it
        for _ in months:
            path.append(math.exp(level))
            level += rng.gauss(0.0, 0.025)
        walks[code] = path[::-1]  # anchored at 1 in the last month
    out: dict[tuple[int, int], tuple[FxRow, ...]] = {}
    for i, (year, month) in enumerate(months):
        valid_for = datetime.date(year, month, _calendar.monthrange(year, month)[1])
        rows = []
        for code, _cc, _cu, _ec, _eu, per_usd in CURRENCIES:
            per_unit = 25.0 / per_usd
            amount = 1 if per_unit >= 1 else (100 if per_unit >= 0.01 else 1000)
            walk = 1.0 if code in PEGGED_TO_USD else walks[code][i]
            rate = fixing[(year, month)]["USD"] / per_usd * walk * amount
            anchor, units = PEGGED_TO_FIXING.get(code, ("", 1.0))
            if anchor in fixing[(year, month)]:  # not before the anchor's first fixing
                rate = fixing[(year, month)][anchor] / units * amount
            if code in _ZERO_FROM and (year, month) >= _ZERO_FROM[code]:
                rate = 0.0
            rows.append(FxRow(valid_for, month, code, amount, round(rate, 3)))
        out[(year, month)] = tuple(rows)
    return out


def month_rows(seed: int, year: int, month: int) -> tuple[FxRow, ...]:
    """The rows of one month (empty outside 2004-01 .. 2025-12), in currency-code order."""
    return _table(seed).get((year, month), ())

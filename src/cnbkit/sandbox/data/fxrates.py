"""Deterministic synthetic monthly rates of other currencies (the ``/fxrates`` operations).

124 real ISO currencies that the daily fixing does not quote, with Czech and English country and
currency names. One row per currency and month from :data:`START` (2004-01) on; ``validFor`` is
the month's last day and ``order`` is the month number (1..12).

The CNB sets these rates "every last working day in a month" (CNB, *Methodology - rates of
other currencies*,
https://www.cnb.cz/en/financial-markets/foreign-exchange-market/methodology-rates-of-other-currencies),
and the API dates them on the month's last day (``validFor``). So the rate of month M is built
from the real USD/CZK fixing of **M's last business day** (the day it is set), divided by the
currency's units per USD that month:

* **pegs** (:data:`PEGGED_TO_USD`, :data:`PEGGED_TO_FIXING`): a fixed rate to the US dollar or
  to a currency of the CNB's fixing, from the month the peg began (the central banks' stated
  pegs, as the IMF's *Annual Report on Exchange Arrangements and Exchange Restrictions*
  classifies them): the Gulf, Caribbean and Central American dollar pegs, the Cayman dollar at
  1.20 US dollars, the nakfa at 15, the Turkmen manat at 3.50 (from 2015), the manat of
  Azerbaijan at 1.70 (from April 2017), the boliviano (from November 2011), the cordoba fixed at
  36.6243 from 2024, ...; the CFA and CFP francs, the convertible mark, the escudo, the Comorian
  franc and the dobra (from 2018) at their euro pegs, the Serbian dinar and the denar managed
  against the euro (about 117.2 and 61.5 per euro), the rand's and the rupee's neighbours at
  par. A pegged rate differs from the peg only by the CNB's rounding to three decimals;
* **floating currencies with anchors** (:data:`ANCHORS`): their units per USD at the end of
  December 2023 and 2025 and of the months of their large moves in between (Argentina's
  devaluation of 13 December 2023 and its crawling peg, Nigeria's and Egypt's of early 2024,
  Ethiopia's float of July 2024, Lebanon's official rate of 89,500 from February 2024, ...),
  rounded month-end levels of the central banks' official or reference rates as the financial
  press reported them: approximate (a few %), not the CNB's own figures. Between two anchors the
  rate moves log-linearly with a small seeded noise that vanishes at the anchors;
* **synthetic before the anchors and where none is known**: a seeded log-normal random walk
  that ends on the first anchor (for the currencies without anchors, SDG, SSP, SYP, YER and
  ZWL, on the late-2025 level of :data:`CURRENCIES`, moving about 1 % a month in 2024-2025 and
  2.5 % before). Before 2024 every floating currency's path is synthetic.

``amount`` is 1, 100 or 1000 so that quotes have useful digits. VEF is ``0.000`` from
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
import itertools
import math
import random
from dataclasses import dataclass

from cnbkit.sandbox.data.fixing import load

__all__ = ["ANCHORS", "CURRENCIES", "FIXING_PEG_FROM", "PEGGED_TO_FIXING", "PEGGED_TO_USD",
           "START", "ZERO_FROM", "FxRow",
           "month_rows", "names", "units_per_usd"]

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
    ("ARS", "Argentina", "peso", "Argentina", "peso", 1470),
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
    ("KYD", "Kajmanské ostrovy", "dolar", "Cayman Islands", "dollar", 0.8333),
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
    ("NIO", "Nikaragua", "córdoba", "Nicaragua", "cordoba", 36.6243),
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
#: Currencies with a fixed rate to the US dollar: ``code -> (units per USD, first month)``.
PEGGED_TO_USD: dict[str, tuple[float, tuple[int, int]]] = {
    "AED": (3.6725, START), "ANG": (1.79, START), "AWG": (1.79, START),
    "AZN": (1.70, (2017, 4)), "BBD": (2.0, START), "BHD": (0.376, START),
    "BMD": (1.0, START), "BOB": (6.91, (2011, 11)), "BSD": (1.0, START),
    "BZD": (2.0, START), "CUC": (1.0, START), "CUP": (24.0, (2021, 1)),
    "DJF": (177.721, START), "ERN": (15.0, (2005, 1)), "IRR": (42000.0, (2018, 4)),
    "JOD": (0.709, START), "KYD": (1 / 1.2, START), "MMK": (2100.0, (2023, 6)),
    "MVR": (15.42, (2011, 4)), "NIO": (36.6243, (2024, 1)), "OMR": (0.3845, START),
    "PAB": (1.0, START), "QAR": (3.64, START), "SAR": (3.75, START),
    "SVC": (8.75, START), "TMT": (3.5, (2015, 1)), "XCD": (2.7, START),
}  # fmt: skip
#: Currencies with a fixed (or tightly managed) rate to a currency of the CNB's daily fixing:
#: ``code -> (that currency, units of code per unit of it)``. The public pegs: the CFA francs
#: (655.957), the CFP franc (119.331742), the convertible mark (1.95583), the Cape Verde escudo
#: (110.265), the Comorian franc (491.96775) and the dobra (24.5, from 2018) per euro; the
#: Serbian dinar (about 117.2 from 2020) and the denar (about 61.5) managed against the euro by
#: their central banks; the Gibraltar, Falkland and Saint Helena pounds at par with sterling;
#: the loti, the Namibian dollar and the lilangeni at par with the rand; the Brunei dollar at
#: par with the Singapore dollar; the pataca at 1.03 per Hong Kong dollar; the ngultrum at par
#: and the Nepalese rupee at 1.6 per Indian rupee.
PEGGED_TO_FIXING: dict[str, tuple[str, float]] = {
    "XAF": ("EUR", 655.957), "XOF": ("EUR", 655.957), "XPF": ("EUR", 119.331742),
    "BAM": ("EUR", 1.95583), "CVE": ("EUR", 110.265), "KMF": ("EUR", 491.96775),
    "STN": ("EUR", 24.5), "RSD": ("EUR", 117.2), "MKD": ("EUR", 61.5),
    "GIP": ("GBP", 1.0), "FKP": ("GBP", 1.0), "SHP": ("GBP", 1.0),
    "LSL": ("ZAR", 1.0), "NAD": ("ZAR", 1.0), "SZL": ("ZAR", 1.0),
    "BND": ("SGD", 1.0), "MOP": ("HKD", 1.03), "BTN": ("INR", 1.0), "NPR": ("INR", 1.6),
}  # fmt: skip
#: The first month of a peg of :data:`PEGGED_TO_FIXING` that did not hold from 2004.
FIXING_PEG_FROM: dict[str, tuple[int, int]] = {"STN": (2018, 1), "RSD": (2020, 1)}
_M = tuple[int, int]
#: Floating currencies' units per USD at month ends (see the module's text): ``code ->
#: ((year, month), units per USD), ...``; the late-2025 level of :data:`CURRENCIES` is the
#: last anchor of each.
ANCHORS: dict[str, tuple[tuple[_M, float], ...]] = {
    "AFN": (((2023, 12), 70.0), ((2024, 12), 70.5)),
    "ALL": (((2023, 12), 94.5), ((2024, 12), 93.9)),
    "AMD": (((2023, 12), 404.0), ((2024, 12), 397.0)),
    "AOA": (((2023, 12), 829.0), ((2024, 12), 912.0)),
    "ARS": (((2023, 11), 354.0), ((2023, 12), 808.0), ((2024, 12), 1032.0),
            ((2025, 3), 1073.0), ((2025, 4), 1170.0)),
    "BDT": (((2023, 12), 110.0), ((2024, 12), 120.0)),
    "BIF": (((2023, 12), 2850.0),),
    "BWP": (((2023, 12), 13.4), ((2024, 12), 13.9)),
    "BYN": (((2023, 12), 3.17), ((2024, 12), 3.45)),
    "CDF": (((2023, 12), 2680.0), ((2024, 12), 2840.0)),
    "CLP": (((2023, 12), 877.0), ((2024, 12), 995.0)),
    "COP": (((2023, 12), 3822.0), ((2024, 12), 4405.0)),
    "CRC": (((2023, 12), 519.0), ((2024, 12), 507.0)),
    "DOP": (((2023, 12), 58.0), ((2024, 12), 61.0)),
    "DZD": (((2023, 12), 134.5), ((2024, 12), 135.5)),
    "EGP": (((2023, 12), 30.9), ((2024, 2), 30.9), ((2024, 3), 47.4), ((2024, 12), 50.8)),
    "ETB": (((2023, 12), 56.5), ((2024, 6), 57.6), ((2024, 7), 80.0), ((2024, 12), 125.0)),
    "FJD": (((2023, 12), 2.23), ((2024, 12), 2.32)),
    "GEL": (((2023, 12), 2.69), ((2024, 12), 2.81)),
    "GHS": (((2023, 12), 11.9), ((2024, 12), 14.7), ((2025, 6), 10.3)),
    "GMD": (((2023, 12), 67.3),),
    "GNF": (((2023, 12), 8600.0),),
    "GTQ": (((2023, 12), 7.83), ((2024, 12), 7.72)),
    "GYD": (((2023, 12), 209.0),),
    "HNL": (((2023, 12), 24.7), ((2024, 12), 25.4)),
    "HTG": (((2023, 12), 132.0), ((2024, 12), 131.0)),
    "IQD": (((2023, 12), 1310.0),),
    "JMD": (((2023, 12), 155.0), ((2024, 12), 157.0)),
    "KES": (((2023, 12), 156.5), ((2024, 2), 143.0), ((2024, 12), 129.2)),
    "KGS": (((2023, 12), 89.3), ((2024, 12), 86.9)),
    "KHR": (((2023, 12), 4100.0), ((2024, 12), 4020.0)),
    "KWD": (((2023, 12), 0.307), ((2024, 12), 0.308)),
    "KZT": (((2023, 12), 455.0), ((2024, 12), 525.0)),
    "LAK": (((2023, 12), 20500.0), ((2024, 12), 21900.0)),
    "LBP": (((2023, 12), 15000.0), ((2024, 1), 15000.0), ((2024, 2), 89500.0)),
    "LKR": (((2023, 12), 324.0), ((2024, 12), 293.0)),
    "LRD": (((2023, 12), 187.0),),
    "LYD": (((2023, 12), 4.82), ((2024, 12), 4.92)),
    "MAD": (((2023, 12), 9.9), ((2024, 12), 10.1)),
    "MDL": (((2023, 12), 17.4), ((2024, 12), 18.4)),
    "MGA": (((2023, 12), 4550.0), ((2024, 12), 4700.0)),
    "MNT": (((2023, 12), 3440.0), ((2024, 12), 3400.0)),
    "MRU": (((2023, 12), 39.6),),
    "MUR": (((2023, 12), 44.3), ((2024, 12), 47.0)),
    "MWK": (((2023, 11), 1700.0), ((2024, 12), 1750.0)),
    "MZN": (((2023, 12), 63.9),),
    "NGN": (((2023, 12), 907.0), ((2024, 1), 1455.0), ((2024, 2), 1600.0),
            ((2024, 3), 1310.0), ((2024, 12), 1535.0)),
    "PEN": (((2023, 12), 3.70), ((2024, 12), 3.76)),
    "PGK": (((2023, 12), 3.73), ((2024, 12), 4.03)),
    "PKR": (((2023, 12), 282.0), ((2024, 12), 278.5)),
    "PYG": (((2023, 12), 7280.0), ((2024, 12), 7800.0)),
    "RWF": (((2023, 12), 1265.0), ((2024, 12), 1390.0)),
    "SBD": (((2023, 12), 8.4),),
    "SCR": (((2023, 12), 13.5), ((2024, 12), 14.3)),
    "SLE": (((2023, 12), 22.6),),
    "SOS": (((2023, 12), 571.0),),
    "SRD": (((2023, 12), 37.5), ((2024, 12), 35.1)),
    "TJS": (((2023, 12), 10.9), ((2024, 12), 10.9)),
    "TND": (((2023, 12), 3.07), ((2024, 12), 3.18)),
    "TOP": (((2023, 12), 2.33),),
    "TTD": (((2023, 12), 6.78),),
    "TWD": (((2023, 12), 30.7), ((2024, 12), 32.8)),
    "TZS": (((2023, 12), 2510.0), ((2024, 12), 2430.0)),
    "UAH": (((2023, 12), 38.0), ((2024, 12), 42.0)),
    "UGX": (((2023, 12), 3780.0), ((2024, 12), 3670.0)),
    "UYU": (((2023, 12), 39.0), ((2024, 12), 44.1)),
    "UZS": (((2023, 12), 12340.0), ((2024, 12), 12900.0)),
    "VES": (((2023, 12), 35.95), ((2024, 12), 51.9)),
    "VND": (((2023, 12), 24260.0), ((2024, 12), 25450.0)),
    "VUV": (((2023, 12), 119.0),),
    "WST": (((2023, 12), 2.72),),
    "ZMW": (((2023, 12), 25.7), ((2024, 12), 27.9)),
}  # fmt: skip
#: The month from which a dead currency is quoted ``0.000``, as in the live data.
ZERO_FROM = {"VEF": (2019, 1), "ZWL": (2024, 5)}


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


def _anchors(code: str) -> list[tuple[int, float]]:
    """``(month index, log units per USD)`` of a floating currency's anchors, the late-2025
    level of :data:`CURRENCIES` last."""
    index = {month: i for i, month in enumerate(_months())}
    points = [(index[month], math.log(value)) for month, value in ANCHORS.get(code, ())]
    points.append((len(index) - 1, math.log(_BY_CODE[code][5])))
    return points


@functools.lru_cache(maxsize=8)
def units_per_usd(seed: int) -> dict[str, tuple[float, ...]]:
    """``code -> units per USD`` of every month from :data:`START`, for the currencies not
    pegged to a currency of the fixing (see the module's text)."""
    months = _months()
    out: dict[str, tuple[float, ...]] = {}
    for code, *_rest in CURRENCIES:
        rng = random.Random(f"{seed}:fxrates:{code}")
        if code in PEGGED_TO_USD:
            level, since = PEGGED_TO_USD[code]
            points = [(months.index(since), math.log(level)), (len(months) - 1, math.log(level))]
        else:
            points = _anchors(code)
        path = [0.0] * len(months)
        for i0, v0 in points:
            path[i0] = v0
        for (i0, v0), (i1, v1) in itertools.pairwise(points):
            walk, bridge = 0.0, []
            for _ in range(i1 - i0):
                walk += rng.gauss(0.0, 0.012)
                bridge.append(walk)
            for k in range(i0, i1 + 1):
                share = (k - i0) / (i1 - i0) if i1 > i0 else 0.0
                noise = bridge[k - i0 - 1] - share * bridge[-1] if k > i0 else 0.0
                if code in PEGGED_TO_USD:
                    noise = 0.0
                path[k] = v0 + (v1 - v0) * share + noise
        first, level = points[0]
        recent = months.index((2024, 1))
        for k in range(first - 1, -1, -1):  # synthetic before the first anchor
            level += rng.gauss(0.0, 0.012 if k >= recent else 0.025)  # calmer in 2024-2025
            path[k] = level
        out[code] = tuple(math.exp(v) for v in path)
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
    per_usd_path = units_per_usd(seed)
    out: dict[tuple[int, int], tuple[FxRow, ...]] = {}
    for i, (year, month) in enumerate(months):
        valid_for = datetime.date(year, month, _calendar.monthrange(year, month)[1])
        rows = []
        for code, _cc, _cu, _ec, _eu, per_usd in CURRENCIES:
            per_unit = 25.0 / per_usd
            amount = 1 if per_unit >= 1 else (100 if per_unit >= 0.01 else 1000)
            rate = fixing[(year, month)]["USD"] / per_usd_path[code][i] * amount
            anchor, units = PEGGED_TO_FIXING.get(code, ("", 1.0))
            pegged = (year, month) >= FIXING_PEG_FROM.get(code, START)
            if anchor in fixing[(year, month)] and pegged:  # from the anchor's first fixing
                rate = fixing[(year, month)][anchor] / units * amount
            if code in ZERO_FROM and (year, month) >= ZERO_FROM[code]:
                rate = 0.0
            rows.append(FxRow(valid_for, month, code, amount, round(rate, 3)))
        out[(year, month)] = tuple(rows)
    return out


def month_rows(seed: int, year: int, month: int) -> tuple[FxRow, ...]:
    """The rows of one month (empty outside 2004-01 .. 2025-12), in currency-code order."""
    return _table(seed).get((year, month), ())

"""Czech and English country and currency names of the 56 codes of the CNB fixing.

The names of the currencies quoted today are the live API's own (checked against the real
captures in both languages); the names of legacy currencies (ATS, DEM, XEU, SKK...) follow the
same style.

Example:
    >>> from cnbkit.sandbox.data.names import names
    >>> names("CNY", "CZ"), names("CNY", "EN")
    (('Čína', 'žen-min-pi'), ('China', 'renminbi'))
"""

from __future__ import annotations

__all__ = ["FIXING_NAMES", "names"]

#: ``code -> (country CZ, currency CZ, country EN, currency EN)``
FIXING_NAMES: dict[str, tuple[str, str, str, str]] = {
    "ATS": ("Rakousko", "šilink", "Austria", "schilling"),
    "AUD": ("Austrálie", "dolar", "Australia", "dollar"),
    "BEF": ("Belgie", "frank", "Belgium", "franc"),
    "BGN": ("Bulharsko", "lev", "Bulgaria", "lev"),
    "BRL": ("Brazílie", "real", "Brazil", "real"),
    "CAD": ("Kanada", "dolar", "Canada", "dollar"),
    "CHF": ("Švýcarsko", "frank", "Switzerland", "franc"),
    "CNY": ("Čína", "žen-min-pi", "China", "renminbi"),
    "CYP": ("Kypr", "libra", "Cyprus", "pound"),
    "DEM": ("Německo", "marka", "Germany", "mark"),
    "DKK": ("Dánsko", "koruna", "Denmark", "krone"),
    "EEK": ("Estonsko", "koruna", "Estonia", "kroon"),
    "ESP": ("Španělsko", "peseta", "Spain", "peseta"),
    "EUR": ("EMU", "euro", "EMU", "euro"),
    "FIM": ("Finsko", "marka", "Finland", "markka"),
    "FRF": ("Francie", "frank", "France", "franc"),
    "GBP": ("Velká Británie", "libra", "United Kingdom", "pound"),
    "GRD": ("Řecko", "drachma", "Greece", "drachma"),
    "HKD": ("Hongkong", "dolar", "Hongkong", "dollar"),
    "HRK": ("Chorvatsko", "kuna", "Croatia", "kuna"),
    "HUF": ("Maďarsko", "forint", "Hungary", "forint"),
    "IDR": ("Indonesie", "rupie", "Indonesia", "rupiah"),
    "IEP": ("Irsko", "libra", "Ireland", "pound"),
    "ILS": ("Izrael", "nový šekel", "Israel", "new shekel"),
    "INR": ("Indie", "rupie", "India", "rupee"),
    "ISK": ("Island", "koruna", "Iceland", "krona"),
    "ITL": ("Itálie", "lira", "Italy", "lira"),
    "JPY": ("Japonsko", "jen", "Japan", "yen"),
    "KRW": ("Korejská republika", "won", "South Korea", "won"),
    "LTL": ("Litva", "litas", "Lithuania", "litas"),
    "LUF": ("Lucembursko", "frank", "Luxembourg", "franc"),
    "LVL": ("Lotyšsko", "lat", "Latvia", "lats"),
    "MTL": ("Malta", "lira", "Malta", "lira"),
    "MXN": ("Mexiko", "peso", "Mexico", "peso"),
    "MYR": ("Malajsie", "ringgit", "Malaysia", "ringgit"),
    "NLG": ("Nizozemsko", "gulden", "Netherlands", "guilder"),
    "NOK": ("Norsko", "koruna", "Norway", "krone"),
    "NZD": ("Nový Zéland", "dolar", "New Zealand", "dollar"),
    "PHP": ("Filipíny", "peso", "Philippines", "peso"),
    "PLN": ("Polsko", "zlotý", "Poland", "zloty"),
    "PTE": ("Portugalsko", "escudo", "Portugal", "escudo"),
    "ROL": ("Rumunsko", "lei", "Romania", "leu"),
    "RON": ("Rumunsko", "leu", "Romania", "leu"),
    "RUB": ("Rusko", "rubl", "Russia", "rouble"),
    "SEK": ("Švédsko", "koruna", "Sweden", "krona"),
    "SGD": ("Singapur", "dolar", "Singapore", "dollar"),
    "SIT": ("Slovinsko", "tolar", "Slovenia", "tolar"),
    "SKK": ("Slovensko", "koruna", "Slovakia", "koruna"),
    "THB": ("Thajsko", "baht", "Thailand", "baht"),
    "TRL": ("Turecko", "lira", "Turkey", "lira"),
    "TRY": ("Turecko", "lira", "Turkey", "lira"),
    "USD": ("USA", "dolar", "USA", "dollar"),
    "XCU": ("Clearing", "clearingové ECU", "Clearing", "clearing ECU"),
    "XDR": ("MMF", "ZPČ", "IMF", "SDR"),
    "XEU": ("Evropská unie", "ECU", "European Union", "ECU"),
    "ZAR": ("Jižní Afrika", "rand", "South Africa", "rand"),
}


def names(code: str, lang: str) -> tuple[str, str]:
    """``(country, currency)`` of a fixing currency in ``lang`` (``"CZ"`` or ``"EN"``).

    Raises:
        KeyError: for a code that never appeared in the fixing.
    """
    country_cz, currency_cz, country_en, currency_en = FIXING_NAMES[code]
    return (country_en, currency_en) if lang == "EN" else (country_cz, currency_cz)

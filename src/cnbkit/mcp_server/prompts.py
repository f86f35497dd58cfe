"""Prompts of ``cnbkit mcp``: common desk questions, written so that a model answers them with
the server's tools (which tool, which arguments, what to report and from where).

Example:
    >>> PROMPTS["pribor_curve"].render({"date": "2025-06-02"}).splitlines()[0]
    'Show the PRIBOR curve of 2025-06-02 from the CNB.'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

__all__ = ["PROMPTS", "Prompt", "PromptArgument"]


@dataclass(frozen=True)
class PromptArgument:
    """One argument of a prompt (prompt arguments are text)."""

    name: str
    description: str
    required: bool = True
    default: str = ""


@dataclass(frozen=True)
class Prompt:
    """A prompt: its name, what it asks, its arguments, and its text with ``{argument}``s."""

    name: str
    title: str
    description: str
    arguments: tuple[PromptArgument, ...]
    text: str

    def render(self, arguments: Mapping[str, str]) -> str:
        """The prompt's text for ``arguments`` (the defaults fill the ones left out).

        Raises:
            KeyError: a required argument is missing (its message names it).
        """
        values: dict[str, str] = {}
        for argument in self.arguments:
            value = arguments.get(argument.name) or argument.default
            if not value:
                raise KeyError(f"the prompt {self.name} needs {argument.name}: "
                               f"{argument.description}")
            values[argument.name] = str(value)
        return self.text.format(**values)


_START = PromptArgument("start", "the first day, yyyy-MM-dd")
_SOURCE = ("Say where the data came from (the provenance's data_source: the live CNB API or the "
           "local sandbox).")

PROMPTS: Mapping[str, Prompt] = MappingProxyType({p.name: p for p in (
    Prompt(
        "fixing_history", "A currency against CZK over a period",
        "How the CNB fixing of one currency moved over a period: first and last rate, high, "
        "low and the change.",
        (PromptArgument("currency", "a three-letter code, e.g. EUR"), _START,
         PromptArgument("end", "the last day, yyyy-MM-dd (default: the latest fixing)",
                        required=False, default="the latest fixing")),
        "How did the CNB exchange-rate fixing of {currency} against CZK move from {start} to "
        "{end}?\n"
        "Use the history tool with group \"exrates\", start \"{start}\", end \"{end}\" (leave "
        "end out for the latest fixing) and filters {{\"currency\": \"{currency}\"}}. Report "
        "the first and the last rate, the highest and the lowest with their dates, and the "
        "change in per cent, as CZK per 1 unit (the rate_per_unit column). If the table is "
        "truncated, read the whole of it from its resource. " + _SOURCE),
    Prompt(
        "pribor_curve", "The PRIBOR curve on a day",
        "PRIBOR and PRIBID of every tenor on one fixing day, with the dates a deposit of each "
        "tenor runs.",
        (PromptArgument("date", "the fixing day, yyyy-MM-dd"),),
        "Show the PRIBOR curve of {date} from the CNB.\n"
        "Use the pribor_curve tool with date \"{date}\" (the answer is the last fixing on or "
        "before it: say which day it is). List PRIBOR and PRIBID by tenor, shortest first, "
        "in % p.a. For the three-month deposit, give its value date and maturity with the "
        "value_date tool (trade_date the fixing day, tenor \"THREE_MONTH\"). " + _SOURCE),
    Prompt(
        "czeonia_accrual", "What a CZK overnight deposit earned",
        "CZEONIA compounded over a period, as an overnight-indexed coupon accrues it.",
        (_START, PromptArgument("end", "the day the period ends, yyyy-MM-dd")),
        "What did CZEONIA compound to from {start} to {end}?\n"
        "Use the czeonia_compounded tool with start \"{start}\" and end \"{end}\"; both must "
        "be Prague business days (if the tool says a day is not one, roll it to the next "
        "business day and say so). Report the compounded rate in % p.a. (ACT/360) and the "
        "number of days, and compare it with the CZEONIA of the first and the last day from "
        "the history tool (group \"czeonia\"). " + _SOURCE),
)})

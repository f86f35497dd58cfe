"""Prompts of ``cnbkit mcp``: common desk questions, written so that a model answers them with
the server's tools (which tool, which arguments, what to report and from where).

Every value a prompt tells the model to pass to a tool is one the tool takes: a prompt's
arguments are checked as the tools check them (a day ``yyyy-MM-dd``, a three-letter currency)
before it is rendered, and an optional argument left out changes the text around it instead
of standing in for a value (``fixing_history`` without ``end`` asks for the history up to the
latest fixing and tells the model to leave ``end`` out).

The same prompts are written into the Claude Desktop extension's manifest as templates
(:meth:`Prompt.template`), each argument the MCPB spec's placeholder ``${arguments.NAME}``:
an optional argument's fragments then say both cases in one text, for the host fills in
what the user gave and nothing more.

Example:
    >>> PROMPTS["pribor_curve"].render({"date": "2025-06-02"}).splitlines()[0]
    'Show the PRIBOR curve of 2025-06-02 from the CNB.'
    >>> PROMPTS["pribor_curve"].template().splitlines()[0]
    'Show the PRIBOR curve of ${arguments.date} from the CNB.'
    >>> PROMPTS["fixing_history"].render({"currency": "EUR", "start": "2025-01-02"}
    ...                                  ).splitlines()[0].split(" move ")[1]
    'from 2025-01-02 up to the latest fixing?'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .._shared.currencies import check_currency
from .._shared.dates import to_date

__all__ = ["PLACEHOLDER", "PROMPTS", "Prompt", "PromptArgument"]


def _day(value: str, name: str) -> str:
    return to_date(value, name).isoformat()


@dataclass(frozen=True)
class PromptArgument:
    """One argument of a prompt (prompt arguments are text).

    Attributes:
        check: the tools' check of a value, giving it as the text is to show it (raises
            :class:`~cnbkit.errors.InvalidParameter` naming the argument).
        given: for an optional argument, the text of each of ``fragments`` when it is given
            (with ``{name}`` for its value), and ``left_out``, when it is not.
        either: for an optional argument, the text of each fragment in a template, where it
            is not known whether it is given (with ``{name}`` for its placeholder).
    """

    name: str
    description: str
    check: Callable[[str, str], str] = _day
    required: bool = True
    given: Mapping[str, str] = field(default_factory=dict)
    left_out: Mapping[str, str] = field(default_factory=dict)
    either: Mapping[str, str] = field(default_factory=dict)


#: The MCPB manifest spec's placeholder of a prompt argument (its section "Prompt Structure").
PLACEHOLDER = "${{arguments.{name}}}"


@dataclass(frozen=True)
class Prompt:
    """A prompt: its name, what it asks, its arguments, and its text with ``{argument}``s (an
    optional argument's fragments too)."""

    name: str
    title: str
    description: str
    arguments: tuple[PromptArgument, ...]
    text: str

    def render(self, arguments: Mapping[str, str]) -> str:
        """The prompt's text for ``arguments``, each checked as the tools check it.

        Raises:
            KeyError: a required argument is missing (its message names it).
            InvalidParameter: a value the tools would refuse (its message names it).
        """
        values: dict[str, str] = {}
        for argument in self.arguments:
            value = arguments.get(argument.name)
            if not value:
                if argument.required:
                    raise KeyError(f"the prompt {self.name} needs {argument.name}: "
                                   f"{argument.description}")
                values.update(argument.left_out)
                continue
            values[argument.name] = argument.check(str(value), argument.name)
            values.update({fragment: text.format(**values)
                           for fragment, text in argument.given.items()})
        return self.text.format(**values)

    def template(self) -> str:
        """The prompt's text as the MCPB manifest spec writes a prompt: each argument its
        placeholder ``${arguments.NAME}``, an optional one's fragments saying both cases.

        Example:
            >>> PROMPTS["fixing_history"].template().splitlines()[0].split(" move ")[1]
            'from ${arguments.start} to ${arguments.end} (no end given: up to the latest fixing)?'
        """
        values = {argument.name: PLACEHOLDER.format(name=argument.name)
                  for argument in self.arguments}
        for argument in self.arguments:
            values.update({fragment: text.format(**values)
                           for fragment, text in argument.either.items()})
        return self.text.format(**values)


_START = PromptArgument("start", "the first day, yyyy-MM-dd")
_SOURCE = ("Say where the data came from (the provenance's data_source: live is the CNB's API, "
           "sandbox the local emulator, custom a server the user set).")

PROMPTS: Mapping[str, Prompt] = MappingProxyType({p.name: p for p in (
    Prompt(
        "fixing_history", "A currency against CZK over a period",
        "How the CNB fixing of one currency moved over a period: first and last rate, high, "
        "low and the change.",
        (PromptArgument("currency", "a three-letter code, e.g. EUR",
                        check=lambda value, name: check_currency(value, name)),
         _START,
         PromptArgument("end", "the last day, yyyy-MM-dd (left out: up to the latest fixing)",
                        required=False,
                        given={"until": "to {end}", "end_argument": ', end "{end}"'},
                        left_out={"until": "up to the latest fixing",
                                  "end_argument": " (no end: the history runs to the latest "
                                                  "fixing)"},
                        either={"until": "to {end} (no end given: up to the latest fixing)",
                                "end_argument": ', end "{end}" (no end given: leave end out, '
                                                "the history runs to the latest fixing)"})),
        "How did the CNB exchange-rate fixing of {currency} against CZK move from {start} "
        "{until}?\n"
        "Use the history tool with group \"exrates\", start \"{start}\"{end_argument} and "
        "filters {{\"currency\": \"{currency}\"}}. Report the first and the last rate, the "
        "highest and the lowest with their dates, and the change in per cent, as CZK per 1 "
        "unit (the rate_per_unit column). If the table is truncated, read the whole of it "
        "from its resource. " + _SOURCE),
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
        "be Prague business days (if the tool says a day is not one, use the business day it "
        "names and say so). Report the compounded rate in % p.a. (ACT/360) and the number of "
        "days, and compare it with the CZEONIA of the first and the last day from the history "
        "tool (group \"czeonia\"). " + _SOURCE),
)})

"""Relative dates in a recalled message, resolved against the day it was said: "last Saturday" said
on Saturday 20 May 2023 was 13 May 2023. Pure: the moment it was said is passed in."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from typing import Callable, Literal


def _lazy(pattern: str, flags: int = 0) -> Callable[[], re.Pattern]:
    """A pattern compiled on first use: importing memory (every `glados memory` command) compiles none."""
    return cache(lambda: re.compile(pattern, flags))


WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a few": 3}
UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
NUMBER = r"\d{1,3}|a couple of|a few|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
PATTERN = _lazy(
    rf"\b(?:(?P<ago>(?P<n>{NUMBER})\s+(?P<unit>day|week|month|year)s?\s+ago)"
    rf"|(?P<near>yesterday|today|tonight|tomorrow|this morning|this afternoon|this evening)"
    rf"|(?P<rel>last|next|this past|this coming)\s+(?P<what>week(?:end)?|month|year|{'|'.join(WEEKDAYS)}))\b",
    re.IGNORECASE)


@dataclass(frozen=True)
class Resolved:
    """A relative date phrase found in a message and the day it points at (about, for weeks and months)."""
    phrase: str
    day: date
    about: bool          # a week, month or year: the day is only roughly right


def resolve(text: str, said_on: date) -> list[Resolved]:
    """Each relative date phrase in `text`, in order, with the day it means."""
    out = []
    for m in PATTERN().finditer(text[:5000]):
        found = _day(m, said_on)
        if found is not None:
            out.append(Resolved(m[0], *found))
    return out


def _day(m: re.Match, said_on: date) -> tuple[date, bool] | None:
    if m["ago"]:
        n = int(m["n"]) if m["n"].isdigit() else NUMBERS[m["n"].lower()]
        return said_on - timedelta(days=n * UNIT_DAYS[m["unit"].lower()]), m["unit"].lower() != "day"
    if m["near"]:
        word = m["near"].lower()
        return said_on + timedelta(days={"yesterday": -1, "tomorrow": 1}.get(word, 0)), False
    back = m["rel"].lower() in ("last", "this past")
    what = m["what"].lower()
    if what in WEEKDAYS:
        want = WEEKDAYS.index(what)
        if back:      # the most recent one before the day it was said
            return said_on - timedelta(days=(said_on.weekday() - want - 1) % 7 + 1), False
        return said_on + timedelta(days=(want - said_on.weekday() - 1) % 7 + 1), False
    if what == "weekend":   # its Saturday
        return _day(PATTERN().fullmatch(f"{m['rel']} saturday"), said_on)
    step = {"week": 7, "month": 30, "year": 365}[what]
    return said_on + timedelta(days=-step if back else step), True


def say_day(day: date) -> str:
    """13 May 2023."""
    return f"{day.day} {day.strftime('%B %Y')}"


MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
_MONTH = r"(?P<m{n}>" + "|".join(MONTHS) + r")"
ASKED = [   # most precise first
    _lazy(rf"\b{_MONTH.format(n=1)}\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y1>(?:19|20)\d\d)\b", re.I),
    _lazy(rf"\b(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH.format(n=2)},?\s+(?P<y2>(?:19|20)\d\d)\b", re.I),
    _lazy(rf"\b{_MONTH.format(n=3)},?\s+(?P<y3>(?:19|20)\d\d)\b", re.I),
    _lazy(r"\b(?:in|during|of|since)\s+(?P<y4>(?:19|20)\d\d)\b", re.I),
]
DAY_SLACK = 3      # days: "on 12 July": said that week (often told a day or two later)
MONTH_SLACK = 7
# Time relative to when a question is asked, read against that day (see asked_about); not "tonight", which
# names the evening to come ("what could I cook tonight?")
RELATIVE = _lazy(
    rf"\b(?:(?P<ago>(?P<n>{NUMBER})\s+(?P<unit>day|week|month|year)s?\s+ago)"
    rf"|(?P<near>yesterday|today|this morning|this afternoon|this evening|the day before yesterday)"
    rf"|(?P<rel>last|this past)\s+(?P<what>week(?:end)?|month|year|{'|'.join(WEEKDAYS)})"
    rf"|(?P<this>this|earlier this)\s+(?P<span>week|month|year)"
    rf"|(?:in|during|back in|since|of)\s+(?P<month>{'|'.join(MONTHS)})\b(?!\s*,?\s*\d)"
    rf"|(?<!most )(?<!more )(?P<lately>recently|the other day))\b", re.IGNORECASE)
RECENT_DAYS = 21   # "recently": the last three weeks
# A question that asks when something happened, or which came first: what answers it dates what it tells
WHEN = _lazy(r"\b(?:when|ago|most recently|earliest|latest|in what order|the order|how many (?:days|weeks|months|"
             r"years)|(?:what|which) (?:date|day|month|year)|first(?=\s*[,?]))\b", re.IGNORECASE)
# A question about how things were before a change, not how they are: "what was my previous personal best?"
# ("in the past few months" names a recent span, not a time before a change)
PAST = _lazy(r"\b(?:before|previous(?:ly)?|originally|used to|did (?:i|you|we) use to|at first|initially|formerly|"
             r"last time|first time|in the past(?!\s+(?:few|couple|several|\d+|one|two|three|four|five|six|seven|"
             r"eight|nine|ten|day|week|month|year)\b)|back then)\b", re.IGNORECASE)
# ...unless it asks how things are now: "where is Rachel, a colleague from my previous job, currently working?"
NOW = _lazy(r"\b(?:now|currently|current|these days|at the moment|at present|nowadays)\b", re.IGNORECASE)
# A clause that only places the question in time: "... before I got the current status?" asks about then
PLACED = _lazy(r"\b(?:before|after|until|since)\b[^,;.?!]*", re.IGNORECASE)


@dataclass(frozen=True)
class Window:
    """The days a question asks about: `first`..`last` and, around them, `slack` days that count for less
    (a date said from memory is often a little off, the more so the further back it is)."""
    first: date
    last: date
    slack: int

    @property
    def start(self) -> date:
        return self.first - timedelta(days=self.slack)

    @property
    def end(self) -> date:
        return self.last + timedelta(days=self.slack)

    def weight(self, day: date) -> float:
        """1 within first..last, falling to half at the edge of the slack, 0 beyond it."""
        off = max((self.first - day).days, (day - self.last).days, 0)
        return 0.0 if off > self.slack else 1.0 - 0.5 * off / (self.slack + 1)


def asked_about(text: str, today: date | None = None) -> Window | None:
    """The days a question names, as a window to look in: "on July 12, 2022" -> 12 July 2022, give or take
    3 days; "in November 2022" -> that month, give or take a week; "in 2022" -> the year. With `today`
    (when it is asked), time relative to it too: "two weeks ago" -> 14 days before, give or take 4 (the
    slack grows with the distance); "last weekend", "last Saturday", "a couple of days ago", "in March"
    (the latest March), "earlier this year", "recently". None: no time named."""
    for n, pattern in enumerate(ASKED, start=1):
        m = pattern().search(text[:2000])
        if m is None:
            continue
        year = int(m[f"y{n}"])
        if n == 4:
            return Window(date(year, 1, 1), date(year, 12, 31), 0)
        month = MONTHS.index(m[f"m{n}"].lower()) + 1
        if n in (1, 2):
            try:
                day = date(year, month, int(m[f"d{n}"]))
            except ValueError:
                continue
            return Window(day, day, DAY_SLACK)
        return Window(date(year, month, 1), _month_end(year, month), MONTH_SLACK)
    m = RELATIVE().search(text[:2000]) if today is not None else None
    return _relative(m, today) if m else None


def asks_when(text: str) -> bool:
    """Whether a question asks when something happened or in what order ("when did I...?", "how many days
    ago...?", "which did I do first, A or B?"), rather than what."""
    return bool(WHEN().search(text[:2000]))


def asks_past(text: str) -> bool:
    """Whether a question asks how things were before a change ("what did I use to...?", "my
    previous...", "at first"), rather than how they are now (a question that says "now" or "currently"
    asks the present, whatever else it names from before; one said only in a clause that places the
    question in time does not: "my previous status, before I got the current one?" asks about then)."""
    text = text[:2000]
    return bool(PAST().search(text)) and not NOW().search(PLACED().sub(" ", text))


def _relative(m: re.Match, today: date) -> Window:
    if m["ago"]:
        n = int(m["n"]) if m["n"].isdigit() else NUMBERS[m["n"].lower()]
        days = n * UNIT_DAYS[m["unit"].lower()]
        day = today - timedelta(days=days)
        return Window(day, day, 1 + days // 4)
    if m["near"]:
        back = {"yesterday": 1, "the day before yesterday": 2}.get(m["near"].lower(), 0)
        return Window(today - timedelta(days=back), today - timedelta(days=back), 1)
    if m["rel"]:
        what = m["what"].lower()
        if what in WEEKDAYS or what == "weekend":
            day, _ = _day(PATTERN().fullmatch(f"last {'saturday' if what == 'weekend' else what}"), today)
            return Window(day, day + timedelta(days=what == "weekend"), 1 + (today - day).days // 7)
        if what == "week":
            monday = today - timedelta(days=today.weekday() + 7)
            return Window(monday, monday + timedelta(days=6), 2)
        if what == "month":
            end = today.replace(day=1) - timedelta(days=1)
            return Window(end.replace(day=1), end, 5)
        return Window(date(today.year - 1, 1, 1), date(today.year - 1, 12, 31), 14)
    if m["span"]:
        span = m["span"].lower()
        first = {"week": today - timedelta(days=today.weekday()), "month": today.replace(day=1),
                 "year": today.replace(month=1, day=1)}[span]
        return Window(first, today, 1)
    if m["month"]:
        month = MONTHS.index(m["month"].lower()) + 1
        year = today.year if month <= today.month else today.year - 1
        return Window(date(year, month, 1), _month_end(year, month), MONTH_SLACK)
    return Window(today - timedelta(days=RECENT_DAYS), today, 0)


def _month_end(year: int, month: int) -> date:
    return date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)


# --------------------------------------------------------------------------------------------
# Time words in a statement: "I moved to Leeds last year", "I've been vegan for three years now".
# They say when, never what: the fact rules read the clause without them.
# --------------------------------------------------------------------------------------------
When = Literal["past", "future", "ongoing", "now"]
_COUNT = (r"(?:\d{1,4}|a couple of|a few|several|many|an?|one|two|three|four|five|six|seven|eight|nine|ten|"
          r"eleven|twelve|fifteen|twenty|thirty|forty|fifty)")
_UNIT = r"(?:days?|weeks?|months?|years?|decades?|yrs?)"
_SEASON = r"(?:week(?:end)?|month|year|summer|winter|spring|autumn|fall|night|term|semester|" + "|".join(WEEKDAYS) + ")"
TIME_WORDS: dict[When, Callable[[], re.Pattern]] = {
    "ongoing": _lazy(
        rf"\bfor (?:(?:the )?(?:past|last) |over |almost |nearly |about |around |more than |at least )?{_COUNT}?\s?{_UNIT}"
        r"(?: now)?"
        r"|\bfor (?:a while|a long time|a good while|ages|a bit|years|months|decades|most of my life|all my life|"
        r"my whole life|as long as i can remember)(?: now)?"
        rf"|\bsince (?:(?:19|20)\d\d|(?:{'|'.join(MONTHS)})(?: (?:19|20)\d\d)?|last {_SEASON}|i was (?:a )?\w+|"
        r"childhood|birth|forever|uni|university|college|school|then)\b"
        r"|\b(?:all|most of) my life\b|\bmy whole life\b", re.IGNORECASE),
    "past": _lazy(
        rf"\b{_COUNT} {_UNIT} ago\b|\b(?:last|this past) {_SEASON}\b|\byesterday\b"
        r"|\b(?:a (?:little |long )?while|a long time|ages) (?:ago|back)\b|\bback in (?:19|20)\d\d\b", re.IGNORECASE),
    "future": _lazy(
        rf"\b(?:next|this coming) {_SEASON}\b|\btomorrow\b|\bin {_COUNT} {_UNIT}(?: time)?\b|\bsoon\b"
        r"|\blater (?:this|in the) (?:week|month|year)\b", re.IGNORECASE),
    "now": _lazy(
        r"\b(?:right now|for now|nowadays|these days|at the moment|at present|currently|recently|lately|now|"
        r"today|tonight|this (?:week|month|year))\b", re.IGNORECASE),
}
_LEFT_OVER = re.compile(r"\s*,\s*(?=,|$)|^\s*,\s*|\s+(?=,)")


@dataclass(frozen=True)
class Timed:
    """A clause with its time words taken out (`rest`), and what they said: when (each kind found) and the
    phrases themselves, in order."""
    rest: str
    when: frozenset[When]
    phrases: tuple[str, ...]


def time_words(clause: str) -> Timed:
    """"I've lived in Bristol for 10 years" -> rest "I've lived in Bristol", when {"ongoing"}."""
    rest, when, phrases = clause[:2000], set(), []
    for kind, pattern in TIME_WORDS.items():
        found = list(pattern().finditer(rest))
        if found:
            when.add(kind)
            phrases += [m[0] for m in found]
            rest = pattern().sub(" ", rest)
    rest = _LEFT_OVER.sub(" ", rest).strip(" ,")
    return Timed(" ".join(rest.split()), frozenset(when), tuple(phrases))

"""Relative dates in a recalled message, resolved against the day it was said: "last Saturday" said
on Saturday 20 May 2023 was 13 May 2023. Pure: the moment it was said is passed in."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a few": 3}
UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
NUMBER = r"\d{1,3}|a couple of|a few|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
PATTERN = re.compile(
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
    for m in PATTERN.finditer(text[:5000]):
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
        return _day(PATTERN.fullmatch(f"{m['rel']} saturday"), said_on)
    step = {"week": 7, "month": 30, "year": 365}[what]
    return said_on + timedelta(days=-step if back else step), True


def say_day(day: date) -> str:
    """13 May 2023."""
    return f"{day.day} {day.strftime('%B %Y')}"


MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
_MONTH = r"(?P<m{n}>" + "|".join(MONTHS) + r")"
ASKED = [   # most precise first
    re.compile(rf"\b{_MONTH.format(n=1)}\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y1>(?:19|20)\d\d)\b", re.I),
    re.compile(rf"\b(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH.format(n=2)},?\s+(?P<y2>(?:19|20)\d\d)\b", re.I),
    re.compile(rf"\b{_MONTH.format(n=3)},?\s+(?P<y3>(?:19|20)\d\d)\b", re.I),
    re.compile(r"\b(?:in|during|of|since)\s+(?P<y4>(?:19|20)\d\d)\b", re.I),
]
DAY_SLACK = timedelta(days=3)      # "on 12 July": said that week (often told a day or two later)
MONTH_SLACK = timedelta(days=7)


def asked_about(text: str) -> tuple[date, date] | None:
    """The days a question names, as a window to look in: "on July 12, 2022" -> 9-15 July 2022;
    "in November 2022" -> 25 October to 7 December 2022; "in 2022" -> the year. None: no date named."""
    for n, pattern in enumerate(ASKED, start=1):
        m = pattern.search(text[:2000])
        if m is None:
            continue
        year = int(m[f"y{n}"])
        if n == 4:
            return date(year, 1, 1), date(year, 12, 31)
        month = MONTHS.index(m[f"m{n}"].lower()) + 1
        if n in (1, 2):
            try:
                day = date(year, month, int(m[f"d{n}"]))
            except ValueError:
                continue
            return day - DAY_SLACK, day + DAY_SLACK
        last = (date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1))
        return date(year, month, 1) - MONTH_SLACK, last + MONTH_SLACK
    return None

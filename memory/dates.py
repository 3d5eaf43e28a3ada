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

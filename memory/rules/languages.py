"""Fact rules for the languages the user speaks: "i speak english and french", "i'm fluent in spanish"."""
from __future__ import annotations

import regex as re

from ..lexicon import F, IM, LANGUAGES, NOW, split_items, trim
from .registry import each, rule


def _languages(raw: str) -> list[str]:
    raw = re.sub(r"\s+(?:at home|at work|fluently|well|badly|poorly|every day|daily|with (?:my|the|our) .*)$",
                 "", trim(raw), flags=F)
    raw = re.sub(r"\b(?:a (?:little|bit of)|a little bit of|some|basic|fluent|conversational|"
                 r"decent|good|bad|broken|native|perfect|a lot of|mostly)\s+", "", trim(raw), flags=F)
    items = [w for item in split_items(raw) for w in
             (item.split() if all(x.lower() in LANGUAGES for x in item.split()) else [item])]
    if not items or any(i.lower() not in LANGUAGES for i in items):
        return []
    return [i.title() for i in items]


# "i don't speak german anymore"
@rule(r"i (?:can'?t|cannot|don'?t|do not|no longer) speak (?P<v>.+)")
def _language_retract(m):
    return each("retract", "language", _languages(m["v"]))


# "i speak english and french", "i'm fluent in spanish", "my native language is polish"
@rule(rf"i (?:(?:{NOW}|can|can also) )*speak (?P<v>.+)|{IM} (?:(?:{NOW}) )*fluent in (?P<w>.+)|"
      rf"my (?:native|first|mother|home) (?:language|tongue) is (?P<x>.+)|{IM} a native (?P<y>\w+) speaker")
def _language(m):
    return each("assert", "language", _languages(m["v"] or m["w"] or m["x"] or m["y"]))

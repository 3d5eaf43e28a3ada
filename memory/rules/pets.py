"""Fact rules for the user's companion animals: "i have a dog named rex", "my cat's name is luna", "my dog died"."""
from __future__ import annotations

import regex as re

from ..intent import Change
from ..lexicon import COUNT, F, IVE, LIST_STOP, NOW, PETS, match_start, titled, trim
from .registry import each, rule


NAMED_GROUP = re.compile(rf"(?:{COUNT}\s+)?(?:[\w-]+\s+)?(?P<kind>{PETS}) (?:named|called) (?P<names>[\w'-]+"
                         r"(?:(?:\s*,\s*and\s+|\s*,\s*|\s+and\s+)[\w'-]+)+)$", F)


def _pet_values(raw: str) -> list[str]:
    raw = trim(raw, LIST_STOP)
    group = match_start(NAMED_GROUP, raw)
    if group:   # "two cats called mochi and pixel": one pet per name
        kind = singular(group["kind"])
        return [f"{kind} named {titled(n)}" for n in re.split(r"\s*,\s*and\s+|\s*,\s*|\s+and\s+", group["names"])]
    out = []
    for item in re.split(r"\s*(?:,\s*and|,|\band\b|\bplus\b)\s*", raw, flags=F):
        pm = re.fullmatch(rf"(?:{COUNT}\s+)?(?:(?:little|old|young|new|pet|rescue|big|small|\w+-year-old)\s+)*"
                          rf"(?P<kind>(?:[\w-]+\s+)?{PETS})(?:\s+(?:named|called)\s+(?P<name>[\w'-]+))?",
                          item.strip(), flags=F)
        if not pm:
            continue
        count = re.match(rf"(?P<c>{COUNT})\s", item.strip(), flags=F)
        kind = pm["kind"].lower()
        if count and count["c"].lower() == "some" and singular(kind) == kind:
            continue        # "we have some chicken": food, not an animal kept
        if re.match(r"(?:few|several|many|more|lots|plenty)\s", kind, flags=F):
            continue        # "we got a few fish": a catch
        if count and count["c"].lower() not in ("a", "an", "one"):
            kind = f"{count['c'].lower()} {kind}"
        out.append(f"{kind} named {titled(pm['name'])}" if pm["name"] else kind)
    return out


# "my dog died", "my cat rex passed away", "i don't have a hamster anymore"
@rule(rf"my (?:(?:old|little|pet) )?(?P<v>{PETS})(?: [\w'-]+)? (?:died|passed away|passed|ran away|is gone)"
      rf"|i (?:don'?t|do not|no longer) (?:have|own) (?:a |an |my |any )?(?P<w>{PETS})")
def _pet_gone(m):
    kind = (m["v"] or m["w"]).lower()
    return [Change("retract", "pet", kind)]


# "i have no pets", "i don't have any pets anymore"
@rule(r"i (?:have|own) no (?:pets?|animals?)|i (?:don'?t|do not) (?:have|own) (?:any )?(?:pets?|animals?)")
def _no_pets(m):
    return [Change("retract", "pet", None)]


# "my dog's name is rex", "my cat is called luna"
@rule(rf"my (?P<kind>{PETS})(?:'s name is|s name is| is called| is named| name is|'s called|s called|'s named) "
      rf"(?P<name>[\w'-]+)|my (?P<kind2>{PETS}) (?P<name2>(?-i:\p{{Lu}}\p{{Ll}}+))\b(?! (?:and i|i)\b)")
def _pet_named(m):
    kind = singular(m["kind"] or m["kind2"])   # "my cats name is luna": speech-to-text drops the apostrophe
    return [Change("retract", "pet", kind), Change("assert", "pet", f"{kind} named {titled(m['name'] or m['name2'])}")]


def singular(kind: str) -> str:
    kind = kind.lower()
    if kind.endswith("ies"):
        return kind[:-3] + "y"
    return kind[:-1] if kind.endswith("s") and not kind.endswith("ss") else kind


# "i have a dog named rex", "i've got two cats", "we have a parrot", "i own a horse"
@rule(rf"(?:(?:i|we) (?:(?:{NOW}) )*(?:have|own|got|adopted)(?: got)?|{IVE} got|we've got|we have got"
      r")\s+(?P<v>.+)")
def _pet(m):
    return each("assert", "pet", _pet_values(m["v"]))

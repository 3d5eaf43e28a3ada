"""What kind of thing a value is, and which facts a bare value can correct.

Each key takes some kinds of value (a place, a diet, an allergen, a number, ...). A value's kinds are
read from its own words and the lexicons the rules already hold; a word in no lexicon is a name when
it is capitalised in a message that uses case, and a thing or a name when the message is all one case.
"no wait, I meant Bristol" then corrects the latest fact of the conversation whose key takes a name and
whose value was one: never the diet, never the allergy.
"""
from __future__ import annotations

from typing import Literal, Protocol, Sequence, TypeVar

import regex as re

from .lexicon import ARTICLE, DIETS, F, LANGUAGES, MONTHS, OCCUPATION_PLURAL, OCCUPATIONS, PETS, as_number

ValueKind = Literal["name", "diet", "allergen", "job", "number", "colour", "language", "animal", "date",
                    "activity", "thing"]

COLOURS = set("""red blue green yellow orange purple pink black white grey gray brown violet indigo turquoise
teal cyan magenta maroon navy beige gold silver lilac lavender crimson scarlet burgundy mint olive
coral peach cream ivory amber aqua khaki mauve""".split())
# The usual causes of allergies (foods, the EU's fourteen among them, drugs, animals, plants, stings).
ALLERGENS = set("""peanut peanuts nut nuts tree nuts cashew cashews almond almonds walnut walnuts pecan pecans
hazelnut hazelnuts pistachio pistachios brazil macadamia shellfish shrimp shrimps prawn prawns crab lobster
mussels oysters clams scallops molluscs mollusks crustaceans fish salmon tuna cod milk dairy lactose egg eggs
soy soya wheat gluten sesame mustard celery lupin sulphites sulfites kiwi strawberries strawberry banana
bananas tomato tomatoes coconut corn chocolate garlic onion onions citrus apples peaches avocado
penicillin amoxicillin aspirin ibuprofen codeine sulfa morphine antibiotics latex nickel
bees bee stings wasps wasp stings insect stings pollen dust dust mites mould mold grass hay ragweed
cats dogs horses feathers perfume""".split()) | {"tree nuts", "bee stings", "wasp stings", "insect stings",
                                                  "dust mites", "brazil nuts"}
DATE = re.compile(rf"^(?:{MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?|^\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTHS}\b", F)
ANIMAL = re.compile(rf"^(?:(?:\d+|one|two|three|four|five|six|a couple of|a few|some) )?(?:{PETS})\b", F)
WORD = re.compile(r"^[\p{L}][\p{L}'.&-]*$")
CASED = re.compile(r"\p{Lu}")

# Keys and the kinds of value each takes. A key missing here (medical, note, wake_word) is never the
# target of a bare correction: a medical fact or a sentence is not guessed at.
TAKES: dict[str, frozenset[ValueKind]] = {
    "name": frozenset({"name"}), "partner": frozenset({"name"}),
    "location": frozenset({"name"}), "hometown": frozenset({"name"}),
    "employer": frozenset({"name", "thing"}),
    "job": frozenset({"job"}), "diet": frozenset({"diet"}), "allergy": frozenset({"allergen", "animal"}),
    "age": frozenset({"number"}), "birthday": frozenset({"date"}),
    "language": frozenset({"language"}), "favorite_language": frozenset({"language", "name", "thing"}),
    "pet": frozenset({"animal"}), "favorite_color": frozenset({"colour"}),
    "likes": frozenset({"thing", "activity", "animal", "name", "colour", "language", "allergen"}),
    "dislikes": frozenset({"thing", "activity", "animal", "name", "colour", "language", "allergen"}),
}
OPEN_FAVOURITE: frozenset[ValueKind] = frozenset({"thing", "activity", "animal", "name", "allergen"})


def takes(key: str) -> frozenset[ValueKind]:
    """The kinds of value a key holds (none: a bare value never corrects it)."""
    if key in TAKES:
        return TAKES[key]
    return OPEN_FAVOURITE if key.startswith("favorite_") else frozenset()


def bare(value: str) -> str:
    """The value without an article or closing punctuation: "a cat." -> "cat"."""
    return ARTICLE.sub("", value.strip(" .!,;:")).strip()


def kinds(value: str, cased: bool = True) -> frozenset[ValueKind]:
    """What a value can be. A word in a lexicon is that only; any other is a name when capitalised
    (`cased`: the text it came from uses case), a thing when not, and either when the text did not say."""
    value = bare(value)
    low = value.casefold()
    if not value or len(value.split()) > 4:
        return frozenset()
    found: set[ValueKind] = set()
    if as_number(low) is not None:
        found.add("number")
    if DATE.match(low):
        found.add("date")
    if low in DIETS:
        found.add("diet")
    if low in COLOURS:
        found.add("colour")
    if low in LANGUAGES:
        found.add("language")
    if low in ALLERGENS:
        found.add("allergen")
    if ANIMAL.match(low):
        found.add("animal")
    last = low.split()[-1]
    if last in OCCUPATIONS or last in OCCUPATION_PLURAL:
        found.add("job")
    if found:
        return frozenset(found)
    if not all(WORD.match(w) for w in value.split()):
        return frozenset({"thing"})
    capital = value[0].isupper()
    if cased and capital:
        return frozenset({"name"})
    activity: set[ValueKind] = {"activity"} if low.split()[0].endswith("ing") and not capital else set()
    if cased or activity:
        return frozenset({"thing", *activity})
    return frozenset({"name", "thing"})


def uses_case(text: str) -> bool:
    """Whether a text's capitals say anything: a capital other than the word "I"."""
    return bool(CASED.search(re.sub(r"\bI\b", "", text)))


class Held(Protocol):
    """A stored value: a fact, for a correction."""
    @property
    def key(self) -> str: ...

    @property
    def value(self) -> str: ...


H = TypeVar("H", bound=Held)


def fits(key: str, old: str, new: str, cased: bool) -> bool:
    """Whether `new` can replace `old` as key's value: key takes the new value's kind, and the old value
    was of that kind too ("Bath" was a name, "vegetarian" a diet)."""
    shared = takes(key) & kinds(new, cased)
    return bool(shared & kinds(old, cased=True))


def target(candidates: Sequence[H], new: str, cased: bool) -> H | None:
    """The first of the candidates (the conversation's facts, newest first) the value fits, or None: then the
    correction is kept as words, not guessed."""
    return next((c for c in candidates if fits(c.key, c.value, new, cased)), None)


def specific(value: str, cased: bool) -> bool:
    """A value with a kind of its own (a name, a number, a diet...), not just any word: "sorry, Lisbon"
    is a correction, "no problem" is not."""
    found = kinds(value, cased)
    return bool(found) and found != frozenset({"thing"}) and found != frozenset({"name", "thing"})

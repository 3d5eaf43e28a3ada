"""A language model as a second reader, checked: proposals of facts, and the grounding checks that
decide which ones may be stored.

The model reads the user's own messages of a session and proposes facts as JSON (see memory.proposals). Nothing
it says is trusted: every proposal must cite one of this session's user messages, use a key from
the vocabulary, say nothing the user did not say (each content word of the value is in the cited
message, or is a listed normalisation of a word there), come from a first-person statement (not a
question, a wish, a joke or someone else), never take a pinned fact away, and replace a single
value only when the message itself says it changed. No model is called here: the caller passes
the reply text in, so this stays usable by any assistant.
"""
from __future__ import annotations

import regex as re

from . import facts as F
from .lexicon import (
    DIETS, F as FLAGS, HYPOTHETICAL, IF_ANYWHERE, LANGUAGES, NOT_PLACES, PETS, QUESTION, SENTENCE_SPLIT,
    as_name, as_number, as_occupation, as_place, clauses, is_question, strip_lead,
)
from .proposals import MAX_VALUE_WORDS, Outcome, Proposal
from .records import Message
from .rules import FAV, FIELDS, HEDGE, JOKE, SARCASM, mine_statements

# --------------------------------------------------------------------------------------------
# Grounding: the value's content words are the user's words
# --------------------------------------------------------------------------------------------
FUNCTION_WORDS = set("""a an the my our your his her their its of in at on to for with and or is are was
were be been am i me we us it this that named called as by from into about some any one""".split())
# A word the model may use for a word the user said: "nursing" -> "nurse", "greyhound" -> "dog".
NORMALISE = {
    **{breed: "dog" for breed in """greyhound labrador lab retriever poodle beagle terrier spaniel collie
       husky pug dachshund chihuahua corgi bulldog shepherd rottweiler boxer doberman puppy pup whippet
       lurcher schnauzer mutt""".split()},
    **{breed: "cat" for breed in "tabby siamese persian kitten kitty moggy".split()},
    "coeliac": "coeliac disease", "celiac": "coeliac disease", "diabetic": "diabetes", "asthmatic": "asthma",
    "epileptic": "epilepsy", "vegetarian": "vegetarian", "veggie": "vegetarian", "mum": "mother",
    "mom": "mother", "hubby": "husband", "missus": "wife", "uni": "university", "meds": "medication",
}
WORD = re.compile(r"[\p{L}\p{N}]+(?:['’][\p{L}]+)?", FLAGS)


def stem(word: str) -> str:
    """A crude stem, enough to match "nursing"/"nurse", "kayaker"/"kayaking", "dogs"/"dog"."""
    word = word.casefold().replace("’", "'")
    word = re.sub(r"'s$", "", word)
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ers", ""), ("er", ""), ("ors", ""), ("or", ""),
                         ("ists", ""), ("ist", ""), ("es", ""), ("s", ""), ("ed", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + keep
            break
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


def content_words(text: str) -> list[str]:
    return [w for w in (m.group(0).casefold() for m in WORD.finditer(text)) if w not in FUNCTION_WORDS]


def _said(text: str) -> set[str]:
    """Every form of every word in text a value word may match: stems, normalisations, numbers."""
    words = [m.group(0).casefold() for m in WORD.finditer(text)]
    out = {stem(w) for w in words}
    for w in words:
        for target in NORMALISE.get(w, "").split():
            out.add(stem(target))
    for i in range(len(words)):           # "thirty four" -> "34"
        for n in (2, 1):
            number = as_number(" ".join(words[i:i + n]))
            if number is not None:
                out.add(str(number))
    return out


def ungrounded(value: str, text: str) -> list[str]:
    """The content words of value that the user did not say in text."""
    said = _said(text)
    return [w for w in content_words(value) if stem(w) not in said]


# --------------------------------------------------------------------------------------------
# Whose statement: the same guards as the rules, and no third party
# --------------------------------------------------------------------------------------------
FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|i've|ive|i'd|me|my|mine|myself|we|we're|we've|our|us)\b", FLAGS)
OTHER_SUBJECT = re.compile(r"^(?:he|she|they|his|her|their|you|your|it|its|this|that|these|those)\b", FLAGS)
PEOPLE = (r"(?:brother|sister|mom|mum|mother|dad|father|parents?|friend|friends|wife|husband|partner|boyfriend|"
          r"girlfriend|son|daughter|kids?|children|boss|neighbou?r|cousin|aunt|uncle|grandma|grandpa|grandmother|"
          r"grandfather|doctor|teacher|colleague|coworker|roommate|flatmate|family|dog|cat)")
THIRD_PARTY = re.compile(rf"^(?:my|our) (?:\w+ )?{PEOPLE}\b", FLAGS)
SOMEONE_WHO = re.compile(rf"\b{PEOPLE}s?\b,? (?:who|that|which|whose)\b", FLAGS)
ABOUT_ME = re.compile(r"\b(?:me|myself|i|i'm|im|we)\b", FLAGS)
# Reported, doubted or past: "my friend said i'm allergic", "i think i'm allergic", "i was vegan".
REPORTED = re.compile(r"\b(?:said|says|told|tells|thinks|claims|reckons|believes|swears)\b", FLAGS)
DOUBTED = re.compile(r"\b(?:maybe|perhaps|might|i'm not sure|not sure|apparently|supposedly)\b", FLAGS)
# Softer doubt is fine for a taste ("i think empire is my favorite"), not for who someone is.
SOFT_DOUBT = re.compile(r"\b(?:i think|i guess|i suppose|probably)\b", FLAGS)
PAST = re.compile(r"\b(?:i was|i had|i used to|i lived|i worked|we were|we had|back then|as a kid|"
                  r"as a child|when i was|years ago|for a year|for (?:a|one|two|three|\w+) (?:years?|months?)\b(?=.*\b(?:was|had)\b))",
                  FLAGS)
WISH = re.compile(r"\b(?:looking for|searching for|applying|hoping|wanted|would love|dream|dreaming|plan|planning|"
                  r"gonna|thinking about|thinking of|considering|trying to get|aspire|someday|to become|to be)\b", FLAGS)
NEGATED = re.compile(r"\b(?:not|no longer|never|don'?t|doesn'?t|didn'?t|isn'?t|aren'?t|wasn'?t|can'?t|cannot|"
                     r"won'?t|no|nor|anymore|used to|wish|hope|want to|would like|someday|one day)\b", FLAGS)
# the user asks for something to be kept: the one case where a model may store a note through a tool
ASKED_TO_KEEP = re.compile(r"\b(?:remember|don'?t (?:you )?forget|do not forget|keep in mind|make a note|note (?:that|this|it|down)|"
                           r"(?:save|store|keep|log|record) (?:that|this|it)|write (?:that|this|it) down)\b", re.IGNORECASE)
CHANGED = re.compile(r"\b(?:now|moved|move|anymore|no longer|new|changed|switched|started|became|become|"
                     r"actually|these days|since|again|instead|turned|got a job|just got|quit|left)\b", FLAGS)


def _clause_for(value: str, text: str) -> tuple[str, str] | None:
    """The (sentence, clause) of text that holds every content word of value, if any."""
    for sentence in SENTENCE_SPLIT.split(text):
        for clause in clauses(sentence.strip()):
            if not ungrounded(value, clause):
                return sentence.strip(), clause
        if not ungrounded(value, sentence):
            return sentence.strip(), sentence.strip()
    return None


def statement_problem(value: str, sentence: str, clause: str, key: str = "") -> str | None:
    """Why the clause holding value (in its sentence) is not a first-person statement of it, or None."""
    body = strip_lead(clause)
    if sentence.endswith("?") or QUESTION.match(strip_lead(sentence)) or QUESTION.match(body):
        return "the message asks, it does not state"
    if HYPOTHETICAL.match(body) or IF_ANYWHERE.search(body):
        return "the message is a wish or a hypothetical"
    if HEDGE.search(body) or JOKE.search(sentence) or SARCASM.match(sentence):
        return "the message is a hedge or a joke"
    if OTHER_SUBJECT.match(body) or not FIRST_PERSON.search(body):
        return "the message is about someone else"
    if SOMEONE_WHO.search(_before(value, body)):
        return "the message is about someone else"      # "i have a son who is in junior high"
    third = THIRD_PARTY.match(body)
    # "my wife's name is anna", "my dog's called biscuit": the partner and the pet are the user's facts
    if third and key not in ("partner", "pet") and not ABOUT_ME.search(body[third.end():]):
        return "the message is about someone else"
    if NEGATED.search(_before(value, body)) and key != "dislikes":
        return "the message negates it or speaks of the past or the future"
    tastes = key in ("likes", "dislikes") or key.startswith("favorite_")
    if REPORTED.search(body) or DOUBTED.search(body) or WISH.search(body) or (SOFT_DOUBT.search(body) and not tastes):
        return "the message reports, doubts or wishes it, it does not state it"
    if PAST.search(body) and key not in ("hometown", "birthday"):
        return "the message speaks of the past"
    return None


def _before(value: str, clause: str) -> str:
    """The part of clause before value's first content word ("i live in madrid now, not barcelona")."""
    words = content_words(value)
    at = re.search(rf"\b{re.escape(words[0])}", clause, flags=FLAGS) if words else None
    if at is None and words:
        at = re.search(rf"\b{re.escape(stem(words[0])[:4])}", clause, flags=FLAGS)
    return clause[:at.start()] if at else clause


# What the words around a value must say for it to be a fact of that key: "i have a son" is no pet,
# "i'm bored" is no name, "i was vegan for a year" is no diet now.
PET_WORD = re.compile(rf"\b{PETS}\b", FLAGS)
KEY_FIT: dict[str, re.Pattern] = {
    "location": re.compile(r"\b(?:live|living|lives|moved|move|based|reside|residing|settled|home|stay|staying|"
                           r"relocated|address|flat|apartment|house)\b", FLAGS),
    "hometown": re.compile(r"\b(?:from|grew up|born|raised|hometown|home town|native)\b", FLAGS),
    "job": re.compile(r"\b(?:work|working|job|career|profession|employed|study|studying|student|major|teach|"
                      r"teaching|coach|coaching|tutor|waitress|bartend|babysit|freelance|retired|"
                      r"(?:i'm|i am|im)(?: \w+)? an?|became|become|been an?|for a living|nursing|trained|qualified|"
                      r"college|university|school)\b", FLAGS),
    "employer": re.compile(r"\b(?:work|working|job|employed|employer|company|business|own|run|hired)\b", FLAGS),
    "name": re.compile(r"\b(?:name|names|named|call me|calls me|called|go by|i'm|i am|im|this is)\b", FLAGS),
    "likes": re.compile(r"\b(?:like|likes|love|loves|enjoy|enjoys|adore|fan|into|prefer|hobby|hobbies|passion|"
                        r"passionate|favou?rites?|avid|keen|lover|obsessed|interested|weakness|crazy about)\b", FLAGS),
    "dislikes": re.compile(r"\b(?:hate|hates|dislike|dislikes|detest|despise|loathe|can'?t stand|cannot stand|"
                           r"not a fan|(?:don'?t|do not) (?:really |much |particularly )?(?:like|enjoy|care for)|"
                           r"can'?t bear)\b", FLAGS),
    "allergy": re.compile(r"\ballerg", FLAGS),
    "diet": re.compile(r"\b(?:eat|eating|diet|" + "|".join(map(re.escape, DIETS)) + r")\b", FLAGS),
    "medical": re.compile(r"\b(?:have|has|take|taking|on|diagnosed|suffer|condition|medication|medicine|meds|"
                          r"prescribed|put me on|intolerant|intolerance|allergic|deaf|blind|diabetic|asthmatic|"
                          r"epileptic|coeliac|celiac|pregnant|disability|disabled)\b", FLAGS),
    "language": re.compile(r"\b(?:speak|speaks|fluent|native|language|tongue|bilingual)\b", FLAGS),
    "partner": re.compile(r"\b(?:wife|husband|partner|girlfriend|boyfriend|spouse|fianc\w*|married|dating|engaged)\b",
                          FLAGS),
    "age": re.compile(r"\b(?:old|turned|turning|aged?|i'?m|i am|im)\b(?!.*\bfor \w+ years\b)", FLAGS),
    "birthday": re.compile(r"\b(?:birthday|bday|born)\b", FLAGS),
}
FAVORITE = re.compile(rf"\b{FAV}s?\b", FLAGS)


NAME_SAID = re.compile(r"\b(?:name|names|named|call me|calls me|called|go by)\b", FLAGS)
# "i'm a nurse at st mary's": the employer of a job just named
JOB_AT = re.compile(r"\b(?:i'?m|i am) (?:\w+ )?an? (?P<job>[\w -]+?) (?:at|for|with) ", FLAGS)
STUDIED = re.compile(r"\b(?:study|studying|studies|major|majoring|college|university|school|for a living|teach|"
                     r"teaching|coach|coaching|tutor|stay at home)\b", FLAGS)
# "a dog walking business", "bird watching": the animal names something else
PET_MODIFIER = (r"(?:\w+ing|food|toys?|business|videos?|tank|hair|sitter|walker|park|show|bed|treats?|shelter|rescue|"
                r"trainer|groomer|lover|person|people)\b")
POINTED = re.compile(r"\b(?:that|this|these|those|it|them)\s+$", FLAGS)
FIELD = re.compile(rf"^(?:{FIELDS})$", FLAGS)


def fit_problem(key: str, value: str, clause: str) -> str | None:
    """Why the words around value (the clause holding it) do not make it a fact of key, or None."""
    cue = FAVORITE if key.startswith("favorite_") else KEY_FIT.get(key)
    job_at = JOB_AT.search(clause)
    employer_by_job = key == "employer" and job_at is not None and as_occupation(job_at["job"])
    if cue is not None and not cue.search(clause) and not employer_by_job:
        return f"the message does not speak of the user's {key.replace('_', ' ')}"
    words = content_words(value)
    if re.match(r"(?:that|this|these|those|it|them|you|your|you're|he|she|they)\b", value, flags=FLAGS) or \
            any(w in ("you", "your", "you're", "yours") for w in words):
        return "the value points at something else, not at the user"
    for word in words:
        at = re.search(rf"\b{re.escape(word)}", clause, flags=FLAGS)
        if at and POINTED.search(clause[:at.start()]):
            return "the value points at something said before"
    if cue is not None and key in ("likes", "dislikes") and any(cue.fullmatch(w) for w in words):
        return "the value holds the verb, not the thing"
    animals = [w for w in words if PET_WORD.fullmatch(w) or w in NORMALISE]
    if key == "pet" and (not animals or any(re.search(rf"\b{re.escape(a)}[\s-]+{PET_MODIFIER}", clause, flags=FLAGS)
                                            for a in animals)):
        return "the value is not an animal the user has"
    if key == "language" and not all(w in LANGUAGES for w in words):
        return "the value is not a language"
    if key == "diet" and not any(w in DIETS for w in words):
        return "the value is not a diet"
    if key in ("location", "hometown") and (as_place(value) is None or NOT_PLACES.match(f"the {value}")):
        return "the value is not a place"
    if key == "job" and not (as_occupation(value) or words[0].endswith("ing") or words[-1].endswith("ing")
                             or words[-1] in ("student", "retired") or FIELD.match(value) or STUDIED.search(clause)):
        return "the value is not an occupation"
    if key in ("name", "partner") and as_name(value) is None:
        return "the value is not a name"
    if key == "name" and not NAME_SAID.search(clause) and \
            not any(c.key == "name" and c.value and c.value.casefold() == value.casefold() for c in mine_statements(clause)):
        return "the message does not give a name"
    return None


# --------------------------------------------------------------------------------------------
# The verdict on one proposal
# --------------------------------------------------------------------------------------------
def _known(current: list[F.Fact], key: str, value: str) -> F.Fact | None:
    """A current fact that already says this (the regex path may have stored it this session):
    "dog named Pip" is known when "greyhound named Pip" is."""
    want, want_forms = {stem(w) for w in content_words(value)}, _said(value)
    for fact in current:
        if fact.key != key:
            continue
        have, have_forms = {stem(w) for w in content_words(fact.value)}, _said(fact.value)
        if F.norm(fact.value) == F.norm(value) or (want and (want <= have_forms or have <= want_forms)):
            return fact
    return None


def judge(proposal: Proposal, message: Message | None, current: list[F.Fact]) -> tuple[Outcome, str]:
    """Check one proposal against the message it cites and the user's current facts."""
    key, value = proposal.key, proposal.value
    if proposal.op not in ("add", "assert", "set", "update"):
        return "rejected", f"a model may only add facts, not {proposal.op!r}"
    if not F.KEY_SHAPE.match(key) or not F.is_known_key(key) or key in ("note", "wake_word"):
        return "rejected", f"{key!r} is not a fact key"
    words = content_words(value)
    if not words or len(value.split()) > MAX_VALUE_WORDS or len(value) > 120:
        return "rejected", "the value is empty or too long to be one fact"
    if message is None:
        return "rejected", f"message {proposal.message_id} is not one of this session's messages"
    if message.role != "user":
        return "rejected", "it cites her own words, not the user's"
    missing = ungrounded(value, message.text)
    if missing:
        return "rejected", f"the user never said {', '.join(repr(w) for w in missing)}"
    found = _clause_for(value, message.text)      # found once, read by both checks below
    if found is None:
        return "rejected", "its words are spread over several sentences"
    sentence, clause = found
    problem = statement_problem(value, sentence, clause, key) or fit_problem(key, value, clause)
    if problem:
        return "rejected", problem
    held = [f for f in current if f.key == key]
    pinned = f"{key} is pinned: a model may add to it, never replace it"
    if key in F.PINNED_KEYS and proposal.replaces:
        return "rejected", pinned
    if _known(current, key, value):
        return "known", "already known"
    if key in F.PINNED_KEYS and held and key not in F.MULTI_VALUED:
        return "rejected", pinned
    if held and key not in F.MULTI_VALUED:
        if not proposal.replaces:
            return "rejected", f"it would replace {held[0].value!r}, and the model did not say it changed"
        if not CHANGED.search(message.text):
            return "rejected", f"it would replace {held[0].value!r}, and the message does not say it changed"
    return "stored", "grounded in the user's words"


def judge_note(value: str, message: Message) -> tuple[Outcome, str]:
    """A note a model wants stored: only the user's own words, from a message that asked for them to be kept."""
    if not content_words(value) or len(value) > 500:
        return "rejected", "the note is empty or too long"
    if message.role != "user":
        return "rejected", "it cites her own words, not the user's"
    if not ASKED_TO_KEEP.search(message.text):
        return "rejected", "the user did not ask for anything to be remembered"
    from .parsing import parse      # the rules are loaded already; imported here, parsing never imports this
    if is_question(value) or (is_question(message.text) and parse(message.text).command is None):
        return "rejected", "a question is not a note"    # "do you remember who was the first man on the moon?"
    missing = ungrounded(value, message.text)
    exact = [w for w in missing if any(c.isdigit() for c in w)]
    if exact or len(missing) > len(content_words(value)) / 3:     # a word or two of paraphrase, no new number
        return "rejected", f"the user never said {', '.join(repr(w) for w in missing)}"
    return "stored", "the user's words, asked to be remembered"

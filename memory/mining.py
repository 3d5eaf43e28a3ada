"""Every fact pattern, in one place: text the user said -> a list of `Change`s.

Facts are about the speaker, stated by the speaker, in the first person. So every pattern is
anchored at the start of a clause ("my brother lives in Oslo" never reaches "i live in"), and
questions, hypotheticals and reported speech are dropped before any pattern runs. Input may be
typed ("I'm vegetarian, and I'm allergic to peanuts.") or speech-to-text output ("im vegetarian
and im allergic to peanuts"). Time is bounded: the text is capped and every regex call has a
timeout, so a 1 MB line or binary noise returns quickly.

The vocabulary (keys and their examples) is in tests/mining_corpus.py, one labelled line each.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

import regex as re

MAX_CHARS = 2000      # only the first 2,000 characters are mined; the whole message is still stored
TIMEOUT_S = 0.05      # per regex call; a pathological input gives up instead of hanging


@dataclass(frozen=True)
class Change:
    """One thing mining learned. op: assert | retract | forget. value None: every value of key;
    key None (forget only): any key holding value."""
    op: str
    key: str | None
    value: str | None = None


# --------------------------------------------------------------------------------------------
# Shared pieces
# --------------------------------------------------------------------------------------------
F = re.IGNORECASE | re.VERSION1

IM = r"(?:i'?m|i am|i m)"                       # i'm, im, i am
IVE = r"(?:i'?ve|i have)"                       # i've, ive, i have
IDONT = r"(?:i don'?t|i do not)"                # i don't, i dont, i do not
NOW = r"(?:now|currently|still|actually|really|also|just|recently|finally|officially)"
# Words that may open a clause without changing who speaks: "actually, I live in Paris".
LEAD = (r"(?:(?:well|so|oh|ok|okay|and|also|but|actually|btw|by the way|hey|hi|hello|yeah|yes|yep|"
        r"no(?=[,.!])|nope|um+|uh+|er|hmm+|anyway|anyways|right|alright|honestly|oh and|glados|hey glados|"
        r"ok glados|listen|guess what|you know what|fun fact|update|correction|quick update|"
        r"as of today|as of now|these days|nowadays|now|since last week|since last month|"
        r"since yesterday|last week|last month|last year|recently|lately)\b[\s,:;!.-]*)*")

MONTHS = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
STOP_WORDS = (
    r"with|since|for (?:the past|the last|about|over|almost|nearly|a few|a couple|several|many|\d|a year|"
    r"an? (?:hour|day|week|month|year|decade)|(?:one|two|three|four|five|six|seven|eight|nine|ten))|because|cause|cuz|but|where|"
    r"which|who|near|close to|next to|as (?:a|an|the)|so|and i|and my|for now|at the moment|"
    r"right now|these days|nowadays|now|currently|anymore|any more|again|actually|too|as well|"
    r"though|lol|haha|btw|by the way|thanks|thank you|please|ok|okay|if|when|until|till|originally|"
    r"after|before|though|last (?:year|month|week|night|summer|winter|spring|autumn|fall)|"
    r"this (?:year|month|week)|yesterday|today|recently|lately|a while ago|\d+ (?:years?|months?|weeks?) ago|"
    rf"in (?:{MONTHS}|\d{{4}}|the (?:spring|summer|autumn|fall|winter))|on (?:monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday)")
# Where an open value (a place, a company) stops: "paris with my wife", "google since 2019".
VALUE_STOP = re.compile(rf"\s+(?:{STOP_WORDS})(?:\s|$).*$|\s*[,;!?](?:\s|$).*$|\.(?:\s.*)?$", F)
# The same for lists, where commas separate items: "shellfish, eggs and tree nuts".
LIST_STOP = re.compile(rf"\s+(?:{STOP_WORDS})(?:\s|$).*$|\s*[;!?](?:\s|$).*$|\.(?:\s.*)?$", F)
TRAIL = re.compile(r"(?:\s+(?:now|anymore|any more|again|actually|too|also|though|lol|haha|originally|lately|"
                   r"then|currently|as well|either|please|thanks|ok|okay))+\s*$|[\s,;.!?\"']+$", F)
LIST_SPLIT = re.compile(r"\s*(?:,\s*(?:and|or)\s+|,|\band\b|\bor\b|&|\bplus\b|\bas well as\b|"
                        r"\bnor\b)\s*", F)
ARTICLE = re.compile(r"^(?:a|an|the|some|any|all|both|either|eating|most|certain|also)\s+", F)
NON_VALUES = {"", "it", "that", "this", "them", "him", "her", "you", "u", "ya", "there", "here",
              "those", "these", "what", "so", "too", "one", "stuff", "things", "everything",
              "anything", "nothing", "something", "much", "a lot", "lots", "to", "me", "myself",
              "yourself", "not", "no", "yes", "how", "when", "where", "why", "the way", "which"}


def _search(pattern: re.Pattern, text: str):
    try:
        return pattern.search(text, timeout=TIMEOUT_S)
    except TimeoutError:
        return None


def _match(pattern: re.Pattern, text: str):
    try:
        return pattern.match(text, timeout=TIMEOUT_S)
    except TimeoutError:
        return None


def _trim(value: str, stop: re.Pattern = VALUE_STOP) -> str:
    """Cut an open value at the first word that cannot belong to it, then drop trailing filler."""
    value = value.strip(" \t\"'“”")
    stopped = _search(stop, value)
    if stopped:
        value = value[: stopped.start()]
    previous = None
    while previous != value:
        previous = value
        value = TRAIL.sub("", value).strip(" \t\"'“”")
    return value


def _titled(value: str) -> str:
    """Speech-to-text gives "new york"; keep typed capitals ("iPhone", "McDonald's") as they are."""
    return value.title() if value == value.lower() else value


def _items(value: str, max_items: int = 8) -> list[str]:
    """'peanuts, tree nuts and shellfish' -> ['peanuts', 'tree nuts', 'shellfish']."""
    out = []
    for part in LIST_SPLIT.split(_trim(value, LIST_STOP)):
        part = ARTICLE.sub("", _trim(part)).strip()
        if part and part.lower() not in NON_VALUES and len(part) <= 60 and part not in out:
            out.append(part)
    return out[:max_items]


def _word_count_ok(value: str, most: int) -> bool:
    return 0 < len(value.split()) <= most


# --------------------------------------------------------------------------------------------
# Guards: what is not a statement about the speaker
# --------------------------------------------------------------------------------------------
# "what's my name", "do you know where i live", "am i allergic to anything"
LEAD_RE = re.compile(rf"^{LEAD}", F)
QUESTION = re.compile(
    r"^(?:what|what's|whats|where|where's|who|who's|when|why|how|which|whose|whom|"
    r"do|does|did|am|is|are|was|were|can|could|would|will|should|shall|have|has|had|may|might|"
    r"isn't|aren't|don't|doesn't|didn't|won't|wouldn't|can't|tell me|remind me|guess)\b", F)
# "if i lived in tokyo", "imagine i was vegan", "what if i moved to oslo", "i wish i lived in rome"
HYPOTHETICAL = re.compile(
    r"^(?:if|suppose|supposing|imagine|pretend|hypothetically|what if|let's say|lets say|"
    r"say|assuming|in a world|in my dreams?|someday|one day|maybe|perhaps|i wish|i'd|id|i would|"
    r"i could|i might|i may|i want to|i hope|i'm going to|im going to|i'm gonna|im gonna|"
    r"i will|i'll|i plan|i'm planning|im planning|i'm thinking|im thinking|i used to)\b", F)
IF_ANYWHERE = re.compile(r"\b(?:if|unless|whether|would|wish|pretend|imagine)\b", F)
# Clauses split here: "i'm vegetarian and i'm allergic to peanuts", "my name is bob, i live in oslo"
CONJ = (r"(?:and|but|so|also|plus|although|though|while|because|cause|cuz|oh and|and also|and now|"
        r"but now|and actually|actually)")
SUBJECT = r"(?:i|i'm|im|i've|ive|i'd|i'll|i am|i have|i do|i don't|i dont|my|we|we're|we've)\b"
CLAUSE_SPLIT = re.compile(
    rf"\s*[,;:]\s*(?:{CONJ}[\s,]+)?(?={SUBJECT})|\s+{CONJ}[\s,]+(?={SUBJECT})"
    # Unpunctuated speech: "my name is bob i live in paris" splits before a fresh first-person start.
    r"|(?<!\b(?:that|what|where|when|why|how|if|because|than|as|who|whom|which|and|but|so|or|hi|hello|hey|well|oh|yes|yeah|no|okay|ok|actually|now|also|um|uh|glados|"
    r"think|know|say|said|guess|hope|mean|believe|feel|suppose|since|until|like|whether|is|are|was|were|be|to|for|with|about|of|at|in|on))\s+"
    r"(?=(?:i'm|im|i am|i've|ive|i live|i work|i speak|my name|my favou?rite|my birthday|call me)\b)"
    r"|\s*[,;]\s*(?=(?:actually|also|oh|btw|by the way|and)\b)", F)
SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+|(?<=\w)\s+-+\s+")


# --------------------------------------------------------------------------------------------
# Vocabularies that keep open patterns precise
# --------------------------------------------------------------------------------------------
DIETS = {
    "vegetarian": "vegetarian", "veggie": "vegetarian", "vegan": "vegan", "pescatarian": "pescatarian",
    "pescetarian": "pescatarian", "pescitarian": "pescatarian", "omnivore": "omnivore",
    "omnivorous": "omnivore", "flexitarian": "flexitarian", "carnivore": "carnivore",
    "keto": "keto", "paleo": "paleo", "kosher": "kosher", "halal": "halal",
    "plant-based": "vegan", "plant based": "vegan", "lacto-vegetarian": "lacto-vegetarian",
    "ovo-vegetarian": "ovo-vegetarian", "raw vegan": "raw vegan", "gluten-free": "gluten-free",
    "gluten free": "gluten-free",
}
DIET = r"(?P<diet>" + "|".join(sorted(map(re.escape, DIETS), key=len, reverse=True)) + r")"

OCCUPATIONS = set("""
accountant actor actress analyst architect artist assistant astronaut attorney author baker
banker barber barista bartender biologist bookkeeper builder butcher carpenter cashier chef
chemist cleaner clerk coach consultant contractor cook counselor counsellor courier dancer
dentist designer detective developer dietitian director doctor driver economist editor
electrician engineer entrepreneur farmer firefighter fisherman florist freelancer gardener
geologist hairdresser historian illustrator instructor intern investor janitor journalist
judge labourer laborer lawyer lecturer librarian lifeguard linguist machinist manager mechanic
midwife miner model musician nanny nurse officer optician painter paralegal paramedic
pharmacist photographer physician physicist physiotherapist pilot plumber poet policeman
policewoman politician producer professor programmer psychologist psychiatrist publisher
receptionist reporter researcher retiree sailor salesman saleswoman salesperson scientist
secretary singer soldier statistician student surgeon surveyor tailor teacher technician
therapist trainer translator tutor vet veterinarian waiter waitress welder writer youtuber
streamer ceo cto cfo founder cofounder co-founder owner mathematician administrator
sysadmin devops tester recruiter underwriter auditor actuary pharmacologist radiologist
dermatologist cardiologist anesthesiologist pediatrician neurologist surgeon postman
mailman carer caregiver housekeeper homemaker secretary stylist tattooist comedian
composer conductor filmmaker animator podcaster blogger influencer shopkeeper clergyman
priest pastor rabbi imam monk nun professor postdoc phd researcher
""".split())
OCCUPATION_PLURAL = {w + "s" for w in OCCUPATIONS}

PETS = (r"(?:dogs?|puppy|puppies|cats?|kittens?|kitty|parrots?|birds?|budgies?|hamsters?|rabbits?|"
        r"bunny|bunnies|goldfish|fish|turtles?|tortoises?|snakes?|lizards?|geckos?|guinea pigs?|"
        r"ferrets?|horses?|ponies|pony|chickens?|hens?|bearded dragons?|rats?|mice|mouse|"
        r"gerbils?|chinchillas?|hedgehogs?|axolotls?|iguanas?|cockatiels?|canar(?:y|ies)|"
        r"pigs?|goats?|cows?|ducks?|retrievers?|labradors?|labs?|poodles?|terriers?|spaniels?|beagles?|"
        r"bulldogs?|collies?|shepherds?|huskies|husky|dachshunds?|pugs?|chihuahuas?|corgis?|greyhounds?|"
        r"tabby|tabbies|siamese|persian|maine coon)")
COUNT = r"(?:an?|one|two|three|four|five|six|\d{1,2}|a couple of|a few|some)"

LANGUAGES = set("""
english french spanish german italian portuguese dutch swedish norwegian danish finnish
icelandic polish czech slovak hungarian romanian bulgarian greek turkish russian ukrainian
serbian croatian bosnian slovenian albanian lithuanian latvian estonian irish welsh gaelic
arabic hebrew persian farsi urdu hindi bengali punjabi gujarati marathi tamil telugu kannada
malayalam sinhala nepali mandarin cantonese chinese japanese korean vietnamese thai khmer lao
burmese indonesian malay tagalog filipino swahili amharic yoruba igbo zulu xhosa afrikaans
somali hausa catalan basque galician latin esperanto sign asl bsl quechua maori hawaiian
""".split())

NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen".split())}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90}
NUMBER = (r"(?P<num>\d{1,3}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
          r"(?:[\s-](?:one|two|three|four|five|six|seven|eight|nine))?|"
          r"(?:one hundred|a hundred)|(?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
          r"seventeen|eighteen|nineteen|one|two|three|four|five|six|seven|eight|nine))")
NAME_STOPWORDS = {"a", "an", "the", "not", "so", "very", "really", "just", "tired", "fine", "good",
                  "ok", "okay", "here", "back", "home", "sorry", "hungry", "sure", "great",
                  "busy", "bored", "later", "tomorrow", "tonight", "maybe", "sometime",
                  "anytime", "whenever", "when", "if", "asap", "now", "please", "on",
                  "at", "in", "crazy", "happy", "sad", "done", "ready", "late", "still",
                  "going", "gonna", "sick", "cold", "hot", "excited", "confused", "lost",
                  "married", "single", "retired", "vegan", "vegetarian", "allergic", "from",
                  "lucky", "interested", "afraid", "scared", "new", "old", "alive", "dead",
                  "awake", "asleep", "well", "nervous", "angry", "annoyed", "glad", "thinking",
                  "working", "living", "learning", "trying", "feeling", "looking", "your",
                  "all", "about", "by", "to", "with", "out", "off", "up", "down", "over"}


def _name(value: str) -> str | None:
    """Up to three words that look like a name; None for "call me later", "i'm tired"."""
    value = _trim(value)
    words = value.split()
    if not words or len(words) > 3 or words[0].lower() in NAME_STOPWORDS:
        return None
    if not all(re.fullmatch(r"[\p{L}][\p{L}'.-]*", w) for w in words):
        return None
    return _titled(value)


def _number(text: str) -> int | None:
    text = text.lower().replace("-", " ").strip()
    if text.isdigit():
        return int(text)
    if text in ("one hundred", "a hundred"):
        return 100
    parts = text.split()
    total = 0
    for part in parts:
        if part in TENS:
            total += TENS[part]
        elif part in NUMBER_WORDS:
            total += NUMBER_WORDS[part]
        else:
            return None
    return total


def _gerund(phrase: str) -> str:
    """'to hike' -> 'hiking', 'to play tennis' -> 'playing tennis' (likes are nouns)."""
    words = phrase.split()
    verb = words[0].lower()
    if verb.endswith("ie"):
        verb = verb[:-2] + "ying"
    elif verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
        verb = verb[:-1] + "ing"
    elif (len(verb) <= 4 and re.fullmatch(r"[^aeiou]*[aeiou][bdgmnprt]", verb)):
        verb = verb + verb[-1] + "ing"
    else:
        verb += "ing"
    return " ".join([verb, *words[1:]])


def _occupation(phrase: str) -> str | None:
    """'software engineer' -> itself; 'big fan' -> None. The last word must be an occupation."""
    phrase = ARTICLE.sub("", _trim(phrase)).strip()
    words = phrase.lower().split()
    if not words or len(words) > 4:
        return None
    if words[-1] not in OCCUPATIONS and words[-1] not in OCCUPATION_PLURAL:
        return None
    return phrase.lower()


def _place(value: str) -> str | None:
    """'new york city now' -> 'New York City'; 'a small flat in leeds' -> 'Leeds'."""
    value = _trim(value)
    inner = re.search(r"^(?:a|an|the)\s.*?\b(?:in|near|outside|of|called|named)\s+(.+)$", value, flags=F)
    if inner:
        value = _trim(inner.group(1))
    elif re.match(r"^(?:a|an)\s", value, flags=F):
        return None
    value = re.sub(r"^the\s+(?=(?:city|town|village|area|suburbs?) of\s)", "", value, flags=F)
    value = re.sub(r"^(?:city|town|village|area) of\s+", "", value, flags=F)
    words = value.split()
    if not words or len(words) > 5 or value.lower() in NON_VALUES | {"home", "a house", "here"}:
        return None
    return _titled(value)


def _org(value: str) -> str | None:
    value = _trim(re.split(r"\s+as\s+(?:an?\s+)?", value, maxsplit=1, flags=F)[0])
    if not value or len(value.split()) > 6:
        return None
    if value.lower() in NON_VALUES | {"home", "myself", "a living", "free", "fun", "money"}:
        return None
    value = re.sub(r"^the\s+", "", value, flags=F)
    return _titled(value) if not value.lower().startswith(("a ", "an ")) else value


# --------------------------------------------------------------------------------------------
# Clause rules: (pattern anchored after LEAD, handler(match) -> changes). Order matters:
# negations and retractions come before the positive forms they resemble.
# --------------------------------------------------------------------------------------------
Handler = Callable[[re.Match], list[Change]]
RULES: list[tuple[re.Pattern, Handler]] = []


RAW_RULES: list[tuple[re.Pattern, Handler]] = []   # matched before the lead words are stripped


def rule(pattern: str, raw: bool = False):
    """Register a handler for a clause pattern; the clause's lead words ("well, actually") are
    already stripped unless raw."""
    compiled = re.compile(rf"^(?:{pattern})", F)

    def register(handler: Handler) -> Handler:
        (RAW_RULES if raw else RULES).append((compiled, handler))
        return handler
    return register


def _each(op: str, key: str, values: Iterable[str | None]) -> list[Change]:
    return [Change(op, key, v) for v in values if v]


# --- allergy ---------------------------------------------------------------------------------
# "i'm not allergic to peanuts anymore", "i am no longer allergic to shellfish"
@rule(rf"{IM} (?:not|no longer|not actually) allergic to (?P<v>.+)")
def _allergy_retract(m):
    if re.match(r"(?:anything|any food)\b", m["v"], flags=F):
        return [Change("retract", "allergy", None)]
    return _each("retract", "allergy", _items(m["v"]))


# "i outgrew my peanut allergy", "i don't have a shellfish allergy anymore"
@rule(rf"(?:i (?:outgrew|grew out of)|{IDONT} have|i no longer have) (?:my|an?|the) (?P<v>.+?) allerg(?:y|ies)")
def _allergy_outgrown(m):
    return _each("retract", "allergy", _items(m["v"]))


# "i'm allergic to peanuts and cashews", "im severely allergic to bee stings"
@rule(rf"{IM} (?:(?:{NOW}|very|really|severely|deathly|highly|mildly|extremely|super|quite|"
      r"seriously|badly|slightly|a bit|a little|kind of|kinda) )*allergic to (?P<v>.+)")
def _allergy(m):
    return _each("assert", "allergy", _items(m["v"]))


# "i have a peanut allergy", "i've got a severe shellfish allergy", "i have allergies to dust and pollen"
@rule(rf"(?:i (?:have|got)|{IVE} got|i suffer from) (?:an? |some )?(?:(?:severe|serious|bad|mild|"
      r"deadly|life-threatening|major|nasty|food) )*(?:allerg(?:y|ies) to (?P<v>.+)|(?P<w>.+?) allerg(?:y|ies)\b)")
def _allergy_have(m):
    return _each("assert", "allergy", _items(m["v"] or m["w"]))


# "my allergies are peanuts and dust", "my allergy is penicillin"
@rule(r"my (?:only )?allerg(?:y|ies) (?:is|are|include|includes) (?P<v>.+)")
def _allergy_mine(m):
    return _each("assert", "allergy", _items(m["v"]))


# "i'm lactose intolerant", "i am gluten intolerant"
@rule(rf"{IM} (?:{NOW} |very |severely )*(?P<v>lactose|gluten|fructose|histamine) intolerant")
def _intolerant(m):
    return [Change("assert", "allergy", m["v"].lower())]


# --- diet ------------------------------------------------------------------------------------
# "i'm no longer vegan", "i'm not vegetarian anymore", "i quit being vegan"
@rule(rf"(?:{IM} (?:no longer|not(?: really)?) (?:an? )?|i (?:quit|stopped|gave up) being (?:an? )?){DIET}")
def _diet_retract(m):
    return [Change("retract", "diet", DIETS[m["diet"].lower()])]


# "i don't eat meat but i do eat fish" -> pescatarian; read whole, before clauses are split
PESCATARIAN_BUT = re.compile(
    rf"^(?:{IDONT}|i no longer|i (?:stopped|quit)) eat(?:ing)? (?:any )?meat,? (?:but|though) (?:i )?"
    r"(?:do |still )?eat (?:fish|seafood)", F)


# "i've started eating fish again", "i eat fish now", "i'm eating seafood again"
@rule(rf"(?:{IM}|{IVE}|i)(?: {NOW})?(?: (?:started|begun|began|start|went back to|back to))? (?:eating|to eat) (?:fish|seafood)"
      r"|i (?:eat|have) (?:fish|seafood) (?:again|now)")
def _diet_fish(m):
    return [Change("assert", "diet", "pescatarian")]


# "i eat meat again", "i've started eating meat", "i'm eating chicken again"
@rule(rf"(?:{IM}|{IVE}|i)(?: {NOW})?(?: (?:started|begun|began|start|went back to|back to))? (?:eating|to eat) "
      r"(?:meat|chicken|beef|pork|steak|burgers)|i (?:eat|have) (?:meat|chicken|beef|pork) (?:again|now)"
      r"|i(?:'ll| will)? eat (?:anything|everything)\b")
def _diet_meat(m):
    return [Change("assert", "diet", "omnivore")]


# "i stopped eating animal products", "i don't eat any animal products"
@rule(rf"(?:{IDONT}|i no longer|i (?:stopped|quit|gave up)) (?:eat(?:ing)? )?(?:any )?"
      r"(?:animal products|meat(?:,)? (?:or|and) dairy|dairy (?:or|and) meat|meat,? fish(?:,)? (?:or|and) dairy)")
def _diet_vegan_change(m):
    return [Change("assert", "diet", "vegan")]


# "i stopped eating meat", "i don't eat meat or fish", "i gave up meat"
@rule(rf"(?:{IDONT}|i no longer|i (?:stopped|quit|gave up)|{IVE} (?:stopped|quit|given up)) "
      r"(?:eat(?:ing)? )?(?:any )?meat\b")
def _diet_vegetarian_change(m):
    return [Change("assert", "diet", "vegetarian")]


# "i'm vegetarian", "im a vegan now", "i went vegan", "i've become pescatarian", "i follow a keto diet"
@rule(rf"(?:(?:{IM}|{IVE} been) (?:(?:{NOW}|strictly|fully|mostly|100%|a|an|full|on an?) )*|"
      rf"(?:i|{IVE}|we) (?:(?:{NOW}) )*(?:went|gone|became|become|turned|switched to|eat|follow|keep|"
      r"am on|'m on|have|stick to) (?:an? )?|my diet is (?:(?:now|mostly|strictly) )?(?:an? )?)"
      rf"{DIET}(?:\s+(?:diet|now|these days|for (?:health|ethical) reasons|anymore|again|last (?:year|month|week)|"
      r"this (?:year|month)|recently|a while ago|since \w+(?: \w+)?))*\s*$")
def _diet(m):
    return [Change("assert", "diet", DIETS[m["diet"].lower()])]


# --- name ------------------------------------------------------------------------------------
# "my name is bob", "my name's Ada Lovelace", "call me Max", "i go by sam"
@rule(r"(?:my (?:first |full )?name(?:'s|s| is)|(?:you (?:can|may|should) |please |just |everyone |"
      r"people |my friends )?call(?:s)? me|i go by|the name's|name's|"
      rf"{IM} (?:called|named|known as)|they call me) (?:(?:actually|now|just|simply) )?(?P<v>.+)")
def _name_rule(m):
    if re.match(r"(?:not|never)\b", m["v"], flags=F):
        return []
    return _each("assert", "name", [_name(m["v"])])


# "hi, i'm bob", "hello there, i am Ada", "hey this is sam"
@rule(rf"(?:hi|hello|hey|greetings|howdy)[\s,!]+(?:there[\s,!]+|glados[\s,!]+)?(?:{IM}|this is|it's) (?P<v>.+)",
      raw=True)
def _name_greeting(m):
    return _each("assert", "name", [_name(m["v"])])


NOT_NAMES = LANGUAGES | set("""american canadian british australian mexican indian brazilian
scottish welsh irish christian muslim jewish catholic buddhist hindu atheist agnostic european
african asian latino latina gay straight bi trans queer human""".split())


# "I'm Sam." (typed, capitalised, the whole clause): a name, where "i'm tired" is not
@rule(rf"{IM} (?P<v>(?-i:\p{{Lu}}\p{{Ll}}+(?: \p{{Lu}}\p{{Ll}}+)?))\s*[.!]*$")
def _name_capitalised(m):
    first = m["v"].split()[0].lower()
    if first in NOT_NAMES or first in DIETS or first in OCCUPATIONS:
        return []
    return _each("assert", "name", [_name(m["v"])])


# --- location / hometown ---------------------------------------------------------------------
# "i no longer live in paris", "i don't live in berlin anymore", "i moved out of leeds"
@rule(rf"(?:i (?:no longer|don't|dont|do not) live(?: in| at)?|i moved (?:out of|away from)|"
      rf"{IM} (?:no longer|not) (?:living|based) in) (?P<v>.+)")
def _location_retract(m):
    if re.match(r"(?:there|here)\b", m["v"], flags=F):
        return [Change("retract", "location", None)]
    return _each("retract", "location", [_place(m["v"])])


# "i live in paris now", "i've moved to new york", "we just moved to lisbon", "i'm based in oslo"
@rule(rf"(?:(?:i|we) (?:(?:{NOW}|happily) )*(?:live|reside|settled)|{IM} (?:(?:{NOW}) )*(?:living|based|"
      rf"located|residing|settled)|(?:{IVE}|we've) been (?:living|based|staying)|"
      rf"(?:i|we|{IVE}|we've) (?:(?:{NOW}|finally) )*(?:moved|relocated)(?: back)?|"
      r"my (?:home|house|apartment|flat|address) is) (?:in|to|at|near|outside(?: of)?) (?P<v>.+)"
      r"|(?:home (?:for me )?is|i call) (?P<w>.+?)(?: home)?$")
def _location(m):
    return _each("assert", "location", [_place(m["v"] or m["w"])])


# "i was born in 1990" -> birthday; "i was born in leeds" -> hometown
@rule(rf"(?:{IM} (?:originally )?from|i (?:originally )?come from|i grew up in|i was (?:born|raised)"
      r"(?: and (?:raised|bred))? in|my (?:hometown|home town) is|{IM} a native of) (?P<v>.+)")
def _hometown(m):
    value = _trim(m["v"])
    if re.fullmatch(rf"(?:{MONTHS}\s+)?\d{{4}}", value, flags=F):
        return [Change("assert", "birthday", value)]
    if re.match(r"(?:work|school|the future|here|now on|a family|a small family)\b", value, flags=F):
        return []
    return _each("assert", "hometown", [_place(value)])


# --- employer / job --------------------------------------------------------------------------
# "i quit my job", "i got laid off", "i lost my job at acme"
@rule(r"i (?:just )?(?:quit|lost|left) my job(?: at (?P<v>.+))?|i (?:just )?got (?:fired|laid off|let go)"
      rf"(?: from (?P<w>.+))?|{IM} (?:now )?unemployed")
def _employer_gone(m):
    org = m["v"] or m["w"]
    return [Change("retract", "employer", _org(org) if org else None)]


# "i no longer work at google", "i don't work for acme anymore"
@rule(r"i (?:no longer|don't|dont|do not) work (?:at|for) (?P<v>.+)")
def _employer_retract(m):
    return _each("retract", "employer", [_org(m["v"])])


# "i work at google as a software engineer", "i'm employed by the nhs", "i got a job at ikea"
@rule(rf"i (?:(?:{NOW}) )*work (?:at|for) (?P<v>.+)|{IM} (?:(?:{NOW}) )*(?:employed|working) (?:at|for|by) (?P<w>.+)"
      rf"|(?:i|{IVE}) (?:just )?(?:got|landed|started) (?:a |my )?(?:new )?job (?:at|with) (?P<x>.+)"
      r"|my (?:employer|company) is (?P<y>.+)")
def _employer(m):
    raw = m["v"] or m["w"] or m["x"] or m["y"]
    changes = _each("assert", "employer", [_org(raw)])
    job = re.search(r"\bas\s+(?:an?\s+)?(?P<j>.+)$", raw, flags=F)
    if job:
        changes += _each("assert", "job", [_occupation(job["j"])])
    return changes


# "i work as a nurse", "my job is teaching"... "i'm a software engineer at google"
@rule(rf"(?:i (?:(?:{NOW}) )*work as|{IM} (?:(?:{NOW}) )*working as|my (?:job|occupation|profession) is|"
      rf"{IM} (?:(?:{NOW}|a|an|by profession) )*)\s*(?:an? )?(?P<v>.+?)(?:\s+(?:at|for|with) (?P<org>.+))?$")
def _job(m):
    job = _occupation(m["v"])
    if not job:
        return []
    return [Change("assert", "job", job)] + _each("assert", "employer", [_org(m["org"]) if m["org"] else None])


# "i'm retired", "i'm a student"
@rule(rf"{IM} (?:(?:{NOW}|happily|finally) )*(?P<v>retired)\b")
def _retired(m):
    return [Change("assert", "job", "retired"), Change("retract", "employer", None)]


# --- birthday / age --------------------------------------------------------------------------
# "my birthday is march 3rd", "i was born on 4 july 1990"
@rule(r"(?:my (?:birthday|bday|b-day|date of birth|dob)(?:'s| is)(?: on)?|i was born on) (?P<v>.+)")
def _birthday(m):
    value = _trim(m["v"])
    if not re.search(rf"\d|{MONTHS}\b", value, flags=F) or re.search(r"\b(?:today|tomorrow|yesterday|next|last)\b", value, flags=F):
        return []
    return [Change("assert", "birthday", value)] if _word_count_ok(value, 5) else []


# "i'm 34", "i am thirty four years old", "i just turned 40", "my age is 29"
@rule(rf"(?:{IM} (?:(?:{NOW}|only|almost|nearly|about) )*|i (?:just )?turned |my age is ){NUMBER}"
      r"(?:\s*(?:years?|yrs?)(?: old)?| y/?o)?(?:\s+(?:now|today|this year|already|yesterday|recently|"
      r"last (?:week|month|year)|this (?:week|month)))?\s*[.!]*$")
def _age(m):
    age = _number(m["num"])
    return [Change("assert", "age", str(age))] if age and 1 <= age <= 120 else []


# --- partner ---------------------------------------------------------------------------------
PARTNER = r"(?:wife|husband|partner|girlfriend|boyfriend|spouse|fianc[eé]e?|missus|hubby|gf|bf)"


# "i'm single now", "i'm divorced", "we broke up"
@rule(rf"{IM} (?:(?:{NOW}) )*(?:single|divorced|no longer married|not married anymore)|"
      r"(?:we|i) (?:just )?(?:broke up|split up|got divorced|separated)")
def _partner_gone(m):
    return [Change("retract", "partner", None)]


# "my wife's name is anna", "i'm married to Tom", "my girlfriend is called mia"
@rule(rf"(?:my {PARTNER}(?:'s name is|s name is| is called| is named| name is| goes by)|"
      rf"{IM} (?:(?:{NOW}|happily) )*(?:married to|engaged to|dating|going out with)) (?P<v>.+)")
def _partner(m):
    value = re.sub(r"^(?:someone|somebody|a (?:guy|girl|man|woman|lady|person)) (?:named|called) ", "", m["v"], flags=F)
    return _each("assert", "partner", [_name(value)])


# --- favourites ------------------------------------------------------------------------------
FAV = r"(?:favou?rite|fav|fave|most loved)"
THING_ALIASES = {"programming_language": "language", "coding_language": "language",
                 "colour": "color", "programming_languages": "language", "colours": "color",
                 "movie_of_all_time": "movie", "tv_show": "show", "tv_series": "show"}


def _fav_key(thing: str) -> str | None:
    thing = re.sub(r"\s+(?:of all time|ever|right now|at the moment|now|these days|currently|lately)$", "",
                   thing.strip().lower())
    thing = re.sub(r"[^a-z0-9 ]", "", thing).strip().replace(" ", "_")
    thing = THING_ALIASES.get(thing, thing)
    if thing.endswith("s") and not thing.endswith("ss") and len(thing) > 3:
        thing = thing[:-1]
    thing = THING_ALIASES.get(thing, thing)
    if not thing or len(thing) > 30 or thing.count("_") > 2:
        return None
    return "favorite_" + thing


def _fav_value(value: str) -> str | None:
    value = _trim(value)
    if not value or value.lower() in NON_VALUES or len(value.split()) > 6:
        return None
    return value


# "my favorite color isn't blue anymore"
@rule(rf"my {FAV} (?P<t>[\w ]{{1,30}}?) (?:isn't|isnt|is not|aren't|is no longer) (?P<v>.+?)(?: anymore| any more)?\s*$")
def _fav_retract(m):
    key = _fav_key(m["t"])
    return [Change("retract", key, _fav_value(m["v"]))] if key and _fav_value(m["v"]) else []


# "my favorite color is blue", "my favourite programming language is rust", "my fav food's sushi"
@rule(rf"my (?:(?:all[- ]time|new|current|absolute) )?{FAV} (?P<t>[\w ]{{1,30}}?)(?:'s| is| are| would be| has to be|"
      r" must be| is probably| is definitely| these days is| right now is| at the moment is) (?P<v>.+)")
def _fav(m):
    key, value = _fav_key(m["t"]), _fav_value(m["v"])
    return [Change("assert", key, value)] if key and value else []


# "blue is my favorite color", "rust is my favourite programming language"
@rule(rf"(?!(?:i|it|that|this|what|which|who|there)\b)(?P<v>[\w' -]{{1,40}}?) (?:is|are) (?:(?:now|still|definitely|probably|"
      rf"totally) )?my (?:new |all[- ]time |absolute )?{FAV} (?P<t>[\w ]{{1,30}}?)\s*[.!]*$")
def _fav_inverted(m):
    key, value = _fav_key(m["t"]), _fav_value(m["v"])
    return [Change("assert", key, value)] if key and value else []


# --- wake word -------------------------------------------------------------------------------
# "change your wake word to hey jarvis", "set the wake word to computer"
@rule(r"(?:please |can you |could you )?(?:change|set|switch|make|update) (?:your|the) (?:wake ?word|"
      r"wake phrase|trigger word|activation phrase) (?:to|as|into|be) (?P<v>.+)|(?:your|the) "
      r"(?:wake ?word|wake phrase) is (?:now )?(?P<w>.+)|use (?P<x>.+?) as (?:your|the) wake ?(?:word|phrase)")
def _wake_word(m):
    value = _trim(m["v"] or m["w"] or m["x"]).strip("\"'“” ").lower()
    return [Change("assert", "wake_word", value)] if _word_count_ok(value, 4) else []


# --- likes / dislikes ------------------------------------------------------------------------
LIKE_VERBS = r"(?:like|love|enjoy|adore|dig|really like|am into|'m into|m into)"
HATE_VERBS = r"(?:hate|dislike|detest|despise|loathe|can'?t stand|cannot stand|can'?t bear|abhor)"
NOT_LIKE = r"(?:don'?t|do not|no longer|never) (?:really |much |particularly |actually )?(?:like|love|enjoy|care for)"
INTENSIFIER = r"(?:(?:really|absolutely|totally|truly|also|just|do|still|kind of|kinda|sort of|actually|honestly|genuinely|now|so|very much|simply|quite|secretly|definitely|deeply|seriously) )*"


def _like_values(raw: str) -> list[str]:
    raw = _trim(raw)
    if re.match(r"to\s+\w", raw, flags=F):
        raw = _gerund(raw[3:].strip())
    if re.match(r"(?:it|that|this|you|how|when|where|what|being|the way|the idea|my job when)\b", raw, flags=F):
        return []
    return _items(raw)


# "i don't like olives anymore", "i no longer enjoy running", "i'm not into jazz anymore"
@rule(rf"i {NOT_LIKE} (?P<v>.+?) (?:anymore|any more|these days|now)\b"
      rf"|i no longer (?:like|love|enjoy) (?P<w>.+)|i (?:stopped|quit) (?:liking|enjoying|loving) (?P<x>.+)"
      rf"|{IM} (?:no longer|not) (?:into|a fan of) (?P<y>.+?) (?:anymore|any more)\b|{IM} over (?P<z>.+)")
def _likes_retract(m):
    return _each("retract", "likes", _like_values(m["v"] or m["w"] or m["x"] or m["y"] or m["z"]))


# "i don't hate mushrooms anymore", "i no longer dislike jazz"
@rule(r"i (?:don'?t|do not|no longer) (?:hate|dislike|mind) (?P<v>.+?)(?: anymore| any more)?\s*$")
def _dislikes_retract(m):
    return _each("retract", "dislikes", _like_values(m["v"]))


# "i hate mushrooms", "i can't stand jazz", "i don't like cilantro", "i'm not a fan of horror movies"
@rule(rf"i {INTENSIFIER}{HATE_VERBS} (?P<v>.+)|i {NOT_LIKE} (?P<w>.+)|"
      rf"{IM} (?:really )?not (?:a (?:big |huge )?fan of|into|keen on) (?P<x>.+)")
def _dislikes(m):
    return _each("assert", "dislikes", _like_values(m["v"] or m["w"] or m["x"]))


# "i like jazz and hiking", "i really love spicy food", "i'm a big fan of chess", "i'm into climbing"
@rule(rf"i {INTENSIFIER}{LIKE_VERBS} (?P<v>.+)|{IM} {INTENSIFIER}(?:a (?:(?:big|huge|massive|great) )?fan of|"
      r"(?:really )?into|keen on|passionate about|obsessed with|crazy about|addicted to) (?P<w>.+)")
def _likes(m):
    return _each("assert", "likes", _like_values(m["v"] or m["w"]))


# --- pets ------------------------------------------------------------------------------------
def _pet_values(raw: str) -> list[str]:
    out = []
    for item in re.split(r"\s*(?:,\s*and|,|\band\b|\bplus\b)\s*", _trim(raw), flags=F):
        pm = re.fullmatch(rf"(?:{COUNT}\s+)?(?:(?:little|old|young|new|pet|rescue|big|small|\w+-year-old)\s+)*"
                          rf"(?P<kind>(?:[\w-]+\s+)?{PETS})(?:\s+(?:named|called)\s+(?P<name>[\w'-]+))?",
                          item.strip(), flags=F)
        if not pm:
            continue
        count = re.match(rf"(?P<c>{COUNT})\s", item.strip(), flags=F)
        kind = pm["kind"].lower()
        if count and count["c"].lower() not in ("a", "an", "one"):
            kind = f"{count['c'].lower()} {kind}"
        out.append(f"{kind} named {_titled(pm['name'])}" if pm["name"] else kind)
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
@rule(rf"my (?P<kind>{PETS})(?:'s name is|s name is| is called| is named| name is) (?P<name>[\w'-]+)")
def _pet_named(m):
    kind = m["kind"].lower()
    if kind.endswith("s") and not kind.endswith("ss"):
        kind = kind[:-1]          # "my cats name is luna" (speech-to-text drops the apostrophe)
    return [Change("retract", "pet", kind), Change("assert", "pet", f"{kind} named {_titled(m['name'])}")]


# "i have a dog named rex", "i've got two cats", "we have a parrot", "i own a horse"
@rule(rf"(?:(?:i|we) (?:(?:{NOW}) )*(?:have|own|got|adopted)(?: got)?|{IVE} got|we've got|we have got"
      r")\s+(?P<v>.+)")
def _pet(m):
    return _each("assert", "pet", _pet_values(m["v"]))


# --- languages -------------------------------------------------------------------------------
def _languages(raw: str) -> list[str]:
    raw = re.sub(r"\s+(?:at home|at work|fluently|well|badly|poorly|every day|daily|with (?:my|the|our) .*)$",
                 "", _trim(raw), flags=F)
    raw = re.sub(r"\b(?:a (?:little|bit of)|a little bit of|some|basic|fluent|conversational|"
                 r"decent|good|bad|broken|native|perfect|a lot of|mostly)\s+", "", _trim(raw), flags=F)
    items = [w for item in _items(raw) for w in
             (item.split() if all(x.lower() in LANGUAGES for x in item.split()) else [item])]
    if not items or any(i.lower() not in LANGUAGES for i in items):
        return []
    return [i.title() for i in items]


# "i don't speak german anymore"
@rule(r"i (?:can'?t|cannot|don'?t|do not|no longer) speak (?P<v>.+)")
def _language_retract(m):
    return _each("retract", "language", _languages(m["v"]))


# "i speak english and french", "i'm fluent in spanish", "my native language is polish"
@rule(rf"i (?:(?:{NOW}|can|can also) )*speak (?P<v>.+)|{IM} (?:(?:{NOW}) )*fluent in (?P<w>.+)|"
      rf"my (?:native|first|mother|home) (?:language|tongue) is (?P<x>.+)|{IM} a native (?P<y>\w+) speaker")
def _language(m):
    return _each("assert", "language", _languages(m["v"] or m["w"] or m["x"] or m["y"]))


# --------------------------------------------------------------------------------------------
# Explicit memory: "remember that ...", and "forget ..."
# --------------------------------------------------------------------------------------------
NOTE_TRIGGERS = [
    r"i (?:want|need) you to (?:remember|know|note|keep in mind)(?: that)?",
    r"(?:can|could|would|will) you (?:please )?(?:remember|note|keep in mind|make a note)(?: that| of)?",
    r"make sure (?:you |to )?remember(?: that)?",
    r"(?:please )?(?:don'?t|do not|never) forget(?: that)?",
    r"(?:please )?remember(?: that| this)?(?=[\s:,-])",
    r"(?:please )?keep in mind(?: that)?", r"(?:please )?bear in mind(?: that)?",
    r"for future reference", r"for the record", r"for your information", r"fyi",
    r"(?:please )?note(?: that)?(?=[\s:,-])", r"take (?:a )?note(?: that| of)?",
    r"(?:please )?make a (?:mental )?note(?: that| of)?", r"mental note",
    r"(?:please )?save (?:a |this |that )?note(?: that)?", r"save (?:this|that)(?=[\s:,-])",
    r"(?:please )?jot (?:this |that |it )?down(?: that)?", r"(?:please )?write (?:this |that |it )?down(?: that)?",
    r"(?:please )?(?:memorize|memorise)(?: that| this)?", r"commit (?:this |that |it )?to memory(?: that)?",
    r"(?:please )?(?:store|record|log)(?: that| this)(?=[\s:,-])", r"add (?:this |that |it )?to (?:your )?memory(?: that)?",
    r"put (?:this|that|it) in (?:your )?memory(?: that)?", r"keep a note(?: that| of)?",
    r"just so you know", r"just so you're aware", r"just so you are aware", r"heads up",
    r"you should know(?: that)?", r"it'?s (?:important|worth) (?:to remember|remembering|noting)(?: that)?",
    r"remind yourself(?: that)?", r"file (?:this|that) away(?: that)?", r"note to self",
    r"a reminder(?: that)?", r"(?:please )?don'?t let yourself forget(?: that)?",
]
NOTE = re.compile(
    rf"(?:^{LEAD}|[,.;:!]\s*(?:{LEAD})|\b(?:and|also|oh|so|please|ok|okay|hey)\s+)"
    rf"(?:{'|'.join(NOTE_TRIGGERS)})[\s:,-]+(?P<v>.+)$", F)
REMEMBER_NOT_A_NOTE = re.compile(r"^(?:when|how|what|where|who|why|me|us|the time|that time|it|him|her)\b", F)

FORGET = re.compile(
    rf"^{LEAD}(?:(?:please|can you|could you|would you|will you|i want you to|i need you to|you can|"
    r"go ahead and|just)\s+)*(?:forget|delete|erase|remove|wipe|scrub|stop remembering|unlearn)\s+"
    r"(?:(?:about|that|the fact that|everything about|what you know about|all about)\s+)?(?P<v>.+?)[\s.!?]*$", F)
FORGET_TARGETS = [
    (r"where i live|where i(?:'m| am) living|my (?:address|location|city|home address|home)|where i stay", "location"),
    (r"my name|what i(?:'m| am) called|what my name is", "name"),
    (r"where i work|my (?:employer|company|workplace)|who i work for", "employer"),
    (r"my (?:job|occupation|profession|career)|what i do(?: for (?:a )?(?:living|work))?", "job"),
    (r"my (?:birthday|bday|date of birth|dob)|when i was born|when my birthday is", "birthday"),
    (r"my age|how old i am", "age"),
    (r"where i(?:'m| am) from|where i grew up|my (?:hometown|home town)|where i was born", "hometown"),
    (r"my diet|what i eat|that i(?:'m| am) (?:a )?\w+tarian|my eating habits", "diet"),
    (rf"my {PARTNER}(?:'s name)?|who i(?:'m| am) (?:married to|dating)", "partner"),
    (r"my allerg(?:y|ies)|what i(?:'m| am) allergic to|that i have allergies", "allergy"),
    (r"my (?:pets?|animals?)", "pet"),
    (r"(?:what |the )?languages? i speak", "language"),
    (r"(?:my|all (?:my|the)|the) notes", "note"),
    (r"(?:my|your|the) wake ?word", "wake_word"),
    (r"what i like|my likes|(?:the )?things i like", "likes"),
    (r"what i (?:dislike|hate)|my dislikes", "dislikes"),
]


def _note(text: str) -> list[Change] | None:
    """'remember that my sister's birthday is may 3' -> note; inner facts win over a note."""
    m = _search(NOTE, text)
    if not m:
        return None
    # Notes are kept as said: only trailing politeness and punctuation go.
    body = re.sub(r"(?:[\s,]+(?:please|thanks|thank you|ok|okay|alright|glados))*[\s.!?,;]*$", "",
                  m["v"].strip(" \t\"'“”"), flags=F)
    body = re.sub(r"^(?:that|this|:)\s+", "", body, flags=F)
    if REMEMBER_NOT_A_NOTE.match(body) or len(body) < 3 or body.lower() in NON_VALUES:
        return None
    inner = _mine_statements(body)
    return inner if inner else [Change("assert", "note", body[:500])]


def _forget(text: str) -> list[Change] | None:
    m = _match(FORGET, text)
    if not m:
        return None
    target = _trim(m["v"])
    if re.fullmatch(r"(?:it|that|this|about it|everything|all|all of it|everything about me|me)", target, flags=F):
        return []  # "forget it" is not a memory command; "forget everything" needs confirmation
    return [Change("forget", c.key, c.value) for c in targets(target)]


def targets(phrase: str) -> list[Change]:
    """What a phrase points at: "where i live" -> location; "that i'm allergic to x" -> allergy x.
    Used by "forget ..." and "why do you think ...". Returned ops are meaningless; key/value count."""
    target = _trim(_normalise(clean(phrase)))
    target = re.sub(r"^(?:that|about|the fact that)\s+", "", target, flags=F)
    for pattern, key in FORGET_TARGETS:
        if re.fullmatch(pattern, target, flags=F):
            return [Change("forget", key, None)]
    fav = re.fullmatch(rf"my {FAV} (?P<t>[\w ]+)", target, flags=F)
    if fav and _fav_key(fav["t"]):
        return [Change("forget", _fav_key(fav["t"]), None)]
    allergy = re.fullmatch(r"my (?P<v>.+?) allergy", target, flags=F)
    if allergy:
        return [Change("forget", "allergy", v) for v in _items(allergy["v"])]
    pet = re.fullmatch(rf"my (?P<v>{PETS})(?:'s name|s name| [\w'-]+)?", target, flags=F)
    if pet:
        return [Change("forget", "pet", pet["v"].lower())]
    note = re.fullmatch(r"(?:the|my|that) note (?:about|that says|saying) (?P<v>.+)", target, flags=F)
    if note:
        return [Change("forget", "note", _trim(note["v"]))]
    inner = _mine_statements(target)
    if inner:
        return [Change("forget", c.key, c.value) for c in inner if c.key]
    target = re.sub(r"^(?:my|the)\s+", "", target, flags=F)
    return [Change("forget", None, target)] if target and target.lower() not in NON_VALUES else []


def command_kind(text: str) -> str | None:
    """'remember' for an explicit note request, 'forget' for a deletion request, else None."""
    for sentence in SENTENCE_SPLIT.split(_normalise(clean(text))):
        if _match(FORGET, sentence) and _forget(sentence):
            return "forget"
        if _note(sentence):
            return "remember"
    return None


# --------------------------------------------------------------------------------------------
# Putting it together
# --------------------------------------------------------------------------------------------
def clean(text: str) -> str:
    """Storable text: lone surrogates and NULs replaced, every other character kept."""
    text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text.replace("\x00", "\ufffd")


APOSTROPHES = re.compile(r"[\u2018\u2019\u02bc`´]")
QUOTES = re.compile(r"[\u201c\u201d]")
SPACES = re.compile(r"[^\S\n]+")
HAS_LETTER = re.compile(r"\p{L}")


def _normalise(text: str) -> str:
    text = QUOTES.sub('"', APOSTROPHES.sub("'", text[:MAX_CHARS]))
    return SPACES.sub(" ", text).strip()


def clauses(sentence: str) -> list[str]:
    try:
        parts = CLAUSE_SPLIT.split(sentence, timeout=TIMEOUT_S)
    except TimeoutError:
        return [sentence]
    return [p.strip(" ,;") for p in parts if p and p.strip(" ,;")]


def _strip_lead(clause: str) -> str:
    lead = _match(LEAD_RE, clause)
    return clause[lead.end():] if lead else clause


def _first(rules: list[tuple[re.Pattern, Handler]], text: str) -> list[Change]:
    for pattern, handler in rules:
        m = _match(pattern, text)
        if m:
            changes = handler(m)
            if changes:
                return changes
    return []


def _mine_clause(clause: str) -> list[Change]:
    body = _strip_lead(clause)
    if _match(QUESTION, body) or _match(HYPOTHETICAL, body) or _search(IF_ANYWHERE, body):
        return []
    return _first(RAW_RULES, clause) or _first(RULES, body)


def _mine_statements(text: str) -> list[Change]:
    changes: list[Change] = []
    for sentence in SENTENCE_SPLIT.split(text):
        sentence = sentence.strip()
        body = _strip_lead(sentence)
        if not sentence or sentence.endswith("?") or _match(HYPOTHETICAL, body) or _match(QUESTION, body):
            continue
        # A rule that reads the whole sentence ("i don't eat meat but i eat fish") wins over its parts.
        if _match(PESCATARIAN_BUT, body.rstrip(".!")):
            changes.append(Change("assert", "diet", "pescatarian"))
            continue
        for clause in clauses(sentence):
            changes += _mine_clause(clause.rstrip(".!"))
    return changes


def mine(text: str) -> list[Change]:
    """Everything the text says about its speaker, in order, without duplicates."""
    text = _normalise(clean(text))
    if not text or not HAS_LETTER.search(text):
        return []
    changes: list[Change] = []
    for sentence in SENTENCE_SPLIT.split(text):
        sentence = sentence.strip()
        found = _forget(sentence)
        if found is None:
            found = _note(sentence)
        if found is None:
            found = _mine_statements(sentence)
        changes += found
    unique: list[Change] = []
    for change in changes:
        if change not in unique:
            unique.append(change)
    return unique

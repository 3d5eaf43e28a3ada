"""The shared words of understanding: clause splitting, guards, vocabularies and value cleaners.

Input may be typed ("I'm vegetarian, and I'm allergic to peanuts.") or speech-to-text output
("im vegetarian and im allergic to peanuts"). Time is bounded: the text is capped and every regex
call has a timeout, so a 1 MB line or binary noise returns quickly. Used by `rules` (facts) and
`grammar` (memory commands); `parsing.parse` puts them together.
"""
from __future__ import annotations

import regex as re

from .text import titled

MAX_CHARS = 2000      # only the first 2,000 characters are parsed; the whole message is still stored
TIMEOUT_S = 0.05      # per regex call; a pathological input gives up instead of hanging

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
        r"to be honest|tbh|frankly|basically|literally|ngl|not gonna lie|personally|seriously|truth be told|"
        r"ok glados|listen|guess what|you know what|fun fact|update|correction|quick update|"
        r"as of today|as of now|these days|nowadays|now|since last week|since last month|"
        r"since yesterday|last week|last month|last year|recently|lately|in my (?:free|spare) time|for fun|"
        r"on weekends|at weekends|(?:since|because|as)(?=\s+(?:i|i'm|im|i am|i've|ive|i have)\b))\b[\s,:;!.-]*)*")

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
    r"thursday|friday|saturday|sunday)|during (?:the )?\w+|on the side|part[- ]time|full[- ]?time|"
    r"at night|on (?:the )?weekends?|at weekends?|to (?:pay|make|earn|support|supplement|help|get by|cover)")
# Where an open value (a place, a company) stops: "paris with my wife", "google since 2019".
VALUE_STOP = re.compile(rf"\s+(?:{STOP_WORDS})(?:\s|,|$).*$|\s*[,;!?](?:\s|$).*$|\.(?:\s.*)?$", F)
# The same for lists, where commas separate items: "shellfish, eggs and tree nuts".
LIST_STOP = re.compile(rf"\s+(?:{STOP_WORDS})(?:\s|,|$).*$|\s*[;!?](?:\s|$).*$|\.(?:\s.*)?$", F)
TRAIL = re.compile(r"(?:\s+(?:now|anymore|any more|again|actually|too|also|though|lol|haha|originally|lately|a lot|"
                   r"the (?:best|most)|so much|very much|more than anything|"
                   r"then|currently|as well|either|please|thanks|ok|okay))+\s*$|[\s,;.!?\"']+$", F)
LIST_SPLIT = re.compile(r"\s*(?:,\s*(?:and|or)\s+|,|\band\b|\bor\b|&|\bplus\b|\bas well as\b|"
                        r"\bnor\b)\s*", F)
ARTICLE = re.compile(r"^(?:a|an|the|some|any|all|both|either|eating|most|certain|also)\s+", F)
NON_VALUES = {"", "out", "in", "up", "around", "it", "that", "this", "them", "him", "her", "you", "u", "ya", "there", "here",
              "those", "these", "what", "so", "too", "one", "stuff", "things", "everything",
              "anything", "nothing", "something", "much", "a lot", "lots", "to", "me", "myself",
              "yourself", "not", "no", "yes", "how", "when", "where", "why", "the way", "which", "again", "back"}


# The regex timeout doubles the cost of a match; a clause this short cannot backtrack for long.
TIMEOUT_FROM_CHARS = 160


def search_in(pattern: re.Pattern, text: str):
    try:
        return pattern.search(text, timeout=TIMEOUT_S if len(text) > TIMEOUT_FROM_CHARS else None)
    except TimeoutError:
        return None


def match_start(pattern: re.Pattern, text: str):
    try:
        return pattern.match(text, timeout=TIMEOUT_S if len(text) > TIMEOUT_FROM_CHARS else None)
    except TimeoutError:
        return None


def holds_any(text: str, words: tuple[str, ...]) -> bool:
    """A cheap test before an expensive pattern: does text hold one of these (lowercase) words?"""
    folded = text.casefold()
    return any(word in folded for word in words)


def trim(value: str, stop: re.Pattern = VALUE_STOP) -> str:
    """Cut an open value at the first word that cannot belong to it, then drop trailing filler."""
    value = value.strip(" \t\"'“”")
    stopped = search_in(stop, value)
    if stopped:
        value = value[: stopped.start()]
    previous = None
    while previous != value:
        previous = value
        value = TRAIL.sub("", value).strip(" \t\"'“”")
    return value


def split_items(value: str, max_items: int = 8, stop: re.Pattern = LIST_STOP) -> list[str]:
    """'peanuts, tree nuts and shellfish' -> ['peanuts', 'tree nuts', 'shellfish']. `stop`: where
    the list ends (commas inside it separate items)."""
    out = []
    for part in LIST_SPLIT.split(trim(value, stop)):
        part = ARTICLE.sub("", trim(part, stop)).strip()
        if part and part.lower() not in NON_VALUES and len(part) <= 60 and part not in out:
            out.append(part)
    return out[:max_items]


def word_count_ok(value: str, most: int) -> bool:
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
CONJ = (r"(?:and|but|so|also|plus|although|though|while|because|since|cause|cuz|oh and|and also|and now|"
        r"but now|and actually|actually)")
SUBJECT = r"(?:i|i'm|im|i've|ive|i'd|i'll|i am|i have|i do|i don't|i dont|my|we|we're|we've)\b"
CLAUSE_SPLIT = re.compile(
    rf"\s*[,;:]\s*(?:{CONJ}[\s,]+)?(?={SUBJECT})|\s+{CONJ}[\s,]+(?={SUBJECT})"
    # Unpunctuated speech: "my name is bob i live in paris" splits before a fresh first-person start
    # (looked for first: the look back at the word before, tried at every space, costs twice the rest)
    r"|(?=\s+(?:i'm|im|i am|i've|ive|i live|i work|i speak|my name|my favou?rite|my birthday|call me)\b)"
    r"(?<!\b(?:that|what|where|when|why|how|if|because|than|as|who|whom|which|and|but|so|or|hi|hello|hey|well|oh|yes|yeah|no|okay|ok|actually|now|also|um|uh|glados|"
    r"think|know|say|said|guess|hope|mean|believe|feel|suppose|since|until|like|whether|is|are|was|were|be|to|for|with|about|of|at|in|on))\s+"
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
agent attendant specialist representative executive associate paralegal
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
guide coach principal maid nanny tutor vet chef nurse cook clerk custodian guardian
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

# Words after "i'm" that are never a name: nationalities, faiths, identities.
NOT_NAMES = LANGUAGES | set("""american canadian british australian mexican indian brazilian
scottish welsh irish christian muslim jewish catholic buddhist hindu atheist agnostic european
african asian latino latina gay straight bi trans queer human""".split())

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


def as_name(value: str) -> str | None:
    """Up to three words that look like a name; None for "call me later", "i'm tired"."""
    value = trim(value)
    words = value.split()
    if not words or len(words) > 3 or words[0].lower() in NAME_STOPWORDS:
        return None
    if not all(re.fullmatch(r"[\p{L}][\p{L}'.-]*", w) for w in words):
        return None
    return titled(value)


def as_number(text: str) -> int | None:
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


def gerund(phrase: str) -> str:
    """'to hike' -> 'hiking', 'to play tennis' -> 'playing tennis' (likes are nouns)."""
    words = phrase.split()
    verb = words[0].lower()
    if verb == "be":
        verb = "being"
    elif verb.endswith("ie"):
        verb = verb[:-2] + "ying"
    elif verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
        verb = verb[:-1] + "ing"
    elif (len(verb) <= 4 and re.fullmatch(r"[^aeiou]*[aeiou][bdgmnprt]", verb)):
        verb = verb + verb[-1] + "ing"
    else:
        verb += "ing"
    return " ".join([verb, *words[1:]])


# Agent nouns that are not a job: "i'm a dog lover", "i'm a light sleeper", "i'm a christian".
NOT_JOBS = set("""homebuyer homeowner packer pleaser spender saver overthinker multitasker
lover fan member user person people mother father mom mum dad brother sister daughter son wife
husband partner parent leader winner loser beginner believer follower foreigner stranger survivor dreamer
thinker talker listener sleeper eater drinker smoker worrier sinner liar riser owner customer voter supporter
passenger newcomer outsider insider hiker reader gamer runner cyclist traveler traveller learner player
shopper buyer adventurer explorer introvert extrovert neighbor neighbour number corner monster other
summer winter water paper letter matter sucker tiger danger cancer weather flower tower computer sticker
character disaster hamster killer joker gambler procrastinator perfectionist optimist pessimist realist
romantic vegetarian pescatarian libertarian humanitarian christian guardian veteran grandmother grandfather
grandma grandpa aunt uncle cousin nephew niece twin fighter lady gentleman man woman gentlewoman boy girl kid
adult teenager senior minor citizen resident native local immigrant feminist socialist capitalist communist
atheist racist pacifist minimalist idealist environmentalist activist humanist nationalist loner loyalist
together forever whatever however rather either neither""".split())
# "i'm not a nurse", "i'm a big fan", "i'm an avid reader", "a native dutch speaker": not a job.
NOT_JOB_OPENERS = set("""not no never married engaged dating bit little lot huge big good bad great avid keen
passionate enthusiastic massive true total real die-hard diehard lifelong native fellow proud hobbyist amateur
aspiring wannabe would-be weekend recreational casual hobby""".split())
PREPOSITIONS = set("in at on of with for from by to into onto about near over under after before".split())
# A degree word says how well or how much, so the noun is a trait: "a pretty cautious driver", "a very good cook".
DEGREE = set("pretty very quite rather fairly really so too somewhat extremely super terribly decent".split())
AGENT_NOUN = re.compile(r"(?:er|or|ist|ician|arian|eer|man|woman|smith|wright|grapher|ologist|ess)$", F)
# after a word in -ing, these start the verb's object, not an occupation: "seeing a therapist", "seeing
# dr okafor", "helping my teacher" (but "marketing manager", "nursing assistant" are jobs)
OBJECT_OPENERS = set("a an the my your his her their our this that some dr dr. mr mr. mrs mrs. ms ms.".split())


BUSINESSES = frozenset("business shop store restaurant bakery cafe café salon company bar pub farm firm studio gym "
                       "agency clinic practice franchise startup boutique hotel garage".split())
TITLES = frozenset({"head", "director", "manager", "chief", "president", "vice-president", "leader", "lead", "dean",
                    "chair", "editor", "professor", "teacher", "lecturer", "coordinator", "supervisor"})


def as_occupation(phrase: str) -> str | None:
    """'software engineer' -> itself; 'big fan' -> None. The last word must name an occupation:
    a known one, or an agent noun ("locksmith", "beekeeper") that is not a person or a trait."""
    phrase = ARTICLE.sub("", trim(phrase)).strip()
    words = phrase.lower().split()
    if len(words) >= 3 and words[0] in TITLES and words[1] == "of" and len(words) <= 6 and \
            not set(words[2:]) & (PREPOSITIONS - {"of"}) and words[-1] not in ("family", "household", "house", "home"):
        return phrase.lower()     # "head of a communications team", "director of operations": a post, not a trade
    opener = bool(words) and words[0] in NOT_JOB_OPENERS and words[:2] != ["real", "estate"]   # "a real estate agent" works
    if not words or len(words) > 4 or opener or DEGREE & set(words[:-1]) \
            or words[0] in PREPOSITIONS or set(words[1:]) & (PREPOSITIONS - {"of"}):
        return None     # "in the city center", "determined to get better", "curious about the fertilizer": a state
                        # or a place, not a trade (a job's own "at"/"for" is split off before; "professor of law" is one)
    if len(words) > 1 and words[0].endswith("ing") and words[1] in OBJECT_OPENERS:
        return None
    if len(words) > 1 and words[-1] in ("major", "minor"):
        return " ".join(words[:-1]) + " student"      # "an economics major" studies economics
    head = words[-1]
    if head == "owner" and not set(words[:-1]) & BUSINESSES or head == "speaker" and (
            set(words[:-1]) & {"native", "non-native", "fluent"} or set(words[:-1]) & LANGUAGES):
        return None     # "a car owner", "a non-native speaker": a status (a "business owner", a "public speaker" work)
    known = head in OCCUPATIONS or head in OCCUPATION_PLURAL
    if words[0].endswith("ed") and not known:
        return None     # "interested in fitness", "determined": a state of mind ("a registered nurse" is known)
    if known:
        return phrase.lower()
    if head in NOT_JOBS or head in NOT_NAMES or len(head) < 5 or not AGENT_NOUN.search(head) \
            or not re.fullmatch(r"[a-z-]+", head):
        return None
    return phrase.lower()


# Kinds of home, said in the plural: "I've been living in apartments" says how, not where.
DWELLINGS = set("apartments flats houses hotels motels hostels dorms dormitories rentals tents shelters".split())
# Unnamed places still say where someone lives: "a rural farming community", "the city".
PLACE_NOUNS = set("""city town village country countryside community suburb suburbs farm ranch
neighborhood neighbourhood island coast desert mountains valley county region woods forest
state province capital outskirts seaside midwest south north east west""".split())
# "the city, in the USA" (the named place is the one to keep), "the city where the studio is" (a place named by
# what the listener knows).
GENERIC_PLACE = re.compile(r"^the (?:city|town|village|suburbs?|countryside|area|state|country)\b(?:\s*,?\s+(?:in|near) "
                           r"(?P<where>(?:the )?(?-i:\p{Lu}).*)|\s+(?P<which>where|which|that)\b)?", F)
# "i grew up in the industry", "in the eighties": a setting, not a place.
NOT_PLACES = re.compile(r"^the (?:industry|business|system|church|faith|military|army|navy|spotlight|"
                        r"limelight|family business|world of|arts|theat(?:er|re)|circus|game|field|trade|scene|"
                        r"internet|(?:early|late|mid) |(?:19|20)?\d0 ?'?s|(?:sixties|seventies|eighties|nineties))\b", F)


def as_place(value: str) -> str | None:
    """'new york city now' -> 'New York City'; 'a small flat in leeds' -> 'Leeds'; 'the city, in the USA' -> 'USA'."""
    generic = GENERIC_PLACE.match(value)
    if generic and generic["where"]:
        return as_place(generic["where"])
    if generic and generic["which"]:
        return None     # "the city where Rhythm and Soul is": which city only the conversation knows
    value = trim(value)
    value = re.split(r"\s+and\s+(?=(?-i:[a-z]))", value, maxsplit=1)[0]     # "Denver and need a dentist": Denver
    if NOT_PLACES.match(value) or re.match(r"(?:this|that|these|those|here|there|my|your|his|her|our|their)\b", value, flags=F):
        return None
    if re.match(r"(?:on|in|at|by|since|from|for)\s", value, flags=F) or re.fullmatch(
            r"(?:the\s+)?(?:city cent(?:er|re)|downtown(?: area)?)|the\s+(?:cent(?:er|re)|area|neighbou?rhood|outskirts)", value, flags=F):
        return None     # "on March 15th" says when; "the city center" says where only to one who knows which city
    if re.search(r"\b(?:frequently|often|sometimes|usually|regularly|occasionally|a lot)\b", value, flags=F):
        return None     # "staying in hotels quite frequently": a habit, not where one lives
    inner = re.search(r"^(?:a|an|the)\s.*?\b(?:in|near|outside|of|called|named)\s+(.+)$", value, flags=F)
    if inner:
        value = trim(inner.group(1))
    elif re.match(r"^(?:a|an)\s", value, flags=F):
        words = value.split()
        return " ".join(words[1:]).lower() if words[-1].lower() in PLACE_NOUNS and len(words) <= 5 else None
    value = re.sub(r"^the\s+(?=(?:city|town|village|area|suburbs?) of\s)", "", value, flags=F)
    value = re.sub(r"^(?:city|town|village|area) of\s+", "", value, flags=F)
    value = re.sub(r"^the\s+(?=(?-i:\p{Lu}{2,})\b)", "", value, flags=F)    # "the US", "the UK": the country
    words = value.split()
    if not words or len(words) > 5 or value.lower() in NON_VALUES | {"home", "a house", "here"} \
            or value.lower() in DWELLINGS:
        return None     # "living in apartments": a kind of home, not a place
    return titled(value)


# The user's family and friends, as "my ..." names them (memory.rules reads a household from these, as_org whom work
# is done for).
FAMILY = (r"(?:mom|mum|mother|dad|father|parents?|brothers?|sisters?|sons?|daughters?|kids?|children|family|"
          r"friends?)")
# Whom work is done for, not who employs: "my dad", "our neighbours", "my boss".
KIN = re.compile(rf"(?:my|our|his|her|their)\s+(?:(?:elderly|late|old|little|younger|older|baby) )?(?:{FAMILY}|"
                 r"husband|wife|partner|grand(?:ma|mother|pa|father|parents?)|aunt|uncle|neighbou?rs?|boss)\b", F)


def as_org(value: str) -> str | None:
    value = trim(re.split(r"\s+as\s+(?:an?\s+)?", value, maxsplit=1, flags=F)[0])
    if not value or len(value.split()) > 6:
        return None
    if value.lower() in NON_VALUES | {"home", "myself", "a living", "free", "fun", "money"}:
        return None
    if re.match(r"an?\s+\d", value, flags=F) or re.search(r"\b(?:students|kids|clients|customers|children|pupils|"
                                                          r"patients|family|friends)$", value, flags=F):
        return None     # "a job with a 45-minute commute", "a project for my students": not who employs the user
    if KIN.match(value):
        return None     # "a caregiver for my dad": whom the work is for, not who employs the user
    value = re.sub(r"^the\s+", "", value, flags=F)
    return titled(value) if not value.lower().startswith(("a ", "an ")) else value


# --------------------------------------------------------------------------------------------
# Putting it together
# --------------------------------------------------------------------------------------------
APOSTROPHES = re.compile(r"[\u2018\u2019\u02bc`´]")
QUOTES = re.compile(r"[\u201c\u201d]")
SPACES = re.compile(r"[^\S\n]+")
HAS_LETTER = re.compile(r"\p{L}")


# Not content: emoji ("I live in Zürich 🇨🇭"), and laughter ("I'm a software engineer, lol"; the rules take it
# out, and read what was said laughing as a joke when its value is not of its key's kind).
EMOJI = re.compile(r"[\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\uFE0F\u200D\u20E3]+"
                   # a smiley typed (":)", ":-D", "<3"; not ";)", a wink, which says joke) and *emphasis* marks
                   r"|(?<!\S)(?::-?[)(\]\[DPpOo3/|]+|<3+|\^_*\^)(?!\S)|(?<!\w)[*_~]+(?=\w)|(?<=\w)[*_~]+(?!\w)")
LAUGHTER = re.compile(r"(?:[\s,]*\b(?:lol+|lmao+|rofl|ha(?:ha)+h?|he(?:he)+|xd)\b)+(?=[\s,.!?]|$)", F)


def normalise(text: str) -> str:
    text = QUOTES.sub('"', APOSTROPHES.sub("'", text[:MAX_CHARS]))
    text = EMOJI.sub(" ", text)
    return SPACES.sub(" ", text).strip()


# ", and read" after "i like to hike, swim" ends the list; it is not a clause of its own.
LIST_END = re.compile(r"^(?:and|or)\s+(?!(?:i|i'm|im|my|we|also|actually|then)\b)", F)
LIST_SO_FAR = re.compile(r",|\bto \w+", F)


def clauses(sentence: str) -> list[str]:
    try:
        parts = CLAUSE_SPLIT.split(sentence, timeout=TIMEOUT_S)
    except TimeoutError:
        return [sentence]
    out: list[str] = []
    for part in (p.strip(" ,;") for p in parts if p and p.strip(" ,;")):
        if out and match_start(LIST_END, part) and search_in(LIST_SO_FAR, out[-1]):
            out[-1] = f"{out[-1]}, {part}"
        else:
            out.append(part)
    return out


def strip_lead(clause: str) -> str:
    lead = match_start(LEAD_RE, clause)
    return clause[lead.end():] if lead else clause


def is_question(text: str) -> bool:
    """Whether a message asks ("what's my locker code?", "do you remember who was first on the moon"): by its
    question mark, or by its first word after a lead-in. The one test forgetting and a model's notes share."""
    said = normalise(text)
    return said.rstrip().endswith("?") or bool(match_start(QUESTION, strip_lead(said)))

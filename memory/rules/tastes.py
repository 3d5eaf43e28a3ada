"""Fact rules for what the user likes: favourites, likes and dislikes, the wake word (pets and languages: pets.py,
languages.py)."""
from __future__ import annotations

import regex as re

from ..intent import Change, Said, Verb
from ..lexicon import F, IM, IVE, LIST_STOP, NON_VALUES, NOW, PETS, gerund, split_items, trim, word_count_ok
from .registry import each, rule
from .stance import WISH, object_form


# --- favourites ------------------------------------------------------------------------------
FAV = r"(?:favou?rite|fav|fave|most loved|preferred|go-to)"
FAV_WORDS = ("fav", "most loved", "preferred", "go-to")
THING_ALIASES = {"programming_language": "language", "coding_language": "language",
                 "colour": "color", "programming_languages": "language", "colours": "color",
                 "movie_of_all_time": "movie", "tv_show": "show", "tv_series": "show"}


# A favourite of these names no kind of thing: "my favorite part was the ending", "my favorite one".
GENERIC_THINGS = frozenset({"part", "thing", "one", "bit", "aspect", "moment", "piece", "idea", "option", "suggestion"})


def fav_key(thing: str) -> str | None:
    thing = re.sub(r"(?:^|\s+)(?:of all time|ever|so far|yet|right now|at the moment|now|these days|currently|lately)$", "",
                   thing.strip().lower())
    # "type of music to sing" -> "music"; "kind of movie" -> "movie"
    thing = re.sub(r"^(?:type|kind|sort|genre|style|brand) of\s+|\s+to \w+$", "", thing)
    thing = re.sub(r"[^a-z0-9 ]", "", thing).strip().replace(" ", "_")
    thing = THING_ALIASES.get(thing, thing)
    if thing.endswith("s") and not thing.endswith("ss") and len(thing) > 3:
        thing = thing[:-1]
    thing = THING_ALIASES.get(thing, thing)
    if not thing or len(thing) > 30 or thing.count("_") > 2 or thing in GENERIC_THINGS:
        return None     # "my favorite part is...": a part of what is in view, no kind of thing
    return "favorite_" + thing


def _fav_value(value: str) -> str | None:
    value = re.sub(r"^(?:probably|definitely|maybe|perhaps|actually|still|always|hands down)\s+", "", trim(value), flags=F)
    if not value or value.lower() in NON_VALUES or len(value.split()) > 6:
        return None
    if re.match(r"(?:at|in|on|to|for|with|from|by|about|of|as|into|during)\b", value, flags=F):
        return None     # "my favorite Sweet Baby Ray's at my friend's place": where, not what the favourite is
    if re.match(r"(?:i|i'm|im|i've|it|it's|that|this|you|we|they)\b", value, flags=F):
        return None     # "my favorite team, I'm sure, ...": a clause, not what the favourite is
    return value


# "my favorite color isn't blue anymore"
@rule(rf"my {FAV} (?P<t>[\w ]{{1,30}}?) (?:isn't|isnt|is not|aren't|is no longer) (?P<v>.+?)(?: anymore| any more)?\s*$")
def _fav_retract(m):
    key = fav_key(m["t"])
    return [Change("retract", key, _fav_value(m["v"]))] if key and _fav_value(m["v"]) else []


# "my favorite color is blue", "my favourite programming language is rust", "my fav food's sushi"
@rule(rf"my (?:(?:all[- ]time|new|current|absolute) )?{FAV} (?P<t>[\w ]{{1,30}}?)(?:'s| is| are| would be| has to be|"
      r" must be| is probably| is definitely| these days is| right now is| at the moment is) (?P<v>.+)")
def _fav(m):
    key, value = fav_key(m["t"]), _fav_value(m["v"])
    if not key and value and re.fullmatch(r"things?(?: to do)?", m["t"].strip(), flags=F):
        return _tastes("likes", "tells", value)     # "my favorite thing is hawaiian pizza": a taste, of no kind
    return [Change("assert", key, value)] if key and value else []


# "blue is my favorite color", "rust is my favourite programming language"
@rule(rf"(?!(?:i|it|that|this|what|which|who|there)\b)(?P<v>[\w' -]{{1,40}}?) (?:is|are) (?:(?:now|still|definitely|probably|"
      rf"totally) )?my (?:new |all[- ]time |absolute )?{FAV} (?P<t>[\w ]{{1,30}}?)\s*[.!]*$", needs=FAV_WORDS)
def _fav_inverted(m):
    key, value = fav_key(m["t"]), _fav_value(m["v"])
    return [Change("assert", key, value)] if key and value else []


# --- wake word -------------------------------------------------------------------------------
# "change your wake word to hey jarvis", "set the wake word to computer"
@rule(r"(?:please |can you |could you )?(?:change|set|switch|make|update) (?:your|the) (?:wake ?word|"
      r"wake phrase|trigger word|activation phrase) (?:to|as|into|be) (?P<v>.+)|(?:your|the) "
      r"(?:wake ?word|wake phrase) is (?:now )?(?P<w>.+)|use (?P<x>.+?) as (?:your|the) wake ?(?:word|phrase)")
def _wake_word(m):
    value = trim(m["v"] or m["w"] or m["x"]).strip("\"'“” ").lower()
    return [Change("assert", "wake_word", value)] if word_count_ok(value, 4) else []


# --- likes / dislikes ------------------------------------------------------------------------
LIKE_VERBS = r"(?:like|love|enjoy|adore|dig|really like|am into|'m into|m into)"
HATE_VERBS = r"(?:hate|dislike|detest|despise|loathe|can'?t stand|cannot stand|can'?t bear|abhor)"
NOT_LIKE = r"(?:don'?t|do not|no longer|never) (?:really |much |particularly |actually )?(?:like|love|enjoy|care for)"
INTENSIFIER = r"(?:(?:really|absolutely|totally|truly|also|just|do|still|actually|honestly|genuinely|now|so|very much|simply|quite|secretly|definitely|deeply|seriously) )*"


# "and" inside one liked thing is not a list: "rock and roll", "getting up bright and early".
FIXED_AND = re.compile(r"\b(?:rock|rhythm|bright|salt|fish|mac|bread|black|pros|arts|drum|hide|cops|bed|"
                       r"peace|rest|rank|hip hop|cheese|surf|cookies|peanut butter|strawberries|fast|"
                       r"dungeons|sword|ice)\s+(?:and|&|n)\s+\w+", F)
# Verbs that start a new clause of their own: "i love hiking but hate running" = "... but i hate running".
OWN_CLAUSE_VERBS = (r"(?:love|like|enjoy|adore|hate|dislike|detest|prefer|have|own|live|work|study|teach|speak|play|"
                    r"am|go|drive|volunteer|spend|read|watch)")
# A liked activity said through who or where: "spending time with my kids" -> "kids".
LIKE_FRAME = re.compile(r"^(?:spending (?:my |some |quality )?time (?:with|at|in|on)|spend(?:ing)? time (?:with|at|in|on)|"
                        r"being (?:around|with|at|in|outside in)|time (?:with|at|in|on)|hanging out with)\s+"
                        r"(?:(?:my|the|our)\s+)?", F)
COMMON_VERBS = (r"(?:read|play|watch|go|spend|hang|cook|bake|swim|run|write|travel|dance|sing|draw|paint|hike|ride|eat|"
                r"drink|listen|explore|visit|learn|garden|knit|sew|fish|hunt|camp|ski|surf|shop|grill|lift|do|make|take|"
                r"meet|see|try|work|relax|sleep|build|fix|collect|sit|walk|jog|bike|cycle|climb|sail|study|teach|help|"
                r"volunteer|chat|talk|code|program|craft|bowl|golf|skate|snowboard|spend|stay|get|have|keep|feed|"
                r"care|look|sleep|binge|browse|scroll|stream|tinker|practice|practise|train|host|throw|attend|join)")
LIKE_STOP = re.compile(LIST_STOP.pattern.replace(r"(?:with|since|", r"(?:since|", 1), F)
ANAPHORA = re.compile(r"(?:^|\s)(?:it|that|this|them|those|these|him|her|you|one|all|both|em|'em)$", F)


# A list item that opens a clause of its own ends the list: a purpose after a comma ("educational content, trying to
# make the most of my time") or a finite verb ("layering and want to see more ideas").
PURPOSE = re.compile(r",\s*\w+ing to\b.*$", F)
CLAUSE_PART = re.compile(r"\w+ing to\b|(?:want|wants|wanted|need|needs|needed|hope|hoped|think|thought|would|will|am|"
                         r"was|have|had|can|could|feel|felt|find|found|try|tried|wish|plan|planned|decided|started|"
                         r"began)\b", F)


# A comma or a dash that opens a clause: "fantasy movies, they're a great escape and get my imagination going",
# ""The Motivation Minute" - they're great for getting me pumped up".
SUBJECT = r"(?:they|it|that|this|those|these|which|he|she|we|i)"
COMMA_CLAUSE = re.compile(rf",\s*{SUBJECT}(?:'re|'s|'m|'ve|\s+(?:are|is|was|were|have|has|am|make|made|get|give|keep|"
                          r"help|let))\b.*$", F)
DASH_CLAUSE = re.compile(rf"\s+[-–—]\s+{SUBJECT}\b.*$", F)
# A place or thing pointed at in the conversation, after the taste: "on this nearby trail", "in that park".
DEICTIC_PLACE = re.compile(r"\s+(?:on|in|at|to|of|from|near|by|around|with|into|through)\s+(?:this|that|these|those)\b.*$", F)
# Verbs that say little without where they go: "going to this park" is no taste "going".
LIGHT_VERBS = r"(?:go|going|come|coming|get|getting|be|being|do|doing|head|heading|return|returning|stay|staying|sit|sitting)\b"
# A relative clause inside an item: what follows it in the list is its own object, not another taste.
RELATIVE = re.compile(r"\s(?:that|which|who)\s+(?!and\b|or\b)\w+", F)
# Words for any kind of thing, which name nothing until their examples do: "artists like Tim Hecker".
CLASS_WORD = re.compile(r"(?:(?:some|other|different|various|many|lots of|a lot of)\s+)?(?:artists|bands|musicians|"
                        r"singers|authors|writers|foods|things|stuff|scents|smells|places|people|brands|genres|"
                        r"styles|names|titles|ones)", F)
# What follows gives examples of the thing liked, not more things: "neutral colors like beige, gray and white".
EXAMPLES = re.compile(r",?\s+(?:like|such as|including|especially|particularly|specifically)\s+.*$", F)


def _like_values(raw: str) -> list[str]:
    raw = COMMA_CLAUSE.sub("", DASH_CLAUSE.sub("", PURPOSE.sub("", raw)))
    raw = trim(raw, LIKE_STOP)
    examples = EXAMPLES.search(raw)
    if examples and CLASS_WORD.fullmatch(raw[:examples.start()].strip()):
        # "artists like Tim Hecker and William Basinski": a word for any kind of thing, named by its examples
        raw = re.sub(r"^,?\s*\w+(?: as)?\s+", "", examples.group(0))
    raw = EXAMPLES.sub("", raw) or raw
    if re.match(r"(?:it|that|this|those|these|them|you|how|when|where|what|the way|the idea|my job when|a lot of)\b",
                raw, flags=F):
        return []
    if re.match(r"to (?:be|have|get|make|keep|feel|know|think|say|call|tell|believe|imagine)\b", raw, flags=F):
        return []       # "i prefer to be more free spirited": a wish about oneself; "as i like to say": a saying
    verbs = bool(re.match(r"to\s+\w", raw, flags=F))
    raw = raw[3:].strip() if verbs else raw
    # a letter that no list splits on holds a fixed phrase together: "rockǀandǀroll"
    protected = FIXED_AND.sub(lambda m: m.group(0).replace(" ", "\u01c0"), raw)
    protected = re.sub(r"(?<!\w)(\w)\s?&\s?(\w)(?!\w)", "\\1\u01c1\\2", protected)     # "R&B", "B&B": one thing
    parts = [p.replace("\u01c0", " ").replace("\u01c1", "&") for p in split_items(protected, stop=LIKE_STOP)]
    out = []
    for part in parts:
        if part is not parts[0] and CLAUSE_PART.match(part):
            break           # "layering and want to see more"
        # "to watch movies and tv shows": after the first, only a verb starts a new activity
        value = gerund(part) if verbs and (part is parts[0] or re.match(rf"{COMMON_VERBS}\b", part, flags=F)) else part
        value = re.sub(r"^(?:(?:all|different|many|lots of|various) )?(?:kinds|types|sorts) of\s+", "", value, flags=F)
        value = LIKE_FRAME.sub("", value).strip()
        # "taking walks on this nearby trail": the taste, without the place only the conversation knows
        here = DEICTIC_PLACE.search(value)
        if here and (len(value[:here.start()].split()) >= 2 or re.fullmatch(r"\w+ing", value[:here.start()])
                     and not re.match(LIGHT_VERBS, value)):
            value = value[:here.start()]
        words = value.split()
        if re.match(r"\w+ing (?:it|them|that|this|those)\b", value, flags=F):
            return out      # "to drink it with milk and sugar": what follows belongs to "it"
        if not words or ANAPHORA.search(value) or re.search(r"\bthings$", value, flags=F) or (not verbs and part is not parts[0] and
                                                   re.match(rf"{OWN_CLAUSE_VERBS}\b", part, flags=F)):
            continue
        if RELATIVE.search(value):
            # "books that explore diversity and representation": the rest of the list belongs to the clause
            rest = parts[parts.index(part):]
            out.append(value if len(rest) == 1 else f"{', '.join(rest[:-1])} and {rest[-1]}")
            break
        out.append(value)
    # "exploring the ice and snow", "trying new pastries and desserts with my coffee": after a gerund with an
    # object, what does not start an activity of its own belongs to that object
    if len(out) == 2 and len(out[0].split()) >= 2 and out[0].split()[0].endswith("ing") and \
            not out[1].split()[0].endswith("ing"):
        out = [f"{out[0]} and {out[1]}"]
    return out


# "i don't like olives anymore", "i no longer enjoy running", "i'm not into jazz anymore"
@rule(rf"i {NOT_LIKE} (?P<v>.+?) (?:anymore|any more|these days|now)\b"
      rf"|i no longer (?:like|love|enjoy) (?P<w>.+)|i (?:stopped|quit) (?:liking|enjoying|loving) (?P<x>.+)"
      rf"|{IM} (?:no longer|not) (?:into|a fan of) (?P<y>.+?) (?:anymore|any more)\b|{IM} over (?P<z>.+)")
def _likes_retract(m):
    return each("retract", "likes", _like_values(m["v"] or m["w"] or m["x"] or m["y"] or m["z"]))


# "i don't hate mushrooms anymore", "i no longer dislike jazz"
@rule(r"i (?:don'?t|do not|no longer) (?:hate|dislike|mind) (?P<v>.+?)(?: anymore| any more)?\s*$")
def _dislikes_retract(m):
    return each("retract", "dislikes", _like_values(m["v"]))


# "i hate mushrooms", "i can't stand jazz", "i don't like cilantro", "i'm not a fan of horror movies"
@rule(rf"i {INTENSIFIER}{HATE_VERBS} (?P<v>.+)|i {NOT_LIKE} (?P<w>.+)|"
      rf"{IM} (?:really )?not (?:a (?:big |huge )?fan of|into|keen on) (?P<x>.+)")
def _dislikes(m):
    return _tastes("dislikes", "tells", m["v"] or m["w"] or m["x"])


# "i like jazz and hiking", "i really love spicy food", "i'm a big fan of chess", "i'm into climbing"
@rule(rf"i {INTENSIFIER}{LIKE_VERBS} (?P<v>.+)|(?:{IM}|{IVE} (?:(?:always|{NOW}) )*been) {INTENSIFIER}"
      r"(?:a (?:(?:big|huge|massive|great) )?fan of|"
      r"(?:really |more |much more |mostly )?into|keen on|passionate about|obsessed with|crazy about|addicted to|"
      r"all about|big on|(?:very |really )?interested in|"
      r"(?:always |really )?drawn to|"
      r"a (?:(?:big|huge) )?(?:sucker|lover) (?:for|of)) (?P<w>.+)"
      r"|i (?:also )?(?:prefer|have a (?:soft spot|weakness|passion|thing) for) (?P<x>.+)"
      r"|i (?:(?:also|usually|generally|always|really) )*(?:tend to )?(?:lean|gravitate) (?:more )?towards? (?P<z>.+)"
      r"|my (?:(?:favou?rite|main|only|biggest) )?(?:hobby is|hobbies are|hobbies include|passion is|passions are) (?P<y>.+)")
def _likes(m):
    preferred = re.sub(r"\s+(?:to|over|rather than|more than|instead of|than)\s+.*$", "", m["x"] or "", flags=F)
    # "interested in" asks (a taste only when nothing is asked of her); "prefer" with nothing it is preferred to
    # chooses for the matter at hand ("I prefer weighted keys", answering her); "tea to coffee" tells a taste
    asks = m["w"] is not None and re.search(r"interested in\s*$", m.string[:m.start("w")], flags=F)
    chooses = (m["x"] is not None and m.group(0).lower().startswith(("i prefer", "i also prefer"))
               and preferred == m["x"] and not re.match(r"\w+ing\b", preferred, flags=F))   # "prefer being inside": a habit
    verb: Verb = "chooses" if chooses else "asks" if asks else "tells"
    return _tastes("likes", verb, m["v"] or m["w"] or preferred or m["y"] or m["z"])


def _tastes(key: str, verb: Verb, raw: str) -> list[Change]:
    """One change per liked thing, each with how it was said (stance.lasting decides with the rest of
    the message): the whole object's form ("the ideas, especially X": pointed) or the value's own."""
    # "some of the suggestions, especially Codenames": hers
    whole = object_form(EXAMPLES.sub("", raw) or raw, pointing=False)
    out = []
    for value in _like_values(raw):
        own = object_form(value)
        form = own if own in ("fragment", "particular") or whole not in ("hers", "particular", "definite", "wish") \
            else whole
        if out and out[0].said.object == "fragment":
            form = "fragment"   # "the fact that I can watch shows and movies on my phone": one clause, not a list
        elif out and out[0].said.object == "wish" and form == "thing" and WISH.match(out[0].value):
            form = "wish"       # "learning more about vitamin C, vitamin D and probiotics": all of them to learn about
        out.append(Change("assert", key, value, said=Said(verb, form)))
    singled = EMPHASIS.search(raw)
    head = object_form(raw[:singled.start()]) if singled else None
    # "the sound of the light neutrals, especially the beige shades" is what she showed; "a diverse range of musical
    # styles, especially jazz" is not
    if out and singled and head not in ("hers", "fragment", "wish") and not (
            head == "particular" and re.match(r"the\b", raw, flags=F)):
        # "a diverse range of musical styles, especially jazz and blues": what is singled out is liked the more
        out += [Change("assert", key, v, said=Said(verb, "thing")) for v in _like_values(singled["items"])
                if object_form(v) == "thing" and Change("assert", key, v) not in out]
    return out


# The things singled out after a liked one: "especially jazz" (not "especially since ...", a clause)
EMPHASIS = re.compile(r",?\s+(?:especially|particularly|above all)\s+(?P<items>(?!(?:since|because|when|if|after|"
                      r"before|with|for|in|on|at|as|the ones|those|that|what|how)\b).+)$", F)


AGENT_HOBBY = {"reader": "reading", "cyclist": "cycling", "hiker": "hiking", "biker": "biking",
               "dancer": "dancing", "skater": "skating", "baker": "baking", "gamer": "gaming", "diver": "diving",
               "traveler": "travelling", "traveller": "travelling", "collector": "collecting",
               "photographer": "photography", "golfer": "golf", "gardener": "gardening", "painter": "painting"}


def _hobby(noun: str) -> str:
    """'kayaker' -> 'kayaking', 'runner' -> 'running', 'reader' -> 'reading'."""
    noun = noun.lower()
    if noun in AGENT_HOBBY:
        return AGENT_HOBBY[noun]
    stem = noun[:-2] if noun.endswith(("er", "or")) else noun[:-3] if noun.endswith("ist") else noun
    return stem + "ing"


def _loved(thing: str) -> str:
    """'animal' (of "animal lover") -> 'animals'; 'music' stays."""
    thing = thing.lower()
    countable = re.fullmatch(rf"{PETS}|animal|book|plant|horse|car|bird|(?:video |board |card )?game", thing, flags=F)
    return thing + "s" if countable and not thing.endswith("s") else thing


# "i'm an avid reader", "i am a keen cyclist", "i'm a big animal lover", "i'm a huge music lover"
@rule(rf"{IM} (?:(?:{NOW}|also) )*an? (?:(?:avid|keen|amateur|hobbyist|recreational|weekend|passionate|enthusiastic|"
      r"expert|experienced|seasoned|devoted|dedicated|regular|self-taught|budding|"
      r"big|huge|massive|great|true|total|real|die-?hard|lifelong) )+(?P<v>[\w-]+(?: [\w-]+){0,2}?)"
      r"(?:(?:\s+(?:too|as well|myself))?\s*[.!]*$|\s+(?:and|but|so|who|which)\s)"
      rf"|{IM} (?:(?:{NOW}|also) )*an? (?:(?:avid|keen|amateur|passionate|big|huge|true|lifelong) )*"
      r"(?P<w>[\w-]+(?: [\w-]+)?) (?:lover|enthusiast|nut|buff|fanatic|junkie)"
      r"(?:\s*[.!]*$|\s+(?:and|but|so|who|which)\s)")
def _likes_agent(m):
    if m["w"]:
        return [Change("assert", "likes", _loved(m["w"]))]
    words = m["v"].split()
    if words[-1].lower() in ("fan", "lover", "enthusiast", "buff", "nut"):
        return [Change("assert", "likes", _loved(" ".join(words[:-1])))] if len(words) > 1 else []
    if not re.search(r"(?:er|or|ist)$", words[-1], flags=F):
        return []
    return [Change("assert", "likes", " ".join([*words[:-1], _hobby(words[-1])]))]


# "horror movies are my favorites", "pizza is my favourite", "the hobbit is one of my favorites too", "epic adventures
# are my thing", "cooking and baking are my creative outlets"
@rule(rf"(?!(?:i|it|that|this|what|which|who|there|they|he|she|you|we)\b)(?P<v>[\w' -]{{1,40}}?) (?:is|are) "
      rf"(?:(?:definitely|probably|totally|still|always|also|easily) )?(?:one of |among )?my (?:absolute |all[- ]time |top )?"
      rf"(?:{FAV}s?|faves|thing|jam|go-to|top picks?|(?:creative )?outlets?|passions?|hobb(?:y|ies))"
      r"(?: too| as well)?\s*[.!]*$",
      needs=(*FAV_WORDS, "fave", "thing", "jam", "go-to", "pick", "outlet", "passion", "hobb"))
def _likes_favorite(m):
    return each("assert", "likes", _like_values(m["v"]))


# "two of my favorites are "the stormlight archive" and "kingkiller chronicle"", "one of my favorites is a track called
# "savana"", "epic fantasy series are what i enjoy reading"
@rule(rf"(?:one|two|three|some|a few|a couple) of my (?:absolute |all[- ]time |top )?(?:{FAV}s|faves) (?:are|is|include|would be) "
      r"(?:(?:a|an|the) (?:\w+ )?(?:called|named) )?(?P<v>.+)"
      r"|(?!(?:i|it|that|this|what|which|who|there|they|he|she|you|we)\b)(?P<w>[\w' -]{1,60}?) (?:is|are) what i "
      r"(?:(?:really|most|truly) )?(?:love|enjoy|like)(?: \w+ing)?(?: (?:the )?most)?\s*[.!]*$",
      needs=(*FAV_WORDS, "fave", "what i"))
def _likes_among(m):
    if m["v"] and re.match(r"(?:a|an)\s", m["v"], flags=F):
        return []       # "one of my favorites is a shot of a seagull": one of those in view, not a kind of thing
    return _tastes("likes", "tells", m["v"] or m["w"])


# "that is why i love basketball", "it reminded me why i love writing": the reason given, the love stated
@rule(rf"(?:.*?\s)?(?:why|the reason(?: why| that)?) i {INTENSIFIER}(?:love|like|enjoy|adore) (?P<v>.+)", needs=("why", "reason"))
def _likes_why(m):
    return _tastes("likes", "tells", m["v"])

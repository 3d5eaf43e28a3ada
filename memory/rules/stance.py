"""A taste the user tells, or a reaction, a request or a plan: read from the clause's form, decided once.

"I'm a big fan of jazz" tells; "I like the checklist" reacts to what she made; "I'm interested in the
Oregon Coast route. Can you tell me more?" asks; "I'm interested in trying linocut printing" plans.
The rules record how a taste was said (`Said`, on the `Change`), the parse adds what followed it in
the message, and `lasting` decides. Nothing here lists sentences: the evidence is the verb's kind,
the object's determiner and head, and whether the user asks her something in the same breath.
"""
from __future__ import annotations

import regex as re

from ..intent import Object, Said
from ..lexicon import F

# The object points at something already in the conversation: her suggestion, her list, a thing just named.
POINTED = re.compile(r"^(?:this|that|these|those|your|their|its|his|her|such|some of|one of|any of|all of|"
                     r"both|either|each of|most of|a few of|many of|several of)\b", F)
# What she offers: a pointed object with one of these heads is hers even with no "you" in it.
OFFERED = re.compile(r"\b(?:you (?:\w+ )?(?:suggested|mentioned|recommended|provided|described|listed|gave|shared|"
                     r"proposed|came up with|wrote|made|created|put together|outlined|included)|ideas?|suggestions?|"
                     r"options?|tips?|recommendations?|list|sound of|look of|idea of|approach|structure|format|"
                     r"layout|version|draft|plan|style|design|concept|theme|aspects?|features?)\b", F)
# The start of an activity not yet begun: "trying out", "learning more about", "getting a gift".
WISH = re.compile(r"^(?:(?:also|really|more|further) )*(?:try|trying|continue|continuing|learn|learning|explore|"
                  r"exploring|visit|visiting|"
                  r"get|getting|find|finding|start|starting|attend|attending|check|checking|see|seeing|know|knowing|"
                  r"hear|hearing|read|reading more|understand|understanding|pursue|pursuing|buy|buying|take|taking|"
                  r"go|going|make|making|use|using|join|joining|become|becoming|improve|improving|build|building|"
                  r"create|creating|develop|developing|apply|applying|discover|discovering|watch|watching|plan|"
                  r"planning|set|setting|switch|switching|leverage|leveraging|incorporate|incorporating|dive|diving|"
                  r"look|looking|hike|hiking|volunteer|volunteering|adopt|adopting|grow|growing|add|adding|do|"
                  r"doing|participate|participating|help|helping|stay|staying)\b", F)
# A value that is part of a clause, not a noun phrase: it opens with a subordinator, a preposition or
# a focus word, or closes on a word that needs more after it.
FRAGMENT_START = re.compile(r"^(?:as|especially|particularly|specifically|mainly|mostly|since|because|which|who|that|"
                            r"so|of|like|such as|including|but|and|or|if|when|while|than|be it|anywhere|anything|"
                            r"whatever|how|what|where|why|to|for|with|about|at|in|on|by|from|it|they|we|i|you|"
                            r"never|not|sometimes|probably|maybe|more|less|just|also|even|still|is|are|was|were|has|"
                            r"have|had|will|would|can|could)\b", F)
# A quality of what is in view, not a kind of thing one likes: "the convenience", "the feeling of accomplishment",
# "the smell of my current spray", "a diverse range of musical styles" (what it singles out may be: "especially jazz").
QUALITY = re.compile(r"^(?:(?:the|a|an)\s+)?(?:[\w-]+,?\s+){0,2}?(?:convenience|flexibility|simplicity|freedom|feeling|"
                     r"fact|experience|atmosphere|vibes?|taste|smell|sound|look|feel|aftertaste|texture|flavou?r|idea|"
                     r"thought|variety|mix|range|combination|balance|quality|versatility|affordability|comfort|"
                     r"connection|energy|diversity|support|challenge|thrill|rush|satisfaction|sense|excitement)"
                     r"(?:\s+(?:of|to|from)\b|\s+(?:it|they|this|that|you|i)\b|\s*[,;]|\s+(?-i:\p{Lu})\w*\s*$|\s*$)", F)
# A clause inside the value: "the bokeh effect I get", "the fact that I can watch shows", "the look it has".
CLAUSE_INSIDE = re.compile(r"\s(?:i|it|they|we|you|he|she)\s+(?!and\b|or\b)\w+|\bfact that\b", F)
# A value that needs the conversation to be understood: "escaping to that world", "going to this park", "making him
# happy". A memory is read a month later, alone.
DEICTIC = re.compile(r"\s(?:this|these|those)\b|\b(?:to|in|of|at|on|with|from|about|for|into|by)\s+that\b|"
                     r"\s(?-i:him|them|it)\b|\smyself\b", F)
# A verb that needs its object, alone: "playing", "doing", "helping" (not "reading", "cooking": a pastime alone).
BARE = re.compile(r"(?:playing|doing|making|having|getting|going|helping|watching|using|taking|giving|seeing|trying|"
                  r"pushing|finding|keeping|putting|bringing|help|play|do|make)", F)
# One particular thing of the user's or of what is in view, or a part of it: "the armchair in my living room", "the
# colour of my old racket", "the saxophonist's improvisational skills".
OWNED = re.compile(r"the\b.*\s(?:in|at|on|of) (?:my|our)\s|the (?:[\w-]+ ){0,2}[\w-]+(?:'s|s')\s|"
                   r"(?:my|our) (?:new|old|current|latest|recent|first)\s", F)     # "my new helmet"
# One occasion of the user's, not a kind of thing: "my vacation", "my time off", "our trip".
OCCASION = re.compile(r"(?:my|our)\s+(?:[\w-]+\s+)?(?:vacation|holiday|trip|time off|weekend|day|break|stay|visit|"
                      r"evening|morning|night|honeymoon|birthday|journey)s?\b", F)
# Some items counted are those in view: "two projects in particular", "three of the recipes".
COUNTED = re.compile(r"(?:two|three|four|five|six|\d+|a couple of|a pair of)\s", F)
# How a taste feels, not the taste: "getting lost in fantasy worlds", "sinking into different magical worlds",
# "being able to flip back through the pages".
EXPERIENCE = re.compile(r"^(?:getting|being|feeling|becoming) (?:lost|immersed|absorbed|swept|transported|carried away|"
                        r"sucked|able)\b|^(?:sinking|escaping|entering|losing myself|immersing myself|disappearing)\b", F)
FRAGMENT_END = re.compile(r"\b(?:the|a|an|of|to|and|or|with|for|in|on|at|by|my|your|their|its|his|her|our|that|"
                          r"which|who|is|are|was|were|be|been)$", F)


def object_form(value: str, pointing: bool = True) -> Object:
    """What a taste's value is, by its own words. pointing=False for a whole list, whose later clause may point at
    the first item ("avocados and never thought of using them")."""
    value = value.strip(" \"'“”")
    if not value or FRAGMENT_START.match(value) or FRAGMENT_END.search(value) or BARE.fullmatch(value):
        return "fragment"
    if any(p.match(value) for p in (QUALITY, EXPERIENCE, COUNTED, OCCASION, OWNED)) or pointing and DEICTIC.search(value):
        # "the convenience", "the soft, earthy look it has", "the armchair in my living room", "my time off", "the
        # saxophonist's improvisational skills", "escaping to that world"
        return "particular"
    # a title that opens with "The": "The Beatles", "The Witcher 3", "The New Yorker"; a name after a lowercase "the" is
    # the one in view, as "the beach" may be: "the Santa Cruz Coastal Route" (with a request beside it, asked about)
    named = bool(re.match(r"The\s+\p{Lu}", value))
    if re.match(r"the\b", value, flags=F) and OFFERED.search(value):
        return "hers"           # "the ideas", "the sound of The Song of Achilles", "the structure you provided"
    if POINTED.match(value) and not re.search(r"\p{Lu}", value.split(" ", 1)[-1]):
        # "those energy balls", "some of the suggestions", "their writing style" (not "her song Toxic")
        return "hers"
    if re.match(r"the\b", value, flags=F) and not named:
        return "definite"       # "the beach": the general one, or the one in view
    if OFFERED.search(value) and re.search(r"\byou\b", value, flags=F) or re.search(r"\bof your\b", value, flags=F):
        return "hers"           # "the structure you provided", "a few of your picks"
    if CLAUSE_INSIDE.search(value):
        return "fragment"       # "bokeh effect I get", "the fact that I can watch shows"
    if re.match(r"an?\s(?:really\s)?(?:good|great|nice)\s", value, flags=F):
        return "definite"       # "a good mystery": the kind one loves, or (with a request beside it) one wanted now
    if re.match(r"an?\s", value, flags=F) or re.search(r"\b(?:something|anything|someone|somewhere)\b|"
                                                       r"\s(?:that|which|who) (?!is\b|are\b)\w+", value, flags=F):
        return "wish"           # "a durable material", "advice that can help me", "something widely read": one to get
    if re.search(r"\bones?\b(?!\s+of)", value, flags=F):
        return "hers"           # "using flat ones": the ones just spoken of
    wish = WISH.match(value)
    if wish:
        # "seeing the distribution maps": the gerund's object says whose the thing is
        rest = object_form(value[wish.end():]) if value[wish.end():].strip() else "wish"
        return rest if rest in ("hers", "definite") else "wish"
    return "thing"


def lasting(said: Said, answering: bool) -> bool:
    """Whether a taste said this way is a lasting fact about the user.

    A fragment, a reaction to what is pointed at, a quality of what is in view, or a choice for the matter at hand ("I prefer weighted keys")
    never is; "the X" with a request or thanks beside it is the one in view. Asking ("interested in") tells a
    lasting interest only of a plain thing, when nothing is asked of her in the same message: "I'm interested in
    art, music and the outdoors" is about the user; "I'm interested in God of War. Can you tell me more?" is a
    request. A telling verb carries a wish as a habit: "I love trying new recipes"."""
    if said.object in ("fragment", "hers", "particular") or said.verb == "chooses":
        return False
    if said.verb == "asks":
        return said.object == "thing" and not answering
    # "I like the personalized banner. Any ideas for a restaurant?": the one in view, answered in passing
    return not (said.object == "definite" and answering)


# The user asks her for something: a question, or a request in the imperative or the polite form.
REQUEST = re.compile(r"\?\s*$|^(?:(?:so|and|also|but|now|ok|okay|well|please|hey)[, ]+)*(?:can|could|would|will) you\b|"
                     r"^(?:(?:so|and|also|but|now|ok|okay|well)[, ]+)*(?:please |just )?"
                     r"(?:tell|give|show|help|recommend|"
                     r"suggest|provide|share|explain|list|send|find|describe|elaborate|walk me|let me know)\b|"
                     r"\b(?:any (?:tips|advice|ideas|suggestions|recommendations)|(?:i'?d|i would) (?:like|love) to "
                     r"(?:know|hear|learn)|i(?:'m| am) (?:wondering|curious)|i was wondering|"
                     r"i(?:'m| am) (?:(?:also|still|now) )?looking (?:for|to)|"
                     r"i need (?:some |a |help|advice|ideas))\b", F)
THANKS = re.compile(r"\b(?:thanks|thank you|that'?s (?:really |very |so )?(?:helpful|great|useful))\b", F)


def asks_her(sentence: str) -> bool:
    """Whether a sentence asks her for something."""
    return bool(REQUEST.search(sentence.strip()))


def answers_her(sentence: str) -> bool:
    """Whether a sentence asks her for something or thanks her for what she gave: a taste beside it may be
    about what she gave ("I like the checklist, thanks!")."""
    return asks_her(sentence) or bool(THANKS.search(sentence))


# Text the user brought to be worked on, or her own words pasted back: not the user speaking of themself.
WORK_ON = re.compile(r"\b(?:rewrite|re-write|edit|change|proofread|correct|summari[sz]e|translate|paraphrase|"
                     r"shorten|improve|fix|polish|revise|reword|convert|make corrections to|do the same (?:with|for)|"
                     r"respond to|reply to|analy[sz]e|review|check)\b[^.?!\n]{0,60}?\b(?:this|these|the following|"
                     r"below|above|passage|e-?mail|text|paragraph|essay|letter|message|article|story|poem|script|"
                     r"summary|resume|cover letter|sentences?|"
                     r"transcript|caption|headline)\b", F)
# Fiction asked for: what the message then says in the first person is a character's ("write a short story. I'm
# Captain Hook"). Asked to write the user's own email or letter, what they say of themself is theirs.
FICTION = re.compile(r"\b(?:write|compose|make up|create)\b[^.?!\n]{0,60}?\b(?:story|stories|poem|script|scene|"
                     r"dialogue|song|lyrics|novel|chapter|screenplay|fan ?fiction|rap|limerick|haiku|sonnet|play|"
                     r"fairy ?tale|monologue|role-?play)\b", F)
# "can you make it 10 mins long?", "make it shorter", "tell me if this letter is ok", "keep writing: ...": the text in
# the message is to be worked on.
RESIZE = re.compile(r"^\s*(?:keep|continue) (?:writing|going)\b|"
                    r"\bmake (?:it|this|that) (?:(?:\d+|one|two|three|four|five|ten|twenty) (?:mins?|minutes|words|"
                    r"pages|paragraphs|lines|sentences|seconds) )?(?:long|longer|shorter|more concise|more formal|"
                    r"less formal)\b|\b(?:is|if) (?:this|the|my) (?:letter|e-?mail|essay|message|text|cover letter|"
                    r"resume|post|draft|speech|paragraph) (?:is |sounds |reads |looks )?(?:ok|okay|good|fine|alright|"
                    r"right|correct|professional|clear)\b", F)
ROLE = re.compile(r"\b(?:ignore (?:all |any )?(?:the )?(?:previous|prior|above) instructions|"
                  r"(?:act|behave) (?:as|like) (?:an?|my|the)\b|pretend (?:to be|you are|that you)|"
                  r"you are now (?:an?|my)\b|assume the (?:role|persona) of|imagine (?:that )?you(?:'re| are) (?:an?|"
                  r"the|my)\b|i will (?:provide|give|send|paste) you (?:with )?(?:an?|the|my) (?:[\w-]+ ){0,3}"
                  r"(?:transcript|text|e-?mail|essay|draft|article|document)\b)|"
                  r"^\s*you are (?:an?|my|the) (?!(?:great|good|big|huge|real|true|life|star)\b)", F)
# A letter or an email in the message: its salutation or its sign-off on a line of its own.
LETTER = re.compile(r"(?m)^\s*(?:dear|hi|hello)\s+[^\n,]{1,40},\s*$|^\s*(?:sincerely|best regards|kind regards|"
                    r"warm regards|regards|yours truly|yours sincerely),?\s*$", F)
PLACEHOLDER = re.compile(r"\[(?:your|my|his|her|their|the|insert|company|course|professor|job|name|recipient|date|"
                         r"position|address|city|phone|email)\b[^\]\n]{0,30}\]|"
                         r"\{\s*(?:first|last|full|company|your|recipient|user|client|customer)\b[^{}\n]{0,30}\}|"
                         r"\((?:first|last|full|your|company) name\)", F)
# A script: lines that open with a speaker's name and a colon, one speaker at least twice ("billy: ...").
SPEAKER = re.compile(r"(?m)^[ \t*]*(?P<who>\p{L}[\p{L}'. -]{0,24}):[ \t]*\S")
HER_VOICE = re.compile(r"\b(?:feel free to (?:ask|reach out)|i'?m glad (?:i could|i was able to|to) help|"
                       r"i hope (?:this|these|that|my) (?:\w+ ){0,4}helps?\b|don'?t hesitate to (?:ask|reach out)|"
                       r"if you have any (?:more |other |further )?questions|happy to help|i'?ll be here to help|"
                       r"\bi'?m (?:the|an|your) (?:ai )?assistant\b|\bas an ai(?: language model| assistant)?\b|"
                       r"\brespond as (?:the|an?) (?:[\w-]+ )?assistant\b)", F)


def pasted(text: str) -> bool:
    """Whether a message is text to be worked on (an email to edit, a role to play) or her answer pasted
    back, rather than the user talking: no fact in it is the user's, and no command in it is theirs."""
    return any(p.search(text) for p in (WORK_ON, FICTION, RESIZE, ROLE, PLACEHOLDER, HER_VOICE, LETTER)) or script(text)


def script(text: str) -> bool:
    """Three lines or more that open with a speaker and a colon, one speaker twice: a dialogue written out (a
    form about oneself, "Name: Sam / Age: 34", names each field once)."""
    speakers = [m["who"].lower() for m in SPEAKER.finditer(text)]
    return len(speakers) >= 3 and len(set(speakers)) < len(speakers)

"""Is it for her? Evidence about one utterance, gathered in stages (gate.py), and `decide`: a pure
function from that evidence and the policy (config.yaml's `voice.wake`) to a decision, or to the one
piece of evidence it still needs. Cheap evidence comes first; a stage is gathered only when the
decision turns on it.

The checks, in the order `decide` weighs them:
- the words: the transcript made with her name as a hotword comes close enough to the phrase
  (`threshold`); else, outside the follow-up window, the opening heard again (`second_look_s`: whisper
  sometimes drops a leading "Hey GLaDOS" from a long utterance);
- the plain check: the same audio heard without the hotword names someone else where her name would be
  ("Gladys"), or the words' call was whisper's guess for a whole sentence (left out): not hers, unless
  the name model is sure of her name (`name_model_sure`);
- no call in the words: her name in place of the first or last words, nearly as likely as what whisper
  wrote (`name_check` nats); the name model sure of her name, with nobody else named: her name where the
  model heard it (`name_place`), the utterance heard again with a beam search (`beam_look`), or, all but
  certain of her name in the opening where whisper was unsure of its words, the model alone
  (`name_alone`, `name_alone_unsure`);
- any call whose audio the name model scores under `name_model` is not hers (asked first: most room talk
  ends there, after one transcription);
- still none: the speech after each of the longest pauses (`pause_look_s` or longer) that opens with a
  call is decided as an utterance of its own, and must pass the name check as well.
docs/wake-gate.md has the measurements behind each value."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from ..events import RATE, Transcript
from .base import WakeMatch
from .name_model import Sounded

Stage = Literal["opening", "plain", "sound", "named", "elsewhere", "placed", "alone", "beam", "pauses", "look", "words"]
Kind = Literal["call", "not", "someone_else"]
By = Literal["words", "opening", "name check", "placed", "beam", "alone", "acoustic"]


@dataclass(frozen=True)
class Fit:
    """The wording with her name that best fits the audio: the call it makes, and how much less likely
    it is than what the recogniser wrote (log-probability; 0: as likely)."""
    match: WakeMatch
    margin: float


@dataclass(frozen=True)
class Look:
    """The speech after one pause inside the utterance: where it was cut (samples into the utterance),
    and, once looked at, its opening heard with the hotword (`call`: how close it comes to the phrase;
    `named`: the quick name check on it, when it ran) and the rest from the cut as evidence of its own."""
    cut: int
    looked: bool = False
    call: float = 0.0
    named: float | None = None
    rest: Evidence | None = None

    @property
    def at_s(self) -> float:
        """Where the speech after the pause begins, in seconds into the utterance."""
        return self.cut / RATE


@dataclass(frozen=True)
class Evidence:
    """What the gate knows about one utterance. `gathered` names the stages in it; a field of a stage not
    gathered holds its default, and `decide` asks for the stage before reading it."""
    transcript: Transcript                 # heard with the phrase as a hotword
    first: WakeMatch | None                # the closest call in it, whatever the threshold
    in_window: bool = False                # heard in the follow-up window after her reply
    acoustic: bool = False                 # an acoustic engine heard the audio: `first.score` is its score
    gathered: frozenset[Stage] = frozenset({"words"})
    opening: WakeMatch | None = None       # opening: the closest call in the opening heard again
    plain: str | None = None               # plain: heard without the hotword (None: the plain check is off)
    someone_else: bool = False             # plain: it names someone else where her name would be
    invented: bool = False                 # plain: the words' call is whisper's guess (it left out a sentence)
    sound: Sounded | None = None           # sound: the name model's verdict (None: no model for this phrase)
    named: Fit | None = None               # named: her name in place of the first or last words
    elsewhere: bool = False                # elsewhere: someone else named anywhere in what was heard
    placed: Fit | None = None              # placed: her name where the name model heard it
    unsure: float | None = None            # alone: whisper's mean log-probability of its words there
    said_after: bool = False               # alone: a word timed after it (a request)
    near_miss: bool = False                # alone: a word that sounds like her name but is another
    beam: WakeMatch | None = None          # beam: the closest call in the beam search's transcript
    beam_invented: bool = False            # beam: ... and it is whisper's guess
    looks: tuple[Look, ...] = ()           # pauses: the longest pauses, in time order

    @property
    def text(self) -> str:
        return self.transcript.text.strip()

    def has(self, stage: Stage) -> bool:
        return stage in self.gathered

    def with_stage(self, stage: Stage, **fields) -> Evidence:
        return replace(self, gathered=self.gathered | {stage}, **fields)


@dataclass(frozen=True)
class Policy:
    """The operating point. The defaults turn every check off but the words and the second look (0 or
    1: off; threshold None: the wake word's own, `voice.wake.threshold`); SHIPPED is the gate she runs
    with. docs/wake-gate.md tells what each check does and the measurements that chose its value."""
    threshold: float | None = None
    second_look_s: float = 2.0
    plain_check: bool = True
    name_check: float = 0.0
    pause_look_s: float = 0.0
    name_floor: float = 0.0
    name_sure: float = 1.0
    name_place: float = 0.0
    beam_look: int = 0
    name_alone: float = 1.0
    name_alone_unsure: float = 0.0


SHIPPED = Policy(
    second_look_s=2.0,       # no call heard: this many seconds of the opening are transcribed again
    plain_check=True,        # also transcribed without the hotword; a call that then names someone else is not hers
    name_check=14.0,         # no call in the words: her name in place of the first or last words, at most this many nats less likely
    pause_look_s=0.2,        # speech after a pause this long inside an utterance is looked at for a call of its own
    name_floor=0.3,          # a call whose audio the name model scores below this is not hers
    name_sure=0.93,          # the name model this sure: a call the plain check doubted stands; her name is looked for where it was heard
    name_place=18.0,         # her name where the name model heard it, at most this many nats less likely than what was heard
    beam_look=5,             # the name model sure and no call found: heard again searching this many readings at once
    name_alone=0.9995,       # the name model this sure of her name in the opening, whisper unsure there: a call on the model's word
    name_alone_unsure=0.5,   # whisper unsure: the mean log-probability of its words where the name was heard below minus this
)


@dataclass(frozen=True)
class Decision:
    """call: she was called (`request`: what she was asked); not: the utterance is not for her;
    someone_else: it sounded like a call, but the checks found it was not her name."""
    kind: Kind
    request: str | None = None
    score: float = 0.0
    by: By | None = None                   # which evidence made it a call
    after_s: float = 0.0                   # the call began after a pause this far into the utterance


@dataclass(frozen=True)
class Need:
    """The evidence a decision waits for: a stage of the utterance, of the rest after pause `pause`
    (`look`: that pause's opening heard)."""
    what: Stage
    pause: int | None = None


class _Missing(Exception):
    def __init__(self, need: Need):
        self.need = need


def _ask(evidence: Evidence, stage: Stage) -> Evidence:
    if not evidence.has(stage):
        raise _Missing(Need(stage))
    return evidence


def decide(evidence: Evidence, policy: Policy) -> Decision | Need:
    """The decision, or the evidence it needs first."""
    try:
        return _decide(evidence, policy, rest=False)
    except _Missing as missing:
        return missing.need


def _decide(ev: Evidence, p: Policy, rest: bool) -> Decision:
    """rest: the speech after a pause, decided as an utterance of its own; its call must also pass the
    name check."""
    if ev.acoustic:
        called = ev.first is not None and ev.first.score >= p.threshold
        return Decision("call", ev.first.request, ev.first.score, "acoustic") if called else Decision("not")
    text, first = ev.text, ev.first
    look_again = not ev.in_window
    called = first is not None and first.score >= p.threshold
    match, by = (first, "words") if called else (None, None)

    def sound() -> Sounded | None:       # None: no name model for this phrase
        return _ask(ev, "sound").sound

    def sure(at_least: float) -> bool:
        heard = sound()
        return heard is not None and heard.score >= at_least

    # The name model first: every call below must pass its floor, so audio it scores under the floor holds
    # none of hers whatever the words say, and nothing more is gathered (the cheap way out for room talk;
    # the speech after a pause is part of the same audio, where the model heard no more of her name).
    if (called or look_again) and p.name_floor > 0 and sound() is not None and not sure(p.name_floor):
        return Decision("someone_else" if called else "not")
    if text and match is None and look_again:
        opening = _ask(ev, "opening").opening
        if opening is not None and opening.score >= p.threshold:
            match, by = WakeMatch(text, opening.score), "opening"     # the whole transcript is the request
    # The plain check. Said as most people say it, "GLAD-oss", her name is written "Gladys" without the
    # hotword: a call the words found stands when the name model is sure of her name.
    def someone_else() -> bool:
        if not p.plain_check or not _ask(ev, "plain").someone_else:
            return False
        return not (called and p.name_sure < 1 and sure(p.name_sure))

    vetoed = match is not None and (someone_else() or (called and p.plain_check and _ask(ev, "plain").invented))
    named: Fit | None = None
    if p.name_check > 0 and (rest or (match is None and look_again)) and not someone_else():
        named = _ask(ev, "named").named
        if match is None and look_again and named is not None and named.margin >= -p.name_check:
            match, by = named.match, "name check"
    if match is None and look_again and (p.name_place > 0 or (p.beam_look > 1 and text)) and p.name_sure < 1 \
            and sure(p.name_sure):
        match, by = _by_sound(ev, p, sound())
    if rest:
        passed = match is not None and not vetoed and (p.name_check <= 0 or (named is not None and named.margin >= -p.name_check))
        return Decision("call", match.request, match.score, by) if passed else Decision("not")
    if match is not None and not vetoed:
        return Decision("call", match.request, match.score, by)
    after = _after_pauses(ev, p) if look_again and p.pause_look_s > 0 else None
    return after or Decision("someone_else" if vetoed else "not")


def _by_sound(ev: Evidence, p: Policy, sound: Sounded | None) -> tuple[WakeMatch | None, str | None]:
    """With the name model sure of her name and the words' checks finding no call: her name placed in the
    transcript where no one else is named, a wider beam's transcript that holds it, or the placed call on the
    name model's word alone (_alone). (None, None): still no call."""
    nobody_else: bool | None = None
    lone: WakeMatch | None = None
    if p.name_place > 0:
        nobody_else = not _ask(ev, "elsewhere").elsewhere
        placed = _ask(ev, "placed").placed if nobody_else else None
        if placed is not None and placed.margin >= -p.name_place:
            return placed.match, "placed"
        if placed is not None and _alone(ev, p, sound):
            lone = placed.match     # a call on the model's word, unless the beam look below hears the words
    if p.beam_look > 1 and ev.text:
        if nobody_else is None:
            nobody_else = not _ask(ev, "elsewhere").elsewhere
        if nobody_else:
            beam = _ask(ev, "beam")
            if beam.beam is not None and beam.beam.score >= p.threshold and not beam.beam_invented:
                return beam.beam, "beam"
    return (lone, "alone") if lone is not None else (None, None)


def _alone(ev: Evidence, p: Policy, sound: Sounded) -> bool:
    """Whether the name model may call her by itself: all but certain of her name (name_alone), heard in
    the opening (`second_look_s`: a call's name comes first or after a greeting), whisper unsure of the
    words it wrote there (their mean log-probability below -name_alone_unsure), a word timed after that
    place (the request a call on the model's word carries), and no word that sounds like her name
    ("glad", "Gladys"). Speech whisper heard clearly there is trusted over the model: real voices make it
    all but certain of a name nobody said (bench/wake_real.py)."""
    if p.name_alone >= 1 or sound.score < p.name_alone or sound.at_s > (p.second_look_s or 2.0):
        return False
    ev = _ask(ev, "alone")
    return ev.unsure is not None and ev.unsure < -p.name_alone_unsure and ev.said_after and not ev.near_miss


def _after_pauses(ev: Evidence, p: Policy) -> Decision | None:
    """A call that begins after a pause: where the speech after one of the longest pauses opens with a
    call (in the words, or her name fits in place of its first words: a call without a greeting is the
    one whisper mishears most), the rest of the utterance from there is decided as one of its own."""
    for i, look in enumerate(_ask(ev, "pauses").looks):
        if not look.looked:
            raise _Missing(Need("look", i))
        opens = look.call >= p.threshold or (p.name_check > 0 and look.named is not None and look.named >= -p.name_check)
        if not opens:
            continue
        if look.rest is None:
            raise _Missing(Need("words", i))
        try:
            decision = _decide(look.rest, p, rest=True)
        except _Missing as missing:
            raise _Missing(Need(missing.need.what, i)) from None
        if decision.kind == "call":
            return replace(decision, after_s=look.at_s)
    return None


__all__ = ["Decision", "Evidence", "Fit", "Look", "Need", "Policy", "Stage", "decide"]

"""`glados memory page`: a local web page where a person sees, and corrects, what she remembers about them.

Server-rendered HTML (Jinja2, every stored text escaped), nothing fetched from anywhere else, no script at all
(the Content-Security-Policy forbids one), readable on a phone. Per person: what she knows now by kind (health
and safety first, pinned marked), each fact with the sentence and date it came from and who stored it; a
timeline of what she learned, what replaced what, what was taken back and what was forgotten (never the value);
conversations with their summaries; a search over what was said (the same recall the assistant uses). Actions:
forget (a pinned fact asks first, as by voice), pin, unpin, correct, tell her something, export, import, delete
everything (asks first); each a POST carrying the page's CSRF token, done through `Memory` in one transaction,
and seen in the timeline afterwards.

Loopback only by default (the Host header checked, so another site's name pointed at this machine gets nothing),
for the person the command was run for; `--household` shows everyone in the file.
Another address needs `--token` (sent once as ?token=..., then kept in a cookie) or `--allow-from`, as for the
MCP server.
"""
from __future__ import annotations

import hmac
import json
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Callable
from urllib.parse import quote, urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from memory import (Fact, Memory, MemoryStoreError, NotFound, StaysPinned, describe_changes, hide, printable)

from ..config import Config
from .access import LOOPBACK, Access

TEMPLATES = Environment(loader=FileSystemLoader(Path(__file__).with_name("page_templates")),
                        autoescape=select_autoescape(default=True, default_for_string=True))
COOKIE = "glados_page"
# No script may run, nothing may be fetched from elsewhere, no other site may frame the page or receive its forms.
HEADERS = {"content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; "
                                      "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
           "x-content-type-options": "nosniff", "referrer-policy": "no-referrer", "cache-control": "no-store"}
GROUPS = (("Health and safety", ("allergy", "diet", "medical")),
          ("Who you are", ("name", "location", "hometown", "employer", "job", "birthday", "age", "partner", "language")),
          ("What you like", ("likes", "dislikes", "pet")),
          ("Notes", ("note",)))
SHOWN_FACTS = 50         # the newest facts of each kind
SHOWN_EVENTS = 200       # the newest changes on the timeline
SHOWN_SESSIONS = 30      # the newest conversations
FOUND = 10               # search results


@dataclass(frozen=True)
class PageOptions:
    user: str                 # the person the page was opened for
    household: bool = False   # everyone in the file, each on a page of their own
    access: Access = Access()
    hosts: frozenset[str] = frozenset()   # the Host headers answered (empty: any; loopback names the port's own)


def app(memory: Memory, config: Config, options: PageOptions) -> Starlette:
    """The page's web app over one open memory (requests run one at a time on the event loop's thread)."""
    csrf = secrets.token_urlsafe(32)
    page = Page(memory, config, options, csrf)
    routes = [Route("/", page.home), Route("/people/{user}", page.person),
              Route("/people/{user}/export", page.export, methods=["POST"]),
              Route("/people/{user}/import", page.import_, methods=["POST"]),
              Route("/people/{user}/tell", page.tell, methods=["POST"]),
              Route("/people/{user}/clear", page.clear, methods=["POST"]),
              Route("/people/{user}/fact/{fact_id}/{action}", page.act, methods=["POST"])]
    return Starlette(routes=routes, exception_handlers={404: _not_found})


class Page:
    def __init__(self, memory: Memory, config: Config, options: PageOptions, csrf: str):
        self.memory, self.config, self.options, self.csrf = memory, config, options, csrf

    # -- who may see what -------------------------------------------------------------------
    def _refused(self, request: Request) -> Response | None:
        """A request from outside what the page serves: a Host it does not answer to (a page of another site
        rebinding its name to this machine), or one Access does not admit (no token, not an allowed address)."""
        if self.options.hosts and request.headers.get("host", "") not in self.options.hosts:
            return _text(421, "this page answers only to its own address")
        sent = request.query_params.get("token") or request.cookies.get(COOKIE, "")
        headers = {"authorization": request.headers.get("authorization") or (f"Bearer {sent}" if sent else "")}
        client = request.client.host if request.client else None
        if not self.options.access.admits(headers, client):
            return _text(401, "not allowed: open the page with ?token=... (glados memory page --token) or from an "
                              "allowed address")
        return None

    def _person(self, request: Request) -> str | None:
        """The person a /people/ path names, when this page shows them: the one it was opened for, or anyone in
        the file with --household."""
        user = request.path_params["user"]
        if user == self.options.user or (self.options.household and user in self.memory.users()):
            return user
        return None

    # -- pages ------------------------------------------------------------------------------
    async def home(self, request: Request) -> Response:
        if (refused := self._refused(request)) is not None:
            return refused
        if not self.options.household:
            return self._kept(request, RedirectResponse(_path(self.options.user), 303))
        people = [{"user": u, "path": quote(u, safe=""), "facts": len(self.memory.facts(u))}
                  for u in self.memory.users()]
        return self._kept(request, _html(TEMPLATES.get_template("household.html").render(people=people)))

    async def person(self, request: Request) -> Response:
        if (refused := self._refused(request)) is not None:
            return refused
        user = self._person(request)
        if user is None:
            return _text(404, "no such person on this page")
        query = request.query_params.get("q", "").strip()[:500]
        everything = request.query_params.get("all") == "1"      # every change and every conversation
        view = PersonView(self.memory, user)
        events, more_events = view.events(None if everything else SHOWN_EVENTS)
        html = TEMPLATES.get_template("person.html").render(
            user=user, base=_path(user), csrf=self.csrf, household=self.options.household,
            groups=view.groups(None if everything else SHOWN_FACTS),
            events=events, more_events=more_events,
            sessions=view.sessions(None if everything else SHOWN_SESSIONS), more_sessions=view.more_sessions,
            query=query, found=view.search(query, self.config.memory.recall_candidates) if query else [],
            done=request.query_params.get("done", "")[:300], problem=request.query_params.get("problem", "")[:300])
        return self._kept(request, _html(html))

    # -- actions ----------------------------------------------------------------------------
    async def _posted(self, request: Request) -> tuple[str, dict] | Response:
        """The person a POST is about and its form, or the refusal: one from outside what the page serves, about
        someone not on it, or without the page's CSRF token (a form another site made): nothing is done."""
        if (refused := self._refused(request)) is not None:
            return refused
        user = self._person(request)
        form = await request.form()
        if user is None or not hmac.compare_digest(str(form.get("csrf", "")).encode(), self.csrf.encode()):
            return _text(403, "refused: this form did not come from the page (its token is missing or old); "
                              "nothing was changed")
        return user, dict(form)

    async def export(self, request: Request) -> Response:
        posted = await self._posted(request)
        if isinstance(posted, Response):
            return posted
        user, _ = posted
        data = json.dumps(self.memory.export(user), ensure_ascii=False, indent=2)
        return Response(data, 200, {**HEADERS, "content-disposition": f'attachment; filename="{quote(user)}.json"'},
                        media_type="application/json")

    async def import_(self, request: Request) -> Response:
        """An export file added to this person (`glados memory import`): what is there already is not added again."""
        posted = await self._posted(request)
        if isinstance(posted, Response):
            return posted
        user, form = posted
        upload = form.get("file")
        try:
            data = json.loads(await upload.read()) if upload is not None and hasattr(upload, "read") else None
        except (UnicodeDecodeError, json.JSONDecodeError):
            data = None
        if data is None:
            return _back(user, problem="that file is not a memory export (choose a file made by Export)")
        try:
            counts = self.memory.import_(user, data)
        except MemoryStoreError as exc:
            return _back(user, problem=str(exc))
        added = ", ".join(f"{n} {what}" for what, n in counts.items() if n) or "nothing new: it was all here"
        return _back(user, done=f"imported: {added}")

    async def tell(self, request: Request) -> Response:
        """Words the person tells her here, taken in as if said in a chat (`glados memory observe`)."""
        posted = await self._posted(request)
        if isinstance(posted, Response):
            return posted
        user, form = posted
        text = str(form.get("text", "")).strip()
        if not text:
            return _back(user, problem="type what she should know, then press Tell her")
        try:
            seen = self.memory.observe(user, text)
        except MemoryStoreError as exc:
            return _back(user, problem=str(exc))
        learned = "; ".join(f"{c.key}: {c.value}" for c in seen.changes if c.kind in ("added", "superseded"))
        return _back(user, done=f"she now knows {learned}" if learned else "kept your words; no fact in them")

    async def clear(self, request: Request) -> Response:
        """Everything about this person deleted (`glados memory clear`), after a second press that says so."""
        posted = await self._posted(request)
        if isinstance(posted, Response):
            return posted
        user, form = posted
        if form.get("confirm") != "yes":
            return _html(TEMPLATES.get_template("confirm.html").render(
                title=f"Delete everything remembered about {user}?", csrf=self.csrf, action=str(request.url.path),
                back=_path(user), why="Every fact, message, summary and voiceprint of theirs goes, and cannot come back.",
                yes="Yes, delete everything"))
        counts = self.memory.clear(user)
        said = f"deleted {counts['facts']} facts, {counts['messages']} messages and {counts['summaries']} summaries"
        if self.options.household:        # they are no longer in this memory: back to the household
            return RedirectResponse("/", 303, headers=HEADERS)
        return _back(user, done=said)

    async def act(self, request: Request) -> Response:
        posted = await self._posted(request)
        if isinstance(posted, Response):
            return posted
        user, form = posted
        action, fact_id = request.path_params["action"], request.path_params["fact_id"]
        fact = next((f for f in self.memory.facts(user) if f.id == fact_id), None)
        do = ACTIONS.get(action)
        if fact is None or do is None:
            return _back(user, problem="that fact has changed since the page was shown; here it is as it is now")
        if action == "forget" and fact.pinned and form.get("confirm") != "yes":
            return _html(TEMPLATES.get_template("confirm.html").render(
                title=f"Forget {fact.key}: {printable(fact.value)}?", csrf=self.csrf, action=str(request.url.path),
                back=_path(user), yes="Yes, forget it",
                why=("It keeps you safe. " if fact.key in SAFETY else "You pinned it. ") + FORGETTING))
        try:
            said = do(self.memory, user, fact, str(form.get("value", "")))
        except (MemoryStoreError, StaysPinned, NotFound, ValueError) as exc:
            return _back(user, problem=str(exc))
        return _back(user, done=said)

    def _kept(self, request: Request, response: Response) -> Response:
        """A token sent in the address is kept in a cookie, so the page's own links and forms carry it."""
        sent = request.query_params.get("token")
        if sent and self.options.access.token and hmac.compare_digest(sent.encode(), self.options.access.token.encode()):
            response.set_cookie(COOKIE, sent, httponly=True, samesite="strict")
        return response


SAFETY = ("allergy", "diet", "medical")
FORGETTING = ("Forgetting deletes it everywhere: the fact, its history, the messages it came from and every copy "
              "of it.")


def _forget(memory: Memory, user: str, fact: Fact, value: str) -> str:
    memory.forget(user, fact.id)
    return f"forgot {fact.key}: it is gone everywhere"


def _pin(memory: Memory, user: str, fact: Fact, value: str) -> str:
    memory.pin(user, fact.id)
    return f"pinned {fact.key}: {fact.value}"


def _unpin(memory: Memory, user: str, fact: Fact, value: str) -> str:
    memory.unpin(user, fact.id)
    return f"unpinned {fact.key}: {fact.value}"


def _correct(memory: Memory, user: str, fact: Fact, value: str) -> str:
    if not value.strip():
        raise ValueError(f"type the value {fact.key} should have, then press Correct")
    changed = memory.correct(user, fact.id, value)
    return f"corrected {fact.key}: {fact.value} -> {changed[-1].value}" if changed else "nothing to change"


ACTIONS: dict[str, Callable[[Memory, str, Fact, str], str]] = {"forget": _forget, "pin": _pin, "unpin": _unpin,
                                                                "correct": _correct}


class PersonView:
    """What one person's page shows, read once per request (secret notes' numbers said as "(private)")."""

    def __init__(self, memory: Memory, user: str):
        self.memory, self.user = memory, user
        self.private = memory.private(user)
        self.more_sessions = 0

    def _shown(self, text: str) -> str:
        return hide(printable(text), self.private)

    def groups(self, limit: int | None) -> list[tuple[str, list[dict], int]]:
        """The current facts by kind, each kind's newest first (at most `limit`), and how many more there are."""
        facts = self.memory.facts(self.user)[::-1]
        out, placed = [], set()
        for title, keys in GROUPS + (("Other", ()),):
            chosen = [f for f in facts if f.key in keys or (title == "What you like" and f.key.startswith("favorite_"))
                      or (title == "Other" and f.id not in placed)]
            placed |= {f.id for f in chosen}
            shown = chosen if limit is None else chosen[:limit]
            if chosen:
                out.append((title, [self._fact(f) for f in shown], len(chosen) - len(shown)))
        return out

    def _fact(self, f: Fact) -> dict:
        return {"id": f.id, "key": f.key, "shown": self._shown(f.value), "pinned": f.pinned,
                "expired": self.memory.is_expired(f),
                "user_pinned": f.user_pinned, "source": self._shown(f.source)[:300], "since": _day(f.valid_from),
                "by": f"a model ({f.origin_model})" if f.origin == "model" else "you"}

    def events(self, limit: int | None) -> tuple[list[dict], int]:
        """The newest changes (at most `limit`) and how many older ones there are."""
        found = self.memory.timeline(self.user)
        shown = found if limit is None else found[:limit]
        return [{"when": _day(e.at, minutes=True), "by": e.by, "line": self._line(e)} for e in shown], \
            len(found) - len(shown)

    def _line(self, e) -> str:
        value = self._shown(e.value or "")
        if e.what == "forgotten":
            return f"forgot {'a message' if e.key == 'message' else e.key}"
        if e.what in ("replaced", "corrected"):
            verb = "you corrected" if e.what == "corrected" else "learned"
            return f"{verb} {e.key}: {value} (was {self._shown(e.old or '')})"
        return f"{'took back' if e.what == 'retracted' else 'learned'} {e.key}: {value}"

    def sessions(self, limit: int | None) -> list[dict]:
        summaries = {s.session: s for s in self.memory.summaries(self.user)}
        sessions = self.memory.sessions(self.user)[::-1]
        limit = len(sessions) if limit is None else limit
        self.more_sessions = max(0, len(sessions) - limit)
        return [{"when": _day(s.started, minutes=True), "messages": s.messages,
                 "summary": self._shown(summaries[s.session].text) if s.session in summaries else "",
                 "since": describe_changes(summaries[s.session].since) if s.session in summaries else ""}
                for s in sessions[:limit]]

    def search(self, query: str, candidates: int) -> list[dict]:
        found = self.memory.recall(self.user, query, k=FOUND, candidates=candidates)
        return [{"when": _day(r.created_at, minutes=True), "who": "you" if r.role == "user" else "she",
                 "text": self._shown(r.text)[:600], "reply": self._shown(r.reply or "")[:300],
                 "since": describe_changes(r.since) if r.since else ""} for r in found]


def _day(stamp: str | None, minutes: bool = False) -> str:
    """A stored UTC time as the reader's local day (and time): "2026-12-07" or "2026-12-07 09:41"."""
    if not stamp:
        return ""
    from datetime import datetime
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone()
    return moment.strftime("%Y-%m-%d %H:%M" if minutes else "%Y-%m-%d")


def _path(user: str) -> str:
    return f"/people/{quote(user, safe='')}"


def _back(user: str, **said: str) -> Response:
    """After an action: back to the person's page (a POST answered with a redirect: reloading repeats nothing)."""
    return RedirectResponse(f"{_path(user)}?{urlencode(said)}#facts", 303, headers=HEADERS)


def _html(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status, headers=HEADERS)


def _text(status: int, text: str) -> Response:
    return Response(text + "\n", status, headers=HEADERS, media_type="text/plain")


async def _not_found(request: Request, exc) -> Response:
    return _text(404, "no such page")


def hosts_for(host: str, port: int) -> frozenset[str]:
    """The Host headers a loopback page answers to (another name pointed at 127.0.0.1 is refused: DNS rebinding);
    empty (any) for a page on another address, which the token or the allowed addresses guard."""
    if host not in LOOPBACK:
        return frozenset()
    names = {host, "127.0.0.1", "localhost", "[::1]"}
    return frozenset({f"{n}:{port}" for n in names} | ({n for n in names} if port == 80 else set()))


def serve(memory: Memory, config: Config, options: PageOptions, host: str, port: int,
          say: Callable[[str], None] = print) -> None:
    """Serve the page until Ctrl-C or SIGTERM (listen.Unservable, before anything is said, when it cannot)."""
    import uvicorn

    from .listen import check_free
    check_free(host, port, "the memory page")
    from .stop import until_stopped
    who = "everyone in this memory" if options.household else repr(options.user)
    say(f"glados memory page: what she remembers about {who} at http://{host}:{port}/ "
        f"(for {options.access.describe()}; Ctrl-C stops it)")
    with until_stopped():
        uvicorn.run(app(memory, config, options), host=host, port=port, log_level="warning")

"""`glados serve`: an Ollama-compatible proxy that gives any chat client this memory.

Each chat request (`POST /api/chat`, `POST /v1/chat/completions`) goes through the brain's memory path: the
newest user message is mined (a memory command is answered from memory, without the model), the memory
block and the recalled messages are added to the system message, the request goes upstream, and the reply
comes back byte for byte while its text is logged. Every other path passes through untouched. The user is
`--user`, or the request's `X-Glados-User` header.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import timedelta
from typing import AsyncIterator, Callable

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from memory import Memory, MemoryStoreError, build_system_prompt

from ..config import Config
from ..app import num_ctx
from ..llm import make_llm
from ..llm.ollama import base_url
from ..turn import prompt
from ..turn.brain import Brain, Noted
from ..turn.events import BrainEvent, Degraded, for_log
from . import formats
from .access import LOOPBACK, Access, Guard
from .stop import until_stopped

log = logging.getLogger("glados.serve")
USER_HEADER = "x-glados-user"
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length"}


class Proxy:
    """The memory in front of an upstream Ollama. Memory work runs on one thread of its own, in order."""

    def __init__(self, memory: Memory, config: Config, user: str, upstream: str):
        self.memory, self.config, self.user, self.upstream = memory, config, user, base_url(upstream)
        self.num_ctx = num_ctx(config)
        self.brains: dict[str, Brain] = {}
        self.last: dict[str, tuple[str, str, int]] = {}   # per user: the session, text and history of the newest message
        self.in_flight: dict[str, int] = {}        # requests waiting on upstream, per user: their session stays
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="glados-memory")
        c = config.llm
        self.client = httpx.AsyncClient(base_url=self.upstream, timeout=httpx.Timeout(
            connect=c.connect_timeout_s, read=max(c.first_token_timeout_s, c.between_tokens_timeout_s), write=30, pool=30))

    async def in_memory(self, fn: Callable, *args):
        return await asyncio.get_running_loop().run_in_executor(self.worker, fn, *args)

    def brain(self, user: str, model: str) -> Brain:
        """The user's brain; its model (for the session's summary and second reading) is the one last asked."""
        brain = self.brains.get(user)
        if brain is None:
            brain = self.brains[user] = Brain(self.memory, None, self.config, user, on_event=_log_event)
        if model and (brain.llm is None or brain.llm.model != model):
            brain.llm = make_llm(replace(self.config.llm, host=self.upstream, model=model), self.num_ctx,
                                 self.config.budget.think)
        return brain

    # -- the memory path ------------------------------------------------------------------------
    def prepare(self, user: str, request: formats.ChatRequest) -> tuple[Brain, Noted | None, bytes | None, str]:
        """Runs on the memory thread: (brain, the message taken in (None: it was taken in already), upstream
        body or None when memory answered, that answer). A follow-up that carries a tool's result, or a
        regenerate of the same message with the same history, is answered with the memory but not stored again."""
        brain = self.brain(user, request.model)
        text = request.user_text or ""
        again = self.last.get(user) == (brain.session, text, request.carried) and brain.session is not None
        noted = None
        if request.follow_up or again:
            session = brain.touch()
        else:
            noted = brain.note(text)
            session = noted.session
            answer = brain.from_memory(noted, text)
            if answer is not None:
                brain.record_answer(noted.session, answer)
                return brain, noted, None, answer.text
        self.last[user] = (session, text, request.carried)
        block, recalled, related = brain.recall_for(text, session, request.carried)
        mem = self.config.memory
        note, _used = prompt.recall_note(recalled, prompt.recall_room(self.config.budget, block), mem.recall_chars,
                                         mem.reply_chars, related)
        self.in_flight[user] = self.in_flight.get(user, 0) + 1     # until finish(): the session stays open
        body = formats.with_memory(request, build_system_prompt("", block).strip(), self.num_ctx, note)
        return brain, noted, body, ""

    def offline_answer(self, brain: Brain, noted: Noted | None, text: str) -> str | None:
        """Runs on the memory thread: upstream is down, so a question about the user is answered from memory
        as the chat does ("where do I live?"); None when memory cannot answer it."""
        if noted is None:
            return None
        answer = brain.answer_offline(noted, text)
        if answer is None:
            return None
        brain.record_answer(noted.session, answer)
        return answer.text

    def finish(self, brain: Brain, session: str, reader: formats.ReplyReader) -> None:
        reader.close()
        brain.log_reply(session, reader.text, interrupted=not reader.done)
        brain.index_new()        # recall by meaning finds them from the next request on
        brain.online = reader.done
        brain.last_activity = brain.clock()         # the session is idle from the end of her reply
        self.in_flight[brain.user] -= 1

    def failed(self, brain: Brain, noted: Noted | None) -> None:
        """Upstream never answered: the message leaves the log (the client will send it again; it would be
        there twice). What it told about the user stays known: the facts were the user's words all the same."""
        if noted is not None:
            self.memory.withdraw(brain.user, noted.observation.message_id)
            self.last.pop(brain.user, None)
        brain.online = False
        self.in_flight[brain.user] -= 1

    def end_idle_sessions(self) -> None:
        idle = timedelta(minutes=self.config.session.idle_timeout_min)
        for brain in self.brains.values():
            if (brain.session and brain.last_activity and not self.in_flight.get(brain.user)
                    and brain.clock() - brain.last_activity > idle):
                brain.end_session()

    def end_all_sessions(self) -> None:
        for brain in self.brains.values():
            brain.end_session()

    # -- HTTP -----------------------------------------------------------------------------------
    async def chat(self, request: Request) -> Response:
        api = formats.PATHS[request.url.path]
        raw = await request.body()
        try:
            chat = formats.read_request(api, raw)
        except formats.BadRequest as exc:
            return Response(formats.error(api, 400, str(exc)), 400, media_type="application/json")
        if chat.user_text is None:
            return await self.passthrough(request, raw)
        user = request.headers.get(USER_HEADER) or self.user
        try:
            brain, noted, body, answered = await self.in_memory(self.prepare, user, chat)
            session = noted.session if noted is not None else brain.session or ""
        except MemoryStoreError as exc:       # a full disk, a read-only file: the chat still works, unremembered
            log.warning("memory unavailable, request passed on without it: %s", exc)
            return await self.passthrough(request, raw)
        if body is None:
            data, media = formats.answer(chat, answered)
            return Response(data, 200, media_type=media)
        reader = formats.ReplyReader(api, chat.stream)
        headers = {**_forwarded(request.headers), "accept-encoding": "identity", "content-type": "application/json"}
        try:
            upstream = await self.client.send(self.client.build_request("POST", request.url.path, content=body,
                                                                        headers=headers,
                                                                        params=request.query_params), stream=True)
        except httpx.HTTPError as exc:
            answered = await self.in_memory(self.offline_answer, brain, noted, chat.user_text or "")
            if answered is not None:       # answered from memory after all: the exchange stays
                await self.in_memory(self.finish, brain, noted.session, formats.ReplyReader(api, False))
                data, media = formats.answer(chat, answered)
                return Response(data, 200, media_type=media)
            await self.in_memory(self.failed, brain, noted)
            return self._unreachable(api, exc)
        return self._relayed(upstream, brain, noted, session, reader, chat.stream)

    def _relayed(self, upstream: httpx.Response, brain: Brain, noted: Noted | None, session: str,
                 reader: formats.ReplyReader, stream: bool) -> StreamingResponse:
        """Upstream's reply passed on as it comes; the exchange goes into memory once it is complete (or is
        taken back when upstream answered with an error: nothing was answered)."""
        settled = False

        async def settle() -> None:
            nonlocal settled
            if not settled:
                settled = True
                if upstream.status_code < 400:
                    await self.in_memory(self.finish, brain, session, reader)
                else:                      # an error from upstream (a model not pulled): nothing was answered
                    await self.in_memory(self.failed, brain, noted)

        async def relay(chunks: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
            # The exchange is in memory before the client has the reply's last bytes, so a server stopped right
            # after answering loses nothing: a stream's chunk that completes it waits for the write, and one
            # JSON body's last chunk is held back until the body has ended (the client reads it whole anyway).
            held = None
            try:
                async for chunk in chunks:
                    reader.feed(chunk)
                    if stream:
                        if reader.done:
                            await settle()
                        yield chunk
                    else:
                        if held is not None:
                            yield held
                        held = chunk
                await upstream.aclose()
                await settle()
                if held is not None:
                    yield held
            finally:
                await upstream.aclose()
                await settle()
        return StreamingResponse(relay(upstream.aiter_raw()), upstream.status_code, _returned(upstream.headers))

    async def passthrough(self, request: Request, raw: bytes | None = None) -> Response:
        body = raw if raw is not None else await request.body()
        try:
            upstream = await self.client.send(self.client.build_request(
                request.method, request.url.path, content=body, headers=_forwarded(request.headers),
                params=request.query_params), stream=True)
        except httpx.HTTPError as exc:
            if request.method == "GET" and request.url.path in ("/", "/api/version"):
                return self._standing_in(request.url.path)
            return self._unreachable("ollama", exc)

        async def relay() -> AsyncIterator[bytes]:
            try:
                async for chunk in upstream.aiter_raw():
                    yield chunk
            finally:
                await upstream.aclose()
        return StreamingResponse(relay(), upstream.status_code, _returned(upstream.headers))

    def _standing_in(self, path: str) -> Response:
        """`/` and `/api/version` with the upstream down: a client checking that its server runs is told it does,
        and why chats will fail (memory questions are still answered)."""
        note = f"glados serve is running; the upstream Ollama at {self.upstream} is not answering"
        if path == "/":
            return Response(note, 200, media_type="text/plain")
        return Response(json.dumps({"version": "0.0.0", "glados": note}), 200, media_type="application/json")

    def _unreachable(self, api: formats.Api, exc: Exception) -> Response:
        message = (f"glados serve: the upstream Ollama at {self.upstream} is not answering; "
                   "start it (ollama serve) or pass --upstream")
        log.warning(message)
        return Response(formats.error(api, 502, message), 502, media_type="application/json")

    def app(self) -> Starlette:
        async def idle_watch() -> None:
            every = min(30.0, self.config.session.idle_timeout_min * 60 / 2)   # a session ends at most this late
            while True:
                await asyncio.sleep(every)
                await self.in_memory(self.end_idle_sessions)

        @contextlib.asynccontextmanager
        async def lifespan(app):
            watcher = asyncio.create_task(idle_watch())
            try:
                yield
            finally:
                watcher.cancel()
                await self.in_memory(self.end_all_sessions)
                await self.client.aclose()
                self.worker.shutdown()

        methods = ["GET", "POST", "PUT", "DELETE", "HEAD", "PATCH", "OPTIONS"]
        return Starlette(routes=[Route(path, self.chat, methods=["POST"]) for path in formats.PATHS] +
                         [Route("/{path:path}", self.passthrough, methods=methods)], lifespan=lifespan)


def upstream_problem(upstream: str, timeout_s: float) -> str | None:
    """Why the upstream Ollama cannot be used now (one line), or None when it answers."""
    try:
        httpx.get(f"{upstream.rstrip('/')}/api/version", timeout=timeout_s).raise_for_status()
    except httpx.HTTPError:
        return f"the upstream Ollama at {upstream} is not answering (start it: ollama serve, or pass --upstream)"
    return None


def _log_event(event: BrainEvent) -> None:
    """What the chat would print (remembered, degraded, summarised) goes to the log instead: by kind and id,
    with its words only under --verbose (the log is at DEBUG then)."""
    log.log(logging.WARNING if isinstance(event, Degraded) else logging.INFO, "%s",
            for_log(event, words=log.isEnabledFor(logging.DEBUG)))


def _forwarded(headers) -> dict[str, str]:
    return {k: v for k, v in headers.items() if k.lower() not in HOP_BY_HOP and k.lower() != USER_HEADER}


def _returned(headers: httpx.Headers) -> dict[str, str]:
    return {k: v for k, v in headers.items() if k.lower() not in HOP_BY_HOP - {"content-length"}}


def run(memory: Memory, config: Config, user: str, upstream: str, host: str, port: int, say: Callable[[str], None],
        access: Access = Access()) -> int:
    """Serve until interrupted, for `access` only; `say` prints a line for the person who started it."""
    import uvicorn

    from .listen import check_free
    check_free(host, port, "the memory proxy")
    upstream = base_url(upstream)
    if host not in LOOPBACK:
        say(f"glados serve: listening on {host}: the memory of {user!r} is served to {access.describe()}")
    say(f"glados serve: memory for {user!r} at http://{host}:{port}, in front of {upstream} "
        f"(OLLAMA_HOST={host}:{port} for the ollama CLI and other clients)")
    problem = upstream_problem(upstream, config.llm.connect_timeout_s)
    if problem:
        say(f"glados serve: warning: {problem}; chats will fail until it answers (questions about the user are "
            "still answered from memory)")
    with until_stopped():     # Ctrl-C or SIGTERM: the lifespan ends every session (summaries written), exit 0
        uvicorn.run(Guard(Proxy(memory, config, user, upstream).app(), access), host=host, port=port,
                    log_level="warning")
    return 0

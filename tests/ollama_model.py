"""How the stand-in Ollama server sees a request, written from Ollama's own source (v0.32/v0.33):
a token count, the chat template's rendering, prompt.go's front truncation, the runner's cut past
`num_ctx`, sched.go's reload when `num_ctx` changes, and thinking on by default for thinking models
(routes.go: `if req.Think == nil && caps has thinking { think = true }`; gpt-oss only takes levels).

Pure functions and small records; `ollama_stub.py` puts them behind a real HTTP socket.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field

NUM_KEEP = 4                 # api.Options default: tokens the runner keeps at the front when it cuts
DEFAULT_NUM_CTX = 4096       # routes.go: the VRAM-based default on a small machine
# Real traces run from tens to thousands of tokens; gpt-oss at "low" was seen spending 600 (issue 71).
THINK_LEVEL_TOKENS = {"low": 600, "medium": 900, "high": 1500}

# llama3's pre-tokenizer, roughly: words with their leading space, digits in threes, punctuation runs.
PIECE = re.compile(r"'s|'t|'re|'ve|'m|'ll|'d| ?[^\W\d_]+| ?\d{1,3}| ?[^\s\w]+|\s+", re.UNICODE)
WIDE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def tokens(text: str) -> list[str]:
    """A BPE-like split: an English word of up to five letters is one token, longer ones one per five; a
    kana/kanji/hangul character about 0.65 of a token (Japanese runs ~2.5x the 4-characters-a-token rule);
    other non-ASCII letters one per two characters; punctuation one per two characters."""
    out: list[str] = []
    for piece in PIECE.findall(text):
        wide = len(WIDE.findall(piece))
        if wide:
            n = math.ceil(wide * 0.65) + math.ceil((len(piece) - wide) / 4)
        elif piece.strip() and not piece.isascii():
            n = math.ceil(len(piece.strip()) / 2)
        elif piece.strip().isalpha():
            n = math.ceil(len(piece.strip()) / 5)
        elif piece.isspace():
            n = 1 if len(piece) < 8 else math.ceil(len(piece) / 8)
        else:
            n = math.ceil(len(piece.strip()) / 2) or 1
        size = math.ceil(len(piece) / n)
        out += [piece[i:i + size] for i in range(0, len(piece), size)] if n > 1 else [piece]
    return out


def count(text: str) -> int:
    return len(tokens(text))


@dataclass(frozen=True)
class Profile:
    """One model as the server knows it: /api/show's capabilities and family, and how it behaves."""
    name: str
    capabilities: tuple[str, ...] = ("completion", "tools")
    family: str = "llama"
    think_in_content: bool = False     # an old template: the trace arrives as <think>...</think> in content
    thinking_tokens: int = 0           # the trace's length when thinking is on (0: not a thinking model)
    eager_tools: bool = False          # calls a tool on every round that offers tools (llama3.2's habit)
    made_up_call: dict | None = None   # the call it makes up when eager: {"name": ..., "arguments": {...}}
    call_as_text: bool = False         # writes its tool call as JSON text in content instead
    load_s: float = 0.0                # seconds a load takes

    @property
    def thinks(self) -> bool:
        return "thinking" in self.capabilities


PROFILES = {
    "llama3.2": Profile("llama3.2"),
    "qwen3": Profile("qwen3", ("completion", "tools", "thinking"), "qwen3", thinking_tokens=700),
    "deepseek-r1": Profile("deepseek-r1", ("completion", "thinking"), "qwen2", thinking_tokens=600),
    "deepseek-r1:old": Profile("deepseek-r1:old", ("completion",), "qwen2", think_in_content=True,
                               thinking_tokens=600),
    "gpt-oss": Profile("gpt-oss", ("completion", "tools", "thinking"), "gptoss", thinking_tokens=180),
}


def think_tokens(profile: Profile, think) -> int:
    """How long the trace is for this request's `think` (None: the server turns it on for thinking models)."""
    if profile.think_in_content:
        return profile.thinking_tokens                       # the old template thinks whatever is asked
    if not profile.thinks:
        return 0
    if profile.family == "gptoss":                           # only levels; true/false are ignored
        return THINK_LEVEL_TOKENS.get(think if isinstance(think, str) else "medium", 180)
    if think is None or think is True:
        return profile.thinking_tokens
    if isinstance(think, str):
        return THINK_LEVEL_TOKENS.get(think, profile.thinking_tokens)
    return 0


def render(messages: list[dict], tools: list | None, family: str = "llama") -> list[str]:
    """The prompt in tokens, as the model's template renders it: every system message merged at the top
    (`.System`), each message in its header, the assistant's header last. Tool definitions: in the system
    block for qwen3 and gpt-oss; llama3.1/3.2's template (ollama.com/library/llama3.2) writes them into the
    last message when it is the user's ("Given the following functions, ..."), so they move every turn."""
    system = "\n\n".join(str(m.get("content") or "") for m in messages if m.get("role") == "system")
    listed = "\n".join(json.dumps(t) for t in tools or [])
    in_system = bool(tools) and family != "llama"
    out = tokens("<|begin_of_text|>")
    head = "Cutting Knowledge Date: December 2023\n\n" + system
    if in_system:
        head += "\n\nYou have access to the following functions:\n" + listed
    elif tools:
        head += "\n\nYou are a helpful assistant with tool calling capabilities."
    out += tokens(f"<|start_header_id|>system<|end_header_id|>\n\n{head}<|eot_id|>")
    rest = [m for m in messages if m.get("role") != "system"]
    for i, m in enumerate(rest):
        body = str(m.get("content") or "")
        if tools and not in_system and i == len(rest) - 1 and m.get("role") == "user":
            body = ("Given the following functions, please respond with a JSON for a function call with its proper "
                    f"arguments that best answers the given prompt.\n\n{listed}\n\n{body}")
        if m.get("tool_calls"):
            body += json.dumps(m["tool_calls"])
        out += tokens(f"<|start_header_id|>{m.get('role')}<|end_header_id|>\n\n{body}<|eot_id|>")
    return out + tokens("<|start_header_id|>assistant<|end_header_id|>\n\n")


@dataclass
class Fitted:
    """What the model was really given: prompt.go's truncation, then the runner's."""
    prompt: list[str]
    rendered: int                 # tokens before any cut
    dropped: int = 0              # messages dropped from the front (system messages stay)
    runner_cut: bool = False      # the runner kept NUM_KEEP tokens and the tail: the persona went


def fit(messages: list[dict], tools: list | None, num_ctx: int, family: str = "llama") -> Fitted:
    """prompt.go chatPrompt: drop messages from the front (keeping system messages and the last message)
    until the rendering fits num_ctx; then the runner keeps NUM_KEEP tokens and the newest ones."""
    full = render(messages, tools, family)
    last = len(messages) - 1
    for i in range(last + 1):
        kept = [m for m in messages[:i] if m.get("role") == "system"] + messages[i:]
        prompt = render(kept, tools, family)
        if len(prompt) <= num_ctx or i == last:
            dropped = i - sum(1 for m in messages[:i] if m.get("role") == "system")
            if len(prompt) > num_ctx:
                return Fitted(prompt[:NUM_KEEP] + prompt[len(prompt) - (num_ctx - NUM_KEEP):], len(full),
                              dropped, runner_cut=True)
            return Fitted(prompt, len(full), dropped)
    return Fitted(full, len(full))


def common_prefix(a: list[str], b: list[str]) -> int:
    """Tokens the runner's cache can reuse: the longest common prefix of the two prompts."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


@dataclass
class Served:
    """One chat or generate request as the server handled it."""
    path: str
    body: dict
    kind: str = "chat"               # chat, note (the running note's rewrite), preload
    num_ctx: int = 0
    loaded: bool = False             # this request (re)loaded the model
    prompt_tokens: int = 0           # after truncation: what prompt_eval_count says
    rendered_tokens: int = 0
    dropped: int = 0
    runner_cut: bool = False
    shifted: bool = False            # prompt + generation ran past num_ctx: the runner shifted the context
    reused: int = 0                  # prompt tokens found in the cache
    thinking: str = ""
    content: str = ""
    done_reason: str = ""
    tool_calls: list = field(default_factory=list)

    @property
    def cut(self) -> bool:
        return bool(self.dropped or self.runner_cut or self.shifted)

    @property
    def reprocessed(self) -> float:
        return 1 - self.reused / self.prompt_tokens if self.prompt_tokens else 0.0

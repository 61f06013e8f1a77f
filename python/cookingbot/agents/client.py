"""A chat-completions client for any OpenAI-compatible server, on the standard library alone
(``urllib``): a timeout per request, a few retries, and one error type whose message says
what went wrong in words (the server unreachable, no answer in time, an answer that is no chat
completion)."""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Optional


class ServerError(RuntimeError):
    """The server could not be used: the run stops, keeping the episodes it finished."""


@dataclass
class Reply:
    """One answer: the assistant's `message` (its ``content`` and any ``tool_calls``) and the
    tokens the server counted (prompt plus completion; 0 when it does not say)."""

    message: dict
    tokens: int


@dataclass
class ChatClient:
    """Chat completions at `base_url` (``http://HOST:PORT/v1``) with `model`. Each request
    waits at most `timeout` seconds and is tried `retries` more times after a timeout, a
    refused connection or a server error (5xx), `backoff` seconds apart; temperature 0 unless
    `temperature` says otherwise, at most `max_tokens` tokens per answer."""

    base_url: str
    model: str
    timeout: float = 120.0
    retries: int = 2
    backoff: float = 1.0
    max_tokens: int = 512
    temperature: float = 0.0
    extra: dict = field(default_factory=dict)

    @property
    def url(self) -> str:
        return self.base_url.rstrip("/") + "/chat/completions"

    def chat(
        self, messages: list[dict], tools: Optional[list[dict]] = None, seed: int = 0
    ) -> Reply:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "seed": seed,
            **self.extra,
        }
        if tools:
            body["tools"] = tools
        data = json.dumps(body).encode()
        attempts = self.retries + 1
        for attempt in range(1, attempts + 1):
            try:
                return self._reply(self._post(data))
            except _Retry as e:
                if attempt == attempts:
                    raise ServerError(f"{e} (attempt {attempt} of {attempts})") from None
                time.sleep(self.backoff)
        raise AssertionError("unreachable: the loop returns or raises")

    def _post(self, data: bytes) -> bytes:
        request = urllib.request.Request(
            self.url, data=data, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                return answer.read()
        except urllib.error.HTTPError as e:
            text = e.read().decode(errors="replace")[:300]
            if e.code >= 500:
                raise _Retry(f"{self.url}: the server answered HTTP {e.code}: {text}") from None
            raise ServerError(f"{self.url}: the server answered HTTP {e.code}: {text}") from None
        except (socket.timeout, TimeoutError):
            raise _Retry(f"{self.url}: no answer within {self.timeout:g} s") from None
        except urllib.error.URLError as e:
            if isinstance(e.reason, (socket.timeout, TimeoutError)):
                raise _Retry(f"{self.url}: no answer within {self.timeout:g} s") from None
            raise _Retry(
                f"cannot reach the server at {self.base_url}: {e.reason}; start an "
                "OpenAI-compatible server there or pass --base-url"
            ) from None
        except ConnectionError as e:
            raise _Retry(f"{self.url}: the connection broke: {e}") from None

    def _reply(self, raw: bytes) -> Reply:
        try:
            answer = json.loads(raw)
            message = answer["choices"][0]["message"]
            if not isinstance(message, dict):
                raise TypeError("message is not an object")
        except (ValueError, KeyError, IndexError, TypeError):
            shown = raw[:200].decode(errors="replace")
            raise _Retry(
                f"{self.url}: the answer is not a chat completion "
                f"(no choices[0].message): {shown!r}"
            ) from None
        usage = answer.get("usage") or {}
        tokens = int(usage.get("prompt_tokens") or 0) + int(usage.get("completion_tokens") or 0)
        return Reply(message, tokens)


class _Retry(Exception):
    """A failure worth another attempt."""

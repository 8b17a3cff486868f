from typing import Any, Awaitable, Callable, Optional, Sequence, Tuple, Union

class HookcError(Exception):
    """A failure from hookc: `code` is a diagnostic code (`E0102`) for rules that do not check,
    or `HOOKC_LOAD`, `HOOKC_EVENT`, `HOOKC_EVAL`, `HOOKC_AGENT`, `HOOKC_TRUST_KEY`; from a
    `HookRegistry` run, `HOOKC_HOOK` (a hook failed) or `HOOKC_CONTRACT` (a result its event's
    contract refuses: the message is the seed's text, `detail` says what was wrong)."""
    code: str
    diagnostics: list[dict[str, str]]
    detail: str

class Policy:
    @staticmethod
    def from_rules(paths: Sequence[str]) -> "Policy": ...
    @staticmethod
    def from_source(name: str, text: str) -> "Policy": ...
    @staticmethod
    def from_bundle(path: str, trust_key: Optional[str] = None) -> "Policy": ...
    @property
    def source_hash(self) -> str: ...
    def evaluate(self, event: dict[str, Any]) -> dict[str, Any]: ...
    def evaluate_json(self, event: str) -> str: ...
    def answer(self, agent: str, payload: str, event: Optional[str] = None) -> Tuple[Optional[str], int, list[str]]: ...

HookResult = dict[str, Any]
Callback = Callable[[dict[str, Any]], Union[Optional[HookResult], Awaitable[Optional[HookResult]]]]
Observer = Callable[[dict[str, Any]], None]

class HookRegistry:
    """Per event, rule sets and callbacks in registration order, merged by hookc's own rules;
    and observers. A failing hook or a result the contract refuses raises `HookcError`."""
    observer_failures: int
    def add_rules(self, policy: Policy) -> "HookRegistry": ...
    def register(self, event: str, callback: Callback) -> "HookRegistry": ...
    def observe(self, event_or_observer: Union[str, Observer], observer: Optional[Observer] = None) -> "HookRegistry": ...
    def run(
        self, event: Union[dict[str, Any], str], check_input: Optional[Callable[[dict[str, Any]], Optional[str]]] = None
    ) -> HookResult: ...
    async def run_async(
        self, event: Union[dict[str, Any], str], check_input: Optional[Callable[[dict[str, Any]], Any]] = None
    ) -> HookResult: ...

"""The one exception the engine raises for a refused command or config."""


class EngineError(Exception):
    """A refused command or configuration.

    ``code`` is stable (programs branch on it). ``detail`` names which of the
    code's messages this is, where a code has several (a stable word too, "" for
    a code with one). ``params`` are the plain values the message puts in
    (counts, a revision, a setting's name), so a reader can word the refusal in
    its own language from ``key`` and ``params`` without parsing English.
    ``message`` is the English text (``message % params``), for logs, the
    organizer and the engine's own tests. Neither ever names hidden information of
    another seat. When raised, the state the command was applied to is untouched.
    """

    def __init__(self, code: str, message: str, *, detail: str = "", **params):
        self.code = code
        self.detail = detail
        self.params = params
        self.message = message % params if params else message
        super().__init__(f"{code}: {self.message}")

    @property
    def key(self) -> str:
        """The message's key: the code, or "code.detail" for one of several."""
        return f"{self.code}.{self.detail}" if self.detail else self.code

    def to_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "params": dict(self.params)}

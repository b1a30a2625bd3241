"""The one exception the engine raises for a refused command or config."""


class EngineError(Exception):
    """A refused command or configuration.

    ``code`` is stable (programs branch on it); ``message`` is fit to show the
    player who sent the command. Neither ever names hidden information of
    another seat. When raised, the state the command was applied to is untouched.
    """

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def to_dict(self) -> dict:
        return {"code": self.code, "message": self.message}

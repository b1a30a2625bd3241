"""The names bots sit at a table under: Sherwood's, each marked as a bot's, so that
every page, email, score and award names a bot as one."""

NAMES = ("Tuck", "Marian", "Much", "Alan", "Will", "John", "Clorinda", "Gilbert", "Arthur")
MARK = " (bot)"


def is_bot_name(name: str) -> bool:
    """A name marked as a bot's (a person may not take one)."""
    return name.strip().casefold().endswith(MARK.strip())


def bot_names(taken, count: int, rnd) -> list[str]:
    """``count`` bot names, none the same as a name in ``taken`` (case aside)."""
    used = {name.casefold() for name in taken}
    free = [name + MARK for name in NAMES if (name + MARK).casefold() not in used]
    if len(free) < count:
        raise ValueError("no bot names left")
    return rnd.sample(free, count)

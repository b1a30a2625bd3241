"""Seat tokens stay out of the logs: the site's handlers and gunicorn's access log."""

import io
import logging
import sys
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.test import Client
from gunicorn.config import Config

from games.core import game_setup, links
from sheriff_pbem.celery import redact_seat_tokens
from sheriff_pbem.gunicorn_logging import RedactingLogger
from sheriff_pbem.security import RedactSeatTokens, redact

TOKEN = "eyJnIjoxLCJzIjoyLCJ2IjowfQ:1vNqZk:Xr3bG0c_Fh2Zl8QsE-4yUo1a9KpW5TnDmVhJcLbRiSg"


def record(msg, *args, exc_info=None) -> logging.LogRecord:
    return logging.LogRecord("django.request", logging.WARNING, __file__, 1, msg, args, exc_info)


def formatted(rec: logging.LogRecord) -> str:
    return logging.Formatter("%(message)s").format(rec)


def test_redact_takes_the_token_out_of_paths_and_urls():
    assert redact(f"/play/{TOKEN}/") == "/play/<redacted>/"
    assert redact(f"https://s.test/play/{TOKEN}/?x=1") == "https://s.test/play/<redacted>/?x=1"
    assert redact(f"GET /play%2F{TOKEN}/ HTTP/1.1") == "GET /play%2F<redacted>/ HTTP/1.1"
    assert redact(f"GET /sign-in/{TOKEN}/ HTTP/1.1") == "GET /sign-in/<redacted>/ HTTP/1.1"
    assert redact("POST /sign-in/code/ HTTP/1.1") == "POST /sign-in/code/ HTTP/1.1"
    assert redact("/dev/mail/3/ and /static/games/site.css") == (
        "/dev/mail/3/ and /static/games/site.css"
    )


def test_the_filter_redacts_the_message_and_every_argument():
    rec = record("Forbidden (%s): %s", "CSRF token missing.", f"/play/{TOKEN}/")
    assert RedactSeatTokens().filter(rec) is True
    assert formatted(rec) == "Forbidden (CSRF token missing.): /play/<redacted>/"
    assert TOKEN not in repr(rec.args) and TOKEN not in str(rec.msg)

    class Request:  # any object whose str() holds the path, as Django's requests do
        def __str__(self):
            return f"<WSGIRequest: GET '/play/{TOKEN}/'>"

    rec = record("Bad request %s (%d)", Request(), 410)
    RedactSeatTokens().filter(rec)
    assert formatted(rec) == "Bad request <WSGIRequest: GET '/play/<redacted>/'> (410)"
    rec = record(f"Gone: /play/{TOKEN}/")  # no arguments, token in the message itself
    RedactSeatTokens().filter(rec)
    assert formatted(rec) == "Gone: /play/<redacted>/"


def test_the_filter_redacts_tracebacks():
    try:
        raise ValueError(f"no seat at /play/{TOKEN}/")
    except ValueError:
        rec = record("Internal Server Error: %s", f"/play/{TOKEN}/", exc_info=sys.exc_info())
    RedactSeatTokens().filter(rec)
    text = formatted(rec)
    assert TOKEN not in text
    assert "ValueError: no seat at /play/<redacted>/" in text


def test_every_configured_handler_has_the_filter():
    handlers = settings.LOGGING["handlers"]
    assert handlers
    for name, handler in handlers.items():
        assert "redact_seat_tokens" in handler.get("filters", []), name
    assert settings.LOGGING["filters"]["redact_seat_tokens"]["()"] == (
        "sheriff_pbem.security.RedactSeatTokens"
    )


@pytest.mark.parametrize(
    "name", ["django.request", "django.server", "django.security.csrf", "celery.app.trace"]
)
def test_every_handler_a_record_reaches_has_the_filter(name):
    """Django's own loggers had handlers without it (its console under DEBUG)."""
    logger, reached = logging.getLogger(name), []
    while logger is not None:
        reached += logger.handlers
        logger = logger.parent if logger.propagate else None
    writing = [  # not pytest's capture, nor a handler that writes nothing
        h
        for h in reached
        if not type(h).__module__.startswith("_pytest") and not isinstance(h, logging.NullHandler)
    ]
    assert writing
    for handler in writing:
        assert any(isinstance(f, RedactSeatTokens) for f in handler.filters), (name, handler)


@pytest.mark.django_db
def test_djangos_warnings_about_a_seat_page_reach_the_console_without_the_token():
    """A refused CSRF check, a 405 and a 410 are logged by Django with the path."""
    game = game_setup.create_game(
        name="Logs",
        players=[game_setup.PlayerSpec(n, f"{n}@example.org") for n in ("a", "b", "c")],
        config={"edition": 2},
        seed="c3" * 32,
    )
    seat = game.seats.get(index=1)
    token = links.make_token(seat)
    console = next(
        h for h in logging.getLogger().handlers if type(h) is logging.StreamHandler
    )  # the LOGGING setting's handler, as Django configured it
    stream = io.StringIO()
    old = console.setStream(stream)
    try:
        Client(enforce_csrf_checks=True).post(f"/play/{token}/", {"x": "1"})
        Client().put(f"/play/{token}/")
        type(seat).objects.filter(pk=seat.pk).update(link_version=seat.link_version + 1)
        assert Client().get(f"/play/{token}/").status_code == 410  # a replaced player's link
    finally:
        console.setStream(old)
    logged = stream.getvalue()
    assert "Forbidden (" in logged and "Method Not Allowed" in logged and "Gone" in logged
    assert "/play/<redacted>/" in logged
    assert token not in logged


def test_gunicorns_access_log_hides_the_token_in_the_request_line_path_and_referer():
    # atoms() needs none of the set-up that __init__ does (handlers, files).
    logger = RedactingLogger.__new__(RedactingLogger)
    logger.error_log = logging.getLogger("test.gunicorn.error")
    logger.access_log = logging.getLogger("test.gunicorn.access")
    environ = {
        "REMOTE_ADDR": "10.0.0.1",
        "REQUEST_METHOD": "GET",
        "RAW_URI": f"/play/{TOKEN}/",
        "PATH_INFO": f"/play/{TOKEN}/",
        "QUERY_STRING": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_REFERER": f"https://s.test/play/{TOKEN}/",
    }
    resp = SimpleNamespace(status="200 OK", sent=10, headers=[])
    req = SimpleNamespace(headers=[("REFERER", f"https://s.test/play/{TOKEN}/")])
    atoms = logger.atoms(resp, req, environ, timedelta(milliseconds=5))
    assert atoms["r"] == "GET /play/<redacted>/ HTTP/1.1"
    assert atoms["U"] == "/play/<redacted>/"
    assert atoms["f"] == "https://s.test/play/<redacted>/"
    assert TOKEN not in repr(atoms)


def test_gunicorns_access_log_leaves_out_the_open_pages_polls_answered_as_expected():
    cfg = Config()
    cfg.set("accesslog", "-")
    cfg.set("logger_class", "sheriff_pbem.gunicorn_logging.RedactingLogger")
    logger = cfg.logger_class(cfg)
    stream = io.StringIO()
    for handler in logger.access_log.handlers:
        handler.setStream(stream)
    for path, status in (
        (f"/play/{TOKEN}/live/", 304),
        ("/live/abc:def/", 200),
        (f"/play/{TOKEN}/live/", 410),  # gone: logged
        (f"/play/{TOKEN}/", 200),  # the page: logged
    ):
        environ = {"REQUEST_METHOD": "GET", "RAW_URI": path, "PATH_INFO": path}
        environ.update(QUERY_STRING="", SERVER_PROTOCOL="HTTP/1.1", REMOTE_ADDR="10.0.0.1")
        resp = SimpleNamespace(status=f"{status} X", status_code=status, sent=0, headers=[])
        req = SimpleNamespace(headers=[])
        logger.access(resp, req, environ, timedelta(milliseconds=1))
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2 and '" 410 ' in lines[0] and '" 200 ' in lines[1], lines


def test_gunicorns_loggers_get_the_filter():
    cfg = Config()
    cfg.set("accesslog", "-")
    cfg.set("logger_class", "sheriff_pbem.gunicorn_logging.RedactingLogger")
    logger = cfg.logger_class(cfg)
    assert isinstance(logger, RedactingLogger)
    for log in (logger.error_log, logger.access_log):
        assert any(isinstance(f, RedactSeatTokens) for f in log.filters)


def test_the_images_gunicorn_config_uses_the_redacting_logger():
    namespace: dict = {}
    conf = settings.BASE_DIR / "docker" / "gunicorn.conf.py"
    exec(compile(conf.read_text(), str(conf), "exec"), namespace)
    assert namespace["logger_class"] == "sheriff_pbem.gunicorn_logging.RedactingLogger"
    assert namespace["accesslog"] == "-"


def test_celerys_own_handlers_get_the_filter():
    logger = logging.Logger("test.celery.worker")
    handler = logging.StreamHandler(io.StringIO())
    logger.addHandler(handler)
    redact_seat_tokens(logger=logger)
    redact_seat_tokens(logger=logger)  # signals may fire twice: one filter
    assert sum(isinstance(f, RedactSeatTokens) for f in handler.filters) == 1
    logger.warning("Task failed for %s", f"https://s.test/play/{TOKEN}/")
    assert handler.stream.getvalue() == "Task failed for https://s.test/play/<redacted>/\n"

"""gunicorn's logger without seat tokens (docker/gunicorn.conf.py uses it).

The access log writes the request line, the path and the Referer, and a page under
/play/<token>/ is the Referer of every style sheet it loads; gunicorn's error log
names the URL of a request it could not handle. Each of them is redacted as the
site's own log is (sheriff_pbem.security).

An open page's poll answered as expected (200, 304) is not logged: a thousand open
pages would write two hundred lines a second, and cost the site as much again as
their answers (games/web/live.py).
"""

from gunicorn.glogging import Logger

from sheriff_pbem.security import RedactSeatTokens, redact


class RedactingLogger(Logger):
    def setup(self, cfg):
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            if not any(isinstance(f, RedactSeatTokens) for f in log.filters):
                log.addFilter(RedactSeatTokens())

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        return {k: redact(v) if isinstance(v, str) else v for k, v in atoms.items()}

    def access(self, resp, req, environ, request_time):
        if not (_is_poll(environ.get("PATH_INFO", "")) and resp.status_code in (200, 304)):
            super().access(resp, req, environ, request_time)


def _is_poll(path: str) -> bool:
    """/play/<token>/live/ or /live/<token>/ (games.web.live's, read without Django)."""
    parts = path.split("/")
    if len(parts) == 5:  # "", "play", token, "live", ""
        return parts[1] == "play" and parts[3] == "live" and not parts[4]
    return len(parts) == 4 and parts[1] == "live" and not parts[3]  # "", "live", token, ""

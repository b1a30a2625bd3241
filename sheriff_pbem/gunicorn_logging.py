"""gunicorn's logger without seat tokens (docker/gunicorn.conf.py uses it).

The access log writes the request line, the path and the Referer, and a page under
/play/<token>/ is the Referer of every style sheet it loads; gunicorn's error log
names the URL of a request it could not handle. Each of them is redacted as the
site's own log is (sheriff_pbem.security).
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

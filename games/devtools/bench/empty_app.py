"""The floor of an HTTP request on this server: a WSGI application that answers
every request at once (304; /healthz 200) with no Django and no database, run by
gunicorn as the site is (``manage.py bench_live`` compares a poll with it)."""


def application(environ, start_response):
    if environ.get("PATH_INFO") == "/healthz":
        start_response("200 OK", [("Content-Length", "2")])
        return [b"ok"]
    start_response("304 Not Modified", [("ETag", '"floor"')])
    return [b""]

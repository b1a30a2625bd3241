import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sheriff_pbem.settings")
# The polls of open pages are answered ahead of Django's request cycle (games/web/live.py).
application = get_wsgi_application()

from games.web.live import LeanPolls  # noqa: E402 (Django is set up above)

application = LeanPolls(application)

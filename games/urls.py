from django.urls import path

from games.organizer import page as organizer_page
from games.web import (
    api_keys,
    app_shell,
    archive,
    live,
    lobbies,
    my_games,
    practice,
    push_settings,
    resend_links,
    seat_settings,
    sign_in,
    talk,
    views,
)

app_name = "games"
urlpatterns = [
    path("", views.home, name="home"),
    # The installable app's shell (games/web/app_shell.py): the worker at the root, so
    # that its scope is the whole site.
    path("manifest.webmanifest", app_shell.manifest, name="manifest"),
    path("sw.js", app_shell.service_worker, name="service-worker"),
    path("offline/", app_shell.offline, name="offline"),
    path("sign-in/", sign_in.ask, name="sign-in"),
    path("sign-in/code/", sign_in.code, name="sign-in-code"),
    path("sign-in/<str:token>/", sign_in.link, name="sign-in-link"),
    path("sign-out/", sign_in.sign_out, name="sign-out"),
    path("my/", my_games.page, name="my-games"),
    path("my/daily/", my_games.daily, name="my-daily"),
    path("my/history/", my_games.history_page, name="my-history"),
    path("links/", resend_links.resend_links, name="resend-links"),
    path("play-now/", practice.play_now, name="play-now"),
    path("new/", lobbies.new_game, name="new-game"),
    path("new/pace/", lobbies.pace_preview, name="pace-preview"),
    path("new/<int:pk>/", lobbies.lobby_page, name="lobby"),
    path("new/<int:pk>/action/", lobbies.lobby_action, name="lobby-action"),
    path("invitation/<str:token>/", lobbies.invitation_page, name="invitation"),
    path("invitation/<str:token>/never/", lobbies.never_invite, name="never-invite"),
    path("join/<str:token>/", lobbies.join_page, name="join"),
    path("organize/<int:pk>/", organizer_page.organize, name="organize"),
    path("organize/<int:pk>/control/", organizer_page.control, name="organize-control"),
    path("archive/<int:pk>/", archive.signed_in, name="archive"),
    path("archive/<int:pk>/sharing/", archive.share_signed_in, name="archive-sharing"),
    path("archive/public/<str:token>/", archive.public, name="public-archive"),
    path("play/<str:token>/", views.seat_page, name="seat"),
    path("play/<str:token>/archive/", archive.by_seat, name="seat-archive"),
    path("play/<str:token>/archive/sharing/", archive.share_by_seat, name="seat-archive-sharing"),
    path("play/<str:token>/live/", live.seat, name="seat-live"),
    path("live/<str:token>/", live.page, name="live"),
    path("play/<str:token>/talk/", talk.say, name="talk"),
    path("play/<str:token>/talk/<str:ref>/report/", talk.report, name="talk-report"),
    path("play/<str:token>/talk/read/", talk.read, name="talk-read"),
    path("play/<str:token>/talk/lines/", talk.system_lines, name="talk-lines"),
    path("play/<str:token>/settings/", seat_settings.settings_page, name="settings"),
    path("play/<str:token>/settings/standing/", seat_settings.standing_page, name="standing"),
    path("play/<str:token>/settings/api/", api_keys.tokens, name="api-tokens"),
    path("play/<str:token>/unsubscribe/", seat_settings.unsubscribe, name="unsubscribe"),
    # Web Push on the person's devices (games/web/push_settings.py); renew is proved by
    # the device's own secret, not by a seat's link.
    path("play/<str:token>/push/subscribe/", push_settings.subscribe, name="push-subscribe"),
    path("play/<str:token>/push/kinds/", push_settings.kinds, name="push-kinds"),
    path("play/<str:token>/push/unsubscribe/", push_settings.unsubscribe, name="push-unsubscribe"),
    path("push/renew/", push_settings.renew, name="push-renew"),
]

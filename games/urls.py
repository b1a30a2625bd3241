from django.urls import path

from games.web import my_games, resend_links, seat_settings, sign_in, views

app_name = "games"
urlpatterns = [
    path("", views.home, name="home"),
    path("sign-in/", sign_in.ask, name="sign-in"),
    path("sign-in/code/", sign_in.code, name="sign-in-code"),
    path("sign-in/<str:token>/", sign_in.link, name="sign-in-link"),
    path("sign-out/", sign_in.sign_out, name="sign-out"),
    path("my/", my_games.page, name="my-games"),
    path("my/daily/", my_games.daily, name="my-daily"),
    path("links/", resend_links.resend_links, name="resend-links"),
    path("play/<str:token>/", views.seat_page, name="seat"),
    path("play/<str:token>/settings/", seat_settings.settings_page, name="settings"),
    path("play/<str:token>/unsubscribe/", seat_settings.unsubscribe, name="unsubscribe"),
]

from django.urls import path

from games.web import seat_settings, views

app_name = "games"
urlpatterns = [
    path("", views.home, name="home"),
    path("play/<str:token>/", views.seat_page, name="seat"),
    path("play/<str:token>/settings/", seat_settings.settings_page, name="settings"),
    path("play/<str:token>/unsubscribe/", seat_settings.unsubscribe, name="unsubscribe"),
]

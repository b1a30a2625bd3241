from django.urls import path

from games.organizer import page as organizer_page
from games.web import seat_settings, sign_in, views

app_name = "games"
urlpatterns = [
    path("", views.home, name="home"),
    path("sign-in/", sign_in.ask, name="sign-in"),
    path("sign-in/code/", sign_in.code, name="sign-in-code"),
    path("sign-in/<str:token>/", sign_in.link, name="sign-in-link"),
    path("sign-out/", sign_in.sign_out, name="sign-out"),
    path("organize/<int:pk>/", organizer_page.organize, name="organize"),
    path("organize/<int:pk>/control/", organizer_page.control, name="organize-control"),
    path("play/<str:token>/", views.seat_page, name="seat"),
    path("play/<str:token>/settings/", seat_settings.settings_page, name="settings"),
    path("play/<str:token>/unsubscribe/", seat_settings.unsubscribe, name="unsubscribe"),
]

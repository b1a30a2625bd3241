from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("", views.home, name="home"),
    path("play/<str:token>/", views.seat_page, name="seat"),
]

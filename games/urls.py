from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("play/<str:token>/", views.seat_page, name="seat"),
]

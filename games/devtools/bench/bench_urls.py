"""The site's own addresses, plus the benchmark's minimal view."""

from django.urls import path

from games.devtools.bench.minimal import minimal_move
from sheriff_pbem.urls import urlpatterns as site

urlpatterns = [path("bench/minimal/<str:token>/", minimal_move), *site]

"""The organizer's side (games/organizer/): the admin as an organizer reads it, its
controls, the notices they send the players, the secrets an organizer who plays must
not see, the full record, and admin login lockouts. Their games are started in
organizer_games.py; the ``organizer`` fixture (a logged-in superuser) is in
tests/conftest.py, as the word and fuzz tests use it too.
"""

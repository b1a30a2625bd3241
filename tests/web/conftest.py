"""The seat pages as a browser meets them (games/web/): GET shows a seat's view, POST
performs one move; six-seat and Black Market pages (six_seat_pages.py), the pages in
the reader's language, the seat's settings, CSRF refusals, a lost database connection,
fuzzed forms, accessibility without a browser, and what a move and a page cost in SQL.
"""

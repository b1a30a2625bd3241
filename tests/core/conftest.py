"""The game services (games/core/): moves, deadlines and their sweeps on an injected
clock (tests/support/clock_games.py), abandoned games, bargaining time, time away,
pacing against flooding, the reads (selectors, page_reads) and set-wide writes
(bulk), signed links, the backlog's health report, and row locks on PostgreSQL. The
real-worker tests (test_real_worker.py, test_deadline_processes.py) are marked
``real_worker``: `make test` runs them after the rest, without xdist, on Redis and
PostgreSQL.
"""

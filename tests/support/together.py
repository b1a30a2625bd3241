"""Calls started at the same instant, each on a thread and a database connection of
its own: what parallel requests do to the rows they share (PostgreSQL's locks)."""

import threading

from django.db import connection


def run_together(*calls) -> list:
    """Start every call at the same instant, each on its own connection."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def worker(i, call):
        try:
            barrier.wait()
            results[i] = call()
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results

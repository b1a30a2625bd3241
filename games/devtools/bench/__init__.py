"""The load benchmark (``manage.py bench_moves``): games played over HTTP by
concurrent clients against gunicorn, beside a minimal view on the same stack.
Not part of the site: only the benchmark's own settings (games.devtools.bench.bench_settings)
mount its minimal view."""

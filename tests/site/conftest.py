"""The site's configuration (sheriff_pbem/): deployment settings and `check --deploy`
(run in a subprocess, tests/support/deploy_env.py), the admin's hosts, Celery's queues
and logging, seat tokens kept out of the logs, no HTML compression, and the services CI
requires.
"""

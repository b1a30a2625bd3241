# gunicorn's settings for the image (docker/Dockerfile, compose.yaml):
#   gunicorn -c docker/gunicorn.conf.py sheriff_pbem.wsgi:application
# The access log goes to stdout with every seat token replaced by <redacted>:
# a /play/<token>/ link is all it takes to play a seat.

# Inside the container; compose.yaml chooses which host address publishes it.
bind = "0.0.0.0:8000"
accesslog = "-"
logger_class = "sheriff_pbem.gunicorn_logging.RedactingLogger"

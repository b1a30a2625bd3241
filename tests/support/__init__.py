"""Helpers the test folders share: the engine tests' state builders, the seat pages
read as a browser reads them, playing through the emails, the injected-clock games,
and settings loaded as a deployment loads them. A helper only one folder uses lives
in that folder instead."""

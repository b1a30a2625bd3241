"""The rules engine (games/engine/), pure Python: the numbered rule catalogue, property
tests over random games, what a seat sees of a sealed bag, phase pacing, and that the
engine imports nothing of Django. The builders they share are in tests/support/builders.py.
"""

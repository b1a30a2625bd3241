"""The words (games/words/): the game log narrated in English and Spanish from the
engine's events (the games they narrate are in narrated_tables.py), the Spanish
catalogue, typed text kept to one line and isolated, look-alike names, old notes
given their code, and the new text of emailed replies (their corpus is reply_corpus/).
"""

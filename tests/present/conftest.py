"""What a player reads (games/present/): the Jinja templates and their words, the
narrated lines a page keeps, the moves registry declared once, demands, honor among
thieves on the page and in the emails, and plain wording (counted nouns, marks).
"""

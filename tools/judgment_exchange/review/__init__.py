"""A review a maintainer reads in one screen (issue #27 item 4): the gate's report as Markdown for a pull
request's job summary (`exchange check --format markdown`), every value from the report or an entry written
so that it cannot become Markdown of its own (markdown.py), and for each entry the change adds or changes,
its card (check.py).
"""

"""`warband build`: a list builder in the browser, a face on the validator.

The page lists a ruleset's classes (with their costs and the prices of their options, worked out
by the ruleset's own cost rules), and the list being built, judged after every change by
lists/validate.py: the same messages and hints as `warband validate`, shown at the entry they
are about. No rule of any game is here, nor in the page's script.

    files.py     the one folder the page may read and write: names, listing, reading
    document.py  the list being built: YAML round-trip data, the edits the page asks for
    offer.py     what a ruleset offers a list: classes by tier, their options and prices
    standing.py  the list judged: each entry's cost and problems, the totals against each limit
    pages.py     the HTML (Jinja2 templates in templates/, escaped), the script and the styles
    app.py       the Starlette app: routes, the session's token, bounds on requests
    server.py    uvicorn on a free port of this machine, the browser opened

Only app.py and server.py import Starlette and uvicorn (the optional extra `build`); the command
line imports them inside `warband build`, so no other command loads them.
"""

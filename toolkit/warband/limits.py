"""Every bound the toolkit puts on its inputs and its work, in one place.

Files from strangers and rules with mistakes must neither exhaust memory or the stack nor keep a
command busy for ever: each of these is checked where the input is read or the work is done, and
passing it is a diagnostic (mostly E403), never a crash. docs/robustness.md lists them for users.
"""

# ---- rules files ----------------------------------------------------------------------------------
MAX_RULES_BYTES = 2_000_000   # one rules file
MAX_DEPTH = 150     # nesting levels of a declaration's parse tree: the builder and the checker
#                     walk it recursively, so deeper input would exhaust Python's stack
MAX_CACHE_ENTRIES = 200   # compiled rulesets kept on disk (an edited rules file leaves old ones)
MAX_CACHE_ENTRY_BYTES = 64_000_000   # one kept entry (the shipped rulesets pickle to 50-150 kB)
MAX_LAYERS = 16     # layers of `extends`: a house file on a campaign on a base is 3
MAX_BOARD = 200     # squares or inches a side: the engine lists a zone's places (half inches)
GRID_ROUTE_POINTS = 20_000   # free half-inch points of a board whose moves search over them;
#                              a larger board (a 200-inch maze has 150,000, and one search
#                              weighed up to 250,000 points) routes over its pieces' corners

# ---- dice and rules run -----------------------------------------------------------------------------
MAX_DICE = 100      # dice in one roll
MAX_SIDES = 1000    # sides of one die
MAX_KEEP_STATES = 10_000_000   # work of an exact keep-highest/lowest pool (faces x dice x
#                                the situations of the kept dice: dice.keep_fits), ~1 s
MAX_POOL_BITS = 7_000_000   # the big integer an exact sum of dice is worked out in: ~2 s (100d100)
MAX_BRANCHES = 250_000     # exact evaluation refuses beyond this many outcomes drawn and steps
#                            run, so no rule keeps it busy for long: ~5 s at the limit (1,000,000
#                            took ~22 s); the shipped rules' largest odds (gang-up) need ~9,000
MAX_OUTCOME_PAIRS = 250_000   # combinations of outcomes one step of exact arithmetic on rolls
#                              weighs (10d1000 + 10d1000 is 99,820,081: minutes and gigabytes);
#                              at the limit ~1.5 s. The shipped rules' odds need a few hundred
MAX_REPEAT = 1_000         # one 'repeat' loop; each turn of it is a step deeper in the stack
MAX_SAMPLED_STEPS = 2_000_000    # work of one evaluation: turns of 'repeat' loops and members
#                                  of groups weighed (nested loops and totals multiply), ~1 s:
#                                  see run/budget.py
MAX_CELLS = 20_000   # pairs of strategies of a secret choice; beyond this the game is refused
MAX_TUPLE_CHOICES = 10_000   # combinations one decision of several numbers weighs (run/tuples.py):
#                              a hand of 3 numbers in 0..20 is 9,261

# ---- games ------------------------------------------------------------------------------------------
DEFAULT_ROUNDS = 50   # a scenario without a limit still ends
MAX_ROUNDS = 10_000   # a scenario's limit may be at most this (a game's work stays bounded)
MAX_FIGHTERS = 500    # fighters in one game: every activation weighs every other fighter
MAX_MODELS = 1_000    # models in one unit (`models LOW..HIGH`): a roster card draws a row each
MAX_SWEEP_VALUES = 101   # values one `odds --sweep` weighs: each is a whole odds computation
MAX_RECORD_EVENTS = 200_000   # events one game's record holds (`play`: its log, its record and
#                               its page are made of them), ~25 MB; past it the game stops (E646)
MAX_PAGE_STATES = 1_000_000   # fighters' places a game page notes (a fighter at each step):
#                               400 fighters over 40 rounds gave a MemoryError; ~60 MB of page
MAX_RECORD_BYTES = 32 * 1024 * 1024   # a game's record read by `play --replay`: a six-round
#                                       game is ~60 kB, a fifty-round one with big warbands a
#                                       few MB; read whole, then parsed (memory ~10x its size)

# ---- text from files ----------------------------------------------------------------------------
MAX_TEXT_CHARS = 10_000   # one text a file gives (a YAML string, a rules file's quoted text):
#                           a name of 200,000 characters, aliased to 16 fighters, made a
#                           game's log 109 MB and its page 657 MB
MAX_NAME_CHARS = 200      # one name (a fighter's, a warband's, a rules file's identifier)

# ---- warband files (YAML) ---------------------------------------------------------------------------
MAX_YAML_BYTES = 256 * 1024   # real files are a few kB; ruamel's pure-Python parser reads ~50 kB/s
MAX_YAML_DEPTH = 100   # nested lists/mappings; keeps ruamel's recursive composer off the stack
MAX_ALIAS_NODES = 10_000   # extra nodes that aliases (*name) may add once expanded
MAX_INT_DIGITS = 15   # no game value needs more; Python refuses int() of > 4300 digits anyway

# ---- roster templates (--template: Jinja2, in a sandbox) ---------------------------------------------
MAX_TEMPLATE_BYTES = 256 * 1024   # one template file (the built-in HTML one is ~7 kB)
MAX_TEMPLATE_STEPS = 2_000_000   # lines of template code run for one roster (entering an
#                                  include, macro or block counts 20); the built-in ones ~26,000
MAX_TEMPLATE_OUTPUT = 4_000_000   # characters of output, and of any string or list made on the way
MAX_CARD_BOXES = 30   # tick boxes in one row of a roster card; a counter bound by more gets a
#                       blank to write the number in

# ---- what is shown: diagnostics and hints -------------------------------------------------------
MAX_EXCERPT_WIDTH = 200   # characters of a source line an excerpt shows: a longer line is cut
#                           around what the carets mark ("…" where cut); a one-line 120 kB warband
#                           repeated whole in every excerpt made 0.57 GB of output at 1,000 fighters
MAX_EXCERPT_BEFORE = 40   # of those, at most this many before what the carets mark
MAX_EXCERPT_MARK = 150    # characters the carets underline at most; the rest is "…"
MAX_SHOWN_PER_FILE = 100   # diagnostics the text and GitHub reports show for one file; the rest
#                            is counted in one line ("... and 2,400 more in FILE"); JSON and
#                            SARIF, which are data for programs, keep every diagnostic
MAX_SHOWN_RELATED = 10    # related places ("F7: 100 points") shown under one diagnostic; the
#                           rest counted in one line: a warband 984 fighters over its size
#                           listed every one, each with its excerpt
MAX_SHOWN_TEXT = 1_000     # characters of one message, hint or note a report for people shows:
#                            a 200 kB name is quoted in its message, once per fighter
MAX_SUGGEST_CANDIDATES = 40   # names one did-you-mean compares closely, picked from an index:
#                                comparing every name made a 93 kB rules file take 19 s
MAX_SUGGEST_NAME = 100     # a longer unknown name gets no did-you-mean (difflib is quadratic)

# ---- the list builder (`warband build`: a page on this machine, answering its own forms) ---------
MAX_BUILD_REQUEST_BYTES = 64 * 1024   # one request's body: a form of one entry is ~1 kB
MAX_BUILD_FIELDS = 500   # fields in one form (an entry's equipment boxes, its traits, ...)
MAX_BUILD_ENTRIES = 200   # entries of the list being built (a few dozen in real lists)
MAX_BUILD_TEXT = 2_000    # characters of one value typed in the page (a name, notes)
MAX_BUILD_FILES = 500     # warband and rules files the page lists from its folder
MAX_BUILD_UNDO = 50       # changes the page can undo (each a copy of the list's text)

# ---- balance (`warband balance`) ----------------------------------------------------------------
MAX_BALANCE_PROFILES = 40   # fighters one report weighs: every pair fights a duel (820 duels)
MAX_DUEL_STATES = 5_000     # states one duel's chain reaches (each is an exact odds question per
#                             action; a duel of the shipped rulesets reaches a few dozen)
MAX_DUEL_COMPONENT = 200    # states that lead back to one another, solved as one linear system
#                             over fractions (its cost grows with the cube: ~2 s at the limit)
MAX_DUEL_ROUNDS = 1_000     # `balance --rounds`: a duel cut short after this many rounds

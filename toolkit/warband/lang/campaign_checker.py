"""The checker's part for campaigns: what a scenario's aftermath does to a warband between
games (`give`, `take`, `hire`: lang/nodes_campaign.py) and army rules held at a warband's
founding only. Each of these statements stands in an aftermath, where the game is over and
what it changes is written into the warband files (`warband play --update`)."""

from __future__ import annotations

from warband.lang import nodes
from warband.lang.checker_parts import CheckerParts
from warband.lang.typesystem import FIGHTER, SIDE, Scope

# a warband file's own keys: a side's stat is kept under its name in lower case, beside them
# (lists/warband_file.py, lists/schema.py TOP_KEYS)
FILE_KEYS = ("name", "ruleset", "points", "games", "fighters", "notes")

CAMPAIGN_WORDS = {"give": "give EQUIPMENT to FIGHTER", "take": "take EQUIPMENT from FIGHTER",
                  "hire": 'hire "NAME" as CLASS for SIDE'}


class CampaignChecker(CheckerParts):
    in_aftermath: bool = False   # set while a scenario's aftermath is checked

    def campaign_stmt(self, stmt: nodes.Gear | nodes.Hire, scope: Scope) -> None:
        word = stmt.kind if isinstance(stmt, nodes.Gear) else "hire"
        if not self.in_aftermath:
            self.error("E341", f"'{word}' changes a warband between games: it stands in a "
                               "scenario's aftermath", stmt.span,
                       hint=f"write `{CAMPAIGN_WORDS[word]}` in the scenario's `aftermath "
                            "{ ... }` (not in a procedure, an action or a round)")
        if isinstance(stmt, nodes.Gear):
            self.named(stmt.equipment, "equipment")
            self.expect(FIGHTER, self.expr(stmt.fighter, scope), stmt.fighter.span,
                        "who is given it" if stmt.kind == "give" else "who it is taken from")
            return
        if not stmt.name.strip():
            self.error("E341", "a hired fighter needs a name", stmt.span,
                       hint='name it: hire "Recruit" as CLASS for SIDE')
        self.named(stmt.fighter_class, "class")
        self.expect(SIDE, self.expr(stmt.side, scope), stmt.side.span, "the side that hires")
        for piece in stmt.equipment:
            self.named(piece, "equipment")

    def side_stat_key(self, decl: nodes.StateDecl) -> None:
        """A side's stat is kept in the warband file under its name in lower case: not one of
        the file's own keys."""
        if decl.name.name.lower() in FILE_KEYS:
            self.error("E343", f"a side's stat named '{decl.name.name}' would be kept in the "
                               f"warband file as '{decl.name.name.lower()}:', a key the file "
                               "has already", decl.name.span,
                       hint="name it otherwise: the file's own keys are " +
                            ", ".join(FILE_KEYS))

    def founding(self, decl: nodes.ArmyDecl) -> None:
        """`founding` marks a limit (points, size, a cost's limit, a quota, a rule of the
        author's own), not what a fighter costs nor a house rule's removal."""
        for kind, span in decl.founding:
            if kind in ("cost", "costs"):
                self.error("E342", "'founding' marks a limit, not a cost: what a fighter costs "
                                   "is the same at its founding and after", span,
                           hint="mark the limit instead: founding points 500, or founding "
                                "limit favours 3")
            elif kind == "remove":
                self.error("E342", "'founding' marks a limit of the army, not its removal",
                           span, hint="remove the entry, then give it anew marked founding")

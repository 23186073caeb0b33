"""A fault of generated code, reported as a diagnostic that names the rule, never a traceback.

Generated code raises the interpreter's RulesErrors for a rule's own errors (no table row,
division by zero), and lets the game's own exceptions (GameOver...) through. An exception of
Python's own (a TypeError, an IndexError...) from it is a fault of the generator, not of the
rules: the functions that call generated code (hooks.py: `sample`, `nested`, `allowed`, a
sampler's run; the engine's tests and a scenario's values guard themselves, `guarded`) turn it
into E914 naming the rule that ran, so that `play`, `rules check --playouts` and `simulate` all
report it as they report a game that fails.
"""

from __future__ import annotations

from warband.diagnostics import Span, diag
from warband.lang import nodes
from warband.run.evaluate import RulesError


def crashed(error: Exception, rules: dict[str, tuple[str, Span | None]], ruleset_id: str,
            node=None) -> Exception:
    """What a run of generated code that raised `error` raises: a RulesError, or an exception
    of warband's own, as it is; any other as E914 naming the rule that ran: the innermost
    generated function in the traceback that `rules` (function name -> (rule, span)) knows,
    else `node`."""
    if type(error).__module__.startswith("warband.") or type(error) is RecursionError:
        return error
    where = rule(node) if node is not None else None
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        found = rules.get(code.co_name)
        if found is not None and code.co_filename.startswith("<warband rules"):
            where = found
        tb = tb.tb_next
    what, span = where or (f"a rule of '{ruleset_id}'", None)
    detail = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return RulesError(diag(
        "E914", f"{what} failed in the Python generated for it ({detail})", span,
        hint="a fault of warband's code generator, not of the rules: please report it "
             "with this rules file"))


def rule(node) -> tuple[str, Span | None]:
    """A declaration (a procedure, a scenario's block, a definition, a table) or a scenario's
    expression, as a message names it, and its span."""
    name = getattr(node, "name", None)
    if not isinstance(name, nodes.Ident):
        return "an expression", getattr(node, "span", None)
    if name.name.startswith("scenario "):   # a scenario's setup, round or aftermath
        return f"the scenario's {name.name.split(' ', 1)[1]}", name.span
    kind = getattr(node, "kind", None) or ("table" if isinstance(node, nodes.TableDecl)
                                           else "define")
    return f"{kind} '{name.name}'", name.span


def scenario_part(key: str) -> str:
    """A scenario's expression by its key in Program.value ("score red", "end 0")."""
    if key.startswith("end "):
        return "the scenario's 'end when'"
    kind, _, side = key.partition(" ")
    return f"the scenario's {kind} for '{side}'" if side else f"the scenario's {key}"


def guarded(lines: list[str], node: str) -> list[str]:
    """A function's lines (`def ...:`, then its body) with its failures reported as `crashed`
    says: for a function the engine calls itself, with no caller of ours to do it. `node`:
    the name of the rule's node in the generated namespace."""
    head, *body = lines
    return [head, "    try:", *("    " + line for line in body),
            "    except Exception as error:",
            f"        raise _crashed(error, {node}) from None"]

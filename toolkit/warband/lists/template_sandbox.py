"""Where roster templates run: Jinja2's immutable sandbox, with bounds on the work a template
can do, and the one reader of template files.

A template from a stranger is a program. Jinja2's sandbox keeps it from Python's internals
(`__class__`, `__globals__`, `__subclasses__`, a function's module and so from `os`) and from
changing the data it is given; this module adds the bounds of docs/robustness.md:

- a template file is read only if it is a regular file (never a FIFO, a device or a folder,
  which could block or never end) of at most MAX_TEMPLATE_BYTES, as UTF-8;
- at most MAX_TEMPLATE_STEPS steps: a line of template code run is one, entering template
  code (an include, a macro, a block) CALL_STEPS (Python's tracing, on the compiled templates'
  frames only), so nested loops end;
- no value a template computes (a string, a list) and not the output itself grows beyond
  MAX_TEMPLATE_OUTPUT characters or items, checked as the value is made, before the memory is
  taken: `*`, `**` and `+`, `~` (the parts' sizes added before they are joined), `%` and
  `.format` widths, integer arguments of filters and of the string methods that make room
  (`center`, `ljust`, `zfill`...), what `replace` and `join` would make; every filter's, call's
  and attribute's result after;
- work that is not a line of template code counts too: a filter or a call over a collection
  (`|sort`, `|list`, `|unique`...) costs a step per item it is given and per item it makes (a
  step per 100 characters of a string), so that one line cannot sort millions of items;
- `range` holds at most jinja2.sandbox.MAX_RANGE (100,000) numbers, and `lipsum` is gone;
- `|attr("format")` gives the sandbox's own `str.format` (CVE-2025-27516, a way out of the
  sandbox in Jinja2 before 3.1.6, which the toolkit requires), whatever Jinja2 does.

Every refusal is a TemplateLimit (a SecurityError), which render_roster turns into a diagnostic
at the template's line.
"""

from __future__ import annotations

import functools
import os
import re
import stat
import sys
from collections.abc import Callable
from contextvars import ContextVar
from types import BuiltinMethodType, FrameType
from typing import Any, Self

from jinja2.compiler import CodeGenerator
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

from warband.limits import MAX_TEMPLATE_BYTES, MAX_TEMPLATE_OUTPUT, MAX_TEMPLATE_STEPS

MAX_INT_BITS = 4096   # ~1,200 digits: more than any roster needs; int * int and ** beyond it
MAX_ARGUMENT = 10_000   # a filter's integer argument (a width, a count) or a format's width
WIDE_FORMAT = re.compile(r"\d{5,}")   # a width or precision of 10,000 or more in a format
CALL_STEPS = 20   # steps charged for entering template code: an include, a macro, a block
NESTED_FIELD = re.compile(r"\{[^{}]*\{")   # '{:{}}': a width from .format's values


class TemplateUnreadable(Exception):
    """A template file that cannot be used: missing, not a regular file, too large, not UTF-8.
    `line` and `column` are set for text that is not UTF-8."""

    def __init__(self, path: str, message: str, hint: str, line: int = 0,
                 column: int = 0) -> None:
        super().__init__(message)
        self.path, self.message, self.hint = path, message, hint
        self.line, self.column = line, column


class TemplateLimit(SecurityError):
    """A template went past one of this module's bounds."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)   # Jinja's errors have .message
        self.hint = hint


def read_template(path: str) -> str:
    """The text of a template file: a regular file of at most MAX_TEMPLATE_BYTES, UTF-8 (a BOM
    dropped). Opened without blocking, so that a FIFO or a device is refused, not waited on."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise TemplateUnreadable(path, f"no such template: {path}",
                                 "give the path of a Jinja2 template file") from None
    except (OSError, ValueError) as error:   # ValueError: a NUL in the path
        reason = getattr(error, "strerror", None) or str(error)
        raise TemplateUnreadable(path, f"the template {path} cannot be read: {reason}",
                                 "give the path of a Jinja2 template file") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            what = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise TemplateUnreadable(path, f"the template {path} is {what}",
                                     "a template is a text file")
        if info.st_size > MAX_TEMPLATE_BYTES:
            raise too_large(path)
        chunks, size = [], 0
        while size <= MAX_TEMPLATE_BYTES:   # the size may change while reading
            chunk = os.read(fd, MAX_TEMPLATE_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise TemplateUnreadable(path, f"the template {path} cannot be read: {error.strerror}",
                                 "give the path of a Jinja2 template file") from None
    finally:
        os.close(fd)
    if size > MAX_TEMPLATE_BYTES:
        raise too_large(path)
    data = b"".join(chunks)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[:error.start]
        line = before.count(b"\n") + 1
        column = error.start - (before.rfind(b"\n") + 1) + 1   # in bytes
        raise TemplateUnreadable(path, "a template must be UTF-8 text",
                                 "save the template as UTF-8", line, column) from None
    return text.removeprefix("\ufeff")


def too_large(path: str) -> TemplateUnreadable:
    return TemplateUnreadable(
        path, f"the template {path} is larger than {MAX_TEMPLATE_BYTES // 1024} kB",
        "a roster template is a few kB; split it with {% include %} or {% extends %}")


# ---- the sandbox --------------------------------------------------------------------------------

def too_big(what: str) -> TemplateLimit:
    return TemplateLimit(f"{what} would be too large (the limit is "
                         f"{MAX_TEMPLATE_OUTPUT:,} characters or items)",
                         "a roster needs nothing this large; look for a loop or a "
                         "multiplication that grows a value")


def checked(value: Any, what: str = "a value") -> Any:
    """`value`, or TemplateLimit if it is a string or collection beyond MAX_TEMPLATE_OUTPUT or an
    integer beyond MAX_INT_BITS."""
    if isinstance(value, (str, bytes, list, tuple, dict, set, frozenset)):
        if len(value) > MAX_TEMPLATE_OUTPUT:
            raise too_big(what)
    elif isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise TemplateLimit(f"{what} is a number too large (more than {MAX_INT_BITS} bits)",
                            "a roster needs no such number")
    return value


def check_arguments(args: tuple, kwargs: dict, name: str) -> None:
    for value in (*args, *kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_ARGUMENT:
            raise TemplateLimit(f"{name} was given {value}; the largest number a filter or a "
                                f"format takes here is {MAX_ARGUMENT:,}",
                                "a roster needs no width or count this large")


def check_format(text: object, name: str) -> None:
    if isinstance(text, str) and WIDE_FORMAT.search(text):
        raise TemplateLimit(f"{name} has a number of 10,000 or more in its format",
                            "a roster needs no width or precision this large")


SIZED = {"center", "indent", "slice", "batch", "format"}   # filters whose numbers make room


def check_replace(value: object, rest: tuple, what: str) -> None:
    """What `replace` would make of a string, checked before it is made."""
    if len(rest) >= 2 and all(isinstance(a, str) for a in (value, *rest[:2])):
        old, new = cast_str(rest[0]), cast_str(rest[1])
        text = cast_str(value)
        count = len(text) + 1 if old == "" else text.count(old)
        if len(rest) >= 3 and isinstance(rest[2], int) and rest[2] >= 0:
            count = min(count, rest[2])
        if len(text) + count * max(0, len(new) - len(old)) > MAX_TEMPLATE_OUTPUT:
            raise too_big(what)


def cast_str(value: object) -> str:
    return value if isinstance(value, str) else str(value)


def check_join(separator: object, items: object, what: str) -> None:
    """What joining would make (a separator and a list of strings), checked before it is made."""
    if isinstance(items, (list, tuple)):
        size = sum(len(x) if isinstance(x, str) else 1 for x in items) + \
            (len(separator) if isinstance(separator, str) else 0) * max(len(items) - 1, 0)
        if size > MAX_TEMPLATE_OUTPUT:
            raise too_big(what)


# ---- work that is not a line of template code ----------------------------------------------------

# the StepBudget of the roster being rendered (filters and calls charge it: see `charge`)
_BUDGET: ContextVar[StepBudget | None] = ContextVar("template budget", default=None)
TEXT_PER_STEP = 100   # characters of a string a filter or a call handles for one step


def cost(value: object) -> int:
    """The steps a filter or a call is charged for a value it is given or makes: one an item of
    a collection, one per TEXT_PER_STEP characters of a string."""
    if isinstance(value, str):
        return len(value) // TEXT_PER_STEP
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        return len(value)
    return 0


def charge(steps: int) -> None:
    if steps:
        budget = _BUDGET.get()
        if budget is not None:
            budget.spend(steps)


SIZED_METHODS = {"center", "ljust", "rjust", "zfill", "expandtabs"}   # str methods making room


def guarded_filter(name: str, function: Callable) -> Callable:
    passes = 1 if getattr(function, "jinja_pass_arg", None) is not None else 0   # a context

    @functools.wraps(function)   # keeps Jinja's pass_context and friends
    def run(*args, **kwargs):
        value: Any = args[passes] if len(args) > passes else None
        rest = args[passes + 1:]
        if name in SIZED:
            check_arguments(rest, kwargs, f"the filter '{name}'")
        if name == "format":
            check_format(value, f"the filter '{name}'")
        if name == "replace":
            check_replace(value, rest, f"the result of the filter '{name}'")
        if name == "join" and isinstance(value, (list, tuple)):
            check_join(rest[0] if rest else kwargs.get("d", ""), value,
                       f"the result of the filter '{name}'")
        charge(cost(value))
        result = checked(function(*args, **kwargs), f"the result of the filter '{name}'")
        if name == "attr" and passes:   # (CVE-2025-27516: Jinja2 3.1.5's attr gave str.format)
            result = args[0].wrap_str_format(result) or result
        charge(cost(result))
        return result
    return run


class RosterCodeGenerator(CodeGenerator):
    """Jinja's code generator, but `~` asks the sandbox to join its parts (`joined`), so that
    their sizes are added before the string is made."""

    def visit_Concat(self, node, frame) -> None:   # (Jinja's, the join handed to `joined`)
        if frame.eval_ctx.volatile:
            join = "(markup_join if context.eval_ctx.volatile else str_join)"
        elif frame.eval_ctx.autoescape:
            join = "markup_join"
        else:
            join = "str_join"
        self.write(f"environment.joined({join}, (")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")


class RosterSandbox(ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox with bounded values (see the module's docstring)."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})
    code_generator_class = RosterCodeGenerator

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.globals.pop("lipsum", None)
        self.filters = {name: guarded_filter(name, function)
                        for name, function in self.filters.items()}

    def joined(self, join: Callable, parts: tuple) -> Any:
        """`a ~ b ~ ...`: the parts' sizes (as text) added before they are joined."""
        size = 0
        for part in parts:
            size += len(part) if isinstance(part, str) else len(str(checked(part)))
            if size > MAX_TEMPLATE_OUTPUT:
                raise too_big("a string joined with '~'")
        charge(size // TEXT_PER_STEP)
        return join(parts)

    def call_binop(self, context, operator: str, left: Any, right: Any) -> Any:
        if operator == "+":
            if isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)) \
                    and len(left) + len(right) > MAX_TEMPLATE_OUTPUT:
                raise too_big("a sum of strings or lists")
        elif operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int) and \
                        len(seq) * max(times, 0) > MAX_TEMPLATE_OUTPUT:
                    raise too_big("a repeated string or list")
            if isinstance(left, int) and isinstance(right, int) and \
                    left.bit_length() + right.bit_length() > MAX_INT_BITS:
                raise TemplateLimit("a product too large", "a roster needs no such number")
        elif operator == "**":
            if isinstance(left, int) and isinstance(right, int) and right > 0 and \
                    abs(left) > 1 and left.bit_length() * right > MAX_INT_BITS:
                raise TemplateLimit("a power too large", "a roster needs no such number")
        elif operator == "%" and isinstance(left, str):
            check_format(left, "a '%' format")
            if "*" in left:   # a width taken from the values
                check_arguments(right if isinstance(right, tuple) else (right,), {},
                                "a '%' format")
        return checked(super().call_binop(context, operator, left, right))

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """str.format and format_map (Jinja's sandboxed formatter), with their widths bounded."""
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        text = getattr(value, "__self__", "")
        check_format(text, "a '.format'")

        def run(*args: Any, **kwargs: Any) -> str:
            if NESTED_FIELD.search(text):   # a width taken from the values
                check_arguments(args, kwargs, "a '.format'")
            return checked(wrapped(*args, **kwargs), "a formatted string")
        return run

    def call(self, context, obj: Any, /, *args: Any, **kwargs: Any) -> Any:
        owner = getattr(obj, "__self__", None) if type(obj) is BuiltinMethodType else None
        if isinstance(owner, str):   # a string's own methods: what they make, checked first
            name = obj.__name__
            if name in SIZED_METHODS:
                check_arguments(args, kwargs, f"the string method '{name}'")
            elif name == "replace":
                check_replace(owner, args, "the result of 'replace'")
            elif name == "join" and args:
                items = args[0] if isinstance(args[0], (list, tuple)) else checked(
                    list(args[0]) if isinstance(args[0], (set, frozenset, dict)) else args[0])
                check_join(owner, items, "the result of 'join'")
        charge(cost(owner) + sum(cost(a) for a in args))
        result = checked(super().call(context, obj, *args, **kwargs), "a call's result")
        charge(cost(result))
        return result

    def getattr(self, obj: Any, attribute: str) -> Any:
        return checked(super().getattr(obj, attribute))

    def getitem(self, obj: Any, argument: Any) -> Any:
        return checked(super().getitem(obj, argument))


# ---- counting steps -----------------------------------------------------------------------------

class StepBudget:
    """At most MAX_TEMPLATE_STEPS lines of compiled template code (the frames whose file is one
    of `files`) while the `with` block runs; past it, TemplateLimit is raised in the template.
    Any tracer already installed (a debugger, coverage) is put back afterwards."""

    def __init__(self, files: set[str] | dict[str, Any], steps: int = MAX_TEMPLATE_STEPS) -> None:
        self.files, self.left = files, steps
        self.last: FrameType | None = None   # the template code that ran last

    def spend(self, steps: int) -> None:
        """Work that is not a line of template code (a filter or a call over a collection)."""
        self.left -= steps
        if self.left < 0:
            raise self.too_long()

    def too_long(self) -> TemplateLimit:
        return TemplateLimit(
            f"the template ran too long (more than {MAX_TEMPLATE_STEPS:,} steps)",
            "a roster template needs a few thousand steps; look for nested loops over range(), "
            "or filters over very long lists")

    def where(self) -> tuple[str, int] | None:
        """The file and template line of the template code that ran last."""
        frame = self.last
        template = frame.f_globals.get("__jinja_template__") if frame is not None else None
        if frame is None or template is None:
            return None
        return frame.f_code.co_filename, template.get_corresponding_lineno(frame.f_lineno)

    def __enter__(self) -> Self:
        self.previous = sys.gettrace()
        self.token = _BUDGET.set(self)
        sys.settrace(self.trace)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.settrace(self.previous)
        _BUDGET.reset(self.token)

    def trace(self, frame: FrameType, event: str, arg: Any) -> Callable | None:
        if frame.f_code.co_filename not in self.files:
            return None
        self.left -= CALL_STEPS   # entering template code (an include, a macro, a block) costs
        return self.step          # more than a line: it makes a context

    def step(self, frame: FrameType, event: str, arg: Any) -> Callable | None:
        if event == "line":
            self.last = frame
            self.left -= 1
            if self.left < 0:
                raise self.too_long()
        return self.step


__all__ = ["MAX_ARGUMENT", "MAX_INT_BITS", "RosterSandbox", "StepBudget", "TemplateLimit",
           "TemplateUnreadable", "checked", "read_template"]

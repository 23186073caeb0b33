"""Roster templates from strangers (`warband roster --template`): they run in Jinja2's immutable
sandbox, with bounded work and bounded values; a template file is read only if it is a regular
file of bounded size; every failure is a diagnostic at the template's line (E660 the file cannot
be used, E661 the template fails), exit 2, never a traceback. And the markdown and HTML rosters
escape whatever a warband file says (docs/robustness.md, "Shared files")."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.limits import MAX_TEMPLATE_BYTES, MAX_TEMPLATE_OUTPUT, MAX_TEMPLATE_STEPS
from warband.lists import render_roster, template_sandbox
from warband.lists.roster import roster

ROOT = Path(__file__).resolve().parents[1]
FAMILY = "warbands/the-family.yaml"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def run(*args: str):
    return CliRunner().invoke(app, ["roster", *args])


def with_template(tmp_path: Path, text: str, name: str = "t.md.j2", *more: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return run(FAMILY, "--template", str(path), *more), path


def refused(result, code: str = "E661") -> str:
    """The one diagnostic of a refused template: exit 2, nothing on standard output."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert not isinstance(result.exception, Exception) or isinstance(result.exception,
                                                                     SystemExit)
    assert f"error[{code}]" in result.stderr, result.stderr
    assert "= hint: " in result.stderr
    return result.stderr


def model() -> dict:
    found = roster(FAMILY)
    assert found.usable
    return found.model


# ---- the sandbox: no way out ------------------------------------------------------------------

ESCAPES = [
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ ().__class__.__bases__[0].__subclasses__() }}",
    "{{ cycler.__init__.__globals__.os.popen('touch PWNED').read() }}",
    "{{ joiner.__init__.__globals__.os.system('touch PWNED') }}",
    "{{ namespace.__init__.__globals__['os'].system('touch PWNED') }}",
    "{{ lipsum.__globals__['os'].popen('touch PWNED').read() }}",
    "{{ self.__init__.__globals__.__builtins__.open('PWNED', 'w') }}",
    "{{ roster.__class__.__init__.__globals__ }}",
    "{{ fighters.pop() }}{{ roster.update({'title': 'hacked'}) }}",
    "{{ (title|attr('__class__')).__subclasses__() }}",
    "{{ config.__class__.__init__.__globals__['os'].popen('touch PWNED').read() }}",
    "{{ request.application.__globals__.__builtins__.__import__('os').system('touch PWNED') }}",
    "{{ ''.__class__.__mro__[1].__subclasses__()[0].__init__.__globals__['sys'] }}",
]


@pytest.mark.parametrize("text", ESCAPES)
def test_no_way_out_of_the_sandbox(tmp_path, monkeypatch, text):
    monkeypatch.chdir(tmp_path)   # where a command, had it run, would leave PWNED
    path = tmp_path / "evil.md.j2"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["roster", str(ROOT / FAMILY), "--template", str(path)])
    stderr = refused(result)
    assert re.search(r"evil\.md\.j2:1:\d+: error\[E661\]", stderr)
    assert not (tmp_path / "PWNED").exists()
    assert "<class" not in stderr and "<module" not in stderr


def test_unsafe_attribute_is_pointed_at(tmp_path):
    result, _ = with_template(tmp_path, "# {{ title }}\n\n{{ cycler.__init__.__globals__ }}\n")
    stderr = refused(result)
    assert "t.md.j2:3:11: error[E661]: the template did something a template may not: access " \
           "to attribute '__init__'" in stderr
    assert " 3 | {{ cycler.__init__.__globals__ }}" in stderr
    assert "   |           ^^^^^^^^" in stderr
    assert "sandbox" in stderr


def test_the_data_a_template_gets_cannot_be_changed(tmp_path):
    result, _ = with_template(
        tmp_path, "{% for f in fighters %}{% set _ = f.update({'name': 'x'}) %}{% endfor %}")
    assert "attribute 'update' of 'dict' object is unsafe" in refused(result)


# ---- bounded work -------------------------------------------------------------------------------

HUGE = [
    ("{{ range(10**9)|list }}", "range() of more than 100,000"),
    ('{{ "x" * 10**9 }}', "too large"),
    ("{{ [1] * 10**9 }}", "too large"),
    ("{{ 10**100000 }}", "a power too large"),
    (("{% set ns = namespace(n=2) %}{% for i in range(40) %}{% set ns.n = ns.n * ns.n %}"
      "{% endfor %}{{ ns.n }}"), "too large"),
    (('{% set ns = namespace(s="x") %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}'
      "{% endfor %}"), "too large"),
    ('{{ "x"|center(1000000000) }}', "the filter 'center' was given 1000000000"),
    ('{{ "x\\n" * 1000 | indent(100000000) }}', "the filter 'indent'"),
    ('{{ "%01000000000d" % 1 }}', "a number of 10,000 or more"),
    ('{{ "%*d" % (1000000000, 1) }}', "was given 1000000000"),
    ('{{ "%01000000000d"|format(1) }}', "a number of 10,000 or more"),
    ('{{ "{:>1000000000}".format(1) }}', "a number of 10,000 or more"),
    ('{{ "{:{}}".format(1, 1000000000) }}', "was given 1000000000"),
    ('{{ ("x" * 3000)|replace("x", "x" * 3000) }}', "too large"),
    ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
     f"ran too long (more than {MAX_TEMPLATE_STEPS:,} steps)"),
    ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "nested too deeply"),
    ("{{ " + "(" * 5000 + "1" + ")" * 5000 + " }}", "t.md.j2: template error: nested too"),
    ("{{ " + "[" * 5000 + "]" * 5000 + " }}", "error"),
    ("{% if 1 %}" * 3000 + "{% endif %}" * 3000, "error"),
    # issue 33, item 11: sizes checked as values are made, not only in the output
    ('{% set a = "x" * 4000000 %}' + "{% set a = a ~ a %}" * 8, "joined with '~' would be too"),
    ('{% set a = "x" * 4000000 %}{% set b = a ~ "y" %}', "joined with '~' would be too"),
    ('{% set a = "x" * 4000000 %}' + "{% set a = a + a %}" * 8, "a sum of strings or lists"),
    ('{% set a = ["x"] * 4000000 %}{% set a = a + a %}', "a sum of strings or lists"),
    ('{{ "x".center(1500000000) }}', "the string method 'center' was given 1500000000"),
    ('{{ "x".ljust(1500000000) }}', "the string method 'ljust' was given"),
    ('{{ "x".zfill(1500000000) }}', "the string method 'zfill' was given"),
    ('{{ ("x" * 3000).replace("x", "x" * 3000) }}', "the result of 'replace' would be too"),
    ('{{ ("x" * 3000).join(["x" * 3000] * 1000) }}', "the result of 'join' would be too"),
    ('{{ (["x" * 3000] * 2000)|join("y") }}', "the result of the filter 'join' would be too"),
    ('{% set s = "x" * 3900000 %}{{ (s|list|sort)|length }}', "ran too long"),
]


@pytest.mark.parametrize("text,says", HUGE)
def test_a_template_cannot_run_away(tmp_path, text, says):
    started = time.monotonic()
    result, _ = with_template(tmp_path, text)
    assert says in refused(result)
    assert time.monotonic() - started < 30   # seconds: each is refused long before its harm


def test_a_big_value_never_output_is_refused_too(tmp_path):
    """Issue 33, item 11: `{% set a = a ~ a %}` eight times built a 1,024,000,000-character
    string and exited 0: only the output was checked, and `a` was never printed."""
    text = '{% set a = "x" * 4000000 %}\n' + "{% set a = a ~ a %}\n" * 8 + "done\n"
    result, _ = with_template(tmp_path, text)
    assert "t.md.j2:2:" in refused(result)


CVE_2025_27516 = [
    '{{ "{0.__class__.__init__.__globals__}"|attr("format")(cycler) }}',
    '{% set f = "{0.__class__.__mro__}"|attr("format") %}{{ f(roster) }}',
    '{{ ("{0.__init__.__globals__[os].environ}"|attr("format"))(cycler) }}',
    '{{ "{a.__class__}"|attr("format_map")({"a": cycler}) }}',
]


@pytest.mark.parametrize("text", CVE_2025_27516)
def test_attr_format_is_the_sandboxs_own(tmp_path, monkeypatch, text):
    """CVE-2025-27516: Jinja2 before 3.1.6 gave a template str.format itself through the attr
    filter, and a roster template printed the environment's secrets. The toolkit requires
    3.1.6 and also wraps what attr gives, so no Jinja2 it runs on lets this out."""
    monkeypatch.setenv("WARBAND_SECRET_TOKEN", "hunter2")
    result, _ = with_template(tmp_path, text)
    stderr = refused(result)
    assert "hunter2" not in result.output and "__globals__" not in result.stdout
    assert "unsafe" in stderr or "not safely" in stderr or "access to attribute" in stderr


def test_the_jinja2_floor_has_the_fix():
    """pyproject asks for a Jinja2 with the fix of CVE-2025-27516 (3.1.6), and this one is."""
    import jinja2
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    floor = re.search(r'"jinja2>=([0-9.]+)"', text)
    assert floor is not None
    as_tuple = lambda v: tuple(int(x) for x in re.findall(r"\d+", v)[:3])  # noqa: E731
    assert as_tuple(floor[1]) >= (3, 1, 6)
    assert as_tuple(jinja2.__version__) >= as_tuple(floor[1])


def test_filters_over_collections_of_the_shipped_rosters_cost_little(tmp_path):
    """Filters charge a step per item: a roster's own lists are small."""
    text = "{% for f in fighters|sort(attribute='name') %}{{ f.name|upper }}\n{% endfor %}"
    result, _ = with_template(tmp_path, text)
    assert result.exit_code == 0, result.output


def test_output_is_bounded_and_the_error_points_at_the_loop(tmp_path):
    result, _ = with_template(tmp_path, 'a\n{% for i in range(100000) %}\n{{ "x" * 1000 }}\n'
                                        "{% endfor %}\n")
    stderr = refused(result)
    assert f"t.md.j2:3:1: error[E661]: the roster would be longer than " \
           f"{MAX_TEMPLATE_OUTPUT:,} characters" in stderr


def test_a_loop_that_ends_is_fine(tmp_path):
    result, _ = with_template(tmp_path, "{% for i in range(1000) %}{{ i % 10 }}{% endfor %}")
    assert result.exit_code == 0, result.output
    assert result.stdout == "0123456789" * 100


def test_the_shipped_templates_need_a_tiny_part_of_the_step_budget(monkeypatch):
    used = []
    exit_ = template_sandbox.StepBudget.__exit__

    def record(self, *exc):
        used.append(MAX_TEMPLATE_STEPS - self.left)
        return exit_(self, *exc)

    monkeypatch.setattr(template_sandbox.StepBudget, "__exit__", record)
    for path in sorted((ROOT / "warbands").glob("*.yaml")):
        found = roster(str(path.relative_to(ROOT)))
        for fmt in ("markdown", "html"):
            render_roster.render_template(found.model, fmt)
    assert used and 0 < max(used) < MAX_TEMPLATE_STEPS // 20   # ~26,000


def test_the_step_budget_puts_back_a_tracer_already_there(tmp_path):
    calls = []

    def tracer(frame, event, arg):
        calls.append(event)

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        with pytest.raises(render_roster.RenderError):
            render_roster.render_template(model(), "markdown", _write(tmp_path, "{{ 1/0 }}"))
        assert sys.gettrace() is tracer
    finally:
        sys.settrace(previous)


def _write(tmp_path: Path, text: str, name: str = "t.md.j2") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# ---- errors at the template's line ------------------------------------------------------------

def test_an_exception_at_line_7_is_reported_at_line_7(tmp_path):
    text = "# {{ title }}\n\n{% for f in fighters %}\n- {{ f.name }}\n{% endfor %}\n\n" \
           "{{ fighters | length / 0 }}\n"
    result, _ = with_template(tmp_path, text)
    stderr = refused(result)
    assert re.search(r"t\.md\.j2:7:\d+: error\[E661\]: template error: ZeroDivisionError: "
                     r"division by zero", stderr)
    assert " 7 | {{ fighters | length / 0 }}" in stderr


def test_an_error_in_an_included_template_names_that_file(tmp_path):
    (tmp_path / "part.md.j2").write_text("one\ntwo {{ nonesuch }}\n", encoding="utf-8")
    result, _ = with_template(tmp_path, "# {{ title }}\n{% include 'part.md.j2' %}\n")
    stderr = refused(result)
    assert re.search(r"part\.md\.j2:2:8: error\[E661\]: template error: 'nonesuch' is "
                     r"undefined", stderr)
    assert " 2 | two {{ nonesuch }}" in stderr


def test_a_syntax_error_has_its_line(tmp_path):
    result, _ = with_template(tmp_path, "# {{ title }}\n\n{{ title | }}\n")
    stderr = refused(result)
    assert re.search(r"t\.md\.j2:3:\d+: error\[E661\]: template syntax error", stderr)
    assert "jinja.palletsprojects.com" in stderr


def test_an_unknown_name_lists_what_the_model_has(tmp_path):
    result, _ = with_template(tmp_path, "{{ title }}\n{{ warband.name }}\n")
    stderr = refused(result)
    assert "t.md.j2:2:4: error[E661]: template error: 'warband' is undefined" in stderr
    assert "the roster model has: title, file" in stderr


def test_including_a_file_outside_the_folder_is_refused(tmp_path):
    (tmp_path / "secret.txt").write_text("secret", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    result, _ = with_template(tmp_path, "{% include '../secret.txt' %}", "sub/t.md.j2")
    stderr = refused(result)
    assert "no template '../secret.txt'" in stderr and "secret\n" not in result.stdout


def test_json_of_a_template_error_is_not_needed_but_the_message_is_one_line(tmp_path):
    with pytest.raises(render_roster.RenderError) as caught:
        render_roster.render_template(model(), "markdown", _write(tmp_path, "\n{{ 1/0 }}"))
    error = caught.value
    assert error.diagnostic is not None and error.diagnostic.code == "E661"
    assert error.diagnostic.span is not None and error.diagnostic.span.line == 2
    assert "\n" not in str(error)


# ---- template files: regular, bounded, UTF-8 ----------------------------------------------------

def test_a_missing_template(tmp_path):
    result = run(FAMILY, "--template", "no/such/template.j2")
    assert "error[E660]: no such template: no/such/template.j2" in refused(result, "E660")


def test_a_folder_is_not_a_template(tmp_path):
    result = run(FAMILY, "--template", str(tmp_path))
    assert "is a folder" in refused(result, "E660")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "pipe.md.j2"
    os.mkfifo(fifo)
    started = time.monotonic()
    result = run(FAMILY, "--template", str(fifo))
    assert "is not a regular file" in refused(result, "E660")
    assert time.monotonic() - started < 10


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_an_included_fifo_is_refused_without_waiting(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    result, _ = with_template(tmp_path, "{% include 'pipe' %}")
    assert "is not a regular file" in refused(result, "E660")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_is_refused():
    result = run(FAMILY, "--template", "/dev/zero")
    assert "/dev/zero is not a regular file" in refused(result, "E660")


def test_a_template_too_large(tmp_path):
    path = tmp_path / "big.md.j2"
    path.write_bytes(b"x" * (MAX_TEMPLATE_BYTES + 1))
    result = run(FAMILY, "--template", str(path))
    assert f"is larger than {MAX_TEMPLATE_BYTES // 1024} kB" in refused(result, "E660")
    path.write_bytes(b"x" * MAX_TEMPLATE_BYTES)
    assert run(FAMILY, "--template", str(path)).exit_code == 0


def test_a_template_that_is_not_utf8_is_placed(tmp_path):
    path = tmp_path / "latin.md.j2"
    path.write_bytes(b"# {{ title }}\nCaf\xe9\n")
    result = run(FAMILY, "--template", str(path))
    stderr = refused(result, "E660")
    assert re.search(r"latin\.md\.j2:2:4: error\[E660\]: a template must be UTF-8 text", stderr)


def test_a_bom_is_dropped(tmp_path):
    path = tmp_path / "bom.md.j2"
    path.write_bytes(b"\xef\xbb\xbf{{ title }}\n")
    result = run(FAMILY, "--template", str(path))
    assert result.exit_code == 0 and result.stdout == "The Family\n"


# ---- the shipped templates, in the same sandbox ----------------------------------------------

def test_the_shipped_templates_render_as_their_golden_files():
    for name in ("the-family", "clockwork-empire", "greedy-dudes", "narnia-patrol"):
        found = roster(f"warbands/{name}.yaml")
        for fmt, ext in (("markdown", "md"), ("html", "html")):
            golden = (ROOT / "tests" / "roster_golden" / f"{name}.{ext}").read_text(
                encoding="utf-8")
            assert render_roster.render_template(found.model, fmt) == golden


# ---- escaping what a warband file says ---------------------------------------------------------

HOSTILE = """\
name: "<script>alert('title')</script> [x](javascript:alert(1)) *b* _i_ `c`"
ruleset: super-simple-skirmish
notes: "<iframe src=x></iframe> | not a cell"
fighters:
  - name: "<img src=x onerror=alert(1)>"
    class: Soldier
    might: 5
    notes: "a | b <b>bold</b> & more"
"""


def hostile(tmp_path: Path, name: str = "w`x.yaml") -> str:
    path = tmp_path / name
    path.write_text(HOSTILE, encoding="utf-8")
    return str(path)


def test_markdown_escapes_html_and_markup_from_the_file(tmp_path):
    result = run(hostile(tmp_path), "--format", "markdown")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "<" not in out and ">" not in out.replace("\n> ", "\n")   # '> ' is the notes' quote
    assert "&lt;img src=x onerror=alert(1)&gt;" in out
    assert "&lt;script&gt;alert('title')&lt;/script&gt;" in out
    assert "\\[x\\](javascript:alert(1)) \\*b\\* \\_i\\_ \\`c\\`" in out
    assert "| &lt;img src=x onerror=alert(1)&gt; |" in out
    assert "a \\| b &lt;b&gt;bold&lt;/b&gt; &amp; more" in out
    # no cell broke a table: every row of each table (the fighters', each card's stats, ...)
    # has as many cells as its header
    tables = [block.splitlines() for block in re.split(r"\n(?!\|)[^\n]*\n", out)]
    for table in tables:
        rows = [line for line in table if line.startswith("|")]
        widths = {len(re.findall(r"(?<!\\)\|", line)) for line in rows}
        assert len(widths) <= 1, rows


def test_markdown_code_spans_survive_backticks(tmp_path):
    assert render_roster.md_code("w`x.yaml") == "``w`x.yaml``"
    assert render_roster.md_code("`edge`") == "`` `edge` ``"
    assert render_roster.md_code("plain-id") == "`plain-id`"
    out = run(hostile(tmp_path), "--format", "markdown").stdout
    assert "``" in out.splitlines()[2]


def test_md_filter():
    assert render_roster.md_cell("a|b\nc <d> & e") == "a\\|b c &lt;d&gt; &amp; e"
    assert render_roster.md_cell("\\*") == "\\\\\\*"
    assert render_roster.md_cell(None) == ""


def test_html_roster_escapes_text_and_attributes(tmp_path):
    result = run(hostile(tmp_path), "--format", "html")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "<img" not in out and "<script>" not in out and "<iframe" not in out
    assert "&lt;img src=x onerror=alert(1)&gt;" in out
    data = model()
    data["fighters"][0]["traits"] = [{"name": "x", "value": 1, "text": "X",
                                      "doc": '"><script>alert(1)</script>'}]
    html = render_roster.render_template(data, "html")
    assert "<script>" not in html and 'title="&#34;&gt;&lt;script&gt;' in html


@pytest.mark.parametrize("name,fmt", [("mine.html.j2", "text"), ("mine.htm", "markdown"),
                                      ("mine.j2", "html")])
def test_user_html_templates_are_escaped(tmp_path, name, fmt):
    template = _write(tmp_path, "<h1>{{ fighters[0].name }}</h1>", name)
    result = run(hostile(tmp_path), "--format", fmt, "--template", template)
    assert result.exit_code == 0, result.output
    assert result.stdout == "<h1>&lt;img src=x onerror=alert(1)&gt;</h1>"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_an_included_link_out_of_the_folder_is_refused(tmp_path):
    (tmp_path / "secret.txt").write_text("the secret", encoding="utf-8")
    (tmp_path / "shared").mkdir()
    os.symlink(tmp_path / "secret.txt", tmp_path / "shared" / "part.j2")
    result, _ = with_template(tmp_path, "{% include 'part.j2' %}", "shared/t.md.j2")
    assert "leads out of the folder" in refused(result, "E660")
    os.symlink(tmp_path / "shared" / "t.md.j2", tmp_path / "shared" / "inside.j2")
    (tmp_path / "shared" / "u.md.j2").write_text("{% include 'inside.j2' %}", encoding="utf-8")
    (tmp_path / "shared" / "t.md.j2").write_text("{{ title }}", encoding="utf-8")
    result = run(FAMILY, "--template", str(tmp_path / "shared" / "u.md.j2"))
    assert result.exit_code == 0 and result.stdout == "The Family", result.output


def test_a_pdf_loads_nothing_from_outside(monkeypatch):
    """A template's <img src="file:///..."> or <a rel=attachment> must not put a local file into
    the PDF: WeasyPrint gets a URL fetcher that allows data: URLs only."""
    import types
    seen = {}

    class HTML:
        def __init__(self, string, url_fetcher):
            seen["fetcher"] = url_fetcher

        def write_pdf(self):
            return b"%PDF"

    fake = types.SimpleNamespace(HTML=HTML, default_url_fetcher=lambda url, *a, **k: {"ok": url})
    monkeypatch.setitem(sys.modules, "weasyprint", fake)
    assert render_roster.pdf("<p>x</p>") == b"%PDF"
    fetch = seen["fetcher"]
    for url in ("file:///etc/passwd", "http://example.com/x.png", "https://x/y", "ftp://x"):
        with pytest.raises(ValueError, match="loads nothing"):
            fetch(url)
    assert fetch("data:image/png;base64,AAAA") == {"ok": "data:image/png;base64,AAAA"}


def _weasyprint():
    try:
        import weasyprint
    except (ImportError, OSError) as error:   # (its Pango libraries may be missing)
        pytest.skip(f"WeasyPrint cannot be loaded here: {error}")
    return weasyprint


def test_a_pdf_with_resources_prints_with_the_installed_weasyprint(tmp_path):
    """Issue 33, item 3: WeasyPrint 70 (what the pdf extra installed) takes a URLFetcher, not a
    function: any resource in a user template, even the data: URL the docs allow, gave
    AttributeError: 'function' object has no attribute '_fail_on_errors'. The fetcher given
    is the one each version takes (60-69: a function; checked by hand with 66.0), and still
    loads data: URLs only."""
    _weasyprint()
    pixel = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42"
             "mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")
    text = (f'<html><body><img src="{pixel}"><img src="file:///etc/passwd">'
            '<a rel="attachment" href="file:///etc/hostname">x</a>'
            '<link rel="stylesheet" href="http://127.0.0.1:9/x.css">{{ title }}</body></html>')
    out = tmp_path / "roster.pdf"
    result, _ = with_template(tmp_path, text, "t.html.j2", "--format", "pdf", "-o", str(out))
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert data.startswith(b"%PDF") and b"/EmbeddedFile" not in data
    assert b"/Image" in data   # (the data: picture is in it)


def test_the_url_fetcher_of_weasyprint_70_loads_data_urls_only():
    weasyprint = _weasyprint()
    fetch = render_roster.data_only(weasyprint)
    if not hasattr(weasyprint, "URLFetcher"):   # (60-69: the function, tested above)
        assert fetch is render_roster.fetch_nothing
        return
    assert isinstance(fetch, weasyprint.URLFetcher)
    for url in ("file:///etc/passwd", "http://example.com/x.png", "ftp://x/y"):
        with pytest.raises(ValueError, match="loads nothing"):
            fetch(url)
    assert fetch("data:text/plain,hello").read() == b"hello"


def test_an_include_in_a_long_loop_is_bounded(tmp_path):
    (tmp_path / "p.j2").write_text("x", encoding="utf-8")
    started = time.monotonic()
    result, _ = with_template(tmp_path, "{% for i in range(100000) %}{% include 'p.j2' %}"
                                        "{% endfor %}")
    assert "ran too long" in refused(result)
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("fmt", ["text", "markdown", "html"])
def test_control_characters_from_the_file_never_reach_the_terminal(tmp_path, fmt):
    path = tmp_path / "esc.yaml"
    path.write_text('name: "Evil\\e[31mRED\\e]0;title\\a\\rX"\nruleset: super-simple-skirmish\n'
                    'fighters:\n  - {name: "A\\e[2J\\x9b", class: Soldier, might: 5}\n',
                    encoding="utf-8")
    result = run(str(path), "--format", fmt)
    assert result.exit_code == 0, result.output
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", result.stdout)
    assert re.search(r"Evil\ufffd\\?\[31mRED", result.stdout)


# ---- any template: a roster or one well-placed diagnostic ---------------------------------------

FRAGMENTS = ["{{", "}}", "{%", "%}", "{#", "#}", " ", "\n", "for", "f", "in", "fighters",
             "endfor", "if", "endif", "else", "macro", "m()", "endmacro", "set", "=", "x",
             "range(", "99999", ")", "(", "[", "]", ".", "f.name", "title", "|", "md",
             "md_code", "length", "join", "center(", "format", "replace(", "'a'", ",", "~",
             "*", "**", "%", "/", "0", "1", "__class__", "__globals__", "__subclasses__()",
             "mro()", "cycler", "namespace(", "include", "extends", "'warband/roster.html.j2'",
             "'warband/roster.md.j2'", "'t.j2'", "block", "endblock", "super()", "loop.index",
             "self", "call", "endcall", "attr(", "'__init__'", "map(", "list", "none", "true"]


def render_any(tmp_path: Path, text: str):
    path = tmp_path / "t.j2"
    path.write_text(text, encoding="utf-8")
    try:
        return render_roster.render_template(model(), "markdown", str(path))
    except render_roster.RenderError as error:
        return error


def test_template_soup_gives_a_roster_or_a_well_placed_diagnostic(tmp_path):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    @settings(max_examples=60, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.lists(st.sampled_from(FRAGMENTS), max_size=30))
    def check(words):
        text = "".join(words)
        result = render_any(tmp_path, text)
        if isinstance(result, str):
            return
        d = result.diagnostic
        assert d is not None and d.code in ("E660", "E661"), (text, str(result))
        assert "\n" not in d.message
        if d.span is not None:
            shown = result.sources.texts.get(d.span.file) if result.sources else None
            if shown is not None:   # the template itself, or a built-in one
                assert 1 <= d.span.line <= shown.count("\n") + 1, (text, d)
                line = shown.split("\n")[d.span.line - 1]
                assert 1 <= d.span.column <= len(line) + 1, (text, d)

    check()

"""Start-up: option values converted without pydantic, rich only when something is drawn with it."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import List

from kernelport.cli_values import _Slow, converter

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def _loaded_after(*argv: str, heavy=("pydantic", "rich", "jinja2"), after: str = "") -> list[str]:
    """The heavy modules a `kernelport ARGV` run imported (run in a fresh interpreter)."""
    code = ("import sys; sys.argv = ['kernelport', *sys.argv[1:]]\nfrom kernelport.entry import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n" + after +
            f"print(sorted(m for m in {tuple(heavy)!r} if m in sys.modules), file=sys.stderr)")
    r = subprocess.run([sys.executable, "-P", "-c", code, *argv], capture_output=True, text=True, timeout=300, cwd=ROOT)
    return eval(r.stderr.strip().splitlines()[-1])  # noqa: S307 - the list printed above


def test_clean_one_file_lint_imports_neither_pydantic_nor_rich():
    assert _loaded_after("lint", "-j", "1", "--select", "WS,SY", str(EXAMPLES / "saxpy.cu")) == []


def test_one_file_lint_imports_no_process_pool_json_or_translator_until_they_are_used():
    heavy = ("concurrent.futures", "multiprocessing", "json", "shlex", "kernelport.translate", "kernelport.lint.fix")
    assert _loaded_after("lint", str(EXAMPLES / "saxpy.cu"), heavy=heavy) == []
    # re-pinned at stop 56 (h/speed56b): warp_reduce.cu's six findings are all 32-lane-row advice, whose fix
    # falls away, and a fix's edit is now made only for a finding that keeps one, so not even the translator
    # is imported; a finding that keeps its fix still imports it (test_startup's
    # test_a_report_whose_fixes_all_fall_away_never_imports_the_translator, its look-alike)
    assert _loaded_after("lint", str(EXAMPLES / "warp_reduce.cu"), heavy=heavy) == []


def test_one_file_lint_reads_only_the_api_table_rows_it_asks_about():
    """The HIP API table has ~9,000 rows; a lint makes an entry of the few names its file uses."""
    after = ("from kernelport import backends\nt = backends.get('hip').api()\n"
             "print('rows', len(t._made), len(t._rows), file=sys.stderr)\n")
    r = subprocess.run([sys.executable, "-P", "-c", "import sys; sys.argv = ['kernelport', 'lint', sys.argv[1]]\n"
                        "from kernelport.entry import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n" + after,
                        str(EXAMPLES / "saxpy.cu")], capture_output=True, text=True, timeout=300, cwd=ROOT)
    made, rows = map(int, next(ln for ln in r.stderr.splitlines() if ln.startswith("rows ")).split()[1:])
    assert rows > 8000 and made < 50, (made, rows)


def test_findings_in_the_full_format_draw_with_rich_still_without_pydantic():
    # re-pinned at stop 51: a pipe gets the full format without rich (kernelport/lint/formats.plain_full,
    # the same bytes); a terminal's colours are still rich's
    assert _loaded_after("lint", str(EXAMPLES / "warp_reduce.cu")) == []
    assert _loaded_after("--color", "always", "lint", str(EXAMPLES / "warp_reduce.cu")) == ["rich"]


def test_plain_values_are_converted_here():
    assert converter(int)("12") == 12 and converter(int)("-3") == -3
    assert converter(float)("1.5e3") == 1500.0 and converter(float)(".5") == 0.5
    assert converter(Path)("a/b.cu") == Path("a/b.cu")
    assert converter(List[Path])(("x.cu", "y.cu")) == [Path("x.cu"), Path("y.cu")]
    assert converter(List[str])(["WS", "SY001"]) == ["WS", "SY001"]
    assert converter(bool)(True) is True


def test_anything_else_goes_to_typers_adapter():
    for convert, value in [(converter(int), "abc"), (converter(int), "1_000"), (converter(int), "2.0"),
                           (converter(float), "nan"), (converter(Path), ""), (converter(bool), "yes")]:
        try:
            convert(value)
        except _Slow:
            continue
        raise AssertionError(f"{value!r} was converted here")
    assert converter(dict) is None and converter(List[dict]) is None


def test_a_malformed_number_keeps_typers_message():
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", "lint", "-j", "abc", str(EXAMPLES / "saxpy.cu")],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 2
    assert "Invalid value for '--jobs' / '-j': Input should be a valid integer" in r.stderr
    ok = subprocess.run([sys.executable, "-P", "-m", "kernelport", "lint", "-j", "1", str(EXAMPLES / "saxpy.cu")],
                        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert ok.returncode == 0, ok.stderr


def test_without_typers_0_29_conversion_layer_install_leaves_typer_as_it_is():
    """typer before 0.29 has no `typer._coercion` (and converts through click, without pydantic):
    kernelport must not need that private module (the H200 host's typer 0.27 failed to import
    kernelport.cli).  The module is hidden in a child interpreter."""
    code = ("import sys; sys.modules['typer._coercion'] = None\n"
            "import kernelport.cli_values as c\n"
            "assert c.RuntimeParam is None and not hasattr(c, 'PlainParam')\n"
            "class P: type_descriptor = None\n"
            "p = P(); c.install([p]); assert not hasattr(p, '_runtime_param')\n"
            "print('ok')")
    r = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.stdout.strip() == "ok", r.stderr

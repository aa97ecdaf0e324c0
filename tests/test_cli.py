"""crib.cli: every verb's help, an unknown verb, the one place errors become `crib: error:`,
and a start-up that imports no command's heavy modules (they load inside run())."""

import importlib
import json
import pkgutil
import subprocess
import sys

import pytest

from crib import commands
from crib.cli import VERBS, main
from crib.errors import CribError
from cribcore.cards import InvalidCardError

VERBS = sorted(VERBS)
# What a command needs only when it runs: tables built at import, the serial deploy tool,
# the table flow, the virtual board, drawing, the hardware documents, rich.
HEAVY = ("crib.analysis.fastshow", "crib.analysis.advise", "crib.analysis.advise_tables",
         "crib.solitaire.solve",
         "mpremote", "crib.deploy.device", "crib.deploy.plan", "crib.deploy.build",
         "crib.hardware", "crib.hardware.svg",
         "crib.table.engine", "crib.table.session", "crib.table.turns", "crib.sim.virtual",
         "crib.sim.screen",
         "crib.picture.model", "crib.picture.snapshot", "crib.layout.face", "rich", "xml.sax",
         "schemdraw", "ezdxf", "fpdf", "numpy")


def _exit_code(argv):
    """main's exit code, whether returned or raised by argparse (help, usage errors)."""
    try:
        return main(argv)
    except SystemExit as e:
        return e.code


def test_the_verbs_are_found():
    assert {"score", "peg", "discard", "play", "practice", "shuffle", "board"} <= set(VERBS)


def test_the_verb_table_names_every_command_module():
    modules = {"crib.commands." + m.name for m in pkgutil.iter_modules(commands.__path__)
               if not m.name.startswith("_")}
    from crib.cli import VERBS as table

    assert set(table.values()) == modules
    assert all(path.endswith("." + verb.replace("-", "_")) for verb, path in table.items())


@pytest.mark.parametrize("verb", VERBS)
def test_every_verb_has_help(verb, capsys):
    assert _exit_code([verb, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: crib %s " % verb)


def test_the_top_help_lists_every_verb_with_its_line(capsys):
    assert _exit_code(["--help"]) == 0
    out = capsys.readouterr().out
    for verb in VERBS:
        mod = importlib.import_module("crib.commands." + verb.replace("-", "_"))
        assert verb in out and mod.HELP[:40] in " ".join(out.split())


def test_an_unknown_verb_is_a_usage_error(capsys):
    assert _exit_code(["frobnicate"]) == 2
    assert capsys.readouterr().err.startswith("usage: crib")


def test_no_verb_prints_help_and_returns_2(capsys):
    assert main([]) == 2
    assert capsys.readouterr().out.startswith("usage: crib")


class _Refused(CribError):
    """A user error raised by the patched command."""


@pytest.mark.parametrize("error", [_Refused("no board"), InvalidCardError("'5x'")])
def test_a_user_error_in_a_command_is_one_line_and_exit_1(error, monkeypatch, capsys):
    def run(args, env):
        raise error
    monkeypatch.setattr("crib.commands.score.run", run)
    assert main(["score", "5h", "5c", "5d", "jh", "5s"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "crib: error: %s\n" % error


def test_an_interrupt_is_exit_130_and_a_bug_is_a_traceback(monkeypatch, capsys):
    def interrupted(args, env):
        raise KeyboardInterrupt
    monkeypatch.setattr("crib.commands.score.run", interrupted)
    assert main(["score", "5h", "5c", "5d", "jh", "5s"]) == 130
    assert capsys.readouterr().err.startswith("crib: ")

    def bug(args, env):
        raise ZeroDivisionError
    monkeypatch.setattr("crib.commands.score.run", bug)
    with pytest.raises(ZeroDivisionError):
        main(["score", "5h", "5c", "5d", "jh", "5s"])


def test_building_the_parser_imports_no_heavy_module():
    code = ("import json, sys; import crib.cli; crib.cli.build_parser(); "
            "print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    loaded = set(json.loads(done.stdout))
    assert "crib.commands.score" in loaded and "crib.commands.deploy" in loaded
    assert sorted(loaded & set(HEAVY)) == []


def test_a_command_still_finds_its_heavy_modules_when_it_runs(capsys):
    assert main(["discard", "5h", "5c", "5d", "jh", "js", "qs", "--dealer", "--json"]) == 0
    ranked = json.loads(capsys.readouterr().out)["discards"]
    assert len(ranked) == 15 and ranked[0]["best"]


@pytest.mark.parametrize("action", ["status", "peg", "undo", "new", "set", "watch", "snapshot"])
def test_every_board_action_has_help(action, capsys):
    assert _exit_code(["board", action, "--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: crib board")


def test_version_names_the_release_the_protocol_and_the_firmware(capsys):
    from importlib.metadata import version

    from crib.layout.source import firmware_dir
    from cribcore.protocol import PROTO

    assert _exit_code(["--version"]) == 0
    out = capsys.readouterr().out
    assert out == "crib %s (ledcrib; protocol %d; firmware %s)\n" % (
        version("ledcrib"), PROTO, firmware_dir())


def _bash_completes(script, words):
    """What bash offers after `crib WORDS...` (the last word being typed) with script."""
    line = " ".join(["crib"] + words)
    probe = ('source "$1"; COMP_WORDS=(crib %s); COMP_CWORD=%d; COMP_LINE=%s; '
             'COMP_POINT=${#COMP_LINE}; _shtab_crib; printf "%%s\\n" "${COMPREPLY[@]}"'
             % (" ".join("'%s'" % w for w in words), len(words), "'%s'" % line))
    done = subprocess.run(["bash", "-c", probe, "bash", script], capture_output=True,
                          text=True, check=True)
    return done.stdout.split()


def test_bash_completion_offers_the_verbs_and_their_choices(tmp_path, capsys):
    assert main(["completion", "bash"]) == 0
    script = tmp_path / "crib.bash"
    script.write_text(capsys.readouterr().out)
    assert sorted(_bash_completes(str(script), [""])) == sorted(set(VERBS))
    assert _bash_completes(str(script), ["sc"]) == ["score"]
    assert _bash_completes(str(script), ["board", "s"]) == ["status", "set", "snapshot"]
    assert _bash_completes(str(script), ["completion", ""]) == ["bash", "zsh", "tcsh"]
    assert "--json" in _bash_completes(str(script), ["score", "--"])


def test_zsh_completion_is_a_compdef_for_crib_with_every_verb(capsys):
    assert main(["completion", "zsh"]) == 0
    script = capsys.readouterr().out
    assert script.startswith("#compdef crib")
    for verb in VERBS:
        assert "\n    %s:'" % verb in script, verb


def test_an_unknown_shell_is_a_usage_error(capsys):
    assert _exit_code(["completion", "fish"]) == 2
    assert "invalid choice: 'fish'" in capsys.readouterr().err


def test_completion_help_keeps_its_install_lines(capsys):
    assert _exit_code(["completion", "--help"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert ("  bash:  crib completion bash > ~/.local/share/bash-completion/completions/crib"
            in lines)

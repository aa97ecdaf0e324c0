"""firmware/image/build.py, the script that builds our MicroPython image: its UF2 container,
its cache key over every input (so that no cached image is ever stale), the link map's
heap, its manifest and its command line. The build itself (minutes) runs in .ci/run,
before the emulated Pico tier, and in bench/chip.py."""

import importlib.util
import shutil
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import ROOT

from crib.deploy import build as deploy

FIRMWARE = ROOT / "firmware"
SPEC = importlib.util.spec_from_file_location("image_build", FIRMWARE / "image" / "build.py")
image = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(image)


def read_uf2(data):
    """{address: byte} and the family ids of a UF2, read as a loader reads it."""
    assert len(data) % 512 == 0
    mem, families, numbers = {}, set(), []
    for off in range(0, len(data), 512):
        block = data[off:off + 512]
        m0, m1, flags, addr, size, n, total, family = struct.unpack("<8I", block[:32])
        assert (m0, m1) == image.UF2_MAGIC[:2]
        assert struct.unpack("<I", block[508:])[0] == image.UF2_MAGIC[2]
        assert flags & image.UF2_FAMILY_FLAG and size == 256 and addr % 256 == 0
        assert total == len(data) // 512
        numbers.append(n)
        families.add(family)
        for i in range(size):
            mem[addr + i] = block[32 + i]
    assert numbers == list(range(len(numbers)))
    return mem, families


@settings(max_examples=30, deadline=None)
@given(st.binary(min_size=1, max_size=2000), st.sampled_from(sorted(image.BOARDS)))
def test_the_uf2_holds_the_image_byte_for_byte_at_the_flash_base(data, board):
    mem, families = read_uf2(image.uf2(data, image.BOARDS[board]))
    assert families == {image.BOARDS[board]}
    assert bytes(mem[image.FLASH_BASE + i] for i in range(len(data))) == data
    # the last block is padded with zeros, never with anything else
    assert all(mem[a] == 0 for a in mem if a >= image.FLASH_BASE + len(data))


def test_rp2040_and_rp2350_boards_get_their_families():
    assert image.BOARDS["RPI_PICO"] == image.BOARDS["RPI_PICO_W"] == 0xE48BFF56
    assert image.BOARDS["RPI_PICO2_W"] == 0xE48BFF59


def test_the_gc_heap_is_read_from_a_link_map():
    text = ("                0x20041000                __GcHeapStart = .\n"
            "                0x2007e000                __GcHeapEnd = (ORIGIN (RAM) + ...)\n")
    assert image.gc_heap(text) == 0x2007E000 - 0x20041000
    assert image.gc_heap("no heap here") is None


def copy_inputs(dst):
    """The firmware tree's inputs of the image, copied under dst; dst."""
    for name in image.OURS + ("image",):
        shutil.copytree(FIRMWARE / name, dst / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    for name in image.MODULES:
        shutil.copyfile(FIRMWARE / name, dst / name)
    return dst


@pytest.fixture
def gcc(monkeypatch):
    """The cross compiler's version line the keys read, set by the test: the default tier
    runs where no ARM toolchain is installed (CI installs it after, for the pico tier), and
    a key is a function of its inputs, the compiler's version line one of them."""
    version = {"line": "arm-none-eabi-gcc (15:13.2.rel1-2) 13.2.1 20231009"}
    monkeypatch.setattr(image, "compiler", lambda: version["line"])
    return version


def test_the_key_changes_with_every_input_and_only_with_them(tmp_path, gcc):
    source = tmp_path / "src.tar.xz"
    source.write_bytes(b"the sources")
    tree = copy_inputs(tmp_path / "fw")
    first = image.key("RPI_PICO", source, tree)
    assert first == image.key("RPI_PICO", source, tree)  # the same inputs, the same key
    assert image.key("RPI_PICO_W", source, tree) != first
    (tree / "README").write_text("not an input")
    assert image.key("RPI_PICO", source, tree) == first
    keys = {first}
    names = [name for name, path in image.inputs(source, tree)
             if path.is_relative_to(tree) or path == source]
    assert {"build.py", "manifest.py", "cribcore/cards.py", "boardweb/server.py",
            "pegboard/app.py", "fastboot.py", "source"} <= set(names)
    for _, path in image.inputs(source, tree):
        if not (path.is_relative_to(tree) or path == source):
            continue  # microdot, installed: pinned
        before = path.read_bytes()
        path.write_bytes(before + b"\n")
        keys.add(image.key("RPI_PICO", source, tree))
        path.write_bytes(before)
    assert len(keys) == len(names) + 1  # each input changed makes a key of its own
    (tree / "pegboard" / "new.py").write_text("X = 1\n")  # a new module is an input too
    assert image.key("RPI_PICO", source, tree) not in keys
    keys.add(image.key("RPI_PICO", source, tree))
    gcc["line"] = "arm-none-eabi-gcc 14.2.1"  # another compiler, another image
    assert image.key("RPI_PICO", source, tree) not in keys


def test_the_ram_key_follows_the_sources_and_the_script_not_our_code(tmp_path, gcc):
    """bench/chip.py takes the Pico W's heap from a cached image of the same ram_key."""
    source = tmp_path / "src.tar.xz"
    source.write_bytes(b"the sources")
    tree = copy_inputs(tmp_path / "fw")
    first = image.ram_key("RPI_PICO_W", source, tree)
    assert image.ram_key("RPI_PICO", source, tree) != first
    (tree / "pegboard" / "app.py").write_text("X = 1\n")  # frozen into flash: no RAM
    assert image.ram_key("RPI_PICO_W", source, tree) == first
    (tree / "image" / "build.py").write_text("EXTRA_STACK = 0\n")
    second = image.ram_key("RPI_PICO_W", source, tree)
    source.write_bytes(b"other sources")
    assert len({first, second, image.ram_key("RPI_PICO_W", source, tree)}) == 3


def test_the_manifest_freezes_what_the_key_covers():
    text = (FIRMWARE / "image" / "manifest.py").read_text()
    for package in image.OURS:
        assert 'package("%s", base_path="..")' % package in text
    for name in image.MODULES:
        assert 'module("%s", base_path="..")' % name in text
    # microdot's modules: the ones crib deploy compiles for a board with Wi-Fi
    assert image.MICRODOT == deploy.LIBRARIES["boardweb"][1]
    assert all('"%s"' % name in text for name in image.MICRODOT)


def test_the_image_folder_never_goes_on_a_board():
    sources = deploy.firmware_sources(FIRMWARE, deploy.OPTIONAL)
    assert sources and not any(rel.parts[0] == "image" for rel in sources)


def test_a_cached_image_is_used_when_its_key_matches(tmp_path, monkeypatch):
    monkeypatch.setattr(image, "key", lambda board, source, firmware=None, extra=(): "ab" * 32)
    built = []
    monkeypatch.setattr(image, "build", lambda *a: built.append(a))
    folder = tmp_path / ("RPI_PICO-" + "ab" * 8)
    folder.mkdir()
    (folder / "image.json").write_text("{}")
    said = []
    assert image.image("RPI_PICO", tmp_path, out=said.append) == folder
    assert built == [] and "cached" in said[0]


def test_the_cache_folder_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("CRIB_IMAGE_CACHE", str(tmp_path / "c"))
    assert image.cache_root() == tmp_path / "c"
    monkeypatch.delenv("CRIB_IMAGE_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert image.cache_root() == tmp_path / "x" / "ledcrib" / "image"
    assert image.cache_root(tmp_path / "given") == tmp_path / "given"


def test_bad_arguments_exit_2_and_build_nothing(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        image.main(["NO_SUCH_BOARD"])
    assert e.value.code == 2
    assert image.main(["RPI_PICO", "--source", str(tmp_path / "missing.tar.xz"),
                       "--cache", str(tmp_path / "cache")]) == 2
    assert "missing" in capsys.readouterr().err
    assert not (tmp_path / "cache").exists()


def test_a_failed_step_says_so_and_exits_1(tmp_path, monkeypatch, capsys):
    def fails(*a, **k):
        raise image.BuildFailed("make failed:\nerror: the tail")

    monkeypatch.setattr(image, "image", fails)
    source = tmp_path / "src.tar.xz"
    source.write_bytes(b"x")
    assert image.main(["RPI_PICO", "--source", str(source)]) == 1
    assert "the tail" in capsys.readouterr().err
    assert Path(image.__file__).parent == FIRMWARE / "image"


def test_our_rp2040_linker_script_gives_the_stack_8k_more_from_the_heap(tmp_path):
    port = tmp_path / "rp2"
    port.mkdir()
    lines = [old for old, _ in image.STACK_LINES]
    (port / image.RP2040_LINKER).write_text("/* before */\n" + "\n".join(lines) + "\n")
    text = image.linker_script(port, tmp_path).read_text()
    assert "__GcHeapEnd = ORIGIN(RAM) + LENGTH(RAM) - 8192;" in text
    assert "__StackBottom = __StackTop - SIZEOF(.stack_dummy) - 8192;" in text
    assert "/* before */" in text and not any(old in text for old in lines)
    (port / image.RP2040_LINKER).write_text(lines[0])  # another release's script: refused
    with pytest.raises(image.BuildFailed):
        image.linker_script(port, tmp_path)


def run_manifest(monkeypatch, extra=None):
    """The calls manifest.py makes of makemanifest's API: [(verb, name)]."""
    calls = []
    names = {"include": lambda path: calls.append(("include", path)),
             "package": lambda name, **kw: calls.append(("package", name)),
             "module": lambda name, **kw: calls.append(("module", name))}
    for name in ("CRIB_IMAGE_BOARD_MANIFEST", "CRIB_IMAGE_TAG", "CRIB_IMAGE_LIBRARIES"):
        monkeypatch.setenv(name, name.lower())
    if extra is None:
        monkeypatch.delenv("CRIB_IMAGE_EXTRA", raising=False)
    else:
        monkeypatch.setenv("CRIB_IMAGE_EXTRA", str(extra))
    code = (FIRMWARE / "image" / "manifest.py").read_text()
    exec(compile(code, "manifest.py", "exec"), dict(names, __name__="manifest"))
    return calls


def test_a_benchs_copy_freezes_its_own_modules_too_under_a_key_of_its_own(
        tmp_path, monkeypatch, gcc):
    plain = run_manifest(monkeypatch)
    more = tmp_path / "extra"
    more.mkdir()
    (more / "chipgame.py").write_text("X = 1\n")
    (more / "tablegame.py").write_text("Y = 2\n")
    bench = run_manifest(monkeypatch, more)
    assert [c for c in bench if c not in plain] == [("module", "chipgame.py"),
                                                   ("module", "tablegame.py")]
    source = tmp_path / "src.tar.xz"
    source.write_bytes(b"the sources")
    tree = copy_inputs(tmp_path / "fw")
    extra = (more / "chipgame.py", more / "tablegame.py")
    first = image.key("RPI_PICO", source, tree, extra)
    assert first != image.key("RPI_PICO", source, tree)
    (more / "chipgame.py").write_text("X = 2\n")
    assert image.key("RPI_PICO", source, tree, extra) != first  # the bench's code: an input
    monkeypatch.setattr(image, "key", lambda *a, **kw: "cd" * 32)
    folder = tmp_path / "cache" / ("RPI_PICO+bench-" + "cd" * 8)  # beside the board's own
    folder.mkdir(parents=True)
    (folder / "image.json").write_text("{}")
    assert image.image("RPI_PICO", tmp_path / "cache", out=print, extra=extra) == folder


def stock_boards(tmp_path, names):
    """The rp2 port's folder with these boards' folders in it, from the pinned sources'
    tarball."""
    import tarfile

    with tarfile.open(image.SOURCE) as tar:
        members = [m for m in tar.getmembers()
                   if any("/ports/rp2/boards/%s/" % n in "/" + m.name for n in names)]
        assert members, "no board folder in %s" % image.SOURCE
        tar.extractall(tmp_path / "mp", members=members, filter="data")
    (boards,) = (tmp_path / "mp").rglob("ports/rp2/boards")
    return boards.parent


@pytest.mark.parametrize("board", ["RPI_PICO_W", "RPI_PICO2_W"])
def test_our_w_images_leave_bluetooth_out_and_change_nothing_else(tmp_path, board):
    port = stock_boards(tmp_path, [board])
    stock = port / "boards" / board
    ours = image.board_folder(port, board, tmp_path / "work")
    assert ours != stock and ours.parent == tmp_path / "work"
    cmake = (ours / "mpconfigboard.cmake").read_text()
    for on, off in image.BLUETOOTH_OFF:
        assert on not in cmake and cmake.count(off) == 1
    # every other line of the port's cmake is kept, and the cyw43 headers named
    kept = [ln for ln in (stock / "mpconfigboard.cmake").read_text().splitlines()
            if ln not in {on for on, _ in image.BLUETOOTH_OFF}]
    assert all(ln in cmake.splitlines() for ln in kept)
    assert image.CYW43_HEADERS.strip() in cmake
    manifest = (ours / "manifest.py").read_text()
    assert "aioble" not in manifest and 'require("bundle-networking")' in manifest
    for path in stock.iterdir():  # the board's other files as they are
        if path.name not in ("mpconfigboard.cmake", "manifest.py"):
            assert (ours / path.name).read_bytes() == path.read_bytes()


def test_a_board_without_bluetooth_is_built_from_the_ports_own_folder(tmp_path):
    port = stock_boards(tmp_path, ["RPI_PICO"])
    assert image.board_folder(port, "RPI_PICO", tmp_path / "work") == \
        port / "boards" / "RPI_PICO"
    assert not (tmp_path / "work").exists()


def test_a_w_board_whose_cmake_is_not_as_expected_is_refused(tmp_path):
    port = stock_boards(tmp_path, ["RPI_PICO_W"])
    cmake = port / "boards" / "RPI_PICO_W" / "mpconfigboard.cmake"
    cmake.write_text(cmake.read_text().replace(image.BLUETOOTH_OFF[1][0], ""))
    with pytest.raises(image.BuildFailed, match="BTSTACK"):
        image.board_folder(port, "RPI_PICO_W", tmp_path / "work")

"""The code pack (firmware/fastboot.py, written by crib deploy's build): every module of
the firmware's packages, read back exactly; its folders and nothing else; a damaged
module read from its own file; a damaged pack refused whole."""

import errno

import pytest
from support import FIRMWARE, packed_at

from crib.deploy import build


def fastboot():
    return build.fastboot(FIRMWARE)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    return out, build.build(out)


def test_the_pack_holds_every_module_of_the_packages_exactly(built):
    out, written = built
    fb = fastboot()
    assert out / "code.pack" in written
    pack = fb.Pack(str(out / "code.pack"), root=str(out))
    modules = sorted(p for p in written if p.suffix == ".mpy"
                     and p.relative_to(out).parts[0] in fb.PACKAGES)
    assert len(modules) > 20
    for path in modules:
        name = "/" + path.relative_to(out).as_posix()
        assert pack.stat(name)[0] == 0x8000 and pack.stat(name)[6] == path.stat().st_size
        assert pack.open(name, "rb").read() == path.read_bytes(), name
    assert pack.stat("/pegboard")[0] == pack.stat("/cribcore")[0] == 0x4000
    for name in ("/pegboard/render.py", "/pegboard/nope.mpy", "/main.py", "/desk.mpy",
                 "/config.json", "/state.0/h", "/pegboard/render"):
        with pytest.raises(OSError) as e:
            pack.stat(name)
        assert e.value.args[0] == errno.ENOENT, name
    with pytest.raises(OSError):
        pack.open("/pegboard/render.mpy", "wb")  # read-only
    pack.umount()


def test_a_module_damaged_in_the_pack_is_read_from_its_own_file(built, tmp_path):
    out, _ = built
    fb = fastboot()
    data = bytearray((out / "code.pack").read_bytes())
    start, length = packed_at(data, "/pegboard/ticks.mpy")
    data[start + length // 2] ^= 0x40
    (tmp_path / "code.pack").write_bytes(bytes(data))
    pack = fb.Pack(str(tmp_path / "code.pack"), root=str(out))
    got = pack.open("/pegboard/ticks.mpy", "rb")
    assert got.read() == (out / "pegboard" / "ticks.mpy").read_bytes()
    got.close()
    pack.umount()


@pytest.mark.parametrize("cut", ["magic", "size", "index"])
def test_a_damaged_pack_is_refused_whole(built, tmp_path, cut):
    out, _ = built
    fb = fastboot()
    data = bytearray((out / "code.pack").read_bytes())
    if cut == "magic":
        data[0] ^= 1
    elif cut == "size":
        data[len(fb.MAGIC)] = ord("x")
    else:
        data[fb.HEAD + 5] = ord("}")
    (tmp_path / "code.pack").write_bytes(bytes(data))
    with pytest.raises(ValueError):
        fb.Pack(str(tmp_path / "code.pack"))


@pytest.mark.parametrize("fault", [MemoryError, OSError])
def test_a_module_the_pack_cannot_read_is_read_from_its_own_file(built, fault):
    out, _ = built
    pack = fastboot().Pack(str(out / "code.pack"), root=str(out))

    def failing(data):
        raise fault("no room for a second copy")

    pack._stream = failing
    got = pack.open("/pegboard/render.mpy", "rb")
    assert got.read() == (out / "pegboard" / "render.mpy").read_bytes()
    got.close()
    pack.umount()


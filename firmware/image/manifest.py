# The frozen manifest of our MicroPython image (firmware/image/build.py passes it to the rp2
# port's cmake): the board's own frozen modules, then ours, compiled into the image so
# that their bytecode and constants run in place from flash instead of the heap.
# build.py names the board's manifest and the folder holding the installed microdot
# package (pinned in pyproject.toml) in the environment; paths here are relative to this file.
import os

include(os.environ["CRIB_IMAGE_BOARD_MANIFEST"])  # noqa: F821 - makemanifest's API

package("cribcore", base_path="..")  # noqa: F821
package("pegboard", base_path="..")  # noqa: F821
package("boardweb", base_path="..")  # noqa: F821
module("fastboot.py", base_path="..")  # noqa: F821
# A bench's copy of the image (build.py's extra): its own modules, frozen as well.
_extra = os.environ.get("CRIB_IMAGE_EXTRA")
for _name in sorted(os.listdir(_extra)) if _extra else ():
    module(_name, base_path=_extra)  # noqa: F821
# Which image this is (build.py writes it for each build: the board and the key).
module("cribimage.py", base_path=os.environ["CRIB_IMAGE_TAG"])  # noqa: F821
# The modules of microdot the server uses (host/crib/deploy/build.py's LIBRARIES).
package("microdot", files=("__init__.py", "microdot.py", "sse.py", "helpers.py"),  # noqa: F821
        base_path=os.environ["CRIB_IMAGE_LIBRARIES"])

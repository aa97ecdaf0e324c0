"""The error of the hardware documents."""

from crib.errors import CribError


class HardwareError(CribError):
    """A layout the hardware documents cannot be made for (a pin without a header pin)."""

"""femc's exceptions, raised by the package and by its C++ core (_femc)."""


class Error(Exception):
    """The base of femc's errors."""


class InputError(Error, ValueError):
    """Bad input: `field` names it, the message says what is wrong with its value (as femc's command line)."""

    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class MethodError(Error, RuntimeError):
    """A valid system the chosen method cannot solve (e.g. kkt on rank-deficient constraints)."""

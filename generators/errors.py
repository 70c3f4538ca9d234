"""Outcomes of solving a constraint set that are not a unique answer."""


class NotUnique(Exception):
    """The constraints admit more than one value of the target."""


class Inconsistent(Exception):
    """The constraints admit no value at all (or violate the domain the solver is told)."""

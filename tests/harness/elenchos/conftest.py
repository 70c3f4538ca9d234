"""The Elenchos loop's tests use the data side's session fixtures (the family is computed once per process)."""

from tests.elenchos.conftest import benchmark, cover_fam, fam, ladder  # noqa: F401

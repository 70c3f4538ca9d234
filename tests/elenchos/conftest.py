"""Shared fixtures: the configuration family is computed once per test session."""

from __future__ import annotations

import pytest

from elenchos.family import Family, family


@pytest.fixture(scope="session")
def fam() -> Family:
    return family()


@pytest.fixture(scope="session")
def cover_fam() -> Family:
    return family(pi_rsa="cover")


@pytest.fixture(scope="session")
def ladder(fam: Family) -> list[dict]:
    from elenchos.sessions import sessions

    return list(sessions("ladder", fam=fam))


@pytest.fixture(scope="session")
def benchmark(fam: Family) -> list[dict]:
    from elenchos.sessions import sessions

    return list(sessions("benchmark", fam=fam))

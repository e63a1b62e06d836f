"""Run the doctests of chesscore and every one of its modules, so the documented examples of
the public API stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import chesscore


def _modules() -> list[ModuleType]:
    # walk_packages goes into the layers (chesscore.rules, .analysis, .engine) too.
    names = sorted(info.name for info in pkgutil.walk_packages(chesscore.__path__, "chesscore."))
    return [chesscore] + [importlib.import_module(name) for name in names]


@pytest.mark.parametrize("module", _modules(), ids=lambda module: module.__name__)
def test_doctests(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_package_has_doctests() -> None:
    assert doctest.testmod(chesscore).attempted >= 10

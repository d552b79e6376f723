"""The host compiles its visitors' program (net/bytecode.py): visitors run
with PYTHONDONTWRITEBYTECODE, so without the host's bytecode each would
compile Textual and cardtable from source before its first frame."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import tui
from net.bytecode import compile_folders, program_folders


def _cached(source: Path) -> Path:
    return Path(importlib.util.cache_from_source(str(source)))


def test_compiles_a_folder_and_a_one_file_module_and_skips_what_it_cannot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "pycache_prefix", None)  # beside the sources
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mod.py").write_text("VALUE = 1\n")
    (package / "broken.py").write_text("def (:\n")
    single = tmp_path / "single.py"
    single.write_text("VALUE = 2\n")
    compile_folders([package, single, tmp_path / "missing"])
    assert _cached(package / "mod.py").is_file()
    assert _cached(single).is_file()
    assert not _cached(package / "broken.py").exists()
    assert capsys.readouterr() == ("", "")  # the host's terminal stays quiet


def test_the_program_is_cardtable_and_the_libraries_its_start_imports() -> None:
    import textual

    folders = program_folders()
    assert Path(tui.__file__).parent in folders
    assert Path(textual.__file__).parent in folders

"""The language table (sparsebench/analysis/languages.py) is the one place a language is
named: every entry's module builds its chain and every data file it names exists (the
docs' languages page is made from it: tests/test_docs.py)."""

from __future__ import annotations

import importlib
from importlib import resources

import pytest
from conftest import REPO

from sparsebench.analysis import languages
from sparsebench.analysis.settings import resolve_analyzer
from sparsebench.core.errors import ConfigError


@pytest.mark.parametrize("code", sorted(languages.LANGUAGES))
def test_every_entry_names_its_builder_and_files(code):
    entry = languages.LANGUAGES[code]
    assert entry.code == code
    assert entry.lucene_class.rsplit(".", 1)[1].endswith("Analyzer")
    for name in entry.data:
        assert resources.files("sparsebench").joinpath("resources", "lucene", name).is_file(), name
    if entry.builder is None:
        assert not entry.exact and languages.anserini_language(code) is None
        with pytest.raises(ConfigError, match=f"no Lucene analyzer for language '{code}'"):
            languages.chain(code)
    else:
        assert callable(importlib.import_module(entry.builder).chain)
        # a Lucene analyzer Anserini gives no language: its datasets get English's
        assert languages.anserini_language(code) == ("en" if entry.anserini == "never" else code)


def test_basque_is_picked_by_name_only_as_anserini_gives_basque_english():
    assert languages.anserini_language("eu") == "en"
    assert resolve_analyzer({}, "eu") == {"lucene": "en"}
    assert resolve_analyzer({"lucene": "eu"}, "en") == {"lucene": "eu"}
    assert languages.analyzer_label({"lucene": "eu"}) == "BasqueAnalyzer"


def test_thai_is_the_only_gpl_folder():
    gpl = {code for code, entry in languages.LANGUAGES.items() if "GPL" in entry.licence}
    assert gpl == {"th"}
    assert languages.LANGUAGES["th"].builder.startswith("sparsebench.analysis.th.")
    notice = REPO / "sparsebench" / "analysis" / "th" / "NOTICE"
    assert "GNU General Public License version 2" in notice.read_text(encoding="utf-8")


def test_languages_outside_the_table_get_the_english_analyzer():
    assert languages.anserini_language("xx") == "en"
    assert languages.analyzer_name("sw") == "WhitespaceAnalyzer"
    assert languages.analyzer_name("en") == "DefaultEnglishAnalyzer"
    assert languages.ANSERINI_ANALYZERS["ko"] == "org.apache.lucene.analysis.cjk.CJKAnalyzer"

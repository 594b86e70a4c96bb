import gzip
import os
import re

import pytest
from allennlp.common.checks import ConfigurationError

from tasks.environment import BUNDLED_BILM, BUNDLED_DATA, VARIABLES, apply_defaults, repository_relative


def test_unset_variables_get_bundled_files_that_exist():
    environment = {}
    apply_defaults(environment)
    derived = {
        f"{name}_{part}" for name in VARIABLES if name.endswith("_WORD_VECTORS") for part in ("DIM", "LOWERCASE")
    } | {"ELMO_DIM"}
    assert set(environment) == set(VARIABLES) | derived
    assert environment["NER_TRAIN_DATA"] == str(BUNDLED_DATA / "ner" / "train.txt")
    assert environment["ELMO_WEIGHT_FILE"] == str(BUNDLED_BILM / "weights.hdf5")
    assert environment["NER_WORD_VECTORS"] == ""
    for name, value in environment.items():
        if value and name in VARIABLES and VARIABLES[name].kind == "file":
            assert (BUNDLED_DATA.parent / value).is_file(), name


def test_a_directory_variable_may_be_new_but_not_a_file(tmp_path, tiny_conll):
    environment = {"ELMO_CACHE_DIR": str(tmp_path / "not-yet")}
    apply_defaults(environment)
    assert environment["ELMO_CACHE_DIR"] == str(tmp_path / "not-yet")
    with pytest.raises(ConfigurationError, match="ELMO_CACHE_DIR names .*, which is not a directory"):
        apply_defaults({"ELMO_CACHE_DIR": str(tiny_conll)})


def test_a_variable_naming_a_missing_file_stops_with_its_name_and_path(tmp_path):
    missing = tmp_path / "eng.train"
    with pytest.raises(ConfigurationError, match=f"NER_TRAIN_DATA names '{missing}', which is not a file"):
        apply_defaults({"NER_TRAIN_DATA": str(missing)})


def test_set_variables_are_kept(tiny_conll):
    environment = {"NER_DEV_DATA": str(tiny_conll)}
    apply_defaults(environment)
    assert environment["NER_DEV_DATA"] == str(tiny_conll)


def test_elmo_options_and_weights_are_set_together(tiny_elmo):
    with pytest.raises(ConfigurationError, match="ELMO_WEIGHT_FILE is set but ELMO_OPTIONS_FILE is not"):
        apply_defaults({"ELMO_WEIGHT_FILE": str(tiny_elmo[1])})


@pytest.mark.parametrize("name, value", [("TRAIN_FRACTION", "0"), ("TRAIN_FRACTION", "half"), ("TRAIN_LIMIT", "-3")])
def test_numeric_variables_are_checked(name, value):
    with pytest.raises(ConfigurationError, match=f"{name} is '{value}': expected"):
        apply_defaults({name: value})


def test_the_word_vectors_size_and_case_are_read_from_the_file(tmp_path):
    glove = tmp_path / "glove.txt.gz"
    with gzip.open(glove, "wt", encoding="utf-8") as vectors:
        vectors.write("the 0.1 0.2 0.3\n, 0.4 0.5 0.6\nparis 0.7 0.8 0.9\n")
    cased = tmp_path / "cased.txt"
    cased.write_text("The 0.1 0.2\nParis 0.3 0.4\n", encoding="utf-8")
    environment = {"NER_WORD_VECTORS": str(glove), "SST_WORD_VECTORS": str(cased)}
    apply_defaults(environment)
    assert (environment["NER_WORD_VECTORS_DIM"], environment["NER_WORD_VECTORS_LOWERCASE"]) == ("3", "true")
    assert (environment["SST_WORD_VECTORS_DIM"], environment["SST_WORD_VECTORS_LOWERCASE"]) == ("2", "false")
    assert (environment["SNLI_WORD_VECTORS_DIM"], environment["SNLI_WORD_VECTORS_LOWERCASE"]) == ("", "")


@pytest.mark.parametrize(
    "text, message",
    [
        ("the 0.1 0.2\nof 0.3\n", r"bad.txt, line 2: expected a word and 2 numbers .* found 2 fields"),
        ("", r"bad.txt: the word vectors file is empty"),
        ("the\n", r"bad.txt, line 1: expected a word and 0 numbers"),
    ],
)
def test_a_malformed_word_vectors_file_is_refused_with_its_line(tmp_path, text, message):
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigurationError, match=message):
        apply_defaults({"NER_WORD_VECTORS": str(path)})


def test_importing_the_suite_leaves_the_environment_alone_and_its_plugin_gives_the_defaults():
    import subprocess
    import sys

    environment = {name: value for name, value in os.environ.items() if name not in VARIABLES}
    probe = "import os, {module}; print(os.environ.get('NER_TRAIN_DATA', 'unset'))"
    for module, expected in (("tasks", "unset"), ("tasks.plugin", str(BUNDLED_DATA / "ner" / "train.txt"))):
        result = subprocess.run(
            [sys.executable, "-c", probe.format(module=module)],
            env=environment,
            capture_output=True,
            text=True,
            check=True,
        )
        assert result.stdout.strip() == expected, module


def test_a_path_inside_the_repository_is_named_relative_to_it(tmp_path):
    assert repository_relative(BUNDLED_BILM / "weights.hdf5") == "bundled/bilm/weights.hdf5"
    assert repository_relative(tmp_path) is None


def test_elmo_dim_is_read_from_the_options_file_and_a_bad_one_is_named(tmp_path):
    from tasks.environment import elmo_dim

    assert elmo_dim(str(BUNDLED_BILM / "options.json")) == 256  # 2 × the bundled biLM's 128-d projection
    broken = tmp_path / "options.json"
    broken.write_text('{"lstm": {"dim": 512}}')
    with pytest.raises(ConfigurationError, match=re.escape(f"{broken}: cannot read the biLM's lstm.projection_dim")):
        elmo_dim(str(broken))

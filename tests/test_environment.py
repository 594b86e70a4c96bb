import pytest
from allennlp.common.checks import ConfigurationError

from tasks.environment import BUNDLED_BILM, BUNDLED_DATA, VARIABLES, apply_defaults


def test_unset_variables_get_bundled_files_that_exist():
    environment = {}
    apply_defaults(environment)
    assert set(environment) == set(VARIABLES)
    assert environment["NER_TRAIN_DATA"] == str(BUNDLED_DATA / "ner" / "train.txt")
    assert environment["ELMO_WEIGHT_FILE"] == str(BUNDLED_BILM / "weights.hdf5")
    assert environment["NER_WORD_VECTORS"] == ""
    for name, value in environment.items():
        if value and VARIABLES[name].kind == "file":
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

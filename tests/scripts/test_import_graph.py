"""The suite's import graph as scripts/import_graph.py reads it: no circle, no upward import."""

import import_graph


def test_the_suite_has_no_circle_no_upward_import_and_no_entry_module_imported_from_below():
    assert import_graph.broken_rules(import_graph.module_imports()) == []


def test_a_circle_an_upward_import_and_an_entry_module_imported_from_below_are_named():
    graph = {
        "tasks.ner.model": {"tasks.ner.metrics"},
        "tasks.ner.metrics": {"tasks.ner.model"},
        "tasks.elmo.cache": {"tasks.ner.model"},
        "tasks.reproduce.results": {"tasks.reproduce.runner"},
        "tasks.reproduce.runner": set(),
    }
    assert import_graph.broken_rules(graph) == [
        "circle: tasks.ner.metrics -> tasks.ner.model",
        "upward or sideways: tasks.elmo.cache imports tasks.ner.model",
        "an entry module imported from below: tasks.reproduce.results imports tasks.reproduce.runner",
    ]

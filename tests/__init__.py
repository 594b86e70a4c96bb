"""
The suite's tests, laid out like the code they test:

- tests/<package>/test_<module>.py for a module of allennlp_compat, data_readers or tasks
  (tests/tasks/ner/test_metrics.py tests tasks/ner/metrics.py); test_cli.py for a task package
  run end to end through the `allennlp` command;
- tests/configs/ for the configs as shipped, tests/scripts/test_<script>.py for scripts/,
  tests/bundled/ for the bundled biLM and samples, tests/docs/ for the README;
- tests/reliability/ for bad input and damaged files across the suite (docs/reliability.md), with
  faults.py, the fault plugin its runs load;
- tests/conftest.py for the fixtures every folder shares, tests/helpers/ for shared code that is
  not a fixture.
"""

"""A tiny CoNLL-2003 file, written for the tests."""

# Ten sentences in the CoNLL-2003 format (IOB1), written for these tests.
TINY_CONLL = """-DOCSTART- -X- -X- O

Ada NNP I-NP I-PER
Lovelace NNP I-NP I-PER
visited VBD I-VP O
Turin NNP I-NP I-LOC
. . O O

The DT I-NP O
Royal NNP I-NP I-ORG
Society NNP I-NP I-ORG
met VBD I-VP O
in IN I-PP O
London NNP I-NP I-LOC
. . O O

Paris NNP I-NP I-LOC
Berlin NNP I-NP B-LOC
talks NNS I-NP O
ended VBD I-VP O
. . O O

-DOCSTART- -X- -X- O

Grace NNP I-NP I-PER
Hopper NNP I-NP I-PER
joined VBD I-VP O
the DT I-NP O
Navy NNP I-NP I-ORG
. . O O

He PRP I-NP O
spoke VBD I-VP O
German JJ I-NP I-MISC
. . O O

Alan NNP I-NP I-PER
Turing NNP I-NP I-PER
worked VBD I-VP O
at IN I-PP O
Bletchley NNP I-NP I-LOC
Park NNP I-NP I-LOC
. . O O

The DT I-NP O
Olympics NNPS I-NP I-MISC
came VBD I-VP O
to TO I-PP O
Rome NNP I-NP I-LOC
. . O O

IBM NNP I-NP I-ORG
hired VBD I-VP O
Marie NNP I-NP I-PER
Curie NNP I-NP I-PER
. . O O

Rain NN I-NP O
fell VBD I-VP O
. . O O

Oxford NNP I-NP I-ORG
beat VBD I-VP O
Cambridge NNP I-NP B-ORG
. . O O
"""

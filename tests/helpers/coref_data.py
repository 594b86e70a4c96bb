"""A tiny CoNLL-2012 coreference file, written for the tests."""

# Three short documents in the CoNLL-2012 format (12 space-separated columns), written for these
# tests: a story, a conversation whose "I" and "you" corefer through the speaker column, and a
# story with a nested mention ("his engine" holds "his").
TINY_COREF_CONLL = """#begin document (nw/test/00/ada_0000); part 000
nw/test/00/ada_0000 0 0 Ada - - - - - - * (0
nw/test/00/ada_0000 0 1 Lovelace - - - - - - * 0)
nw/test/00/ada_0000 0 2 met - - - - - - * -
nw/test/00/ada_0000 0 3 Charles - - - - - - * (1
nw/test/00/ada_0000 0 4 Babbage - - - - - - * 1)
nw/test/00/ada_0000 0 5 in - - - - - - * -
nw/test/00/ada_0000 0 6 London - - - - - - * -
nw/test/00/ada_0000 0 7 . - - - - - - * -

nw/test/00/ada_0000 0 0 She - - - - - - * (0)
nw/test/00/ada_0000 0 1 admired - - - - - - * -
nw/test/00/ada_0000 0 2 his - - - - - - * (2|(1)
nw/test/00/ada_0000 0 3 engine - - - - - - * 2)
nw/test/00/ada_0000 0 4 . - - - - - - * -

nw/test/00/ada_0000 0 0 Babbage - - - - - - * (1)
nw/test/00/ada_0000 0 1 showed - - - - - - * -
nw/test/00/ada_0000 0 2 her - - - - - - * (0)
nw/test/00/ada_0000 0 3 the - - - - - - * (2
nw/test/00/ada_0000 0 4 engine - - - - - - * 2)
nw/test/00/ada_0000 0 5 . - - - - - - * -

#end document
#begin document (bc/test/00/talk_0000); part 000
bc/test/00/talk_0000 0 0 I - - - - - Speaker#1 * (0)
bc/test/00/talk_0000 0 1 saw - - - - - Speaker#1 * -
bc/test/00/talk_0000 0 2 Grace - - - - - Speaker#1 * (1)
bc/test/00/talk_0000 0 3 yesterday - - - - - Speaker#1 * -
bc/test/00/talk_0000 0 4 . - - - - - Speaker#1 * -

bc/test/00/talk_0000 0 0 Did - - - - - Speaker#2 * -
bc/test/00/talk_0000 0 1 you - - - - - Speaker#2 * (0)
bc/test/00/talk_0000 0 2 talk - - - - - Speaker#2 * -
bc/test/00/talk_0000 0 3 to - - - - - Speaker#2 * -
bc/test/00/talk_0000 0 4 her - - - - - Speaker#2 * (1)
bc/test/00/talk_0000 0 5 ? - - - - - Speaker#2 * -

bc/test/00/talk_0000 0 0 Yes - - - - - Speaker#1 * -
bc/test/00/talk_0000 0 1 , - - - - - Speaker#1 * -
bc/test/00/talk_0000 0 2 she - - - - - Speaker#1 * (1)
bc/test/00/talk_0000 0 3 told - - - - - Speaker#1 * -
bc/test/00/talk_0000 0 4 me - - - - - Speaker#1 * (0)
bc/test/00/talk_0000 0 5 about - - - - - Speaker#1 * -
bc/test/00/talk_0000 0 6 the - - - - - Speaker#1 * -
bc/test/00/talk_0000 0 7 Navy - - - - - Speaker#1 * -
bc/test/00/talk_0000 0 8 . - - - - - Speaker#1 * -

#end document
#begin document (nw/test/00/turing_0000); part 001
nw/test/00/turing_0000 1 0 Alan - - - - - - * (0
nw/test/00/turing_0000 1 1 Turing - - - - - - * 0)
nw/test/00/turing_0000 1 2 worked - - - - - - * -
nw/test/00/turing_0000 1 3 at - - - - - - * -
nw/test/00/turing_0000 1 4 Bletchley - - - - - - * (1
nw/test/00/turing_0000 1 5 Park - - - - - - * 1)
nw/test/00/turing_0000 1 6 . - - - - - - * -

nw/test/00/turing_0000 1 0 He - - - - - - * (0)
nw/test/00/turing_0000 1 1 broke - - - - - - * -
nw/test/00/turing_0000 1 2 codes - - - - - - * -
nw/test/00/turing_0000 1 3 there - - - - - - * (1)
nw/test/00/turing_0000 1 4 . - - - - - - * -

nw/test/00/turing_0000 1 0 The - - - - - - * (1
nw/test/00/turing_0000 1 1 park - - - - - - * 1)
nw/test/00/turing_0000 1 2 is - - - - - - * -
nw/test/00/turing_0000 1 3 a - - - - - - * -
nw/test/00/turing_0000 1 4 museum - - - - - - * -
nw/test/00/turing_0000 1 5 now - - - - - - * -
nw/test/00/turing_0000 1 6 . - - - - - - * -

#end document
"""

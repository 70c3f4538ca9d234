"""The ``rule`` responder: decides, deterministically, whether a request asks for the hint fact.

It judges *what is asked*, not which names occur. A request is read in four steps:

1. **Lexicon** (``rule_lexicon``). Every name the instance gives a thing is found in the normalised request
   (``harness.text.normalize``: case, unicode, Greek letters, LaTeX, underscores, spaces), longest name
   first, as whole names: the hint slot (its ``request_aliases``, its slot name and the harness's word
   descriptions in ``rule_vocab``), the *parts* the hint fact alone fixes (crt's m3 and r3), every other
   slot of A's and B's views (``family.slot_name`` + ``slot_aliases``), A's unknowns and the target. Where B's
   fact also settles other candidate slots (``Family.settled_slots``), each candidate's names are the hint's too,
   but as a quantity of its own: one candidate is the hint, two candidates are two quantities. A
   linear expression equal to the hint's left-hand side (``q1 + 4q2`` for the second moment) is a name of
   the hint too.
2. **Context is not asked.** The request is cut into sentences and clauses (``;``, ``but``). A clause
   that only states what A has ("I know m0 = 8") is context when another clause asks something; so are
   the clauses of a justification ("because ...", "since ...", "so that ...", "in order to ...",
   "to compute ...", ", which ..."), a parenthetical right after a name of the hint (``L2 (a2*x + b2*y =
   c2)``), every name inside a restated equation of the hint (``m2 = q1 + 4q2``, in any order), and a name
   followed by a stated value (``m0 = 8``).
3. **Asked quantities.** What remains are the asked names; the parts of the hint count as the hint. A
   phrase joined by "and", "as well as", "plus", "also", "along with" that names no known thing but looks
   like a quantity ("the variance", "P(E)", "m3" where there is none) counts as one more quantity. A clause
   after a question that adds a name to it ("What is c? And b too, if you have it.") asks as well.
4. **Decision.** Offer iff exactly one quantity is asked and it is the hint. Otherwise decline, with the
   rule that declined: ``everything`` ("everything you have"), ``nothing_named`` (vague), ``target``,
   ``known_fact`` (A holds it), ``other_slot`` (B holds it but it is not the hint), ``two_quantities``,
   ``too_many_names`` (more than 256 names: a degenerate request, not read further), ``too_long`` (over
   4,000 characters: no request for one fact is that long, and reading one costs time linear in its length
   times its names).

rule/3 (issue 28, second round) reads descriptions generally rather than by listed phrases: roles in free word
order and by what a slot does among the others, statements of need read for what they say is needed, ordinals
counted among the others, relations to a named slot, definite descriptions, candidates B's fact settles
(described), quoted sentences and negated names as context, and meanings reworded (read loosely when nothing
else is named); docs/harness.md lists them.

rule/4 (issue 28, third round) reads clumsy and described requests more generally: a misspelt word one edit from
exactly one word of the instance's names is read as that word when the request as written is declined ("the 3rd
congrunce"); "minus 3" and "the a of 1" are -3 and a(1); roles as "my list leaves out", "my list of samples skips one",
"neither given nor asked", "the resistor connected in series with R2"; positions counted from either end ("second
from the left", "the middle cell of the bottom edge", "the lower-left entry"); an index a few words after its noun
("the output of the convolution at time index k = 4"); a definite description whose qualifier names nothing ("the
correlation between the two assets"); after a name of the hint, a relative clause, a from-to, or what it does ("does
f follow the second formula") describes it; loose meanings match kinds in either order.

rule/5 (issue 28, fourth round) reads requests as a model writes them: a request of several sentences (or lines) is
read for its last question when the sentences before it ask nothing, and a question that only points back ("What is
it?", "Could you check that number?") asks for what the statement of need before it names, else for the last
quantity named before it; a question restated or described after it ("That is, ...", "That rate is what I need"); an
ordinal whose noun is left out counts along a list of names before it, or names the noun used before it ("I have the
first two. What's the last one?"); slots located by row, column, edge, corner or index, read as a small grammar over
the slots' declarations (``rule_reference``), also over a listed phrase read without the row the request gives;
values a quantity may take ("is 0 or 1"), a table of data and a display formula are not quantities asked;
possessives; "that's missing" roles; a meaning with no numbers, reworded, by three or more of its words. A plain
request for one of the hint's names ("What is P(H)?") is decided from those names alone, so
the instance's lexicon is built only when a request needs it (issue 27).

rule/6 (issue 28, fifth round): a clause stating a lack ("I haven't been told", "absent from my list", "you have
... that I don't") names B's one fact of the kind its noun names, in any word order (``role_by_clause``); a yes/no
question about a stated value ("And is p(1) = 4 correct?") and "just to be safe, confirm Y = 2" ask for Y; ", i got
y0 y1 y3 already" is context; "pos or neg", "+ or -", "above or below zero" ask for a sign; chat shorthand (eqn,
coeff, prob), transition arrows ("going 0 -> 2"), weighted power sums however typeset ("Σ k²·q_k"), "the coefficient
in front of x0" and "in the first equation, ... the coefficient of x0"; typos glued to a number ("eqation3"); a
relation to an unknown that has no slot ("the boundary value above u_1_3"), read by analogy with the slots' names;
"like R1" after a value, and names quoted from the problem across sentences, are context; "the entry with i = 1 and
j = 0"; the one blank of a matrix typed out (``blank_in_matrix``); numbers spelt out where a value goes.

rule/7 (issue 28, sixth round): names set aside ("the one not among y_0, y_1", "- not L1", "- I only know the mod 5
one") are context; a lack that points back ("It's the one not among ...") names the question's noun; "one more
congruence" states a lack; the parts of one fact asked together ("the coefficients and the constant of equation (3)",
"the modulus and the remainder") ask for it; the list a described name is counted in ("the last unknown in the
triple (a, b, c)") is context; "x0, is it plus or minus"; a family's cells of a matrix it does not store as one (the
correlation matrix: ``relation_meanings``); a reading by content words keeps the matrix place the request names.
Quoted formulas are found by a linear scan (the regex before it backtracked for minutes on a long clause).

rule/8 (issue 28, seventh round): points given by label (a polynomial's x = -3, -1, 0, 2, 3) are listed in order, so
"the leftmost evaluation point" is the first one and "the rightmost" the last, as "the first" and "the last" were.

At k > 1 (the hard tier: B holds two withheld facts) the request is read once per withheld fact, that fact as
the hint and the other among B's other slots (``RuleResponder.decide_among``): the fact exactly one reading offers
is offered; a request for both is ``two_quantities``.

Every decision carries ``rationale``: the rule, the phrases taken as asked, and those set aside as
context. It is ``privileged``: it reads the instance's machine-readable hint specification and slot
names; what it *reveals* is only ever the canonical hint text, or nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from generators.families import get_family
from harness.errors import HarnessError
from harness.mira.agents.common import SimulatedLatency, reject_unknown_options
from harness.mira.agents.rule_lexicon import (  # noqa: F401  (slot_names stays importable from here)
    AMBIGUOUS,
    HINT,
    KNOWN,
    LINEAR_EXPR,
    OTHER,
    PART,
    PLURAL_ASK,
    TARGET,
    UNNAMED,
    Lexicon,
    Mention,
    build_lexicon,
    find_mentions,
    hint_name_forms,
    loose_meaning,
    slot_names,
    typo_corrections,
)
from harness.mira.agents.rule_lexicon import ONE as ONE_KIND
from harness.mira.agents.rule_reference import (
    NUMBER_WORDS,
    RANK,
    blank_in_matrix,
    rank_of,
    role_by_clause,
    structured_reference,
)
from harness.mira.types import Responder, ResponderDecision, ResponderTurn
from harness.text import normalize

RULE_VERSION = "rule/8"
# what a decline records as its "rule" (``Judgement.rule``); keep in step with ``judge``, ``_read`` and ``_decide``
DECLINE_READINGS = ("nothing_named", "two_quantities", "known_fact", "other_slot", "target", "not_held", "ambiguous",
                    "everything", "too_many_names", "too_long")
_MARK = 0xE000  # mentions become private-use characters while the sentence structure is read
MAX_MENTIONS = 0x100  # one mark each, U+E000..U+E0FF
MEMO_SIZE = 64  # judgements remembered per lexicon (a run asks each instance a few requests)
MAX_REQUEST_CHARS = 4000  # the labelled corpora's longest request is 300 characters

EVERYTHING = re.compile(
    r"\b(?:everything|(?:all|both)(?: of)?(?: the| your| of your)?(?: \w+){0,2}?|"
    r"every (?:fact|constraint|piece of information|"
    r"number|value|equation)|whatever|anything(?: else)?)\s+(?:that\s+)?(?:you|u)\s*(?:'ve|ve|have|know|hold|got|"
    r"can|possess)\b|\b(?:give|tell|send|share|list|provide|show|dump|reveal)\s+(?:me\s+|us\s+)?(?:all|everything)"
    r"\b(?!\s+(?:the\s+)?(?:two|three|four|five|\d))|\byour (?:whole|entire|full) (?:view|list|set)\b")
STRONG_ASK = re.compile(
    r"\?|\b(?:please|pls|(?:could|can|would|will) (?:you|u)|may i|(?:can|could) i (?:get|have|ask)|"
    r"(?<!cant )(?<!cannot )(?<!dont )(?<!doesnt )(?<!wont )(?<!not )(?:tell|give|send|show|get) (?:me|us)|"
    r"share|provide|what|(?<!,)(?<!, )(?<!\()which|how|whats|let me know|"
    r"reveal|supply|"
    r"asking|ask|request|requesting|i'?d like|i would like|looking for)\b")
WEAK_ASK = re.compile(r"\b(?:needs?|requires?|depends on|hinges on|missing|not given|dont have|do not have|lack|"
                      r"lacking|undetermined|except|without|"
                      r"unknown|namely|want|value of|know the)\b")
MISSING = WEAK_ASK
STATEMENT = re.compile(
    r"^(?:i|we)(?: already| do| also)? (?:have|know|got|see|ve got|was given|am given|were given|are given|"
    r"hold|can see|computed|derived|found)\b|^(?:from|in) (?:my|our) (?:view|side|constraints|data)\b|"
    r"^(?:my|our) (?:constraints|facts|data|view)\b|^(?:thanks|thank you|hi|hello|hey|ok|okay|great|sure)\b")
LEADING_CONTEXT = re.compile(
    r"^\s*(?:(?:in order )?to (?!me\b|you\b)[a-z]+|so that|since|because|"
    r"as|given(?: that)?|using|with|knowing|once|now that|for (?:the|this|my)|of (?:the|these|those|all)|among|"
    r"out of)\b"
    r"(?:(?:[^,]|,(?=\s*(?:[\ue000-\ue0ff]|and\b)))*,(?!\s*(?:[\ue000-\ue0ff]|and\b))|.*?(?=\b(?:i|we|you|could|can|would|please|what|whats|"
    r"tell me|give me|may|so)\b))")
TRAILING_CONTEXT = re.compile(
    r"(?:[,(]\s*which\b|[,(]\s*as\b(?! well as)|"
    r"(?:,|(?<=\d)|(?<=ohms))\s*(?:just\s+)?(?:like|same as|as with|as for)\s+(?=(?:the\s+)?[\ue000-\ue0ff])|"
    r"[,;(]\s*(?:and\s+|since\s+)?(?:i|we|ive|weve)\s+(?:already\s+|only\s+|do\s+)?(?:have|got|know|hold|"
    r"was given|were given)\b(?!\s+(?:no|not|to)\b)|\b(?:purpose|reason|why|goal|motivation|rationale)\s*:|"
    r"\b(?:because|since|so that|so i can|so we can|so i could|in order to|(?:before|until) (?:i|we) can|"
    r"that way|given that|to (?:compute|find|determine|calculate|solve|get|work out|pin down|recover|obtain|"
    r"identify|fix|resolve|reconstruct|evaluate|complete|answer|figure out|finish|pin|check|make|run|use|apply|"
    r"close|build|set up|nail|settle|break|disambiguate|decide|choose|reduce|intersect|combine|weight|deconvolve|"
    r"invert|compute|go on|proceed|continue)|"
    r"needed (?:to|for)|required (?:to|for)|for (?:computing|finding|determining|solving|calculating|the answer|"
    r"the solution|the target|the computation|the calculation)|which (?:is|are|will|would|i|we|lets|let|"
    r"allows|completes|gives|determines|fixes)|it (?:is|will|would) (?:needed|required|necessary|enough))\b)")
CONJUNCTION = re.compile(r"\b(?:and also|as well as|and then|along with|together with|in addition to|and|plus|"
                         r"also)\b|&")
QUANTITY_WORD = re.compile(
    r"(?<![a-z0-9])(?:[a-z]{1,6}_?\d+|[a-z]{1,3}\([^()]*\)|[a-z]\[\d|\(\d+\))|\b(?:value|rate|probability|equation|"
    r"entry|coefficient|sum|moment|term|weight|congruence|modulus|residue|remainder|sign|correlation|resistance|"
    r"measurement|sample|threshold|cell|point|line|prior|likelihood|variance|mean|posterior|eigenvalue|"
    r"eigenvector|determinant|slope|intercept|distance|emission|transition|boundary|kernel|number|constant|"
    r"parameter|variable|unknown|initial|coordinate|return|trace|distribution|norm|rank|root|sequence|"
    r"function|matrix|vector|signal|state|edge)s?\b|\b(?:alpha|beta|gamma|delta|epsilon|zeta|eta|theta|kappa|lambda|"
    r"mu|nu|xi|rho|sigma|tau|phi|chi|psi|omega)\b")
SYMBOL_LIKE = re.compile(r"(?<![a-z0-9])(?:[a-z]{1,3}\d+|[a-z]{1,2}\([^()]*\)|[a-z]\[\d)")
# a follow-up that adds a name to a question before it ("What is c? And b too.", "P(E) as well, if you have it")
ALSO_ASKED = re.compile(r"^\W*(?:oh\W+)?(?:and|plus)\b|\b(?:too|as well|also)\s*(?:[,.!?]|if\b|please\b|$)")
ADDITIVE = re.compile(r"^\s*(?:and|plus)\b|\b(?:also|as well|additionally|in addition|another|second question)\b")
IN_FORMULA = re.compile(r"\s*,?\s*(?:in|of|from|within|as in)\s+(?:the\s+)?(?:equation|system|matrix|formula)?\s*"
                        r"[^,?;]*?[=≡][^,?;]*")
# "the threshold t2": a word for the hint's kind naming another symbol (not "is 1", not "a 0 or a 1")
OTHER_SYMBOL_AFTER = re.compile(r"\s*(?!(?:is|be|to|at|in|on|of|or|as|by|so)-?\d)([a-z]{1,3}_?\d+|[a-z]{1,2}\([^()]*\))"
                                r"(?![\w(])(?!\s*or\b)")
FILLER_VERB = re.compile(r"^\s*(?:tell|explain|let|thank|thanks|i|we|it|that|then|so|show|confirm|give|share|"
                         r"send|provide|check)\b")
FORMULA_RUN = re.compile(r"(?:[\ue000-\ue0ff]|\d+|\bmod\b|(?<![a-z])[a-z](?![a-z])|[+\-*/^()\[\]|<>=≡!'.,]|\s)+")
# After a name of the hint: an apposition (", the ...", ", i.e. ...") or a modifier ("of the weights",
# "in x, y and z", "through P", "that x satisfies") describes it; names there are not asked.
APPOSITION = re.compile(r"\s*(?:,|\s?-\s?|—|–)\s*(?:the|a|an|which|that|ie|namely|aka|in other words|defined as|"
                        r"given by|meaning|i mean|where|so|whether|is|its)\b(?:[^,?;]|,(?=\s*[\ue000-\ue0ff]))*")
MODIFIER = re.compile(r"\s*,?\s*(?:of|in|for|through|at|between|with|on|that|which|from|over|after|before|"
                      r"right after|following|satisfied by|labelled|labeled|relating|involving|connecting)\b"
                      r"(?:\s*(?:,|and|or|the|a|an|its|all|variables?|unknowns?|signal|weights?)?\s*[\ue000-\ue0ff])+"
                      r"(?:\s*(?:satisfies|must satisfy|obeys|has|are|is))?")
# "the other line that crosses L1 at P", "the resistor which sits between R2 and R3": what it does among the others
RELATIVE = re.compile(r"\s*,?\s*(?:that|which|who)\s+(?!(?:is not|isnt|are not|i|we|you)\b)(?:is\s+|are\s+)?[a-z]+\b"
                      r"(?:\s+(?:through|at|with|in|on|to|from|by|between|of))?"
                      r"(?:\s*(?:,|and|or|at|the|with|in|through|of)?\s*[\ue000-\ue0ff])+")
# "the threshold at which f switches from the first formula to the second", "where does the rule change from 3x - 2
# to -x - 4": a relative clause or a from-to after a name of the hint says what it is
WHERE_CLAUSE = re.compile(r"\s*,?\s*(?:at which|in which|where|when)\s+(?![^,?;]*\b(?:need|also|want|and what)\b)"
                          r"[^,?;]*")
# "from which x onward does f follow the second formula": what f does there describes the point
USES = re.compile(r"\s*(?:start\s+|stop\s+|begin\s+)?(?:follow|follows|following|use|uses|using|apply|applies|"
                  r"applying|switch to|switches to|take|takes)\s+(?:the\s+)?[\ue000-\ue0ff]")
FROM_TO = re.compile(r"\s*,?\s*(?:(?:switch|switches|change|changes|go|goes|move|moves|pass|passes|jump|jumps|"
                     r"transition|transitions|turn|turns|separate|separates|split|splits|divide|divides)\s+"
                     r"(?:(?:the\s+)?[^,?;]{1,30}?\s+(?=from\b))?)?(?:over\s+)?from\s*(?:the\s+)?[^,?;]{1,40}?\s*to\s*(?:the\s+)?[^,?;\s]+"
                     r"(?:\s*[-+*/]\s*[^,?;\s]+)*")
DESCRIBES = re.compile("|".join(f"(?:{p.pattern})" for p in (RELATIVE, WHERE_CLAUSE, FROM_TO, USES)))
TERM_AFTER = re.compile(r"\s*[+*/^-]\s*\d")  # "-x + 8": the rest of a term after a variable
# "x = ? mod ?": a formula with blanks restates the form of what is asked; its names are not asked
PLACEHOLDER = re.compile(r"\s*(?:=|≡)\s*\?")
# "can you also confirm v = (0, 3, 2)": confirming a value of something asks for it, named or not
CONFIRMED_VALUE = re.compile(r"\b(?:confirm|verify|check|double check|make sure)\b(?:\s+that)?\s*"
                             r"[a-z][a-z0-9_]*(?:\([^()]*\)|\[[^\]]*\])*\s*(?:=|is\s+-?[\d(\[])")
# "could you check that starting probability", "verify it": the quantity named before, not another one
CHECK_THAT = re.compile(r"\b(?:confirm|verify|check|double check|make sure of)\s+(?:that|this|it|its|the same|those|"
                        r"these)\b(?!\s*[a-z]?[a-z0-9_]*\s*(?:=|is\s+-?\d))")
# clumsy spellings of a name: "minus 3" (-3), "the a of 1" (a(1))
CLUMSY = re.compile(r"\s?\bminus(?=\d)|(?<![a-z0-9'])([a-z]) of(-?\d+)(?![\d.])")
# "whether cell(2,1) is 0 or 1", "? 0 or 1 pls": the values a quantity may take, not quantities (normalising
# joins a number to the word before it: "is0 or1")
VALUE_CHOICE = re.compile(r"(?:(?<=[\s?,:(])|\b(?:is|be|either|a|it|its))-?\d+\s?or\s?(?:a\s?)?-?\d+(?![\d)\],])")
# "is x0 pos or neg", "+ or -", "> 0 or < 0", "above or below zero": asks for a sign, as "positive or negative"
SIGN_CHOICE = re.compile(r"\s?(?:\b(?:pos|positive|plus)\b|\+|>\s?0)\s?(?:or|/)\s?"
                         r"(?:\b(?:neg|negative|minus)\b|-(?!\d)|<\s?0)|\s?(?:\b(?:neg|negative|minus)\b|-)\s?(?:or|/)\s?(?:\b(?:pos|positive|plus)\b|\+)|"
                         r"\s?\babove or below (?:zero|0)\b")
# "which sign does x0 have", "what sign is x2": the sign of
SIGN_OF = re.compile(r"\b(?:which|what)\s+sign\s+(?:does|do|is|has)\s+([a-z][a-z0-9_]*(?:\([^()]*\))?)"
                     r"(?:\s+(?:have|carry|take|got))?\b|"
                     r"\b([a-z][a-z0-9_]*\d(?:\([^()]*\))?)\s*,?\s*is it(?= positive or negative)")  # "x0 is it + or -"
# chat shorthand for the words requests use ("send eqn 3", "the prob of going 0 -> 2", "coeff of x1", "wat is")
CHAT_WORDS = {"wat": "what", "wats": "whats", "wut": "what", "whta": "what", "waht": "what", "plz": "please",
              "thru": "through", "eqn": "equation", "eqns": "equations", "eqtn": "equation",
              "coeff": "coefficient", "coeffs": "coefficients", "coef": "coefficient", "prob": "probability",
              "probs": "probabilities", "val": "value", "vals": "values", "res": "resistor", "corr": "correlation"}
IN_EQ = re.compile(r"\b(in|of|from|for)\s+eq\.?(?=\s?\d)")
CHAT_ABBREVIATION = re.compile(r"(?<![a-z0-9_])(" + "|".join(CHAT_WORDS) + r")(?![a-z_(\[])")
# "the prob of going 0 -> 2", "rate moving 1 -> 0": a move between two states, as the states' names say it
TRANSITION_ARROW = re.compile(r"\b(going|moving|jumping|stepping|passing|rate|probability|chance)\s?(\d+)\s?->\s?"
                              r"(\d+)\b")
# "the coefficient in front of x0", "the coefficient on x1": the coefficient of; "in the first equation, what's the
# coefficient of x0?" is "what's the coefficient of x0 in the first equation?", as the slots' meanings say it
COEFFICIENT_OF = re.compile(r"\bcoefficient\s+(?:in front of|on|for|attached to|that multiplies|that goes with)\s+")
EQUATION_FIRST = re.compile(r"\b(?:in|for)\s+(the\s+(?:first|second|third|fourth|fifth|last|middle|final|top|bottom)\s+"
                            r"equation|equation\s?\d+)\s*,?\s*([^?.;]*?\bcoefficient of [a-z][a-z0-9_]*)")
# a weighted power sum however it is typeset ("Σ k²·q_k", "sum k^2 q_k", "the sum of k² times the weight qk"): written
# as the moment family's own name for it, "sum of k^2*qk"
POWER_SUM = re.compile(r"\b(?:sum|sigma)\s?(?:of\s|over\s)?(?:(?:the\s)?k\s)?k\^(\d)\s?(?:\*|times)?\s?(?:the\s)?"
                       r"(?:weights?\s|probabilit(?:y|ies)\s)?q\s?k\b")
# "the number that multiplies x0", "what weight multiplies x1": the coefficient of x0, x1
MULTIPLIES = re.compile(r"\b(?:the\s+)?(?:(?:coefficient|number|weight|factor|multiplier|value)\s+(?:that\s+)?)?"
                        r"(?:multiplies|multiplying)\s+([a-z]\d+)")
# "the coefficients and the constant of equation (3)", "the modulus and the remainder": the parts of one fact, asked
# together, ask for that fact
_PART = r"(?:the\s+)?(?:coefficients?|constant(?: term)?|right[- ]?hand side|rhs|left[- ]?hand side|modulus|moduli|" \
        r"divisor|remainder|residue)"
PARTS_OF_ONE = re.compile(rf"\b{_PART}\s+and\s+{_PART}\b")
# "line number two", "row three", "equation one": the number, as normalising writes it ("line2")
NUMBER_WORD = re.compile(r"\b((?:row|column|col|equation|eq|line|state|resistor|number|index|symbol|asset|vertex|node|"
                         r"sample|step|term|congruence|cell|entry)\s?)(" + "|".join(NUMBER_WORDS) + r")\b")
# a number spelt out where a value or an argument goes ("when its input is three", "plug negative three into p",
# "at x equals two"): written in digits, as the slots' names and meanings have it
VALUE_WORD = re.compile(r"\b(is|at|into|in|plug|plugging|input|equals|=)\s?(negative\s|minus\s)?(" +
                        "|".join(w for w in NUMBER_WORDS if w != "one") + r")\b(?!\s(?:of|more|other|entries|values|"
                        r"numbers|points|samples|states|lines|equations|terms|pieces|branches|unknowns|resistors)\b)")


def _value_word(m: re.Match[str]) -> str:
    return f"{m.group(1)} {'-' if m.group(2) else ''}{NUMBER_WORDS[m.group(3)]}"


# a quantity that is the subject of what the request asks about ("does x leave", "the point P satisfies"); the
# variables an equation is in ("a linear equation in x and y", "the relation among x, y and z")
SUBJECT_OF = re.compile(r"\s*(?:\([^()]*\)\s*)?(?:leave|leaves|fall|falls|satisfy|satisfies|lie|lies|take|takes|"
                        r"obey|obeys|meet|meets|pass|passes|switch|switches|fulfil|fulfill|fulfils|fulfills)\b")
VARIABLES_OF = re.compile(r"\b(?:equation|equations|relation|relations|constraint|constraints|condition|line)\s+"
                          r"(?:\w+\s+)?(?:among|in|on|between|linking|relating|involving|of|for)\s+(?:the\s+)?"
                          r"(?:(?:unknowns|variables)\s+)?((?:[\ue000-\ue0ff]\s*(?:,|and|&)?\s*){2,})")
# a described name, then the list it is counted in: "the last unknown in the triple (a, b, c)"
ENUMERATION = re.compile(r"[\ue000-\ue0ff]\s*(?:in|of|among|from)\b\s*(?:the\s+)?(?:triple|tuple|pair|list|vector|"
                         r"sequence|unknowns|variables|set|solution)?\s*\(((?:\s*[\ue000-\ue0ff]\s*,){1,}\s*"
                         r"[\ue000-\ue0ff]\s*)\)")
STATED_VALUE = re.compile(r"\s*(?:=|is|equals)\s*-?\d+(?:/\d+)?(?![\w(])")
# "please confirm that a(0) = -5", "can you also verify P(E|H) = 1/2": asking B to confirm a quantity asks for it
CONFIRM = re.compile(r"(?:\b(?:please|pls|kindly|also|and|could you|can you|would you|will you|you|u)\s+"
                     r"(?:also\s+|please\s+|to\s+|just\s+)?|^\s*(?:also\s*,?\s*)?"
                     r"(?:(?:just\s+)?(?:to be (?:safe|sure)|for safety|for completeness|while you(?:re| are) at it|"
                     r"btw|by the way)\s*,?\s*)?)"
                     r"(?:confirm|verify|check|double check|reconfirm|make sure)\b|"
                     # "and is p(1) = 4 correct?": a yes/no question about a stated value asks to confirm it
                     r"^\W*(?:(?:and|also|but|oh)\s*,?\s*)?(?:is|was|are)\b[^?]*?(?:=|\bequals?\b|\bequal to\b)"
                     r"\s*(?=-?[\d(][^?]*\?)")
# the same, over a whole request: quoted text, then whether it is a formula or a sentence (one regex would backtrack
# over long texts)
QUOTED = re.compile(r"(['\"])([^'\"]*)\1(?:(?<=\")|(?![a-z0-9]))")
QUOTED_CONTENT = re.compile(r"[=<>≡]|[a-z]{2,}\s")
# a formula or a sentence in quotes ('f(x) = 2x + 1 if x < t', 'every equation is linear in x, y, z'): the names
# inside are context (normalising drops apostrophes inside words, and the space before a quote). Found by a scan,
# not by one regex, which would backtrack for minutes over a long clause after an unmatched quote.
_QUOTE_CHARS = re.compile("['\"]")
_OPERATOR_CHAR = re.compile("[=<>≡]")
_TWO_LETTERS = re.compile("[a-z]{2}")
_LAST_TWO_LETTERS = re.compile("(?s:.*)([a-z]{2})")
_SPACE = re.compile(r"\s")
_WORD_CHAR = re.compile("[a-z0-9]")


def quoted_formulas(text: str) -> list[str]:
    """The texts between matching quotes that hold an operator or two words (the quotes start where the last
    match ended, or at the quote after a pair that does not qualify; a single quote closes only before a
    non-word character)."""
    out: list[str] = []
    quotes = [m.start() for m in _QUOTE_CHARS.finditer(text)]
    k = 0
    while k + 1 < len(quotes):
        i, j = quotes[k], quotes[k + 1]
        if text[i] == text[j] and (text[j] == '"' or not _WORD_CHAR.match(text, j + 1)) \
                and _formula_or_sentence(text, i + 1, j):
            out.append(text[i + 1:j])
            k += 2
        else:
            k += 1
    return out


def _formula_or_sentence(text: str, start: int, end: int) -> bool:
    if _OPERATOR_CHAR.search(text, start, end):
        return True
    first, last = _TWO_LETTERS.search(text, start, end), _LAST_TWO_LETTERS.match(text, start, end)
    return bool(first and last and _SPACE.search(text, first.end(), last.start(1)))
# "the top-left entry of M (not of M^2)", "apart from the ones modulo 13", "the one not among y_0, y_1", "the other
# line through P - not L1": names set against the asked one
_NEGATION_WORDS = ("not", "rather", "instead", "other", "apart", "aside", "besides", "none", "excluding")  # NEGATED's
NEGATED = re.compile(r"\((?:not|rather than|instead of|other than)\b[^()]*\)|(?:(?:[,(-]\s*|\band\s+|\bone\s+)not"
                     r"(?:\s+(?:among|in|one of))?|"
                     r"\b(?:rather than|instead of|other than|apart from|aside from|besides|none of|excluding))\s+"
                     r"(?:(?:of|the|for|from|just|only|with|ones?|those|that)\s+)*"
                     r"(?:[\ue000-\ue0ff](?:\s*(?:,|and|or|nor)\s*(?:the\s+)?(?:ones?\s+)?)?)+")
# a described part of the target: "the top-left entry of M^2" asks for the target, not the hint's entry
PART_OF = re.compile(r"\s*(?:of|in)\s+(?:the\s+)?(?:matrix\s+)?([\ue000-\ue0ff])")
OWNER_BEFORE = re.compile(r"([\ue000-\ue0ff])\s*$")
APPOSITION_PAREN = re.compile(r"\s*(?:[=:,]|,?\s*(?:ie|that is|namely|aka|defined as|given by|where)\s*,?)?\s*\(")


@dataclass(frozen=True)
class Judgement:
    """The decision and why: the rule that decided, the phrases taken as asked, those set aside."""

    offer: bool
    rule: str
    asked: tuple[str, ...] = ()
    context: tuple[str, ...] = ()
    described: tuple[str, ...] = ()  # for asked phrases made from a slot's description: which, and how
    kinds: tuple[str, ...] = ()  # what each asked quantity is (HINT, KNOWN, ...): at k > 1, which facts were named

    def rationale(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.rule, "asked": list(self.asked), "context": list(self.context),
                               "responder": RULE_VERSION}
        if self.described:
            out["described"] = list(self.described)
        return out


# ------------------------------------------------------------------------------------ judging
def judge(request: str, lexicon: Lexicon, prepared: str | None = None) -> Judgement:
    """Read ``request`` against the instance's ``lexicon`` (see the module docstring); ``prepared``: the request as
    ``_prepared`` makes it, when the caller has it already."""
    if len(request) > MAX_REQUEST_CHARS:
        return Judgement(False, "too_long", (f"{len(request)} characters",))
    judgement = _judge(request, lexicon, prepared)
    if not judgement.offer and ("'s" in request or "’s" in request):
        plain = _judge(POSSESSIVE.sub(_without_possessive, request), lexicon)  # "the first resistor's value"
        if plain.offer:
            return plain
    return judgement


def _judge(request: str, lexicon: Lexicon, prepared: str | None = None) -> Judgement:
    text = _prepared(request) if prepared is None else prepared
    judgement = _read(text, lexicon)
    if judgement.offer or judgement.rule in ("everything", "too_many_names"):
        return judgement
    lines = _by_lines(request) if "\n" in request.strip() or "$$" in request else text
    if lines != text and "\n" not in lines:  # a table of data, then the question
        alone = _read(lines, lexicon)
        if alone.offer:
            return replace(alone, described=(*alone.described, "lines: a table set aside"))
    focused = _by_sentences(lines, lexicon) or _ordinal_without_noun(text, lexicon)
    if focused is not None:
        return focused
    if ("begin{" in request or "[[" in request) and "?" in request:
        blank = blank_in_matrix(request, lexicon)
        if blank is not None and blank.name.kind == HINT and judgement.rule == "nothing_named":
            return _decide([blank], [], [])
    # a misspelt name ("the 3rd congrunce"): read again with each word one edit away from exactly one word of the
    # instance's names corrected; only a reading that then asks for the hint alone changes the decision
    fixes = typo_corrections(text, lexicon)
    if fixes:
        corrected = _read(_corrected(text, fixes), lexicon)
        if corrected.offer:
            return replace(corrected, described=(*corrected.described,
                                                 *(f"{wrong} = typo of {right}" for wrong, right in fixes)))
    return judgement


def _prepared(request: str) -> str:
    if "—" in request or "–" in request or " - " in request:
        request = DASH_THEN_ASK.sub("; ", request)  # "I think it is x ≡ 4 (mod 17) — can you check ...": two clauses
    text = _MARKS.sub(" ", normalize(request))  # the private-use marks are ours
    if "minus" in text or " of" in text:
        text = CLUMSY.sub(_unclumsy, text)
    if "or" in text or "/" in text:
        text = SIGN_CHOICE.sub(" positive or negative", VALUE_CHOICE.sub(" ", text))
    if "multipl" in text:
        text = MULTIPLIES.sub(r"the coefficient of \1", text)
    if "->" in text:
        text = TRANSITION_ARROW.sub(r"\1 from state\2 to state\3", text)
    if "sign" in text or "is it " in text:
        text = SIGN_OF.sub(lambda m: f"the sign of {m.group(1)}" if m.group(1) else f"is {m.group(2)}", text)
    if " eq" in text:
        text = IN_EQ.sub(r"\1 equation", text)  # "the x0 coefficient in eq 0"; "eq 3" alone is a name already
    if CHAT_ABBREVIATION.search(text):
        text = CHAT_ABBREVIATION.sub(lambda m: CHAT_WORDS[m.group(1)], text)
    if "k^" in text:
        text = POWER_SUM.sub(r"sum of k^\1*qk", text)
    if " and " in text and ("coefficient" in text or "remainder" in text or "residue" in text):
        text = PARTS_OF_ONE.sub(_whole_of_parts, text)
    if "coefficient" in text:
        text = EQUATION_FIRST.sub(r"\2 in \1", COEFFICIENT_OF.sub("coefficient of ", text))
    if VALUE_WORD.search(text):
        text = VALUE_WORD.sub(_value_word, text)
    if NUMBER_WORD.search(text):
        text = NUMBER_WORD.sub(lambda m: m.group(1).rstrip() + str(NUMBER_WORDS[m.group(2)]), text)
    if "there" in text:
        text = _there_as_said(text)
    return text


def _whole_of_parts(m: re.Match[str]) -> str:
    """"the modulus and the remainder" is a congruence, "the coefficients and the constant" an equation."""
    article = "the " if m.group().startswith("the ") else ""
    return article + ("equation" if "coefficient" in m.group() or "side" in m.group() or "rhs" in m.group()
                      or "constant" in m.group() else "congruence")


def _there_as_said(text: str) -> str:
    """"In the first equation, ... the number multiplying x1 there?": "there" is the place named before it."""
    for there in THERE.finditer(text):
        places = list(PLACE.finditer(text, 0, there.start()))
        if places:
            return text[:there.start()] + " " + places[-1].group().strip() + text[there.end():]
    return text


THERE = re.compile(r"(?<=[a-z0-9)\] ])\s?\bthere\b(?=\s*(?:[?.!,;]|$|please))")
PLACE = re.compile(r"\s?\b(?:in|at|on|of|for)\s+(?:the\s+)?(?:(?:first|second|third|fourth|fifth|last|middle|top|"
                   r"bottom|next|final)\s+(?:equation|row|column|state|line|edge|sample)|(?:equation|row|column|state|"
                   r"index|time|step|sample)\s*\(?\d+\)?)")
DASH_THEN_ASK = re.compile(r"\s+[—–-]\s+(?=(?:can|could|would|will|please|what|whats|what's|which|how|is|are|do|does|"
                           r"tell|give|send|share|that is|i mean|in other words|i only|we only|i already|"
                           r"i have only)\b)",
                           re.IGNORECASE)
DISPLAY_MATH = re.compile(r"\$\$.*?\$\$|\\\[.*?\\\]", re.DOTALL)


def _by_lines(request: str) -> str:
    """A request of several lines: a line that ends a sentence (or is a heading) ends one, which normalising would
    hide; a line that does not ("Please provide it, since" before a display formula) goes on; a Markdown table row
    is data ("| R1 | **?** |"), not a question."""
    pieces: list[str] = []
    request = DISPLAY_MATH.sub(lambda m: "\n" + m.group() + "\n", request)  # a display formula stands alone
    for line in (raw.strip() for raw in request.splitlines()):
        if not line or line.startswith("|"):
            continue
        display = line.startswith(("$$", "\\[", "\\begin"))
        if pieces and not display and not pieces[-1].endswith((".", "?", "!", ":", "$$", "\\]")) \
                and not pieces[-1].startswith("#"):
            pieces[-1] += " " + line
        else:
            pieces.append(line)
    return "\n".join(_prepared(piece) for piece in pieces)


# "the first resistor's value": the possessive goes, so that the description before it is read as written (normalising
# drops apostrophes, which would make it a plural); contractions stay
POSSESSIVE = re.compile(r"\b([A-Za-z][A-Za-z0-9_]*[)\]]?)['’]s\b")
_CONTRACTIONS = {"what", "that", "it", "there", "here", "let", "who", "where", "he", "she", "how", "which", "one"}


def _without_possessive(m: re.Match[str]) -> str:
    return m.group() if m.group(1).lower() in _CONTRACTIONS else m.group(1)


def _corrected(text: str, fixes: list[tuple[str, str]]) -> str:
    for wrong, right in fixes:
        text = re.sub(rf"(?<![a-z0-9]){wrong}(?![a-z])", right, text)
    return text


def _read(text: str, lexicon: Lexicon) -> Judgement:
    if EVERYTHING.search(text):
        return Judgement(False, "everything", (EVERYTHING.search(text).group(),))  # type: ignore[union-attr]
    mentions = find_mentions(text, lexicon)
    if len(mentions) > MAX_MENTIONS:  # more names than marks: the request cannot be read whole
        return Judgement(False, "too_many_names", tuple(dict.fromkeys(m.form for m in mentions))[:10])
    marked = _ABBREVIATION.sub(" ie ", _marked(text, mentions)).replace("...", "⋯")
    clauses = [c for c in _CLAUSE_BREAK.split(marked) if c.strip()]
    asking, needs = _asking_clauses(clauses)
    asking = [_focus(c) if needs else _question_after_conclusion(c) for c in asking]
    asked: list[Mention] = []
    context: set[int] = set(range(len(mentions)))
    unnamed: list[str] = []
    for clause in clauses:
        if clause not in asking and STRONG_ASK.search(clause) and not _indices(clause):
            unnamed.extend(_unnamed_in_question(clause))
    for clause in asking:
        kept, extra = _asked_in_clause(clause, mentions, lexicon)
        asked.extend(mentions[i] for i in kept)
        context -= set(kept)
        unnamed.extend(extra)
    if ('"' in marked or "'" in marked) and len(asked) > 1:
        # a quotation of the problem spread over several clauses ('"The threshold t is an integer with ... and
        # t != x." Which integer is it?'): the names quoted are context, the hint's aside
        quoted = {i for q in QUOTED.finditer(marked) if QUOTED_CONTENT.search(q.group(2)) for i in _indices(q.group(2))}
        kept = [m for m in asked if m.name.kind in (HINT, PART) or mentions.index(m) not in quoted]
        if kept and len(kept) < len(asked):
            context |= {mentions.index(m) for m in asked if m not in kept}
            asked = kept
    aside = [mentions[i] for i in sorted(context) if mentions[i].name.kind not in (HINT, PART)]
    if unnamed and mentions:  # phrases for the rationale, with the names as the request wrote them
        unnamed = [_MARKS.sub(lambda m: mentions[ord(m.group()) - _MARK].form, phrase) for phrase in unnamed]
    judgement = _decide(asked, unnamed, aside)
    if lexicon.described is None:
        return judgement
    asking_text = " ".join(c for c in clauses if STRONG_ASK.search(c) or WEAK_ASK.search(c))
    if not asked and len(unnamed) == 1 and not PLURAL_ASK.search(asking_text):
        # coordinates read as unnamed quantities ("the entry with i = 1 and j = 0"): they locate one slot or nothing
        located = structured_reference(asking_text, lexicon)
        return _decide([located], [], aside) if located is not None and located.name.kind == HINT else judgement
    if judgement.rule not in ("known_fact", "other_slot", "nothing_named"):
        return judgement
    if judgement.rule != "nothing_named":
        # a listed phrase ("the middle entry") read without the row the request gives ("in the last row"): the
        # coordinates read together decide when they locate the hint
        located = structured_reference(asking_text, lexicon)
        if located is not None and located.name.kind == HINT:
            return _decide([located], [], aside)
    else:
        # the asking clauses, else every open one ("rate going down from the state 2 ? to state 1 i mean")
        open_text = " ".join(c for c in clauses if not _is_statement(c))
        loose = loose_meaning(asking_text, lexicon) or (loose_meaning(open_text, lexicon) if open_text != asking_text
                                                        else None)
        if loose is None:
            loose = structured_reference(asking_text or open_text, lexicon)
        if loose is None:
            loose = role_by_clause(text, lexicon)
        if loose is not None:
            return _decide([loose], [], aside)
    return judgement


def _unclumsy(m: re.Match[str]) -> str:
    return "-" if m.group(1) is None else f"{m.group(1)}({m.group(2)})"


def _asking_clauses(clauses: list[str]) -> tuple[list[str], bool]:
    """Direct questions and requests that name something; else statements of need (and True); else every
    clause."""
    open_clauses = [c for c in clauses if not _is_statement(c)]
    for pattern in (STRONG_ASK, WEAK_ASK):
        asks = [bool(pattern.search(c) or (pattern is STRONG_ASK and CONFIRM.search(c))) and bool(_indices(c))
                for c in open_clauses]
        if any(asks):
            first = asks.index(True)  # a follow-up after a question that adds a name to it asks too
            return [c for i, c in enumerate(open_clauses)
                    if asks[i] or (i > first and ALSO_ASKED.search(c) and _indices(c))], pattern is WEAK_ASK
    return open_clauses or clauses, False


# In a statement of need the need is stated last: "..., so I need the correlation", "everything is known to me
# except the downward rate out of state 2", "the recursion breaks at index 1, which needs y_1"
CONCLUSION = re.compile(r"(?:,\s*|\b)(?:so|thus|hence|therefore|which means|that means|meaning)\b")
NEED_FOCUS = re.compile(r"\b(?:need|needs|needed|missing|lack|lacking|except|without|want|dont have|do not have|"
                        r"not given|namely|value of|know the|requires?|depends on|hinges on)\b")


def _question_after_conclusion(clause: str) -> str:
    """"s1 and s2 are known to me, so what I need is ...": the question after a conclusion asks; before it is
    context."""
    for m in reversed(list(CONCLUSION.finditer(clause))):
        rest = clause[m.end():]
        if STRONG_ASK.search(rest) and _indices(rest) and not STRONG_ASK.search(clause[:m.start()]):
            return rest
    return clause


def _focus(clause: str) -> str:
    """The part of a statement of need that says what is needed: after its last conclusion ("so ...") and then
    after its last need word, where names remain; the reasons before are context, and so is a trailing reason
    when the need is stated before it ("I need y_0 because without y_0 ...")."""
    cut = TRAILING_CONTEXT.search(clause)
    if cut and cut.start() > 0:
        head = clause[:cut.start()]
        if any(_indices(head[m.end():]) for m in NEED_FOCUS.finditer(head)):
            clause = head
    for pattern in (CONCLUSION, NEED_FOCUS):
        for m in reversed(list(pattern.finditer(clause))):
            if _indices(clause[m.end():]):
                clause = clause[m.end():]
                break
            if pattern is CONCLUSION and NEED_FOCUS.search(clause, m.end()):  # "..., so I need two initial values"
                return clause[m.end():]
    return clause


# A request of several sentences: reasoning first, the question last ("... so only h0*x0 survives. So I need the
# measured value at k = 0. What is it?"). The question is read alone when the sentences before it ask nothing
# (no question, no request, no need of another quantity); a question that names nothing but points back ("What is
# it?", "Could you give me that entry?") asks for what the last statement of need before it names.
_SENTENCE = re.compile(r"(?<=[?!])(?<![=≡]\?)(?!=)|\.(?=[a-z\ue000-\ue0ff(\[]|$)|\n")
SINGULAR_POINTER = re.compile(r"\b(?:it|its|that|this)\b")
ANAPHOR = re.compile(r"\b(?:it|its|that|this|them|those|these|thereof)\b")
NEED_STATEMENT = re.compile(  # what is needed follows
    rf"{NEED_FOCUS.pattern}|\b(?:all|everything|every one) (?:but|except)\b|"
    r"\bfill in\b|\bwhats? left(?: is)?\b|\bonly lacks?\b|"
    r"\b(?:id|i would|wed|we would) like to (?:check|know|have|get)\b|"
    r"\b(?:im|i am) (?:guessing|assuming|using)\b|\bi (?:guess|think|believe|assume|suspect|reckon|assumed)\b|"
    r"\b(?:uses|involves)\b|\b(?:assumption|hunch|guess|placeholder|feeling|memory) (?:is|was)?(?: that)?\b|"
    r"\b(?:fairly|pretty|quite) sure\b|\bive been assuming\b|\bid assumed\b")
NEEDED_BEFORE = re.compile(  # what is needed comes first: "the path sum through vertex 0 would close the system"
    r"\b(?:would|will|could|should) (?:close|complete|settle|determine|fix|pin down|finish|resolve)\b|"
    r"\b(?:is|are|remains?|still) (?:still )?(?:missing|unknown|undetermined|open|absent)\b")
RESTATED = re.compile(r"\s*(?:that is|ie|i mean|in other words|namely|specifically|to be precise)\b\s*,?\s*")
_NAMES_SOMETHING = re.compile(r"\b(?!(?:the|a|an|is|are|it|one|number|value|thing|piece|quantity|that|this)\b)"
                              r"[a-z0-9]+")


def _by_sentences(text: str, lexicon: Lexicon) -> Judgement | None:
    sentences = [s for s in _SENTENCE.split(_ABBREVIATION.sub(" ie ", text)) if s.strip()]
    if len(sentences) < 2:
        return None
    asks = [i for i, s in enumerate(sentences) if STRONG_ASK.search(s) or CONFIRM.search(s)]
    if not asks:
        return None
    last = asks[-1]
    if "?" not in sentences[last] and len(asks) > 1 and "?" in sentences[asks[-2]] and asks[-2] == last - 1:
        last = asks[-2]  # "How fast does it drop back to state 2? That rate is what I need.": the question
    if any("?" in s or ADDITIVE.search(s) for s in sentences[:last]):
        return None  # two questions, or "also ...": read whole
    question = sentences[last]
    reading, antecedent, how = _read(question, lexicon), None, "the last question, read alone"
    if last + 1 < len(sentences):
        restated = _restated_after(reading, sentences[last + 1:], lexicon)
        if restated is not None:
            return restated
        if any(ADDITIVE.search(s) or ALSO_ASKED.search(s) or (_read(s, lexicon).rule != "nothing_named"
                                                               and not _only_formula(s))
               for s in sentences[last + 1:]):
            return None  # something named after the question: read whole
    if _points_back(question, reading):
        antecedent = next((i for i in range(last - 1, -1, -1) if _states_need(sentences[i])), None)
        if antecedent is not None:
            needed = _needed(sentences[antecedent])
            reading = _read(f"what is {needed}?", lexicon)
            how = f"the question points back to: {needed.strip()}"
        if (antecedent is None or reading.rule == "nothing_named") and last > 0 and SINGULAR_POINTER.search(question):
            antecedent = last - 1  # "... is the base rate of H. What is that?": the last quantity named before it
            named = find_mentions(sentences[antecedent], lexicon)
            if not named:
                return None
            meant = _subject(sentences[antecedent], named) or named[-1]
            reading = _decide([meant], [], [])
            how = f"the question points back to the last quantity named before it: {meant.form}"
    if not reading.offer:
        return None
    for i, sentence in enumerate(sentences[:last]):
        if i != antecedent and _states_need(sentence):
            other = _read(f"what is {_needed(sentence)}?", lexicon)
            if other.rule != "nothing_named" and not other.offer:
                return None  # a need of another quantity stated before the question
    return replace(reading, described=(*reading.described, f"sentences: {how}"))


DEFINED = re.compile(r"\s*(?:is|are|was|must be|has to be|lies|satisfies)\b")


def _subject(sentence: str, named: list[Mention]) -> Mention | None:
    """The quantity a sentence defines, when it opens with it ("The threshold t is an integer with ... and t != x. Which
    integer is it?": t, not the x named last)."""
    first = named[0]
    if sentence[:first.start].strip(" \"'“”‘’").removeprefix("the").strip() or not DEFINED.match(sentence, first.end):
        return None
    return first


# "Of P(E|H), P(E|not H) and P(H) I have the first two. What's the last one?", "There are two lines; I have the
# first. What's the second one?": an ordinal whose noun is left out counts along the last list of names before it,
# else names the last noun of the instance's slots the request used
ELIDED_ORDINAL = re.compile(rf"\bthe\s+({RANK})(?:\s+(?:one|factor|term|input|item|ingredient|entry|element))?"
                            r"(?:\s+of (?:them|those|these)(?:\s+\w+)?)?"
                            r"(?=\s*(?:[?.!,;:]|$|please|pls|on your side|from you|for me|in your list|you have))")
# between the items of a list: a separator, a product's "*" ("P(E|H)·P(H)"), and after an item a short qualifier
# ("the likelihood under H, the likelihood under not-H, and the prior")
LIST_GAP = re.compile(r"(?:\s+(?:under|given|for|of|in|on|at|with)\s+[^,;.:?\ue000-\ue0ff]{1,20})?"
                      r"\s*(?:,|;|and|,\s*and|or|&|\*|\s)\s*(?:the\s+)?")


def _ordinal_without_noun(text: str, lexicon: Lexicon) -> Judgement | None:
    elided = list(ELIDED_ORDINAL.finditer(text))
    if not elided:
        return None
    ordinal = elided[-1]  # the one asked: those before it say what A has ("I have the first; what's the second?")
    return _along_a_list(text, ordinal, lexicon) or _with_the_noun_before(text, ordinal, lexicon)


def _along_a_list(text: str, ordinal: re.Match[str], lexicon: Lexicon) -> Judgement | None:
    runs: list[list[Mention]] = []
    for m in find_mentions(text, lexicon):
        if m.end > ordinal.start():
            break
        if runs and LIST_GAP.fullmatch(text, runs[-1][-1].end, m.start):
            runs[-1].append(m)
        else:
            runs.append([m])
    word, rank = ordinal.group(1), rank_of(ordinal.group(1))
    listed = next((run for run in reversed(runs) if len(run) >= 3 or (len(run) == 2 and rank in (1, 2, -1))), None)
    if listed is None or rank == 0 or not -len(listed) <= rank <= len(listed):
        return None
    chosen = listed[rank - 1 if rank > 0 else rank]
    reading = _decide([chosen], [], [m for m in listed if m is not chosen])
    if not reading.offer:
        return None
    return replace(reading, described=(*reading.described,
                                       f"ordinal: the {word} of the list {', '.join(m.form for m in listed)}"))


def _with_the_noun_before(text: str, ordinal: re.Match[str], lexicon: Lexicon) -> Judgement | None:
    table = lexicon.described
    if table is None or not table.role_nouns:
        return None
    noun = _last_noun(text[:ordinal.start()], table.role_nouns) or _last_noun(text[ordinal.end():], table.role_nouns)
    if noun is None:
        return None
    for phrase in (f"the {ordinal.group(1)} {noun}", f"the {ordinal.group(1)} of the {noun}s"):
        reading = _read(f"what is {phrase}?", lexicon)
        if reading.offer:
            return replace(reading, described=(*reading.described, f"ordinal: {phrase}"))
        if reading.rule != "nothing_named":
            return None
    return None


def _last_noun(text: str, nouns: dict[str, str]) -> str | None:
    """The last noun of the instance's slots in ``text`` (singular), longest first at each place."""
    words = [m.group() for m in re.finditer(r"[a-z]+", text)]
    found, i = None, 0
    while i < len(words):
        for n in (3, 2, 1):
            phrase = " ".join(words[i:i + n])
            forms = (phrase, phrase[:-1] if phrase.endswith("s") else "", phrase[:-2] if phrase.endswith("es") else "")
            form = next((f for f in forms if f and nouns.get(f, ONE_KIND) != ONE_KIND), None)
            if form is not None and i + n <= len(words):
                found = form
                i += n
                break
        else:
            i += 1
    return found


def _restated_after(question: Judgement, after: list[str], lexicon: Lexicon) -> Judgement | None:
    """A question (read as ``question``) followed by what it means: "... in row 1? That is, the entry of M at row 1,
    column 0."; or a question that names nothing followed by what is needed: "How fast does the chain drop back to
    state 2? That transition rate is what I need." """
    restated = RESTATED.match(after[0])
    if restated:
        reading = _read(f"what is {after[0][restated.end():]}?", lexicon)
        how = "the question restated after it"
    elif len(after) == 1 and not ADDITIVE.search(after[0]) and question.rule == "nothing_named":
        reading = _read(after[0], lexicon)
        how = "the question described after it"
    else:
        return None
    return replace(reading, described=(*reading.described, f"sentences: {how}")) if reading.offer else None


def _only_formula(sentence: str) -> bool:
    """A sentence that is a formula (a display equation after the question): context."""
    return "=" in sentence and not STRONG_ASK.search(sentence) and not WEAK_ASK.search(sentence) \
        and not _WORD.search(_FORMULA_WORDS.sub("", sentence))


_WORD = re.compile(r"\b[a-z]{4,}\b")  # a word, not a symbol ("lambda2", "mu3") nor markup
_FORMULA_WORDS = re.compile(r"\b(?:begin|end|cases|aligned|array|frac|since|where)\b")


def _points_back(question: str, reading: Judgement) -> bool:
    """A question that names nothing of the instance but a pronoun ("What is it?", "check that entry")."""
    if not ANAPHOR.search(question):
        return False
    return reading.rule == "nothing_named" or (
        reading.rule == "not_held" and all(ANAPHOR.search(phrase) for phrase in reading.asked))


def _states_need(sentence: str) -> bool:
    return bool(NEED_STATEMENT.search(sentence) or NEEDED_BEFORE.search(sentence))


def _needed(sentence: str) -> str:
    """What a statement of need says is needed: after its last need word that has something after it ("I still
    need the last condition"), else before the first of "... would close the system", "... is missing"."""
    for marker in reversed(list(NEED_STATEMENT.finditer(sentence))):
        after = sentence[marker.end():].strip(" :,")
        if _NAMES_SOMETHING.search(after):
            return after
    before = NEEDED_BEFORE.search(sentence)
    return sentence[:before.start()] if before else sentence


def _marked(text: str, mentions: list[Mention]) -> str:
    parts, at = [], 0
    for i, m in enumerate(mentions):
        parts.append(text[at:m.start])
        parts.append(chr(_MARK + i))
        at = m.end
    parts.append(text[at:])
    return "".join(parts)


def _is_statement(clause: str) -> bool:
    return bool(STATEMENT.match(clause.strip())) and "?" not in clause and not MISSING.search(clause)


_ABBREVIATION = re.compile(r"\bi\.e\.,?|\be\.g\.,?")
_CLAUSE_BREAK = re.compile(r"[.!;](?!\d)|(?<=\?)|,?\s*\b(?:but|however|although|though)\b")
_INSERTED = re.compile(r",\s*(?:which|as)\b[^,\ue000-\ue0ff]*,")
_OPERATOR = re.compile(r"[+*/^≡-]")
_PAREN_GROUP = re.compile(r"\([^()]*\)")
_MARKS = re.compile("[\ue000-\ue0ff]")


def _indices(s: str) -> list[int]:
    return [ord(ch) - _MARK for ch in _MARKS.findall(s)]


def _asked_in_clause(clause: str, mentions: list[Mention], lexicon: Lexicon) -> tuple[list[int], list[str]]:
    """(indices of the mentions asked for in ``clause``, unnamed quantity phrases joined to them)."""
    lead = LEADING_CONTEXT.match(clause)
    if lead:
        clause = clause[lead.end():]
    confirm = CONFIRM.search(clause)
    cut = TRAILING_CONTEXT.search(clause)
    if cut and cut.start() > 0 and not (confirm and cut.start() <= confirm.end()):
        closed = _INSERTED.match(clause, cut.start())  # "besides m11, which I'm solving for, there's one entry ...":
        if closed and _indices(clause[closed.end():]):  # an inserted relative clause; what follows it still counts
            clause = clause[:cut.start()] + " " + clause[closed.end():]
        else:
            clause = clause[: cut.start()]
    ids = _indices(clause)
    is_hint = {i for i in ids if mentions[i].name.kind in (HINT, PART)}
    dropped: set[int] = set()
    if any(word in clause for word in _NEGATION_WORDS):
        for negated in NEGATED.finditer(clause):
            dropped |= set(_indices(negated.group()))
    for i in [i for i in is_hint if mentions[i].name.via]:
        at = clause.index(chr(_MARK + i))
        of = PART_OF.match(clause, at + 1)
        owner = ord(of.group(1)) - _MARK if of else None
        before = OWNER_BEFORE.search(clause, 0, at)  # "the signal's first sample" (the possessive dropped)
        if owner is None and before and not _owned(mentions[i], lexicon):
            owner = ord(before.group(1)) - _MARK
        if owner is None or mentions[owner].name.kind != TARGET:
            continue
        if _owned(mentions[i], lexicon):  # "the top-left entry of M^2": an entry of another matrix, the target's
            is_hint.discard(i)
            dropped.add(i)
        else:  # "the first sample of the signal": the hint is part of what the target is made of
            dropped.add(owner)
    if "'" in clause or '"' in clause:
        for quoted in quoted_formulas(clause):
            dropped |= set(_indices(quoted)) - is_hint
    rest = clause
    if is_hint:
        spans = _descriptions_after_hint(clause, is_hint)
        for start, end in spans:  # a candidate B's fact settles, named in an explanation, is context too
            dropped |= set(_indices(clause[start:end])) - {i for i in is_hint if not mentions[i].name.candidate}
        rest = "".join(clause[a:b] for a, b in _complement(spans, len(clause)))
        for run in FORMULA_RUN.finditer(clause) if any(op in clause for op in "=≡:+*/^-") else ():
            run_ids = _indices(run.group())
            if not run_ids or not any(i in is_hint for i in run_ids):
                continue
            restated = any(op in run.group() for op in "=≡:")
            for i in run_ids:
                if i in is_hint:
                    continue
                if restated or (mentions[i].form in lexicon.components and _OPERATOR.search(run.group())):
                    dropped.add(i)
        dropped |= _in_terms(clause, ids, is_hint)
    for i in ids:
        at = clause.index(chr(_MARK + i))
        after = clause[at + 1:]
        if i not in is_hint and ((STATED_VALUE.match(after) and not confirm)
                                 or (is_hint and "?" in after and PLACEHOLDER.match(after))):
            dropped.add(i)
        elif i not in is_hint and mentions[i].name.kind == TARGET and SUBJECT_OF.match(after):
            dropped.add(i)  # "what remainder does x leave", "which equation does the point P satisfy"
    for listed in VARIABLES_OF.finditer(clause):  # "the linear relation among x, y and z": its variables
        dropped |= {j for j in _indices(listed.group(1)) if j not in is_hint}
    if "(" in clause:
        for listed in ENUMERATION.finditer(clause):  # "the last unknown in the triple (a, b, c)": where it is counted
            dropped |= set(_indices(listed.group(1)))
    kept = [i for i in ids if i not in dropped]
    unnamed = []
    for i in [i for i in kept if i in is_hint]:
        after = clause[clause.index(chr(_MARK + i)) + 1:]
        other = OTHER_SYMBOL_AFTER.match(after)
        if other and not mentions[i].form[-1:].isdigit():
            kept.remove(i)  # "the threshold t2": a word for the hint's kind, naming another symbol
            unnamed.append(mentions[i].form + " " + other.group(1))
    if unnamed:
        return kept, unnamed + _unnamed_conjuncts(rest)
    return kept, _unnamed_conjuncts(rest) if kept or CONJUNCTION.search(rest) else []


def _owned(mention: Mention, lexicon: Lexicon) -> bool:
    """Whether the slot a described mention names belongs to a named owner (matrix M's entry), which "of the target"
    then contradicts; a slot without one (a sample of the signal) is part of what the target is made of."""
    table = lexicon.described
    d = table.slots.get(mention.name.candidate or mention.name.slot) if table is not None else None
    return d is None or bool(d.owner)


def _in_terms(clause: str, ids: list[int], is_hint: set[int]) -> set[int]:
    """Names that are a variable in a term of a formula ("3x", "stop using -x + 8"): not asked."""
    out = set()
    for i in ids:
        if i in is_hint:
            continue
        at = clause.index(chr(_MARK + i))
        before = clause[at - 1:at].strip() or clause[at - 2:at - 1]
        if before.isdigit() or (before in ("+", "-", "*", "/", "^") and TERM_AFTER.match(clause, at + 1)):
            out.add(i)
    return out


def _descriptions_after_hint(clause: str, hint_ids: set[int]) -> list[tuple[int, int]]:
    """Spans right after a name of the hint that only describe it: parentheticals, appositions, modifiers."""
    spans = []
    chain_end: dict[int, int] = {}  # position -> where the descriptions from there end (chains often meet)
    for i in sorted(hint_ids):
        start = pos = clause.index(chr(_MARK + i)) + 1
        walked = []
        while pos not in chain_end:
            walked.append(pos)
            end = _description_at(clause, pos)
            if end is None:
                break
            pos = end
        end = chain_end.get(pos, pos)
        chain_end.update(dict.fromkeys(walked, end))
        if end > start:
            spans.append((start, end))
    return spans


def _description_at(clause: str, pos: int) -> int | None:
    m = APPOSITION_PAREN.match(clause, pos)
    if m:
        depth, j = 1, m.end()
        while j < len(clause) and depth:
            depth += {"(": 1, ")": -1}.get(clause[j], 0)
            j += 1
        return j
    for pattern in (IN_FORMULA, MODIFIER, DESCRIBES, APPOSITION):
        m = pattern.match(clause, pos)
        if m and m.end() > pos:
            return m.end()
    return None


def _complement(spans: list[tuple[int, int]], length: int) -> list[tuple[int, int]]:
    out, at = [], 0
    for start, end in sorted(spans):
        if start > at:
            out.append((at, start))
        at = max(at, end)
    out.append((at, length))
    return out


def _unnamed_in_question(clause: str) -> list[str]:
    """A further question that names nothing known: a symbol, or an "also ..." quantity, is one more ask."""
    symbol = SYMBOL_LIKE.search(clause)
    if symbol or (ADDITIVE.search(clause) and QUANTITY_WORD.search(clause)) or CONFIRMED_VALUE.search(clause):
        return [clause.strip(" ,")]
    return []


def _unnamed_conjuncts(clause: str) -> list[str]:
    """Phrases joined by a conjunction that name no known thing but look like a quantity."""
    if "(" in clause:
        clause = _PAREN_GROUP.sub(lambda m: m.group().replace("and", "\u2227"), clause)
    pieces = CONJUNCTION.split(clause)
    if len(pieces) < 2:
        return []
    out = []
    for piece in pieces:
        if CHECK_THAT.search(piece):
            continue  # "check that number and tell me the correct value": the quantity already named, again
        if ("=" in piece or " is " in piece) and CONFIRMED_VALUE.search(piece) and not _indices(piece):
            out.append(piece.strip(" ,"))
            continue
        if _indices(piece) or FILLER_VERB.match(piece):
            continue
        found = QUANTITY_WORD.search(piece)
        if found:
            out.append(piece.strip(" ,"))
    return out


def _decide(asked: list[Mention], unnamed: list[str], context: list[Mention]) -> Judgement:
    quantities: dict[tuple[str, str], str] = {}
    for m in asked:
        kind = HINT if m.name.kind == PART else m.name.kind
        quantities.setdefault((kind, m.name.slot + "\x00" + m.name.candidate), m.form)
    for phrase in unnamed:
        quantities.setdefault((UNNAMED, phrase), phrase)
    phrases = tuple(quantities.values())
    aside = tuple(m.form for m in context)
    described = tuple(dict.fromkeys(f"{m.form} = {m.name.via}" for m in asked if m.name.via))
    kinds = [kind for kind, _ in quantities]
    if not quantities:
        return Judgement(False, "nothing_named", (), aside)
    if len(quantities) > 1:
        return Judgement(False, "two_quantities", phrases, aside, described, tuple(kinds))
    kind = kinds[0]
    rule = {HINT: "hint", KNOWN: "known_fact", OTHER: "other_slot", TARGET: "target", UNNAMED: "not_held",
            AMBIGUOUS: "ambiguous"}[kind]
    return Judgement(kind == HINT, rule, phrases, aside, described, (kind,))


# ------------------------------------------------------------------------------------ plain requests
# "What is P(H)?", "Need lambda_0.", "Could you give me the entry m10?": a request that is one of a few asking
# frames around one of the hint's own names is read exactly as ``judge`` reads it (asked: that name; nothing else
# in the text can name a slot), so it is decided from the hint's names alone and the instance's lexicon is built
# only when a request needs it (issue 27). tests/harness/test_rule_plain.py checks the two readings agree on
# every hint name in every frame over the default split, the hard tier's k = 1 records and the corpora.
PLAIN_HEAD = re.compile(
    r"(?:(?:hi|hello|hey)\W+)?(?:please\s+)?"
    r"(?:what is|whats|what are|i need|need|give me|send me|send|tell me|"
    r"(?:could|can|would) you (?:please )?(?:give|send|tell) me)?\s*(?:the\s+|your\s+)?")


def _without_tail(text: str) -> str:
    """``text`` without its closing punctuation and a closing "please"."""
    text = text.rstrip(" ?!.")
    if text.endswith("please"):
        text = text[:-6].rstrip(" ,")
    return text


PLAIN_MAX_CHARS = 100
# words some reading of ``judge`` starts from (roles, relations, indices, conjunctions): such a request is read whole
_PLAIN_GUARDS = re.compile(r"\b(?:or|also|plus|not|other|after|before|below|above|under|over|following|"
                           r"preceding|index|position|step|time|missing|remaining|dont|lack|only|one|which)\b|;")


def plain_request(instance: dict[str, Any], request: str, prepared: str | None = None) -> Judgement | None:
    """``judge``'s judgement of a plain request for one of the hint's names (k = 1), or None for any other;
    ``prepared`` as for ``judge``."""
    if len(request) > PLAIN_MAX_CHARS:  # a frame and one name; longer requests are read whole
        return None
    text = _prepared(request) if prepared is None else prepared  # as ``judge`` reads it
    if _PLAIN_GUARDS.search(text):
        return None
    hint = instance["minimal_hint_spec"]["atomic_hints"][0]
    constraint = hint.get("constraint")
    if isinstance(constraint, dict) and isinstance(constraint.get("coeffs"), dict) and LINEAR_EXPR.search(text):
        return None  # a linear hint is also named by its left-hand side, in any order: read whole
    name = _without_tail(text[PLAIN_HEAD.match(text).end():])  # type: ignore[union-attr]
    if not name or name not in hint_name_forms(tuple(hint["request_aliases"]), hint["slot"]):
        return None
    return Judgement(True, "hint", (name,), (), (), (HINT,))


# ------------------------------------------------------------------------------------ the agent
class RuleResponder(Responder):
    privileged = True

    def __init__(self, latency: SimulatedLatency | None = None):
        self.latency = latency or SimulatedLatency({})
        self._lexicons: dict[str, Lexicon] = {}

    @classmethod
    def from_spec(cls, arg: str | None, options: dict[str, str]) -> RuleResponder:
        latency = SimulatedLatency(options)
        reject_unknown_options("rule", arg, options)
        return cls(latency)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "matcher": RULE_VERSION + ": offer iff exactly the hint quantity is asked"}

    def respond(self, turns: list[ResponderTurn]) -> list[ResponderDecision]:
        self.latency.wait()
        return [self.decide(turn) for turn in turns]

    def forget_judgements(self) -> None:
        """Empty the remembered judgements (benchmarks time the reading itself)."""
        for lexicon in self._lexicons.values():
            lexicon.judged.clear()

    def lexicon(self, instance: dict[str, Any], hint_index: int | None = None) -> Lexicon:
        """The instance's lexicon; at k > 1 the one of its ``hint_index``-th withheld fact (``reading_for``)."""
        key = instance["id"] if hint_index is None else f"{instance['id']}\x00{hint_index}"
        found = self._lexicons.get(key)
        if found is None:
            found = self._lexicons[key] = build_lexicon(instance if hint_index is None else
                                                        reading_for(instance, hint_index))
        return found

    def judge(self, instance: dict[str, Any], request: str, hint_index: int | None = None) -> Judgement:
        prepared = None
        if hint_index is None and len(instance["minimal_hint_spec"]["atomic_hints"]) == 1 \
                and len(request) <= PLAIN_MAX_CHARS:
            prepared = _prepared(request)
            plain = plain_request(instance, request, prepared)
            if plain is not None:
                return plain
        lexicon = self.lexicon(instance, hint_index)
        found = lexicon.judged.get(request)  # lexicons are shared by instances of one shape: so are judgements
        if found is None:
            found = judge(request, lexicon, prepared)
            if len(lexicon.judged) < MEMO_SIZE:
                lexicon.judged[request] = found
        return found

    def decide(self, turn: ResponderTurn) -> ResponderDecision:
        instance = turn.privileged
        if instance is None:
            raise HarnessError("the rule responder needs the instance record (privileged turn)")
        hints = instance["minimal_hint_spec"]["atomic_hints"]
        if len(hints) > 1:
            return self.decide_among(instance, hints, turn.request)
        judgement = self.judge(instance, turn.request)
        if not judgement.offer:
            return ResponderDecision.decline(rationale=judgement.rationale())
        text = hints[0]["text"]
        return ResponderDecision.offer(text, text, rationale=judgement.rationale())

    def decide_among(self, instance: dict[str, Any], hints: list[dict[str, Any]], request: str) -> ResponderDecision:
        """k > 1: the request is read once per withheld fact, that fact as the hint and the others as B's other
        facts. Exactly one reading offers: that fact is offered. None does: declined, with the reading of the first
        fact that named a withheld fact (a request for two of them is ``two_quantities`` in every reading). Several
        do (a phrase that fits more than one of them): declined as ``ambiguous``. The rationale's ``hints`` names
        the withheld facts the request asked for."""
        judgements = [self.judge(instance, request, i) for i in range(len(hints))]
        ids = [str(h.get("hint_id") or f"h{n}") for n, h in enumerate(hints, start=1)]
        named = [hint_id for hint_id, j in zip(ids, judgements, strict=True) if HINT in j.kinds]
        offering = [i for i, j in enumerate(judgements) if j.offer]
        if len(offering) == 1:
            chosen = offering[0]
            text = hints[chosen]["text"]
            return ResponderDecision.offer(text, text, rationale={**judgements[chosen].rationale(),
                                                                  "hint_id": ids[chosen], "hints": named})
        if offering:
            first = judgements[offering[0]]
            rationale = {**Judgement(False, "ambiguous", first.asked, first.context, first.described).rationale(),
                         "hints": named}
            return ResponderDecision.decline(rationale=rationale)
        shown = next((j for j in judgements if HINT in j.kinds), judgements[0])
        return ResponderDecision.decline(rationale={**shown.rationale(), "hints": named})


def reading_for(instance: dict[str, Any], index: int) -> dict[str, Any]:
    """The instance as the rule responder reads it for its ``index``-th withheld fact (k > 1): that fact first (the
    hint of the lexicon; the others stay among B's facts), and A's candidate slots without the other withheld
    facts' own slots (each one's slot, the slots it settles and those its aliases name: markov's row partner),
    which are not candidates of this fact."""
    spec = instance["minimal_hint_spec"]
    hints = list(spec["atomic_hints"])
    others = hints[:index] + hints[index + 1:]
    family = get_family(instance["family"])
    theirs = {name for hint in others for name in (hint["slot"], *hint["request_aliases"], *_settled(family, hint))}
    reading = {**instance, "minimal_hint_spec": {**spec, "atomic_hints": [hints[index], *others]}}
    verifier = instance.get("verifier")
    if isinstance(verifier, dict) and isinstance(verifier.get("candidate_slots"), list):
        kept = [s for s in verifier["candidate_slots"] if s not in theirs]
        reading["verifier"] = {**verifier, "candidate_slots": kept}
    return reading


def _settled(family: Any, hint: dict[str, Any]) -> list[str]:
    try:
        return list(family.settled_slots(hint["constraint"]))
    except (KeyError, TypeError, ValueError, AttributeError):
        return []

"""A played deal is explained by the calculator's steps, and the calculator scores it exactly as the engine did."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.calculator.score import score_request
from bot.core.explain import deal_explanation, deal_request
from bot.engine import Match, Rules
from bot.i18n import translator
from tests.table_options import OPTION_VALUES
from tests.test_engine_properties import choose

# The request carries no run length, so long_sequence="length" is left at its default here.
rules_strategy = st.fixed_dictionaries(
    {}, optional={k: st.sampled_from(v) for k, v in OPTION_VALUES.items() if k != "long_sequence"}
).map(Rules.model_validate)


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 10**9))
def test_every_played_deal_scores_the_same_through_the_calculator(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    while not match.over:
        match.apply(choose(match, rng))
    for deal, result in zip(match.deals, match.results, strict=True):
        if result is None:
            continue
        answer = score_request(deal_request(deal, result, translator("en")))
        assert answer.result == result


def test_a_result_is_explained_step_by_step_in_the_tables_language() -> None:
    rng = random.Random(4)
    match = Match(Rules(), seed=4)
    while not match.results or match.results[-1] is None:
        match.apply(choose(match, rng))
    index = len(match.results) - 1  # the match has already dealt the next deal
    deal, result = match.deals[index], match.results[index]
    assert result is not None
    en = deal_explanation(deal, result, translator("en"))
    bg = deal_explanation(deal, result, translator("bg"))
    assert any("Raw points" in line for line in en)
    assert any(str(result.raw[0]) in line and str(result.raw[1]) in line for line in en)
    assert en != bg and any("Team A" in line for line in en)

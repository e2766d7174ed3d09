"""Rounding happens when figures are written: half-up as on paper, rates to 6 significant figures."""

import pytest

from corridor.domain.rounding import round_half_up, round_significant


@pytest.mark.parametrize(
    "value, places, text",
    [
        (3.335, 2, "3.34"),
        (4.245, 2, "4.25"),
        (2.375, 2, "2.38"),
        (100 * 4.14 / 200 + 0.42, 2, "2.49"),
        (0.0, 2, "0.00"),
        (63.25, 1, "63.3"),
        (1.005, 2, "1.01"),
        (2.3749, 2, "2.37"),
        (1234567.125, 2, "1234567.13"),
        (3.3349999999999995, 2, "3.34"),
        (0.125, 2, "0.13"),
    ],
)
def test_ties_round_up_as_on_paper(value, places, text):
    assert f"{round_half_up(value, places):.{places}f}" == text


@pytest.mark.parametrize(
    "value, text",
    [(18.19745, "18.1975"), (0.0000380445, "3.80445e-05"), (26285.0, "26285.0"), (1.0, "1.0"), (0.0, "0.0")],
)
def test_rates_keep_six_significant_figures(value, text):
    assert repr(round_significant(value, 6)) == text


@pytest.mark.parametrize("value, places", [(1.2345e27, 2), (-2.5e30, 0), (1.7e308, 2)])
def test_values_beyond_28_digits_round_to_themselves(value, places):
    # a send amount at the data's extreme rates needs more digits than decimal's default context
    assert round_half_up(value, places) == value

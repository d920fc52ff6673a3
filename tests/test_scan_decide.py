"""How the scanner turns each mark's readings into named and unsure cards (bot.scanner.recognise.decide), on
readings written by hand: the rule for a card read at one mark, the combining of several marks, the marks far off the
photo's index size, and the marks of the strict threshold's split, trusted less."""

from __future__ import annotations

import numpy as np

from bot.engine.cards import card_str, parse_card
from bot.scanner.patches import STRICT_SPLIT
from bot.scanner.recognise import (
    BACKGROUND,
    COURT_SURE_VDP,
    SIZE_BAND,
    STRICT_VOTE,
    SURE,
    SURE_ALONE,
    UNSURE,
    decide,
)


def readings(*marks: tuple[str | None, float, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Marks as (card or None for "not an index", its reading, the mark's size), one every 50 pixels."""
    p = np.zeros((len(marks), BACKGROUND + 1), np.float32)
    found = np.zeros((len(marks), 3), np.float32)
    for i, (card, reading, size) in enumerate(marks):
        column = BACKGROUND if card is None else parse_card(card)
        p[i, column] = reading
        p[i, BACKGROUND if column != BACKGROUND else 0] = 1.0 - reading
        found[i] = (50.0 * i, 10.0, size)
    return p, found, np.zeros(len(marks), np.int64)


def names(result: tuple[tuple, ...]) -> tuple[list[str], list[str]]:
    named, unsure = result
    return [card_str(f.card) for f in named], [card_str(f.card) for f in unsure]


def test_a_card_read_at_one_mark_needs_more_than_one_read_at_two() -> None:
    between = (SURE + SURE_ALONE) / 2
    assert names(decide(*readings(("9H", between, 12)))) == ([], ["9H"])
    assert names(decide(*readings(("9H", SURE_ALONE, 12)))) == (["9H"], [])
    # two marks of 0.8 each: wrong only if both are, 1 - 0.2 * 0.2 = 0.96
    assert names(decide(*readings(("9H", 0.8, 12), ("9H", 0.8, 13)))) == (["9H"], [])
    assert names(decide(*readings(("9H", 0.7, 12), ("9H", 0.7, 13)))) == ([], ["9H"])  # 0.91
    # a reading under UNSURE does not vote: one mark at 0.97 stays unsure, whatever weak readings agree with it
    assert names(decide(*readings(("9H", 0.97, 12), ("9H", UNSURE - 0.05, 13)))) == ([], ["9H"])


def test_confidence_position_and_weak_readings() -> None:
    p, found, turns = readings(("AS", 0.6, 12), ("AS", 0.995, 14), ("KD", 0.5, 12), ("7C", 0.7, 12))
    named, unsure = decide(p, found, turns, scale=2.0)
    assert [card_str(f.card) for f in named] == ["AS"]
    ace = named[0]
    assert ace.confidence == round(1 - 0.4 * 0.005, 4)
    assert (ace.x, ace.y) == (100.0, 20.0)  # the best reading's mark, in the photo's pixels
    assert [card_str(f.card) for f in unsure] == ["7C"]  # K♦ at 0.5 is below UNSURE: not reported
    assert UNSURE <= unsure[0].confidence < SURE


def test_marks_far_off_the_index_size_do_not_vote() -> None:
    sure = [("7S", 0.999, 12), ("8S", 0.999, 13), ("9S", 0.999, 14)]
    large = 14 * SIZE_BAND + 8  # a court card's picture, not an index
    named, _ = names(decide(*readings(*sure, ("JC", 0.97, large), ("JC", 0.9, large))))
    assert set(named) == {"7S", "8S", "9S"}
    # within the band the same readings name the card
    named, _ = names(decide(*readings(*sure, ("JC", 0.97, 20), ("JC", 0.9, 22))))
    assert set(named) == {"7S", "8S", "9S", "JC"}
    # with fewer than three sure marks there is no size to compare with: the large marks vote
    named, _ = names(decide(*readings(sure[0], ("JC", 0.97, large), ("JC", 0.9, large))))
    assert set(named) == {"7S", "JC"}


def test_not_an_index_names_nothing() -> None:
    assert names(decide(*readings((None, 0.99, 12), (None, 0.9, 12)))) == ([], [])


def split_by(found: np.ndarray, *splits: int) -> np.ndarray:
    """The marks with the split of the ink that found each (the fourth column marks() gives)."""
    return np.column_stack([found, np.array(splits, np.float32)])


def test_a_mark_of_the_strict_threshold_only_adds_to_a_card_read_elsewhere() -> None:
    p, found, turns = readings(("7C", 0.999, 12))
    assert names(decide(p, split_by(found, 2), turns)) == (["7C"], [])
    # the same reading from the thinner glyph cores of the strict threshold: asked about, not named
    assert names(decide(p, split_by(found, STRICT_SPLIT), turns)) == ([], ["7C"])
    # with a mark of another split, or another strict one, it counts as any mark: 1 - 0.05 * 0.08 > SURE
    p, found, turns = readings(("7C", 0.95, 12), ("7C", 0.92, 12))
    assert names(decide(p, split_by(found, 1, STRICT_SPLIT), turns)) == (["7C"], [])
    assert names(decide(p, split_by(found, STRICT_SPLIT, STRICT_SPLIT), turns)) == (["7C"], [])
    # under STRICT_VOTE a strict mark does not vote at all, where a mark of another split would
    p, found, turns = readings(("7C", 0.97, 12), ("7C", STRICT_VOTE - 0.05, 12))
    assert names(decide(p, split_by(found, 1, 1), turns)) == (["7C"], [])
    assert names(decide(p, split_by(found, 1, STRICT_SPLIT), turns)) == ([], ["7C"])


def test_a_mark_of_the_cleared_split_alone_names_its_card_unsure_only() -> None:
    from bot.scanner.patches import CLEARED_SPLIT

    p, found, turns = readings(("7C", 0.999, 12))
    # a piece that stood apart only once straight runs of ink were cleared may be a stroke of a picture: asked about
    assert names(decide(p, split_by(found, CLEARED_SPLIT), turns)) == ([], ["7C"])
    # with a second witness of another split it counts as any mark, and it votes from UNSURE, not from STRICT_VOTE
    p, found, turns = readings(("7C", 0.97, 12), ("7C", UNSURE + 0.05, 12))
    assert names(decide(p, split_by(found, CLEARED_SPLIT, 1), turns)) == (["7C"], [])
    assert names(decide(p, split_by(found, 1, CLEARED_SPLIT), turns)) == (["7C"], [])
    assert names(decide(p, split_by(found, 1, STRICT_SPLIT), turns)) == ([], ["7C"])


def test_a_card_read_at_marks_of_the_cleared_split_alone_is_asked_about_however_many() -> None:
    """Two pieces of ink near a nine of hearts' index that another card covered read as the queen of diamonds at 0.96
    and 0.82 (1280 pixels): it was named at 0.99, and it was not in the photo. With a mark of any other split, or an
    index read in its frame, reading it too, it is named."""
    from bot.scanner.patches import CLEARED_SPLIT
    from bot.scanner.recognise import INDEX_SPLIT

    p, found, turns = readings(("QD", 0.96, 12), ("QD", 0.82, 12))
    named, unsure = decide(p, split_by(found, CLEARED_SPLIT, CLEARED_SPLIT), turns)
    assert names((named, unsure)) == ([], ["QD"])
    assert unsure[0].confidence == round(1 - 0.04 * 0.18, 4) >= SURE  # sure enough, but of cleared pieces alone
    p, found, turns = readings(("QD", 0.96, 12), ("QD", 0.82, 12), ("QD", 0.999, 12))
    assert names(decide(p, split_by(found, CLEARED_SPLIT, CLEARED_SPLIT, CLEARED_SPLIT), turns)) == ([], ["QD"])
    for other in (0, 1, 2, INDEX_SPLIT):
        assert names(decide(p, split_by(found, CLEARED_SPLIT, CLEARED_SPLIT, other), turns)) == (["QD"], [])


def indices(*read: tuple[str, float, float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Indices read in their frames, as (card, reading, x, radius): the frames (upright cards) and their readings."""
    q = np.zeros((len(read), BACKGROUND + 1), np.float32)
    frames = np.zeros((len(read), 4))
    for i, (card, reading, x, radius) in enumerate(read):
        q[i, parse_card(card)] = reading
        q[i, BACKGROUND] = 1.0 - reading
        frames[i] = (x, 10.0, radius, 0.0)
    return frames, q


def test_an_index_read_in_its_frame_votes_as_one_more_mark_once_per_card() -> None:
    from bot.scanner.recognise import INDEX_ALONE, INDEX_SURE_ALONE, INDEX_VOTE, with_indices

    marks = readings(("9H", 0.7, 12), (None, 0.99, 12))
    # one index at 0.97 and one mark at 0.7 of the nine: 1 - 0.03 * 0.3 = 0.991, named
    assert names(decide(*with_indices(*marks, *indices(("9H", 0.97, 300, 14))))) == (["9H"], [])
    # an index under INDEX_VOTE does not vote: the mark's 0.7 alone, unsure
    assert names(decide(*with_indices(*marks, *indices(("9H", INDEX_VOTE - 0.05, 300, 14))))) == ([], ["9H"])
    # two frames of the queen at 0.85 (two views of the same ink, most often): only the best votes, so the queen is
    # asked about, where the two combined (1 - 0.15 * 0.15 = 0.9775) would name it; a card read in frames alone is
    # reported from INDEX_ALONE, so under it not at all
    none = readings((None, 0.99, 12))
    twice = indices(("QS", 0.85, 300, 14), ("QS", 0.85, 340, 14))
    assert INDEX_VOTE <= 0.85 and INDEX_SURE_ALONE <= 1 - 0.15 * 0.15
    assert names(decide(*with_indices(*none, *twice))) == ([], ["QS"])
    assert names(decide(*with_indices(*none, *indices(("QS", INDEX_ALONE - 0.05, 300, 14))))) == ([], [])
    # alone at 0.95 it is asked about, at 0.995 named
    assert INDEX_ALONE < 0.95 < INDEX_SURE_ALONE < SURE_ALONE
    assert names(decide(*with_indices(*none, *indices(("QS", 0.95, 300, 14))))) == ([], ["QS"])
    assert names(decide(*with_indices(*none, *indices(("QS", 0.995, 300, 14))))) == (["QS"], [])
    # an index alone is named from INDEX_SURE_ALONE, under SURE_ALONE: the same reading at one ink mark is asked about
    between = (INDEX_SURE_ALONE + SURE_ALONE) / 2
    assert names(decide(*with_indices(*none, *indices(("QS", between, 300, 14))))) == (["QS"], [])
    assert names(decide(*with_indices(*readings(("QS", between, 12)), *indices()))) == ([], ["QS"])
    assert names(decide(*with_indices(*none, *indices(("QS", INDEX_SURE_ALONE - 0.01, 300, 14))))) == ([], ["QS"])
    # the best of two frames is kept, where it is: the card's position is its index's centre
    (named,), _ = decide(*with_indices(*none, *indices(("QS", 0.992, 300, 14), ("QS", 0.999, 340, 14))))
    assert (named.x, named.confidence) == (340.0, 0.999)


def test_a_mark_on_an_index_read_surely_as_another_card_names_its_own_card_unsure_only() -> None:
    from bot.scanner.frames import GUESSES
    from bot.scanner.recognise import CONTRADICT, MISREAD_SURE, ON_FRAME, with_indices

    # the mark at x = 0 reads the king of hearts at 0.998: alone and trusted, named
    king = readings(("KH", 0.998, 12))
    assert names(decide(*with_indices(*king, *indices()))) == (["KH"], [])
    # the index whose centre is 0.25 radii from it reads the king of spades at 0.995: the glyph is the index's, so the
    # king of hearts is asked about; the king of spades, read surely in its frame, is named
    on_it = ON_FRAME / 2 * 14
    assert names(decide(*with_indices(*king, *indices(("KS", 0.995, on_it, 14))))) == (["KS"], ["KH"])
    # the suit of an index lies about 0.6 radii from its centre (frames.GUESSES): a mark there is that index's glyph too
    suit_up, suit_radius = GUESSES[1]
    assert suit_up / suit_radius <= ON_FRAME
    on_suit = 0.57 * 14
    assert names(decide(*with_indices(*king, *indices(("KS", 0.995, on_suit, 14))))) == (["KS"], ["KH"])
    # read under CONTRADICT, or centred farther off than ON_FRAME radii (the next card's index), it does not doubt
    assert names(decide(*with_indices(*king, *indices(("QS", CONTRADICT - 0.03, on_it, 14))))) == (["KH"], ["QS"])
    # read as the mark's own rank in another suit, from MISREAD_SURE, the mark is that index's glyph, its suit
    # misread (``misread_suit``): one index read as two kings, both are asked about; under it, as before
    assert MISREAD_SURE < CONTRADICT - 0.03
    assert names(decide(*with_indices(*king, *indices(("KS", CONTRADICT - 0.03, on_it, 14))))) == ([], ["KH", "KS"])
    below = MISREAD_SURE - 0.03
    assert names(decide(*with_indices(*king, *indices(("KS", below, on_it, 14))))) == (["KH"], ["KS"])
    assert names(decide(*with_indices(*king, *indices(("KS", 0.995, ON_FRAME * 14 + 2, 14))))) == (["KH", "KS"], [])
    # an index read as the king of hearts itself there agrees: named, the two votes combined
    assert names(decide(*with_indices(*king, *indices(("KH", 0.995, on_it, 14))))) == (["KH"], [])
    # a doubted mark still adds to the card's other witnesses: with a second mark of the king, named
    two = readings(("KH", 0.998, 12), ("KH", 0.9, 12))
    assert names(decide(*with_indices(*two, *indices(("KS", 0.995, on_it, 14))))) == (["KH", "KS"], [])
    # an index read as another rank there (the ten of hearts) is gainsaid by the mark in turn (``gainsaid``): one index
    # read as two ranks, both are asked about
    assert names(decide(*with_indices(*king, *indices(("TH", 0.995, on_it, 14))))) == ([], ["TH", "KH"])


def test_a_card_read_only_at_glyphs_of_an_index_read_surely_as_its_rank_in_another_suit_is_asked_about() -> None:
    """A held-out ace of clubs (seed 971, photo 15) was named at 0.958 from two marks on the index of an ace of spades
    read in its frame at 0.9999: each a glyph of that index whose suit the reader took for clubs, and two of them no
    more a witness than one."""
    from bot.scanner.recognise import MISREAD_SURE, ON_FRAME, misread_suit, with_indices

    p, found, turns = readings(("AC", 0.88, 12), ("AC", 0.64, 12))
    found[1, 0] = 5.0  # both marks on the ace of spades' index, centred between them
    assert SURE <= 1 - 0.12 * 0.36
    assert names(decide(*with_indices(p, found, turns, *indices()))) == (["AC"], [])
    spades = indices(("AS", 0.9999, 2.5, 14))
    assert ON_FRAME * 14 > 5.0 - 2.5
    assert misread_suit(p, found, *spades).tolist() == [True, True]
    assert names(decide(*with_indices(p, found, turns, *spades))) == (["AS"], ["AC"])
    # the index need not be read at CONTRADICT, only at MISREAD_SURE: a nine of diamonds was invented at 1280 pixels
    # from the "9" glyphs of a nine of spades' and a nine of clubs' indices, read in their frames at 0.91 to 0.98
    assert MISREAD_SURE <= 0.91
    assert misread_suit(p, found, *indices(("AS", 0.91, 2.5, 14))).tolist() == [True, True]
    assert names(decide(*with_indices(p, found, turns, *indices(("AS", 0.91, 2.5, 14)))))[0] == []
    assert misread_suit(p, found, *indices(("AS", MISREAD_SURE - 0.01, 2.5, 14))).tolist() == [False, False]
    # a third mark of the ace of clubs away from that index is a witness of its own: the three name it
    p3, found3, turns3 = readings(("AC", 0.88, 12), ("AC", 0.64, 12), ("AC", 0.7, 12))
    found3[1, 0] = 5.0
    assert misread_suit(p3, found3, *spades).tolist() == [True, True, False]
    assert names(decide(*with_indices(p3, found3, turns3, *spades))) == (["AC", "AS"], [])
    # on an index read as another rank (the king of clubs) the two marks are doubted, not glyphs of their rank: as
    # before, the ink's two readings name the ace (a true ace of diamonds of seed 89 was so read on a king's frame)
    kings = indices(("KC", 0.9999, 2.5, 14))
    assert misread_suit(p, found, *kings).tolist() == [False, False]
    assert "AC" in names(decide(*with_indices(p, found, turns, *kings)))[0]


def test_a_mark_whose_card_no_frame_guessed_from_it_bears_out_does_not_vote() -> None:
    from bot.scanner.recognise import BORNE_OUT, borne_out

    # four marks: the king of clubs twice (a jack's large club), the nine of hearts, and one never guessed from
    p, found, turns = readings(("KC", 0.94, 28), ("KC", 0.92, 28), ("9H", 0.999, 12), ("8S", 0.999, 12))
    assert names(decide(p, found, turns)) == (["KC", "9H", "8S"], [])  # in card order
    candidates = np.array([0, 1, 2])
    guessed = np.zeros((3, BACKGROUND + 1), np.float32)
    guessed[:, BACKGROUND] = 1.0
    guessed[0, parse_card("KC")] = BORNE_OUT / 2  # its frames read the king of clubs, but hardly
    guessed[1, parse_card("JC")] = 0.7  # another card: not the mark's own
    guessed[2, parse_card("9H")] = BORNE_OUT  # the nine is borne out, however weakly
    cleared = borne_out(p, candidates, guessed)
    assert names(decide(cleared, found, turns)) == (["9H", "8S"], [])
    assert (cleared[2:] == p[2:]).all() and (cleared[:2, BACKGROUND] == p[:2, BACKGROUND]).all()
    assert cleared is not p and (p[0, parse_card("KC")], p[1, parse_card("KC")]) == (np.float32(0.94), np.float32(0.92))
    # one of the two kings borne out: it still votes, alone, and is asked about
    guessed[1, parse_card("KC")] = 0.2
    assert names(decide(borne_out(p, candidates, guessed), found, turns)) == (["9H", "8S"], ["KC"])
    # no candidate: nothing changes
    assert borne_out(p, np.zeros(0, np.int64), np.zeros((0, BACKGROUND + 1), np.float32)) is p


def test_an_index_read_well_is_named_when_a_weak_ink_mark_on_it_reads_the_same_card() -> None:
    from bot.scanner.recognise import CONTRADICT, INDEX_SURE_ALONE, INK_BEARS, WITH_INK, with_indices

    reading = (WITH_INK + INDEX_SURE_ALONE) / 2  # alone, an index at this reading is asked about
    weak = (INK_BEARS + UNSURE) / 2  # too weak to vote: alone, such a mark names nothing
    assert names(decide(*with_indices(*readings(("8S", weak, 12)), *indices()))) == ([], [])
    # readings() puts the mark at x = 0; an index of radius 14 centred 10 pixels off holds it
    assert names(decide(*with_indices(*readings(("8S", weak, 12)), *indices(("8S", reading, 10, 14))))) == (["8S"], [])
    # the same index with no ink mark on it, or the mark reading another card best, or reading it under INK_BEARS, or
    # lying more than one radius from the index's centre: asked about
    assert names(decide(*with_indices(*readings((None, 0.99, 12)), *indices(("8S", reading, 10, 14))))) == ([], ["8S"])
    assert names(decide(*with_indices(*readings(("8C", weak, 12)), *indices(("8S", reading, 10, 14))))) == ([], ["8S"])
    under = INK_BEARS - 0.05
    assert names(decide(*with_indices(*readings(("8S", under, 12)), *indices(("8S", reading, 10, 14))))) == ([], ["8S"])
    assert names(decide(*with_indices(*readings(("8S", weak, 12)), *indices(("8S", reading, 14 + 1, 14))))) == (
        [],
        ["8S"],
    )
    # an index under WITH_INK is not helped by a weak mark
    low = WITH_INK - 0.03
    assert names(decide(*with_indices(*readings(("8S", weak, 12)), *indices(("8S", low, 10, 14))))) == ([], ["8S"])
    # a mark that is the glyph of another index read surely (doubted) bears nothing out: the queen's index at x = 0
    # holds the mark, the eight's index 10 pixels off reads the eight
    both = indices(("QD", CONTRADICT, 0, 14), ("8S", reading, 10, 14))
    assert names(decide(*with_indices(*readings(("8S", weak, 12)), *both))) == (["QD"], ["8S"])


def test_an_ink_mark_read_well_is_named_when_a_weak_index_about_it_reads_the_same_card() -> None:
    from bot.scanner.patches import CLEARED_SPLIT
    from bot.scanner.recognise import INDEX_BEARS, INDEX_VOTE, INK_WITH, with_indices

    reading = (INK_WITH + SURE_ALONE) / 2  # alone, a mark at this reading is asked about
    weak = (INDEX_BEARS + INDEX_VOTE) / 2  # an index too weak to vote
    assert names(decide(*with_indices(*readings(("QC", reading, 12)), *indices()))) == ([], ["QC"])
    assert names(decide(*with_indices(*readings(("QC", reading, 12)), *indices(("QC", weak, 10, 14))))) == (["QC"], [])
    # the index reading another card best, or the queen under INDEX_BEARS, or farther than its radius: asked about
    assert names(decide(*with_indices(*readings(("QC", reading, 12)), *indices(("KC", weak, 10, 14))))) == (
        [],
        ["QC"],
    )
    under = INDEX_BEARS - 0.05
    assert names(decide(*with_indices(*readings(("QC", reading, 12)), *indices(("QC", under, 10, 14))))) == (
        [],
        ["QC"],
    )
    assert names(decide(*with_indices(*readings(("QC", reading, 12)), *indices(("QC", weak, 15, 14))))) == ([], ["QC"])
    # a mark under INK_WITH, or one of the strict or the cleared split (as often a stroke of a picture), is not enough
    low = INK_WITH - 0.05
    assert names(decide(*with_indices(*readings(("QC", low, 12)), *indices(("QC", weak, 10, 14))))) == ([], ["QC"])
    for split in (STRICT_SPLIT, CLEARED_SPLIT):
        p, found, turns = readings(("QC", reading, 12))
        marks = (p, split_by(found, split), turns)
        assert names(decide(*with_indices(*marks, *indices(("QC", weak, 10, 14))))) == ([], ["QC"])


def test_in_a_pack_lettered_vdp_a_court_card_needs_court_sure() -> None:
    # marks at 0.9 and 0.8: 0.98 combined, enough for any card at SURE; in a pack lettered В Д П a jack so read is
    # asked about, a nine is named
    two = readings(("JD", 0.9, 12), ("JD", 0.8, 13), ("9D", 0.9, 14), ("9D", 0.8, 15))
    assert names(decide(*two)) == (["9D", "JD"], [])
    assert names(decide(*two, court_sure=COURT_SURE_VDP)) == (["9D"], ["JD"])
    sure = readings(("KS", 0.995, 12), ("KS", 0.9, 13))
    assert names(decide(*sure, court_sure=COURT_SURE_VDP)) == (["KS"], [])


def test_an_index_inside_a_surer_index_of_another_card_does_not_vote() -> None:
    from bot.scanner.patches import CLEARED_SPLIT
    from bot.scanner.recognise import CONTRADICT, INDEX_SURE_ALONE, NESTED, with_indices

    none = readings((None, 0.99, 12))
    # the king of diamonds' index read at 1.0, radius 20; a frame of radius 7.5 centred 12 pixels from it (the
    # diamond under the K read as a whole index) reads the queen of diamonds at 0.995: it is the king's glyph
    assert NESTED * 20 > 7.5 and INDEX_SURE_ALONE <= 0.995
    inside = indices(("KD", 1.0, 300, 20), ("QD", 0.995, 312, 7.5))
    assert names(decide(*with_indices(*none, *inside))) == (["KD"], [])
    # its own ink witness alone (a mark of the cleared split at 0.886, not trusted) leaves the queen asked about only
    p, found, turns = readings(("QD", 0.886, 7))
    cleared = split_by(found, CLEARED_SPLIT)
    assert names(decide(*with_indices(p, cleared, turns, *inside))) == (["KD"], ["QD"])
    # outside the king's radius, as large as half of it, or inside one read under CONTRADICT, it is an index
    for apart in (indices(("KD", 1.0, 300, 20), ("QD", 0.995, 321, 7.5)),
                  indices(("KD", 1.0, 300, 20), ("QD", 0.995, 312, NESTED * 20 + 0.5)),
                  indices(("KD", CONTRADICT - 0.005, 300, 20), ("QD", 0.995, 312, 7.5))):  # fmt: skip
        assert sorted(names(decide(*with_indices(*none, *apart)))[0]) == ["KD", "QD"]
    # the queen of spades invented at 1024 pixels: a frame of radius 9.1, 13.3 pixels from a jack of spades' index of
    # radius 19.9 (0.457 of it); and a true king of clubs of a pack lettered В Д П, 0.48 the size of the ace's index
    # beside it, 0.57 of the ace's radius away
    assert 9.1 / 19.9 < NESTED < 0.48
    glyph = indices(("JS", 1.0, 300, 19.9), ("QS", 0.995, 313.3, 9.1))
    assert names(decide(*with_indices(*none, *glyph))) == (["JS"], [])
    king = indices(("AC", 1.0, 300, 20), ("KC", 0.995, 311.4, 9.6))
    named, unsure = names(decide(*with_indices(*none, *king)))
    assert (sorted(named), unsure) == (["AC", "KC"], [])


def test_two_frames_of_one_index_read_as_two_cards_name_neither_alone() -> None:
    from bot.scanner.recognise import INDEX_SURE_ALONE, INDEX_VOTE, ON_FRAME, with_indices

    none = readings((None, 0.99, 12))
    # a partly covered ten read in two frames 10 pixels apart (under ON_FRAME radii): the ten of diamonds at 0.992,
    # the ten of clubs at 0.95; one index is not two cards, so both are asked about
    assert ON_FRAME * 21 > 10 and INDEX_SURE_ALONE <= 0.992
    close = indices(("TD", 0.992, 300, 22), ("TC", 0.95, 310, 21))
    named, unsure = names(decide(*with_indices(*none, *close)))
    assert named == [] and sorted(unsure) == ["TC", "TD"]
    # 1.4 radii apart (the next card's index in a tight fan), or the other read under INDEX_VOTE, the ten of
    # diamonds is named
    for other in (("TC", 0.95, 330, 21), ("TC", INDEX_VOTE - 0.1, 310, 21)):
        assert names(decide(*with_indices(*none, *indices(("TD", 0.992, 300, 22), other))))[0] == ["TD"]
    # a second witness, an ink mark of the ten of diamonds, names it still
    p, found, turns = readings(("TD", 0.9, 12))
    assert names(decide(*with_indices(p, found, turns, *close))) == (["TD"], ["TC"])


def test_a_mark_of_the_cleared_split_needs_its_card_borne_out_more() -> None:
    """The king of hearts invented on a held-out photo: two marks of the cleared split, 100 pixels apart, read as the
    king at 0.82 and 0.73, their guessed frames reading it at 0.072 and 0.0145 at best. Borne out under
    BORNE_OUT_CLEARED they do not vote; a mark of another split so borne out still does, and a cleared mark borne out
    at BORNE_OUT_CLEARED votes. A fifth mark, of the first split and no candidate, reads the king at 0.7: the king's
    confidence tells how many of the marks voted (two cleared marks and no other would name it unsure only)."""
    from bot.scanner.patches import CLEARED_SPLIT
    from bot.scanner.recognise import BORNE_OUT, BORNE_OUT_CLEARED, borne_out

    p, found, turns = readings(("KH", 0.82, 13), (None, 0.99, 13), ("KH", 0.73, 13), ("9S", 0.999, 12), ("KH", 0.7, 13))
    splits = np.array([CLEARED_SPLIT, 1, CLEARED_SPLIT, 1, 1], np.float32)
    found = np.column_stack([found, splits])
    candidates = np.array([0, 2, 3])
    guessed = np.zeros((3, BACKGROUND + 1), np.float32)
    guessed[:, BACKGROUND] = 1.0
    guessed[0, parse_card("KH")] = 0.072
    guessed[1, parse_card("KH")] = 0.0145
    guessed[2, parse_card("9S")] = 1.0
    assert BORNE_OUT < 0.0145 and BORNE_OUT_CLEARED > 0.072

    def king(splits_read: np.ndarray | None) -> tuple[list[str], list[str], float]:
        named, unsure = decide(borne_out(p, candidates, guessed, splits_read), found, turns)
        (read,) = [f for f in (*named, *unsure) if card_str(f.card) == "KH"]
        return *names((named, unsure)), read.confidence

    # the rule of every mark alone lets them vote: 1 - 0.18 * 0.27 * 0.3 = 0.985, named
    assert king(None) == (["KH", "9S"], [], round(1 - 0.18 * 0.27 * 0.3, 4))
    assert king(splits[candidates]) == (["9S"], ["KH"], 0.7)  # the plain mark's reading alone
    # found by the first splits, the same marks so borne out still vote
    assert king(np.array([1, 1, 1], np.float32)) == (["KH", "9S"], [], round(1 - 0.18 * 0.27 * 0.3, 4))
    # a cleared mark whose frame reads its card at BORNE_OUT_CLEARED votes: alone with the plain mark, 0.946 is under
    # SURE and the king is asked about; with the other one borne out too, named
    guessed[0, parse_card("KH")] = BORNE_OUT_CLEARED
    assert king(splits[candidates]) == (["9S"], ["KH"], round(1 - 0.18 * 0.3, 4))
    guessed[1, parse_card("KH")] = BORNE_OUT_CLEARED
    assert king(splits[candidates]) == (["KH", "9S"], [], round(1 - 0.18 * 0.27 * 0.3, 4))


def test_an_index_found_again_fills_a_gap_or_reads_an_index_better_and_contradicts_nothing() -> None:
    """``joined``: the indices found again at the photo's index size against those found first. Frames and marks on
    one line (y = 10), radius 15; ON_FRAME radii is 9 pixels."""
    from bot.scanner.recognise import ON_FRAME, joined

    first = indices(("9S", 0.999, 300, 15), ("7H", 0.6, 400, 15))
    again = indices(
        ("KC", 0.98, 100, 15),  # where no index was read: added
        ("9S", 1.0, 303, 15),  # on the nine of spades, read better: replaces it
        ("8H", 0.99, 404, 15),  # on the index read as the seven of hearts: a second guess is no witness against it
        ("QS", 0.97, 200, 15),  # on an ink mark that reads the jack of spades
    )
    p, found, _turns = readings(("JS", UNSURE, 12))
    found[0, :2] = (200 + ON_FRAME * 15 - 1, 10)

    def read(result: tuple[np.ndarray, np.ndarray]) -> list[tuple[str, float, float]]:
        frames, q = result
        return sorted((card_str(int(r[:BACKGROUND].argmax())), round(float(r[:BACKGROUND].max()), 3), float(f[0]))
                      for f, r in zip(frames, q, strict=True))  # fmt: skip

    assert read(joined(*first, *again, found, p)) == [("7H", 0.6, 400), ("9S", 1.0, 303), ("KC", 0.98, 100)]
    # the ink mark further off, weaker than UNSURE, or reading the same card: the queen of spades is added
    for mark in ((200 + ON_FRAME * 15 + 1, "JS", UNSURE), (200, "JS", UNSURE - 0.01), (200, "QS", 0.9)):
        p, found, _turns = readings((mark[1], mark[2], 12))
        found[0, :2] = (mark[0], 10)
        assert ("QS", 0.97, 200) in read(joined(*first, *again, found, p))
    # read no better than the first, the nine of spades found again does not replace it
    weaker = indices(("9S", 0.99, 303, 15))
    assert read(joined(*first, *weaker, found, p)) == [("7H", 0.6, 400), ("9S", 0.999, 300)]
    # nothing found again: the first indices as they were
    assert read(joined(*first, *indices(), found, p)) == [("7H", 0.6, 400), ("9S", 0.999, 300)]


def test_a_frame_whose_index_the_photos_edge_cuts_is_not_inside() -> None:
    """On a committed photo a red card's index cut by the photo's left edge, read in a frame found again centred 6
    pixels from it (radius 20), named a queen of diamonds not in the photo."""
    from bot.scanner.recognise import WHOLE_INSIDE, inside

    assert WHOLE_INSIDE == 0.5
    frames = np.array([[6, 264, 20, 0], [10, 264, 20, 0], [300, 264, 20, 0], [589, 264, 20, 0], [300, 790, 20, 0],
                       [300, 789, 20, 0], [300, 5, 8, 0]], np.float64)  # fmt: skip
    assert inside(frames, 800, 600).tolist() == [False, True, True, True, False, True, True]
    assert inside(frames[:0], 800, 600).shape == (0,)


def test_an_index_whose_rank_an_ink_mark_on_it_reads_otherwise_names_its_card_unsure_only() -> None:
    """A held-out ace of diamonds (seed 89) read as the king in a frame at 0.996, on ink marks that read the ace at
    0.919 and 0.629: the king was named, from that frame alone."""
    from bot.scanner.recognise import GAINSAY, INDEX_SURE_ALONE, ON_FRAME, with_indices

    frame = indices(("KD", 0.996, 436, 25))
    assert INDEX_SURE_ALONE <= 0.996 and GAINSAY <= 0.919
    p, found, turns = readings(("AD", 0.919, 12), ("AD", 0.629, 12))
    found[:, 0] = (429, 449)  # 0.28 and 0.52 radii from the frame's centre
    assert names(decide(*with_indices(p, found, turns, *frame))) == (["AD"], ["KD"])
    # an ink mark that reads the same rank in another suit (the reader takes a small club for a spade), one under
    # GAINSAY, or one beyond ON_FRAME of the frame's radius gainsays nothing: the king is named
    for card, reading, x in (("KS", 0.98, 429), ("AD", GAINSAY - 0.01, 429), ("AD", 0.98, 436 + ON_FRAME * 25 + 1)):
        p, found, turns = readings((card, reading, 12))
        found[0, 0] = x
        assert "KD" in names(decide(*with_indices(p, found, turns, *frame)))[0]

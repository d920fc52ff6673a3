"""Read the cards of a photo: decode it within bounds, read the turn of every mark, then its card with the mark
turned upright (two small networks, one onnxruntime call each per photo), and keep each card's best reading. A card
read below SURE is reported as unsure, never counted; one below UNSURE is not reported. A pack has each card once,
so the readings of one card at several places are one card. The photo is read so two or three times, on other
pixels each time, and a card is named only where two readings name it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt
import onnxruntime as ort  # type: ignore[import-untyped]

from bot.engine.cards import DIAMONDS, HEARTS, RANK_CHARS, rank_of, suit_of

from .frames import (
    FRAME_SPAN,
    GUESSES,
    SAME_INDEX,
    VIEWS,
    WHOLE,
    Frames,
    corrected,
    court_windows,
    distinct,
    frame_patches,
    hypotheses,
    views,
)
from .patches import (
    ANGLES,
    CLEARED_SPLIT,
    STRICT_SPLIT,
    WORK_SIDE,
    Float,
    Work,
    marks,
    patches,
    planes_of,
    prepare,
    read_patches,
    scaled,
    tensor,
)

# a broken file gets our one-line answer, not OpenCV's log lines on standard error
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
# A photo is read on one core, as the networks run (``session_options``): the bot reads several photos at once. OpenCV
# would otherwise share out each threshold, labelling and cut over every core, which cost a photo's reading 10 % more
# processor time in those steps (115 ms against 105 on the bench's held-out photos), and gave the same pixels
cv2.setNumThreads(1)

MODEL = Path(__file__).with_name("model.onnx")  # the reader: which card, on a patch turned upright
TURN = Path(__file__).with_name("turn.onnx")  # the first network: which way the card points
INDEX = Path(__file__).with_name("index.onnx")  # the index network: which card, read in the index's own frame
# Packs print their jacks, queens and kings as J Q K (or the German B D K: "latin") or, many Bulgarian ones, as В Д П
# (вале, дама, поп: "cyrillic"). A bold В is drawn much like an 8, so the networks that learnt the latin letters
# invent eights on such a pack; a pack said to be lettered В Д П is read by a reader and an index network carried on
# over packs drawn with those letters (docs/scanner.md, "The Bulgarian letters В Д П"). The turn network is shared.
LETTERS = ("latin", "cyrillic")
MODEL_VDP = Path(__file__).with_name("model-vdp.onnx")
INDEX_VDP = Path(__file__).with_name("index-vdp.onnx")
# the index network carried on with the indices another card covers by more than 15 % as "not an index", then on with
# cuts about each such index as well: a second opinion on each card named (``uncovered``), not a witness of its own
# (docs/scanner.md, "A card on a covered index")
COVER = Path(__file__).with_name("index-cover.onnx")
# COVER carried on over the cards the scanner itself checks on photos of the trained designs: alone it takes back no
# more than COVER at a higher threshold, but the two err apart. On a photo read at its own size the check reads the
# geometric mean of both: on 174 held-out sets at 1024 pixels 11 cards invented against 23, 64 of 113,936 cards asked
# about instead of named (docs/scanner.md, "A second network for the check")
COVER_HARD = Path(__file__).with_name("index-cover-hard.onnx")
# COVER_HARD carried on over all eighteen trained designs (the nine added since too) and over the cards the scanner
# checks on their photos: it errs apart from the two again. Read with them (the geometric mean of three) at
# COVERED_INDEX 0.5 where the two were read at 0.4, on 222 held-out sets at 1024 pixels 11 cards invented against 16,
# and 65 of 145,333 cards asked about instead of named (docs/scanner.md, "A third network for the check")
COVER_ALL = Path(__file__).with_name("index-cover-all.onnx")
# A card named under confidence 1.0 (to four places) is asked about instead where the check reads it under
# COVERED_INDEX at its best index (in its five views), or, named at ink marks alone, under COVERED_INK in each of the
# three frames guessed from its best mark
COVERED_INDEX = 0.5
COVERED_INK = 0.1
# An ace is checked even when named at 1.0 (CHECKED_AT_ONE): where the next card covers the rank of an index, its suit
# alone reads as that suit's ace, at an ink mark and at the index in its frame alike, so two sure witnesses of an ace
# may be one pip. Two aces were so invented at 1.0 on 76 held-out sets drawn afresh (a ten's index 49 % and 53 %
# covered); the check reads them under COVERED_INDEX (docs/scanner.md, "An ace checked at 1.0"). Not on a photo enlarged
# to be read, where the check alone reads true aces of a committed photo at 0.09-0.16, and which it was not measured on.
# A ten is checked at 1.0 too: where the next card covers most of a king's letter, the sliver left beside the suit
# reads as the "10" of that suit's ten at every witness (docs/scanner.md, "A ten checked at 1.0").
CHECKED_AT_ONE: frozenset[int] = frozenset({RANK_CHARS.index("A"), RANK_CHARS.index("T")})
# A red suit is printed in red ink, a black one in black. The networks read a grey and a red plane, yet name a blurred
# black club a red diamond at 1.0 on a whole index: 4 of the last 16 cards invented. How red an index's ink is
# (``ink_hues``) depends on the photo's light (a pink light reddens black ink; a phone's JPEG pales a thin red stroke),
# so it is weighed against the other cards of the same reading named at COLOUR_SURE or more: at least COLOUR_LEVELS of
# each colour, their medians COLOUR_APART or more apart. A card of a red suit whose ink is no redder than the reddest
# such black card's and lies under COLOUR_SAYS of the way from the black cards' median to the red cards' is asked
# about. At half the way it asked about a true ten of diamonds whose ink reads 0.39-0.47 of the way, where two of the
# black cards had another card's red beside them (docs/scanner.md, "The colour of the ink")
COLOUR_SURE = 0.999
RED_SUITS = frozenset({DIAMONDS, HEARTS})
COLOUR_LEVELS = 2
COLOUR_APART = 0.1
COLOUR_SAYS = 0.25
# The ink of an index: within COLOUR_DISK of its frame's radius of its centre (its glyphs, seldom the card's edge),
# darker than its paper (the 90th percentile of grey there) by COLOUR_DEEP of the index's contrast (to its 3rd
# percentile); its hue, the COLOUR_HUE-th percentile of how much redder than the paper each such pixel is, over how much
# darker: the reddest part of the ink, so that another card's black edge across a red index does not hide its red.
COLOUR_DISK = 0.75
COLOUR_DEEP = 0.2
COLOUR_HUE = 90
# A photo under the scanner's 1024 pixels is enlarged (``patches.prepare``): a chat's small JPEG, its glyphs blurred
# twice over. There the check reads the cards named wrongly at 0.5-0.83, and at an index it asks about a card read under
# COVERED_INDEX_ENLARGED: on 24 held-out sets at 800 pixels drawn after it was chosen, 1 card invented against 5, and
# 67 of their 15,237 cards asked about instead of named (docs/scanner.md, "The check on an enlarged photo")
COVERED_INDEX_ENLARGED = 0.7
# The court network (training/court.py): whether the card an index belongs to is a jack, queen or king, read in a
# window about the index that holds what the card shows beside it (a court card's picture, a number card's white or
# pips). The last cards invented were court letters of a held-out design read, blurred, as another rank of their suit
# (a K read as an A, a B as an 8) at 0.99 to 1.0 by every reading; the window reads those two cards as court cards.
# A number card named where the window reads a court card (at COURT_SAYS or more, the mean of the five views of its
# best index), or a court card named where it reads a number card, is asked about (docs/scanner.md, "The court
# network")
COURT_NETWORK = Path(__file__).with_name("court.onnx")
COURT_SAYS = 0.5
# Those networks learnt the three letters from six designs in one font: on the held-out designs so lettered they read
# a jack, queen or king at 0.97-0.995 where the card was another of the three or of another suit (7 cards from 0.99
# in 240 photos, none from 0.995), so in such a pack a court card is named from COURT_SURE_VDP, whatever its marks.
COURT_SURE_VDP = 0.995
COURT = tuple(RANK_CHARS.index(letter) for letter in "JQK")  # the ranks of the jack, queen and king
# A guessed frame read as some card at KEEP or more is moved by the network's correction and read again, ROUNDS times
KEEP = 0.3
ROUNDS = 2
# An index found, read as a card at VIEW_FROM or more, is read again in each of frames.VIEWS, and its reading is the
# five readings' normalised geometric mean (``agreed``). On 18 measured sets (11,469 cards) the views took back 4 of
# the 6 cards still invented and cost 7 named (INDEX_SURE_ALONE at 0.97 won back 19), at about 0.1 s a photo; reading
# the frames under VIEW_FROM again as well changed nothing.
VIEW_FROM = 0.5
# Frames are guessed only from the marks the reader does not call "not an index" at PRUNE or more: the others (pips,
# pictures, the table) gave no card on the calibration photos and cost two thirds of the index network's time.
PRUNE = 0.99
# The turn network reads "not an index" too: a mark it so reads at PLAIN or more is not cut again nor read by the
# reader, and keeps "not an index" as its reading. On 90 photos of the held-out, trained and added designs (34,856
# marks) two thirds of the marks were so, of which the reader read none as a card at 0.3 or more and 49 under PRUNE;
# on the bench's 240 photos of the four sets every card named and asked about stayed the same, and a photo took
# 0.1 s less on a 2 GHz core (docs/scanner.md, "Seconds on a slower core").
PLAIN = 0.999
# The photo is read twice, at the working size and at AGREE_SIDE, and where those two readings name other cards, a
# third time, turned by AGREE_TURN (half a step of the turn network): every mark falls on other pixels, so a reading
# that rests on an accident of the pixels is seldom made twice. A card is named where two readings name it (one the
# first does not name, where both others name it at OVERRULE), asked about where one names it or the first reads it. On
# 96 held-out sets at 1024 pixels (62,677 cards; chosen on the first 34) it invents 2 cards against 4, names 2 more and
# misses 60 fewer; on 27 sets at 800 pixels it invents none against 4 and names 7 more; a photo takes about twice as
# long (docs/scanner.md, "Three readings" and "A card the first reading does not name: two others sure").
AGREE_SIDE = 896
AGREE_TURN = 11.25
# A card the first reading does not name is named only where both others name it at OVERRULE (SURE) or more. At 0.99,
# on 60 held-out sets at 1280 pixels, it took back one card invented (a lattmann queen of spades named at 0.984 and
# 0.980 on a jack of spades' index the first reading asked about) and asked about 4 true cards more, and on 20 sets
# drawn afresh 4 more for none (docs/scanner.md, "Looked at, not shipped: two others surer").
OVERRULE = 0.95
# Nor is a card the first reading asks about where it reads another card at SURE or more within PLACE (below): it could
# not tell which of two cards that index is (``torn_between``). On 140 recorded held-out sets that took back a lattmann
# ace of spades the others named at 0.982 and 0.9999 on a ten's index, and asked about 4 true cards of 92,386; on 40
# sets drawn after it, it moved none (docs/scanner.md, "Two cards at one index: no overruling").
# Two cards read at one index: a card a reading names under PLACE_SURE, where the same reading asks about another card
# at SURE or more within PLACE of the photo's longer side (about an index's radius on most photos), is asked about in
# that reading (a nine of spades named at 0.9996 where the true nine of clubs is asked about at 0.995, 3 pixels of
# 1280 away). On 100 held-out sets it took back 2 of the 4 cards invented and asked about 9 true cards of 66,135
# (docs/scanner.md, "Two cards read at one index").
PLACE = 0.012
PLACE_SURE = 0.9999
# A card named weakly twice: where the first two readings both name a card, neither at PAIR_SURE or more, the turned
# reading is read too, as where they name other cards, and the card is named only where it names it as well
# (``unborne_pairs``). Two readings naming one card weakly may rest on one accident of the index: a lattmann jack of
# spades, two-thirds of its B covered, was named the queen at 0.974 and 0.988 by the first two, which named the same
# cards, so the turned one, which names the jack, was not read. On 70 recorded held-out sets at 1024 pixels (45,775
# cards) it took back the 3 cards invented, each a jack or a queen on the index of another card of its suit, and
# asked about 16 true cards; the turned reading is read on 17 % of photos, not 15 % (docs/scanner.md, "A card named
# weakly twice"). Not on a photo enlarged to be read, whose readings are weaker: on 27 sets at 800 pixels it asked
# about 42 true cards of 17,734 and took back none. PAIR_SURE 0: as before.
PAIR_SURE = 0.99
# A card named at the photo's edge: one the readings name under EDGE_SURE (as the first reading that names it gives
# it) whose index lies within EDGE of the photo's longer side (about an index's radius) of the edge is asked about.
# The edge may leave a sliver of another card's index that reads as it: a lattmann queen of spades was named at 0.9969
# and 0.9977 by two readings 14 pixels of 1280 from the edge, where none lay. A whole index is seldom read so near the
# edge under 1.0: on 100 held-out sets (66,135 cards) the rule took that card back and asked about 3 true cards named
# before, and 8 that were there with their index cut; on 20 sets drawn after, it changed nothing; on 40 sets of packs
# lettered В Д П (read once) it took back 1 card of 21 invented for 5 true ones (docs/scanner.md, "A card named at the
# photo's edge").
EDGE = 0.012
EDGE_SURE = 0.9999
# A photo under the working size is enlarged to be read, its glyphs blurred by it: read smaller still, its smallest
# indices are lost (three cards of seven on a committed photo of 800 pixels), so its second reading enlarges it more.
AGREE_SIDE_ENLARGED = 1152
# Bounds of the index network's work, whatever the photo holds (a bench photo of 32 cards has up to 120 such marks and
# 80 frames read as a card): the marks read least as "not an index" first, the frames read most as a card.
MAX_GUESSED = 300
MAX_LIVE = 200
# An index read in its frame votes as a mark would, its size taken as its radius over RADIUS_PER_MARK (the median
# of the marks of an index), so that the size band keeps it; INDEX_SPLIT names it among the splits of the ink.
RADIUS_PER_MARK = 1.16
INDEX_SPLIT = 5
# The indices of one photo are of about one size (one pack at one distance), but a frame guessed from a mark takes
# the mark's size: from half a glyph, two glyphs joined or a glyph joined to the next card's edge it is cut too small
# or too large, and the index is read poorly or not found. From each mark farther than TYPICAL_AWAY radii from every
# index read at CONTRADICT or more, three frames are guessed again at the median radius of the TYPICAL_FROM such
# indices nearest to it (the camera's perspective makes far indices smaller), if there are that many
# (``at_typical_size``). A frame so found whose centre lies within WHOLE_INSIDE radii of the photo's edge is left
# out: the edge cuts its index (on a committed photo the cut index of a red card at the edge, read in a frame so
# found, named a queen of diamonds not there). Measured in docs/scanner.md, "Indices found again at the photo's index
# size".
TYPICAL_FROM = 3
TYPICAL_AWAY = 1.0
WHOLE_INSIDE = 0.5
# A card read in its frames (at INDEX_VOTE or more) only where the frame's centre lies outside the photo is asked
# about, not named, however its ink reads it (``cut_off``): at least half of that index is cut off by the photo's edge,
# and what is left of it can be another card's (a ten of diamonds named at 1.0 from the half of an eight of
# diamonds' index left in a held-out photo). Measured in docs/scanner.md, "An index the photo's edge cuts in half".
CUT_INSIDE = 0.0
# An index votes from INDEX_VOTE (several weak frames of one patch of ink invented cards from 0.6); a card read in
# frames alone, at no ink mark, is reported from INDEX_ALONE: under it, such cards were mostly not in the photo. Lowered
# from 0.9 with the index read in several views (VIEWS), which read a true index lower where one view is poor: on 18
# measured sets (11,469 cards) 29 cards fewer missed, 30 more asked about that were not there.
INDEX_VOTE = 0.8
INDEX_ALONE = 0.8
# An ink mark within ON_FRAME radii of the centre of an index read in its frame as another card at CONTRADICT or more
# is a glyph of that index: alone, it names its own card as unsure only (on the calibration photos two of the three
# cards invented from one mark were such, none of the 30 cards there named from one mark). An index's rank lies about
# 0.4 radii from its centre and its suit about 0.6 (bot.scanner.frames.GUESSES), so both are within ON_FRAME.
CONTRADICT = 0.99
ON_FRAME = 0.6
# A mark on an index read in its frame at MISREAD_SURE or more as a card of the mark's own rank in another suit is a
# glyph of that index whose suit the reader took for another (``misread_suit``). Lower than CONTRADICT: the frame need
# only be surer of the suit than the glyph. A nine of diamonds was invented at 1280 pixels from the "9" glyphs of a nine
# of spades' index and a nine of clubs' (each frame read at 0.91 to 0.98).
MISREAD_SURE = 0.9
# An index read in its frame that lies inside one read at CONTRADICT or more as another card, at less than NESTED of
# its radius, is a glyph of that index read at the wrong size (a suit read as a whole index): it does not vote
# (``nested``). A queen of diamonds was invented so at 0.994, from a frame 0.38 times the size of a king of diamonds'
# index read at 1.0, 0.62 of its radius from its centre, and a cleared-split mark. Frames of one photo's true indices
# differ in size too, so neither size nor distance alone tells: on a bellot photo its queens and kings were read in
# frames a third the size of its tens (none inside another), and on a pack lettered В Д П a king of clubs in a frame
# 0.48 the size of the ace's beside it, 0.57 of that ace's radius away. Raised from 0.45 to halfway between that king
# and a queen of spades invented at 1024 pixels from a frame 0.457 the size of a jack of spades' index (at 0.67 of its
# radius) and a cleared-split mark (docs/scanner.md, "A queen of spades from small frames and cleared marks").
# Likewise two frames closer than ON_FRAME radii are one index (``contested``).
NESTED = 0.47
# An index read in its frame whose rank an ink mark within ON_FRAME of its radius reads otherwise, at GAINSAY or more,
# names its card at most unsure alone (``gainsaid``): on a held-out photo an ace of diamonds was read as the king in a
# frame at 0.996, on ink marks that read the ace at 0.919 and 0.629, and the king was named. A suit read otherwise is
# not such a witness: the reader takes a small club for a spade, and so it cost two named cards on the bench (docs/
# scanner.md, "An index whose rank the ink reads otherwise").
GAINSAY = 0.9
# A mark whose card the index network reads under BORNE_OUT in each of the three frames guessed from it does not vote
# (``borne_out``): on 18 measured sets (11,469 cards) such marks invented 6 cards and asked about 141 absent ones,
# where they named 3 and kept 5 from being missed. Most were strokes of a court card's picture or of a pip.
BORNE_OUT = 0.01
# A mark of the cleared split (a piece that stood apart only once straight runs of ink were cleared: as often a stroke
# of a picture as a glyph) needs more: its card read at BORNE_OUT_CLEARED in one of its frames at least. A king of
# hearts was invented on a held-out photo from two such marks 100 pixels apart, their frames reading it at 0.072 and
# 0.0145. On 19 measured sets (13,597 cards) the rule took that card back, named none fewer, and asked about 31 absent
# cards fewer (of 213) and one present card fewer; from 0.2 it named fewer (docs/scanner.md, "A mark of the cleared
# split borne out").
BORNE_OUT_CLEARED = 0.1
# Two witnesses of one index, one strong and one weak, name a card the rules above leave unsure (``borne_by_both``):
# an index read in its frame at WITH_INK or more with an ink mark within one radius of its centre, not doubted, that
# reads the same card best at INK_BEARS or more (too weak to vote, under UNSURE); or an ink mark of the first three
# splits read at INK_WITH or more (alone it needs SURE_ALONE) with such an index that reads its card best at INDEX_BEARS
# or more (under INDEX_VOTE). The two networks read the same ink cut two ways. On 18 measured sets (11,469 cards) the
# first named 20 cards more and invented 1 (a trained design); on 10 sets drawn afresh (6,678 cards) 8 more, none
# invented. The second named 15 more on those 28 sets (all of trained designs) and 4 more on 6 sets drawn after it was
# chosen (3,970 cards), and invented none.
WITH_INK = 0.9
INK_BEARS = 0.3
INK_WITH = 0.9
INDEX_BEARS = 0.3
# A card read at marks of the cleared split alone, however many, is at most unsure (CLEARED_ALONE_NAMES False; True
# names it from two such marks, as before): at 1280 pixels a queen of diamonds was invented at 0.99 from two pieces of
# ink near a nine of hearts' index another card covered by a fifth, read as the queen at 0.96 and 0.82. On the 44 sets
# read both ways it was chosen on (28,997 cards at 1280 and 1024 pixels) it took that queen back and changed no other
# card's answer; on 53 sets drawn after (35,001 cards) it asked about 3 cards named before and took back none, as
# none was invented so (docs/scanner.md, "A card read at cleared pieces alone").
CLEARED_ALONE_NAMES = False
MAX_BYTES = 25 * 1024 * 1024  # a phone's photo is 2-8 MB
MAX_PIXELS = 50_000_000  # and 12-48 megapixels
# A card read at two marks or more (its rank and its suit, its two corners) is named from SURE, one read at a single
# mark from SURE_ALONE: almost every card a photo shows is read at several marks, almost every invented one at one.
SURE = 0.95
SURE_ALONE = 0.99
# A card read at one index in its frame and at no ink mark is named from INDEX_SURE_ALONE: such readings from 0.975 up
# were all of cards in the calibration photos, where one ink mark at 0.996 to 0.998 still invented cards. Lowered from
# 0.98 with the index read in several views: 19 more cards named on the 18 measured sets, none invented.
INDEX_SURE_ALONE = 0.97
# The indices of one photo are about one size; a mark far larger or smaller than the marks read surely (a court card's
# picture, a pip of a card's middle) does not vote. The band costs no card on the calibration photos.
SIZE_BAND = 2.5
STRONG = 0.99
# A mark votes from UNSURE: a weak reading elsewhere in the photo (another card's glyph read at 0.3) no longer joins
# a card's one good mark to name it; a card no mark reads at UNSURE is not reported. Raised from 0.25 with the third
# split of the ink, whose marks invented cards that way on the calibration photos.
UNSURE = 0.6
# A mark of the strict threshold's split (thinner glyph cores than the reader learnt on) votes from STRICT_VOTE, and a
# card it alone reads is at most unsure: on a bench photo one such mark, on a seven of spades whose index another card
# partly covers, read a seven of clubs at 1.0.
STRICT_VOTE = 0.9
BACKGROUND = 32
# Each card's rank, as the engine numbers them: the networks' columns are the cards in that order.
RANK = np.array([rank_of(card) for card in range(BACKGROUND)], np.int64)
# The networks read a photo's patches in batches of at most READ_BATCH: with a bounded batch onnxruntime's memory
# levels off, where a call per photo (a new number of marks each time, up to hundreds) grew the process by hundreds of
# megabytes a photo, to gigabytes (`python bench/scan.py --memory`). The last batch is read as it is: a network reads
# a patch in the same time in a batch of 2 as of 64, and filling it out with blank patches to a multiple of 16 was a
# twentieth of the networks' work.
READ_BATCH = 64


class ScanError(ValueError):
    """The input cannot be read as a photo (the message says why, in one line; ``reason`` names the case for a
    translated answer: "bytes", "empty", "format", "pixels", "damaged" or "heic": HEIC without the heic extra)."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Found:
    """One card read: the card (bot.engine.cards numbering), how sure, and where its index is in the photo."""

    card: int
    confidence: float
    x: float
    y: float
    angle: float  # degrees clockwise from up: the direction the card's top points


@dataclass(frozen=True, slots=True)
class Scan:
    width: int
    height: int
    cards: tuple[Found, ...]  # read surely, in card order
    unsure: tuple[Found, ...]  # read below SURE, or not named by two readings: shown to the player, not counted


Reading = tuple[tuple[Found, ...], tuple[Found, ...]]  # the cards named and the cards unsure, in card order


def networks(letters: str) -> tuple[Path, Path]:
    """The reader and the index network for a pack lettered ``letters`` (one of LETTERS)."""
    if letters == "latin":
        return MODEL, INDEX
    if letters == "cyrillic":
        return MODEL_VDP, INDEX_VDP
    raise ValueError(f"unknown letters {letters!r}; known: {', '.join(LETTERS)}")


@lru_cache(maxsize=1)
def _shared_arena() -> None:
    """One memory arena for every network, registered with onnxruntime's environment once per process. Each session
    with an arena of its own kept the peak of its largest batch: reading the committed test photos, the process held
    518 MB once both letters' networks had read, against 245 MB with this one, at the same speed (docs/scanner.md,
    "Bounds, as they were measured"). The arena grows by what is asked (strategy 1, kSameAsRequested), not by
    doubling chunks that sit mostly empty."""
    info = ort.OrtMemoryInfo("Cpu", ort.OrtAllocatorType.ORT_ARENA_ALLOCATOR, 0, ort.OrtMemType.DEFAULT)
    ort.create_and_register_allocator(info, ort.OrtArenaCfg({"arena_extend_strategy": 1}))


# The index network (latin letters) computes all but its first convolution in 8 bits (training.quantize); onnxruntime's
# QDQPropagationTransformer would move the quantisation of the first layer's output ahead of its pooling, which then
# pools 8-bit values in a slow generic kernel: the network took 0.35 ms a frame instead of 0.12 (0.26 in floats).
DISABLED_OPTIMIZERS = ("QDQPropagationTransformer",)


def session_options() -> ort.SessionOptions:
    """The options every network is read with."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1  # a chat bot serves many; one core per photo
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.use_env_allocators", "1")
    return options


def open_session(model: Path, options: ort.SessionOptions) -> ort.InferenceSession:
    """The network at ``model``, read with ``options`` on the CPU."""
    return ort.InferenceSession(
        str(model), options, providers=["CPUExecutionProvider"], disabled_optimizers=list(DISABLED_OPTIMIZERS)
    )


@lru_cache(maxsize=8)  # the turn network and both letters' two: each loaded once
def _session(model: Path) -> ort.InferenceSession:
    _shared_arena()
    return open_session(model, session_options())


def run(model: Path, output: str, patches: Float) -> Float:
    """The network ``model``'s ``output`` (probabilities, a row a patch) for ``patches``, read READ_BATCH at a
    time."""
    return run_all(model, (output,), patches)[0]


def run_all(model: Path, outputs: tuple[str, ...], patches: Float) -> list[Float]:
    """The network's ``outputs`` (a row a patch each) for ``patches``, read READ_BATCH at a time."""
    session = _session(model)
    name = session.get_inputs()[0].name
    rows = len(patches)
    if rows == 0:  # no patch: one blank one gives the outputs' widths, and its row is left out
        patches = np.zeros((1, *patches.shape[1:]), patches.dtype)
    out: list[list[Float]] = []
    for start in range(0, len(patches), READ_BATCH):
        batch = patches[start : start + READ_BATCH]
        out.append([np.asarray(o, np.float32) for o in session.run(list(outputs), {name: batch})])
    return [np.concatenate([part[k] for part in out])[:rows] for k in range(len(outputs))]


def decode(
    data: bytes, max_bytes: int = MAX_BYTES, max_pixels: int = MAX_PIXELS, work_side: int | None = None
) -> npt.NDArray[np.uint8]:
    """The photo's pixels (BGR), or ScanError saying what is wrong with the bytes. With ``work_side``, a large
    picture is decoded at a half, a quarter or an eighth of its size, still at least ``work_side`` pixels on its
    longer side (the scanner reads at WORK_SIDE): less memory and time for a chat's photo. The formats OpenCV reads
    (JPEG, PNG, WebP, ...) are decoded by it, HEIC (a phone's photo sent as a file) by libheif."""
    if len(data) > max_bytes:
        raise ScanError(f"the file is {len(data) / 2**20:.1f} MB; photos up to {max_bytes // 2**20} MB are read",
                        "bytes")
    if not data:
        raise ScanError(f"the file is empty; {_GIVE}", "empty")
    raw = np.frombuffer(data, np.uint8)
    # the size from the header first, so a small file that claims a huge picture is refused before decoding
    header = cv2.imdecode(raw, cv2.IMREAD_REDUCED_GRAYSCALE_8)
    if header is None and _is_heif(data):
        return _decode_heif(data, max_pixels, work_side)
    if header is None:
        raise ScanError(f"this is not an image that can be read; {_GIVE}", "format")
    if header.shape[0] * header.shape[1] * 64 > max_pixels:
        raise ScanError(f"the picture is too large; up to {max_pixels // 1_000_000} megapixels are read", "pixels")
    flags = {8: cv2.IMREAD_REDUCED_COLOR_8, 4: cv2.IMREAD_REDUCED_COLOR_4, 2: cv2.IMREAD_REDUCED_COLOR_2,
             1: cv2.IMREAD_COLOR}[_reduction(8 * max(header.shape[:2]), work_side)]
    image = cv2.imdecode(raw, flags)
    if image is None:
        raise ScanError(f"the image is damaged and cannot be read; {_GIVE}", "damaged")
    return np.asarray(image, np.uint8)


_GIVE: Final = "give a photo (JPEG, PNG, WebP or HEIC)"


def _reduction(longer: int, work_side: int | None) -> int:
    """By how much a picture whose longer side is ``longer`` pixels is reduced as it is decoded: 8, 4 or 2, the most
    that leaves it at least ``work_side``; 1 (the whole picture) when none does or no ``work_side`` is given."""
    if work_side is None:
        return 1
    return next((factor for factor in (8, 4, 2) if longer // factor >= work_side), 1)


_HEIF_BRANDS: Final = frozenset((b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1"))


def _is_heif(data: bytes) -> bool:
    """An ISO base media file (ISO/IEC 14496-12: its first box ``ftyp``) whose major brand or one of whose compatible
    brands is one of HEIF's (ISO/IEC 23008-12): some phones write ``mif1`` first, others ``heic``."""
    if data[4:8] != b"ftyp":
        return False
    end = min(int.from_bytes(data[:4], "big"), len(data), 256)  # the box's size; a real ftyp lists a few brands
    brands = [data[8:12]] + [data[at : at + 4] for at in range(16, end - 3, 4)]  # after the minor version
    return any(brand in _HEIF_BRANDS for brand in brands)


def _decode_heif(data: bytes, max_pixels: int, work_side: int | None) -> npt.NDArray[np.uint8]:
    """A HEIC photo's pixels (BGR), bounded as ``decode`` bounds the others: the size is read from the file's header
    before anything is decoded, and a large picture is reduced to a half, a quarter or an eighth as theirs is."""
    try:
        import pillow_heif  # the heic extra, only for this format: most photos never load it
    except ImportError as exc:
        raise ScanError("HEIC photos are not read here (install belote-bot[heic]); give the photo as JPEG, PNG or "
                        "WebP", "heic") from exc

    pillow_heif.options.DECODE_THREADS = 1  # a photo is read on one core, as the networks are (the lane's bound)
    try:
        heif = pillow_heif.open_heif(data, convert_hdr_to_8bit=True, bgr_mode=True)
    except (ValueError, RuntimeError, OSError) as exc:
        raise ScanError(f"this is not an image that can be read; {_GIVE}", "format") from exc
    width, height = heif.size
    if width * height > max_pixels:
        raise ScanError(f"the picture is too large; up to {max_pixels // 1_000_000} megapixels are read", "pixels")
    try:
        image = np.asarray(heif)
    except (ValueError, RuntimeError, OSError) as exc:
        raise ScanError(f"the image is damaged and cannot be read; {_GIVE}", "damaged") from exc
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    image = np.ascontiguousarray(image[:, :, :3], np.uint8)  # an alpha plane, if any, is left out
    factor = _reduction(max(width, height), work_side)
    if factor > 1:
        size = (-(-width // factor), -(-height // factor))  # rounded up, as libjpeg's reduced decode rounds
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return np.asarray(image, np.uint8)


def scan_bytes(data: bytes, letters: str = "latin") -> Scan:
    return scan_image(decode(data), letters)


def read_marks(work: Work, found: Float, model: Path | None = None) -> tuple[Float, npt.NDArray[np.int64]]:
    """For each mark, the probability of each of the 32 cards and of "not an index" (marks x 33), and the turn
    its index is read at (0-15, steps of 22.5 degrees clockwise). The first network reads the turn of every patch
    of the photo in one call; each mark it does not read as "not an index" at PLAIN or more, cut again from the photo
    upright at that turn, the reader (``model``, MODEL if not given) reads the card, in one call too."""
    upright, turns, read = read_upright(work, found)
    return with_plain(len(found), read, run(model or MODEL, "card", upright) if len(read) else None), turns


def with_plain(marks: int, read: npt.NDArray[np.int64], readings: Float | None) -> Float:
    """The readings of all ``marks`` (marks x 33): ``readings`` for the marks ``read``, "not an index" (1.0) for
    the others, which the first network read so at PLAIN or more."""
    p = np.zeros((marks, BACKGROUND + 1), np.float32)
    p[:, BACKGROUND] = 1.0
    if readings is not None:
        p[read] = readings
    return p


def read_indices(
    work: Work, found: Float, turns: npt.NDArray[np.int64], p: Float, model: Path | None = None
) -> tuple[Frames, Float, Float]:
    """Each corner index the marks lead to, read in its own frame: the frames (x, y, radius, degrees; work pixels)
    and their readings (frames x 33), one per index. Three frames are guessed from each mark at its turn; those read
    as a card at KEEP or more are moved by the network's correction and read again, ROUNDS times; then the marks that
    lead to no index read surely are guessed from again at the photo's index size (``at_typical_size``; ``p``: the
    marks' readings). Last, for each mark, the best reading of each card among its three guessed frames
    (marks x 33), before any correction."""
    model = model or INDEX
    degrees = turns.astype(np.float64) * 360 / ANGLES
    first = hypotheses(found[:, :3], degrees)
    read, fix = run_all(model, ("card", "frame"), tensor(frame_patches(work.planes, first)))
    guessed = read.reshape(len(found), len(GUESSES), -1).max(axis=1)
    frames, q = refined(work, first, read, fix, model)
    frames, q = at_typical_size(work, found, degrees, p, frames, q, model)
    return frames, q, guessed


def refined(work: Work, frames: Frames, q: Float, fix: Float, model: Path) -> tuple[Frames, Float]:
    """The guessed ``frames`` read as a card at KEEP or more (``q``, with the network's corrections ``fix``), each
    moved by its correction and read again ROUNDS times; of those within half a radius of each other the most
    confident, read again in its VIEWS if it reads a card at VIEW_FROM or more."""
    best = q[:, :BACKGROUND].max(axis=1)
    live = np.flatnonzero(best >= KEEP)
    live = live[np.argsort(-best[live], kind="stable")[:MAX_LIVE]]
    frames, q, fix = frames[live], q[live], fix[live]
    for _ in range(ROUNDS):
        frames = corrected(frames, fix)
        q, fix = run_all(model, ("card", "frame"), tensor(frame_patches(work.planes, frames)))
    kept = distinct(frames, q[:, :BACKGROUND].max(axis=1))
    frames, q = frames[kept], q[kept]
    again = np.flatnonzero(q[:, :BACKGROUND].max(axis=1) >= VIEW_FROM)
    if len(again):
        seen = run(model, "card", tensor(frame_patches(work.planes, views(frames[again]))))
        q[again] = agreed(np.concatenate([q[again][None], seen.reshape(len(VIEWS), len(again), -1)]))
    return frames, q


def at_typical_size(
    work: Work, found: Float, degrees: npt.NDArray[np.float64], p: Float, frames: Frames, q: Float, model: Path
) -> tuple[Frames, Float]:
    """The indices read in their ``frames`` (``q``) with those found again at the photo's index size: from each mark
    farther than TYPICAL_AWAY radii from every index read at CONTRADICT or more, three frames guessed as
    ``hypotheses`` does, but of the median radius of the TYPICAL_FROM such indices nearest to it, refined alike.
    Those whose centre lies within WHOLE_INSIDE radii of the photo's edge are left out (the edge cuts the index), and
    the others ``joined`` to the first: a second guess fills a gap or reads an index better, it is no witness against
    the first or against the ink (``p``: the marks' readings)."""
    sure = q[:, :BACKGROUND].max(axis=1) >= CONTRADICT
    if sure.sum() < TYPICAL_FROM:
        return frames, q
    apart = np.hypot(found[:, None, 0] - frames[None, sure, 0], found[:, None, 1] - frames[None, sure, 1])
    astray = np.flatnonzero((apart / frames[None, sure, 2]).min(axis=1) > TYPICAL_AWAY)
    if len(astray) == 0:
        return frames, q
    nearest = np.argsort(apart[astray], axis=1, kind="stable")[:, :TYPICAL_FROM]
    radius = np.median(frames[sure, 2][nearest], axis=1)
    guesses = hypotheses(found[astray, :3], degrees[astray], radius)
    read, fix = run_all(model, ("card", "frame"), tensor(frame_patches(work.planes, guesses)))
    again, r = refined(work, guesses, read, fix, model)
    whole = inside(again, work.planes.shape[0], work.planes.shape[1])
    return joined(frames, q, again[whole], r[whole], found, p)


def inside(frames: Frames, high: int, wide: int, within: float = WHOLE_INSIDE) -> npt.NDArray[np.bool_]:
    """For each frame, whether its centre lies ``within`` its radius or more inside a photo ``high`` x ``wide``
    (else the photo's edge cuts its index)."""
    x, y, margin = frames[:, 0], frames[:, 1], within * frames[:, 2]
    return np.asarray((x >= margin) & (x <= wide - 1 - margin) & (y >= margin) & (y <= high - 1 - margin), bool)


def joined(frames: Frames, q: Float, again: Frames, r: Float, found: Float, p: Float) -> tuple[Frames, Float]:
    """The indices read in ``frames`` (``q``) with those found ``again`` (``r``): one where no index was read is
    added; one on an index (within SAME_INDEX of a radius, as ``distinct`` has it) read as the same card replaces it
    if it reads that card better; one on an index read as another card, or within ON_FRAME of its radius of an ink
    mark (``found``, read ``p``) that reads another card at UNSURE or more, is left out."""
    if len(again) == 0:
        return frames, q
    card, old_card = r[:, :BACKGROUND].argmax(axis=1), q[:, :BACKGROUND].argmax(axis=1)
    ink_card = p[:, :BACKGROUND].argmax(axis=1)
    against = on_frames(found, again) & (ink_card[:, None] != card[None, :])
    against &= (p[:, :BACKGROUND].max(axis=1) >= UNSURE)[:, None]
    gap = np.hypot(again[:, None, 0] - frames[None, :, 0], again[:, None, 1] - frames[None, :, 1])
    on = gap <= SAME_INDEX * np.minimum(again[:, None, 2], frames[None, :, 2])
    kept, added = np.ones(len(frames), bool), []
    for i in np.flatnonzero(~against.any(axis=0)).tolist():
        olds = np.flatnonzero(on[i])
        if len(olds) == 0:
            added.append(i)
        elif (old_card[olds] == card[i]).all() and r[i, card[i]] > q[olds, :BACKGROUND].max():
            kept[olds] = False
            added.append(i)
    return np.vstack([frames[kept], again[added]]), np.vstack([q[kept], r[added]])


def agreed(readings: Float) -> Float:
    """One reading from several of the same frame (views x frames x 33): the normalised geometric mean, which a
    card keeps only where every view reads it."""
    mean = np.exp(np.log(readings + 1e-6).mean(axis=0))
    return np.asarray(mean / mean.sum(axis=1, keepdims=True), np.float32)


def borne_out(
    p: Float, candidates: npt.NDArray[np.int64], guessed: Float, splits: Float | None = None
) -> Float:
    """The marks' readings ``p`` with the card readings of every candidate mark cleared whose card the index network
    reads under BORNE_OUT in all three frames guessed from it (``guessed``: read_indices' last output, a row for each
    of ``candidates``): a stroke of a court card's picture or of a pip, which the reader alone took for a glyph. With
    the ``splits`` that found the candidates, a mark of the cleared split needs BORNE_OUT_CLEARED."""
    if len(candidates) == 0:
        return p
    card = p[candidates, :BACKGROUND].argmax(axis=1)
    needed = np.full(len(candidates), BORNE_OUT, np.float32)
    if splits is not None:
        needed[np.asarray(splits) == CLEARED_SPLIT] = BORNE_OUT_CLEARED
    unborne = candidates[guessed[np.arange(len(candidates)), card] < needed]
    if len(unborne) == 0:
        return p
    p = p.copy()
    p[unborne, :BACKGROUND] = 0.0
    return p


def read_upright(work: Work, found: Float) -> tuple[Float, npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The turn the first network reads for every mark; which marks it does not read as "not an index" at PLAIN or
    more; and the reader's input for those (each cut upright at its turn)."""
    first, turn = run_all(TURN, ("card", "turn"), tensor(patches(work, found)))
    turns = turn.argmax(axis=1)
    read = np.flatnonzero(first[:, BACKGROUND] < PLAIN)
    return tensor(read_patches(work, found[read], turns[read].astype(np.float32) * 360 / ANGLES)), turns, read


def scan_image(image: npt.NDArray[np.uint8], letters: str = "latin") -> Scan:
    """The cards of a photo of a pack whose jacks, queens and kings are lettered ``letters`` (one of LETTERS): the
    ``answer`` of its ``readings``."""
    height, width = image.shape[:2]
    return Scan(width, height, *answer(readings(image, letters), width, height))


def readings(image: npt.NDArray[np.uint8], letters: str = "latin", every: bool = False) -> list[Reading]:
    """The photo read at the working size and at AGREE_SIDE (AGREE_SIDE_ENLARGED for a photo under the working size),
    and where those two name other cards or both name one weakly (``needs_third``; or ``every`` time, to be recorded),
    turned by AGREE_TURN too. A pack lettered В Д П is read once (but ``every`` time): read two or three times, it
    named more cards on the held-out sets at 1024 pixels but fewer on the bench's, invented as many at 1280 pixels, and
    took 2.6 times as long (docs/scanner.md, "Looked at, not shipped: a pack lettered В Д П read two or three
    times")."""
    height, width = image.shape[:2]
    at_work, factor = scaled(image)  # scaled once: the first reading and the turned one read it
    first = read_work(Work(planes_of(at_work), 1.0 / factor), letters)
    if letters != "latin" and not every:
        return [first]
    second = read_work(prepare(image, AGREE_SIDE if max(height, width) >= WORK_SIDE else AGREE_SIDE_ENLARGED), letters)
    if not every and not needs_third(first, second, max(height, width)):
        return [first, second]
    return [first, second, read_turned(at_work, 1.0 / factor, letters)]


def one_index_one_card(reading: Reading, longer: int) -> Reading:
    """The reading with each card it names under PLACE_SURE, where it asks about another card at SURE or more within
    PLACE of the photo's ``longer`` side, asked about instead: two cards read at one index, one of them a ghost."""
    named, unsure = reading
    reach = PLACE * longer
    doubtful = {
        f.card
        for f in named
        if f.confidence < PLACE_SURE
        and any(u.card != f.card and u.confidence >= SURE and at_one_index(u, f, reach) for u in unsure)
    }
    return asked_about(named, unsure, doubtful)


def at_one_index(a: Found, b: Found, reach: float) -> bool:
    """Whether two cards are read within ``reach`` pixels of each other: at one index, for a reach of about its
    radius."""
    return math.hypot(a.x - b.x, a.y - b.y) <= reach


def torn_between(first: Reading, longer: int) -> frozenset[int]:
    """The cards the ``first`` reading asks about where it also reads another card (named or asked about) at SURE or
    more within PLACE of the photo's ``longer`` side: it could not tell which of two cards one index is, so the others
    may not overrule it for either (``two_of_three``)."""
    named, unsure = first
    reach = PLACE * longer
    return frozenset(
        u.card
        for u in unsure
        if any(f.card != u.card and f.confidence >= SURE and at_one_index(f, u, reach) for f in named + unsure)
    )


def needs_third(first: Reading, second: Reading, longer: int) -> bool:
    """Whether a third reading can change what two name: where they name other cards, or both name a card weakly
    (``weakly_twice``) on a photo whose ``longer`` side is not enlarged to be read."""
    if {f.card for f in first[0]} != {f.card for f in second[0]}:
        return True
    return bool(weakly_twice(first, second, longer))


def weakly_twice(first: Reading, second: Reading, longer: int) -> set[int]:
    """The cards both readings name under PAIR_SURE, on a photo whose ``longer`` side is not under the working size
    (none on one enlarged to be read)."""
    if longer < WORK_SIDE:
        return set()
    once = {f.card: f.confidence for f in first[0]}
    return {f.card for f in second[0] if f.card in once and max(once[f.card], f.confidence) < PAIR_SURE}


def at_the_edge(reading: Reading, width: int, height: int) -> Reading:
    """The reading with each card it names under EDGE_SURE within EDGE of the longer side of the edge of a photo
    ``width`` x ``height`` asked about instead: what the edge leaves of an index may be another card's."""
    named, unsure = reading
    reach = EDGE * max(width, height)
    doubtful = {
        f.card for f in named if f.confidence < EDGE_SURE and min(f.x, f.y, width - f.x, height - f.y) <= reach
    }
    return asked_about(named, unsure, doubtful)


def combined(found: list[Reading], longer: int) -> Reading:
    """What a photo's ``readings`` name and ask about together (the photo's ``longer`` side in pixels): one reading as
    it is; two or three, each ``one_index_one_card``, then ``two_of_three`` (no card the first is ``torn_between``
    overruled), then ``unborne_pairs``. A third read where the first two need none (``needs_third``;
    ``readings(every=True)``) is left out, as the scanner skips it."""
    if len(found) == 1:
        return found[0]
    if len(found) == 3 and not needs_third(found[0], found[1], longer):
        found = found[:2]
    each = [one_index_one_card(reading, longer) for reading in found]
    return unborne_pairs(each, two_of_three(each, torn_between(found[0], longer)), longer)


def unborne_pairs(found: list[Reading], reading: Reading, longer: int) -> Reading:
    """The ``reading`` that three readings ``found`` combine to, with each card the first two name ``weakly_twice``
    and the turned one does not name asked about (two readings as they are)."""
    if len(found) < 3:
        return reading
    first, second, (turned, _) = found
    named, unsure = reading
    return asked_about(named, unsure, weakly_twice(first, second, longer) - {f.card for f in turned})


def answer(found: list[Reading], width: int, height: int) -> Reading:
    """What a photo ``width`` x ``height`` pixels names and asks about: its ``readings`` ``combined``, then
    ``at_the_edge``."""
    return at_the_edge(combined(found, max(width, height)), width, height)


def scan_once(image: npt.NDArray[np.uint8], letters: str = "latin") -> Scan:
    """The cards of a photo read once, at the working size: what each reading of ``scan_image`` gives (training's
    tools measure and record it so)."""
    height, width = image.shape[:2]
    return Scan(width, height, *read_work(prepare(image), letters))


def read_work(work: Work, letters: str) -> Reading:
    """The cards named and unsure in a picture prepared to be read (``patches.prepare``), placed in the photo."""
    reader, index = networks(letters)
    found = marks(work)
    if len(found) == 0:
        return (), ()
    p, turns = read_marks(work, found, reader)
    candidates = np.flatnonzero(p[:, BACKGROUND] < PRUNE)
    candidates = candidates[np.argsort(p[candidates, BACKGROUND], kind="stable")[:MAX_GUESSED]]
    frames, q, guessed = read_indices(work, found[candidates], turns[candidates], p[candidates], index)
    p = borne_out(p, candidates, guessed, found[candidates, 3])
    court_sure = COURT_SURE_VDP if letters == "cyrillic" else 0.0
    named, unsure = decide(*with_indices(p, found, turns, frames, q), scale=work.scale, court_sure=court_sure)
    named, unsure = asked_about(named, unsure, cut_off(frames, q, work.planes.shape[0], work.planes.shape[1]))
    if letters == "latin":  # COVER learnt the designs INDEX learnt, none lettered В Д П; so did COURT_NETWORK
        named, unsure = asked_about(named, unsure, uncovered(work, named, p, found, turns, frames, q))
        named, unsure = asked_about(named, unsure, court_gainsaid(work, named, frames, q))
        named, unsure = asked_about(named, unsure, colour_gainsaid(work, named, p, found, turns, frames, q))
    return named, unsure


def court_gainsaid(work: Work, named: tuple[Found, ...], frames: Frames, q: Float) -> set[int]:
    """The cards ``named`` whose rank the court network gainsays: a number card (7 to 10, ace) read at its best index
    (``frames``, read ``q``) as a court card's, or a court card read as a number card's (COURT_SAYS; the mean of the
    index's five views). A card named at ink marks alone is left as it is."""
    if len(q) == 0 or not named:
        return set()
    index_card = q[:, :BACKGROUND].argmax(axis=1)
    asked: list[int] = []
    cuts: list[Frames] = []
    for f in named:
        best = best_index(index_card, q, f.card)
        if best is not None:
            asked.append(f.card)
            cuts.append(five_views(frames, best))
    if not asked:
        return set()
    windows = court_windows(work.planes, np.concatenate(cuts)).astype(np.float32) / 255.0
    court = run(COURT_NETWORK, "court", windows).reshape(len(asked), 1 + len(VIEWS)).mean(axis=1)
    return {card for card, says in zip(asked, court.tolist(), strict=True)
            if (says >= COURT_SAYS) != (rank_of(card) in COURT)}  # fmt: skip


def colour_gainsaid(
    work: Work, named: tuple[Found, ...], p: Float, found: Float, turns: npt.NDArray[np.int64], frames: Frames, q: Float
) -> set[int]:
    """The cards of a red suit ``named`` whose ink looks like the sure black cards' of the same reading, not the sure
    red cards' (``off_colour``): each card's ink read at its best index (``frames``, read ``q``), or for a card no
    index so reads, about its best ink mark (``found``, read ``p``, at its turn) as a whole index."""
    read = [(f, cut if at_index else cut[WHOLE : WHOLE + 1])
            for f, cut, at_index in best_witnesses(named, p, found, turns, frames, q)]  # fmt: skip
    if not read:
        return set()
    hue = ink_hues(frame_patches(work.planes, np.concatenate([frame for _, frame in read])))
    red = np.array([suit_of(f.card) in RED_SUITS for f, _ in read])
    sure = np.array([f.confidence >= COLOUR_SURE for f, _ in read])
    return {read[i][0].card for i in np.flatnonzero(off_colour(hue, red, sure)).tolist()}


def off_colour(hue: Float, red: npt.NDArray[np.bool_], sure: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Which of a reading's cards of a red suit (``red``) have ink of a ``hue`` no redder than the reddest ``sure``
    black card's and under COLOUR_SAYS of the way from the sure black cards' median to the sure red cards', each
    weighed against the others."""
    known = sure & np.isfinite(hue)
    out = np.zeros(len(hue), bool)
    for i in np.flatnonzero(red & np.isfinite(hue)).tolist():
        others = known.copy()
        others[i] = False
        black_ones, red_ones = hue[others & ~red], hue[others & red]
        if min(len(black_ones), len(red_ones)) < COLOUR_LEVELS:
            continue
        black_level, red_level = float(np.median(black_ones)), float(np.median(red_ones))
        apart = red_level - black_level
        out[i] = apart >= COLOUR_APART and hue[i] < black_level + COLOUR_SAYS * apart and hue[i] <= black_ones.max()
    return out


def ink_hues(patches: npt.NDArray[np.uint8]) -> Float:
    """How red the ink of each index is, from its frame's patch (``frame_patches``: grey, then red): of the pixels
    within COLOUR_DISK of the centre, those darker than the paper by COLOUR_DEEP of the contrast are ink, and the hue is
    the COLOUR_HUE-th percentile of (red - the paper's red) / (the paper's grey - grey) over them; nan without ink."""
    high, wide = patches.shape[2:]
    rows, columns = np.mgrid[0:high, 0:wide]
    unit = wide / FRAME_SPAN  # the patch is FRAME_SPAN radii wide
    radius = COLOUR_DISK * unit
    disk = (columns - (wide - 1) / 2) ** 2 + (rows - (high - 1) / 2) ** 2 <= radius * radius
    hues = np.full(len(patches), np.nan, np.float32)
    for k, patch in enumerate(patches):
        grey, red = patch[0][disk].astype(np.float32), patch[1][disk].astype(np.float32)
        paper, dark = np.percentile(grey, 90), np.percentile(grey, 3)
        contrast = max(float(paper - dark), 1.0)
        ink = paper - grey >= COLOUR_DEEP * contrast
        if not ink.any():
            continue
        paper_red = np.median(red[grey >= paper - 0.15 * contrast])  # the paper's own tint
        hues[k] = np.percentile((red[ink] - paper_red) / np.maximum(paper - grey[ink], 1.0), COLOUR_HUE)
    return hues


def turned(image: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.uint8], Float]:
    """``image`` turned by AGREE_TURN about its centre (counter-clockwise) on a canvas that holds it whole, the
    corners filled with its median colour, and the affine map from the canvas back to ``image``."""
    height, width = image.shape[:2]
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), AGREE_TURN, 1.0)
    cos, sin = abs(turn[0, 0]), abs(turn[0, 1])
    wide, high = int(height * sin + width * cos + 0.5), int(height * cos + width * sin + 0.5)
    turn[:, 2] += (wide - width) / 2, (high - height) / 2
    fill = tuple(float(v) for v in np.median(image.reshape(-1, image.shape[2]), axis=0))
    picture = cv2.warpAffine(image, turn, (wide, high), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                             borderValue=fill)
    return np.asarray(picture, np.uint8), np.asarray(cv2.invertAffineTransform(turn), np.float32)


def read_turned(at_work: npt.NDArray[np.uint8], scale: float, letters: str) -> Reading:
    """The photo at the working size (``scale`` of the photo's pixels to each of its own), ``turned``, read, its
    cards placed back in the photo."""
    picture, back = turned(at_work)
    step = 360.0 / ANGLES

    def placed(f: Found) -> Found:
        x, y = back @ np.array([f.x / scale, f.y / scale, 1.0], np.float32)
        # turned with the photo, a card points AGREE_TURN less (counter-clockwise): back, to the nearest step
        return replace(f, x=round(float(x) * scale, 1), y=round(float(y) * scale, 1),
                       angle=round((f.angle + AGREE_TURN) / step) % ANGLES * step)

    named, unsure = read_work(Work(planes_of(picture), scale), letters)
    return tuple(map(placed, named)), tuple(map(placed, unsure))


def two_of_three(readings: list[Reading], torn: frozenset[int] = frozenset()) -> Reading:
    """The cards named where two of the ``readings`` name them (a card the first reading does not name, where two
    others name it at OVERRULE or more each and it is not one the first is ``torn`` between), and unsure: the others
    the first reading reads or any names. Each card as the first reading that names it gives it (else the first that
    reads it): its confidence that reading's, so a card unsure may keep a high one."""
    votes = Counter(f.card for named, _ in readings for f in named)
    sure = Counter(f.card for named, _ in readings for f in named if f.confidence >= OVERRULE)
    given: dict[int, Found] = {}
    for f in (f for named, _ in readings for f in named):
        given.setdefault(f.card, f)
    for f in readings[0][1]:
        given.setdefault(f.card, f)
    first = {f.card for f in readings[0][0]}
    # a card the first reading does not name rests on the others alone: one of them naming it under OVERRULE (borne
    # out by an index and an ink mark, ``borne_by_both``) is not enough to overrule it
    named = {
        card for card in given if votes[card] >= 2 and (card in first or (sure[card] >= 2 and card not in torn))
    }
    ordered = sorted(given.values(), key=lambda f: f.card)
    return tuple(f for f in ordered if f.card in named), tuple(f for f in ordered if f.card not in named)


def asked_about(
    named: tuple[Found, ...], unsure: tuple[Found, ...], doubtful: set[int]
) -> tuple[tuple[Found, ...], tuple[Found, ...]]:
    """The cards named and unsure once the ``doubtful`` ones named are moved to unsure (in card order)."""
    if not doubtful:
        return named, unsure
    return (
        tuple(f for f in named if f.card not in doubtful),
        tuple(sorted(unsure + tuple(f for f in named if f.card in doubtful), key=lambda f: f.card)),
    )


def cut_off(frames: Frames, q: Float, high: int, wide: int) -> set[int]:
    """The cards read in their ``frames`` (``q``) at INDEX_VOTE or more only where the frame's centre lies outside a
    photo ``high`` x ``wide`` (CUT_INSIDE): the photo's edge cuts such an index in half or more."""
    if len(q) == 0:
        return set()
    card = q[:, :BACKGROUND].argmax(axis=1)
    voting = q[np.arange(len(q)), card] >= INDEX_VOTE
    whole = inside(frames, high, wide, CUT_INSIDE)
    return set(card[voting & ~whole].tolist()) - set(card[voting & whole].tolist())


def uncovered(
    work: Work, named: tuple[Found, ...], p: Float, found: Float, turns: npt.NDArray[np.int64], frames: Frames, q: Float
) -> set[int]:
    """The cards ``named`` under confidence 1.0 (on a photo read at its own size, an ace or a ten at 1.0 too:
    CHECKED_AT_ONE) that the check (``check_networks``) does not bear out: read under COVERED_INDEX (on a photo
    enlarged to be read, COVERED_INDEX_ENLARGED) at the index read in its frame that reads the card best
    (``frames``, ``q``; the normalised geometric mean of its five views), or, for a card no index so reads, under
    COVERED_INK in each of the three frames guessed from the ink mark (``found``, read ``p``, at its turn) that
    reads it best. Of the seven cards invented on 42 held-out sets, six were read on an index another card covers by
    31-57 %, where a rank or a suit alone looks like another card's; COVER learnt such indices as "not an index".
    Each was named under 0.9995: a card read at 1.0 has two sure witnesses or more, and leaving those out checks
    about one card a photo, not twenty."""
    enlarged = work.scale < 1.0
    asked, cuts = check_cuts(named, p, found, turns, frames, q, checked_at_one(work))
    if not cuts:
        return set()
    patches = frame_patches(work.planes, np.concatenate(cuts))
    readings = check_readings(patches, asked, [len(cut) for cut in cuts], check_networks(enlarged))
    at_index_limit = COVERED_INDEX_ENLARGED if enlarged else COVERED_INDEX
    return {
        card
        for (card, at_index), reading in zip(asked, readings, strict=True)
        if reading < (at_index_limit if at_index else COVERED_INK)
    }


def checked_at_one(work: Work) -> frozenset[int]:
    """The ranks checked even when named at 1.0 (CHECKED_AT_ONE): none on a photo enlarged to be read."""
    return frozenset() if work.scale < 1.0 else CHECKED_AT_ONE


def check_readings(
    patches: npt.NDArray[np.uint8], asked: list[tuple[int, bool]], cuts: list[int], networks: tuple[Path, ...]
) -> list[float]:
    """The check's reading of each card ``asked`` about (``check_cuts``), from the ``patches`` of its ``cuts`` (how
    many each card has, one card's after another's): each of the ``networks`` (``check_networks``) reads them all in
    one call, and a card's reading is the geometric mean of theirs (``mean_read``)."""
    x = tensor(patches)
    reads = [run(network, "card", x) for network in networks]
    readings, start = [], 0
    for (card, at_index), count in zip(asked, cuts, strict=True):
        readings.append(mean_read([check_reading(read[start : start + count], card, at_index) for read in reads]))
        start += count
    return readings


def check_networks(enlarged: bool) -> tuple[Path, ...]:
    """The networks the check reads with: COVER alone on a photo enlarged to be read (there COVER_HARD names fewer
    cards and takes back none more), COVER, COVER_HARD and COVER_ALL on one read at its own size."""
    return (COVER,) if enlarged else (COVER, COVER_HARD, COVER_ALL)


def mean_read(readings: list[float]) -> float:
    """The check's reading of a card from each network's: their geometric mean, low where any one reads it low."""
    return float(np.exp(np.mean(np.log(np.maximum(readings, 1e-9)))))


def check_cuts(
    named: tuple[Found, ...],
    p: Float,
    found: Float,
    turns: npt.NDArray[np.int64],
    frames: Frames,
    q: Float,
    at_one: frozenset[int] = frozenset(),
) -> tuple[list[tuple[int, bool]], list[Frames]]:
    """The frames ``uncovered`` reads for each card ``named`` under 1.0 (or of a rank of ``at_one``): (card, read at an
    index) and its cuts, the best index's five views or the three frames guessed from the best ink mark (training.hard
    cuts the same)."""
    cuts: list[Frames] = []
    asked: list[tuple[int, bool]] = []
    checked = tuple(f for f in named if f.confidence < 1.0 or rank_of(f.card) in at_one)
    for f, cut, at_index in best_witnesses(checked, p, found, turns, frames, q):
        cuts.append(five_views(cut, 0) if at_index else cut)
        asked.append((f.card, at_index))
    return asked, cuts


def best_witnesses(
    named: tuple[Found, ...], p: Float, found: Float, turns: npt.NDArray[np.int64], frames: Frames, q: Float
) -> Iterator[tuple[Found, Frames, bool]]:
    """Each card ``named`` with where it is best read: the frame of the index read in its frame that reads it best
    (``frames``, read ``q``) and True, or, where none does, the three frames guessed from the ink mark that reads it
    best (``found``, read ``p`` at INK_BEARS or more, at its turn) and False. A card that neither reads is left out."""
    index_card = q[:, :BACKGROUND].argmax(axis=1) if len(q) else np.zeros(0, np.int64)
    ink_card = p[:, :BACKGROUND].argmax(axis=1)
    for f in named:
        best = best_index(index_card, q, f.card)
        if best is not None:
            yield f, frames[best : best + 1], True
            continue
        inks = np.flatnonzero((ink_card == f.card) & (p[:, f.card] >= INK_BEARS))
        if len(inks):
            mark = inks[np.argmax(p[inks, f.card])]
            degrees = turns[mark : mark + 1].astype(np.float64) * 360 / ANGLES
            yield f, hypotheses(found[mark : mark + 1, :3], degrees), False


def best_index(index_card: npt.NDArray[np.int64], q: Float, card: int) -> int | None:
    """Of the indices read in their frames (``q``; ``index_card`` the card each reads best), the one that reads
    ``card`` best; None where none reads it best."""
    on_index = np.flatnonzero(index_card == card)
    return int(on_index[np.argmax(q[on_index, card])]) if len(on_index) else None


def five_views(frames: Frames, index: int) -> Frames:
    """The frame ``index`` and its four VIEWS (step 8 of docs/scanner.md's "How it reads")."""
    return np.concatenate([frames[index : index + 1], views(frames[index : index + 1])])


def check_reading(seen: Float, card: int, at_index: bool) -> float:
    """What the check reads of ``card`` in its cuts (COVER's readings, a row a cut): at an index, the normalised
    geometric mean of the five views; from the ink, the best of the three guesses."""
    return float(agreed(seen[:, None])[0, card] if at_index else seen[:, card].max())


def with_indices(
    p: Float, found: Float, turns: npt.NDArray[np.int64], frames: Frames, q: Float
) -> tuple[Float, Float, npt.NDArray[np.int64], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """The marks' readings with each index read in its frame as one more mark (``decide``'s input): for each card
    only its best index. Two frames that read one card are most often two views of the same ink (a rank, and the rank
    with a piece of its suit), not two witnesses: on the calibration photos their votes multiplied named cards that
    were not there. Last, which marks an index read in its frame contradicts (``contradicted``), and which of them
    are glyphs of an index read as a card of their own rank (``misread_suit``)."""
    doubted, misread = contradicted(p, found, frames, q), misread_suit(p, found, frames, q)
    if len(q):
        card = q[:, :BACKGROUND].argmax(axis=1)
        reading = q[np.arange(len(q)), card]
        order = np.lexsort((-reading, card))  # by card, the best reading first
        first = order[np.r_[True, card[order][1:] != card[order][:-1]]]
        frames, q = frames[np.sort(first)], q[np.sort(first)]
        inner = nested(frames, q)
        frames, q = frames[~inner], q[~inner]
    if len(frames) == 0:
        return p, found, turns, doubted, misread
    as_marks = np.column_stack(
        [frames[:, 0], frames[:, 1], frames[:, 2] / RADIUS_PER_MARK, np.full(len(frames), INDEX_SPLIT)]
    ).astype(np.float32)
    if found.shape[1] < 4:
        found = np.column_stack([found, np.ones(len(found), np.float32)])
    index_turns = np.round(frames[:, 3] * ANGLES / 360).astype(np.int64) % ANGLES
    doubted = np.concatenate([doubted, contested(frames, q) | gainsaid(p, found, frames, q)])
    misread = np.concatenate([misread, np.zeros(len(frames), bool)])
    return np.vstack([p, q]), np.vstack([found, as_marks]), np.concatenate([turns, index_turns]), doubted, misread


def nested(frames: Frames, q: Float) -> npt.NDArray[np.bool_]:
    """For each index read in its frame, whether it lies inside another one, read at CONTRADICT or more as another
    card, at less than NESTED of its radius: a glyph of that index read as a whole index of its own."""
    card = q[:, :BACKGROUND].argmax(axis=1)
    sure = q[np.arange(len(q)), card] >= CONTRADICT
    radius = frames[:, 2]
    apart = np.hypot(frames[:, None, 0] - frames[None, :, 0], frames[:, None, 1] - frames[None, :, 1])
    inside = (apart < radius[None, :]) & (radius[:, None] < NESTED * radius[None, :])
    return np.asarray((inside & (card[:, None] != card[None, :]) & sure[None, :]).any(axis=1), bool)


def contested(frames: Frames, q: Float) -> npt.NDArray[np.bool_]:
    """For each index read in its frame, whether another one within ON_FRAME radii of it (of the smaller) reads
    another card at INDEX_VOTE or more. Frames that close are the same index (a photo's true neighbours, in the
    tightest fans, are 1.4 radii apart or more); read as two cards, neither reading is a witness alone (a ten of
    diamonds was invented at 0.992 so, where another frame 0.48 radii away read the ten of clubs at 0.95, on the index
    of a ten of spades another card partly covers)."""
    card = q[:, :BACKGROUND].argmax(axis=1)
    voting = q[np.arange(len(q)), card] >= INDEX_VOTE
    apart = np.hypot(frames[:, None, 0] - frames[None, :, 0], frames[:, None, 1] - frames[None, :, 1])
    near = apart < ON_FRAME * np.minimum(frames[:, None, 2], frames[None, :, 2])
    return np.asarray((near & (card[:, None] != card[None, :]) & voting[None, :] & voting[:, None]).any(axis=1), bool)


def gainsaid(p: Float, found: Float, frames: Frames, q: Float) -> npt.NDArray[np.bool_]:
    """For each index read in its frame, whether an ink mark (``found``, read ``p``) within ON_FRAME of its radius
    reads a card of another rank at GAINSAY or more."""
    if len(found) == 0 or len(frames) == 0:
        return np.zeros(len(frames), bool)
    card, ink_card = q[:, :BACKGROUND].argmax(axis=1), p[:, :BACKGROUND].argmax(axis=1)
    other_rank = RANK[ink_card][:, None] != RANK[card][None, :]
    strong = (p[:, :BACKGROUND].max(axis=1) >= GAINSAY)[:, None]
    return np.asarray((on_frames(found, frames) & other_rank & strong).any(axis=0), bool)


def on_frames(found: Float, frames: Frames) -> npt.NDArray[np.bool_]:
    """[mark, frame]: whether the mark (x, y) lies within ON_FRAME of the frame's radius of its centre."""
    apart = np.hypot(found[:, None, 0] - frames[None, :, 0], found[:, None, 1] - frames[None, :, 1])
    return np.asarray(apart < ON_FRAME * frames[None, :, 2], bool)


def under_sure_index(found: Float, frames: Frames, q: Float, at: float = CONTRADICT) -> npt.NDArray[np.int64]:
    """For each mark, the card of the index read in its frame at ``at`` or more whose centre lies nearest it, if
    within ON_FRAME of that index's radius; -1 where there is none."""
    sure = q[:, :BACKGROUND].max(axis=1) >= at if len(q) else np.zeros(0, bool)
    if len(found) == 0 or not sure.any():
        return np.full(len(found), -1, np.int64)
    centres, card = frames[sure], q[sure, :BACKGROUND].argmax(axis=1)
    apart = np.hypot(found[:, None, 0] - centres[None, :, 0], found[:, None, 1] - centres[None, :, 1]) / centres[:, 2]
    nearest = apart.argmin(axis=1)
    on = apart[np.arange(len(found)), nearest] < ON_FRAME
    return np.where(on, card[nearest], -1).astype(np.int64)


def contradicted(p: Float, found: Float, frames: Frames, q: Float) -> npt.NDArray[np.bool_]:
    """For each mark, whether it lies within ON_FRAME radii of the centre of an index read in its frame at CONTRADICT
    or more as a card other than the mark's: one glyph is not two cards' indices, and the whole index read in its
    frame is the better witness."""
    under = under_sure_index(found, frames, q)
    return np.asarray((under >= 0) & (under != p[:, :BACKGROUND].argmax(axis=1)), bool)


def misread_suit(p: Float, found: Float, frames: Frames, q: Float) -> npt.NDArray[np.bool_]:
    """For each mark, whether it lies on an index read at MISREAD_SURE or more as a card of the mark's own rank: a
    glyph of that index whose suit the reader took for another. A card read at such marks alone, however many, is at
    most unsure (``decide``): a held-out ace of clubs was named at 0.958 from two of them on the index of an ace of
    spades read at 0.9999."""
    under, card = under_sure_index(found, frames, q, MISREAD_SURE), p[:, :BACKGROUND].argmax(axis=1)
    return np.asarray((under >= 0) & (under != card) & (RANK[np.maximum(under, 0)] == RANK[card]), bool)


def decide(
    p: Float,
    found: Float,
    turns: npt.NDArray[np.int64],
    doubted: npt.NDArray[np.bool_] | None = None,
    misread: npt.NDArray[np.bool_] | None = None,
    scale: float = 1.0,
    court_sure: float = 0.0,
) -> tuple[tuple[Found, ...], tuple[Found, ...]]:
    """The cards named and the cards unsure, in card order, from each mark's readings ``p`` (marks x 33), the marks
    (x, y, size and, if given, the split of the ink that found each), the turn each was read at and, if given, which
    marks are doubted (a card read at one such mark alone is at most unsure) and which are glyphs of an index read
    surely as a card of their rank (``misread_suit``: a card read at such marks alone, however many, is at most unsure).
    So is a card read at marks of the cleared split alone (CLEARED_ALONE_NAMES). A jack, queen or king is named only
    from ``court_sure`` (COURT_SURE_VDP in a pack lettered В Д П)."""
    if doubted is None:
        doubted = np.zeros(len(found), bool)
    if misread is None:
        misread = np.zeros(len(found), bool)
    strong = p[:, :BACKGROUND].max(axis=1) >= STRONG
    if strong.sum() >= 3:
        typical = float(np.median(found[strong, 2]))
        astray = (found[:, 2] > SIZE_BAND * typical) | (found[:, 2] < typical / SIZE_BAND)
        p = p.copy()
        p[astray, :BACKGROUND] = 0.0
    # each mark votes for the card it reads best; a card read at several marks (its rank and its suit, its two
    # corners) is wrong only if every reading is: its confidence is 1 - the product of (1 - each reading)
    best: dict[int, Found] = {}  # each card's best reading
    doubt: dict[int, float] = {}
    seen: dict[int, int] = {}  # how many marks read each card
    # the cards read at a mark neither doubted nor of the strict or the cleared split: a piece that stands apart only
    # once straight runs of ink are cleared is as often a stroke of a picture as a glyph (on 18 measured sets, 11,469
    # cards, the cards read at one such mark alone were 7 invented and 1 named)
    trusted: set[int] = set()
    witnessed: set[int] = set()  # the cards read at a mark that is no glyph of another card's index of their rank
    inked: set[int] = set()  # the cards read at an ink mark, not only at an index read in its frame
    uncleared: set[int] = set()  # the cards read at a mark not of the cleared split
    split = found[:, 3] if found.shape[1] > 3 else np.zeros(len(found), np.float32)
    strict = split == STRICT_SPLIT
    cleared = split == CLEARED_SPLIT
    index = split == INDEX_SPLIT
    for mark in range(len(found)):
        card = int(p[mark, :BACKGROUND].argmax())
        reading = float(p[mark, card])
        if reading < (STRICT_VOTE if strict[mark] else INDEX_VOTE if index[mark] else UNSURE):
            continue
        doubt[card] = doubt.get(card, 1.0) * (1.0 - reading)
        seen[card] = seen.get(card, 0) + 1
        if not (strict[mark] or cleared[mark] or doubted[mark]):
            trusted.add(card)
        if not misread[mark]:
            witnessed.add(card)
        if not index[mark]:
            inked.add(card)
        if not cleared[mark]:
            uncleared.add(card)
        if card not in best or reading > best[card].confidence:
            px = round(float(found[mark, 0]) * scale, 1)
            py = round(float(found[mark, 1]) * scale, 1)
            best[card] = Found(card, reading, px, py, int(turns[mark]) * 360.0 / ANGLES)
    combined = [replace(f, confidence=round(1.0 - doubt[f.card], 4)) for f in best.values()]
    ordered = sorted(
        (f for f in combined if f.confidence >= (UNSURE if f.card in inked else INDEX_ALONE)), key=lambda f: f.card
    )
    named = {
        f.card
        for f in ordered
        if f.confidence >= (SURE if seen[f.card] > 1 else SURE_ALONE if f.card in inked else INDEX_SURE_ALONE)
        and (seen[f.card] > 1 or f.card in trusted)
        and f.card in witnessed
        and (CLEARED_ALONE_NAMES or f.card in uncleared)
    }
    named |= {f.card for f in ordered if f.card not in named and borne_by_both(p, found, split, doubted, f.card)}
    named -= {f.card for f in ordered if rank_of(f.card) in COURT and f.confidence < court_sure}
    return tuple(f for f in ordered if f.card in named), tuple(f for f in ordered if f.card not in named)


def borne_by_both(p: Float, found: Float, split: Float, doubted: npt.NDArray[np.bool_], card: int) -> bool:
    """Whether an index read in its frame and an ink mark within one radius of its centre, not doubted, both read
    ``card`` best, one of them strongly: the index at WITH_INK and the mark at INK_BEARS, or a mark of the first three
    splits at INK_WITH and the index at INDEX_BEARS (``split``: the split of the ink that found each mark)."""
    reads = (p[:, :BACKGROUND].argmax(axis=1) == card) & ~doubted
    index = np.flatnonzero(reads & (split == INDEX_SPLIT) & (p[:, card] >= min(WITH_INK, INDEX_BEARS)))
    ink = np.flatnonzero(reads & (split != INDEX_SPLIT) & (p[:, card] >= min(INK_BEARS, INK_WITH)))
    if len(index) == 0 or len(ink) == 0:
        return False
    apart = np.hypot(found[ink, None, 0] - found[None, index, 0], found[ink, None, 1] - found[None, index, 1])
    near = apart <= found[None, index, 2] * RADIUS_PER_MARK  # [mark, index]: the mark lies within the index's radius
    plain = (split[ink] != STRICT_SPLIT) & (split[ink] != CLEARED_SPLIT)
    strong_index = (p[ink, card] >= INK_BEARS)[:, None] & (p[index, card] >= WITH_INK)[None, :]
    strong_mark = (plain & (p[ink, card] >= INK_WITH))[:, None] & (p[index, card] >= INDEX_BEARS)[None, :]
    return bool((near & (strong_index | strong_mark)).any())

"""A photo of a side's won cards to a scored deal, in any chat (docs/scanner.md).

The photo is read off the event loop (``ScanLane``: one worker thread, a short queue, a time limit). The answer
lists the cards read surely and asks about each unsure one (never guessed silently); buttons add a missed card
(suit, then rank), remove a misread one, then ask the game and contract, whose cards the photo shows, which side
bid and whether that side took the last trick. The calculator (``bot.calculator``) scores the deal from that one
side's points, the other side's following from the deal's total. In a game of three or two (formats §7.1) the photo
is one player's; a keypad asks for the points of the other players the calculator cannot work out, and a 24-card
game's 7s and 8s, which its pack does not hold, are shown apart and not counted.

Buttons follow the scheme of the tables' payloads (``bot.core.payload``): ``sc1:<scan>:<nonce>:<action>``, the
nonce being the scan's version when its message was drawn. Only the person who sent the photo may press; a press
on an older drawing (a double tap, a replay), a forged one or one on a finished scan changes nothing and gets a
short private answer. A scan's state is kept in storage (as the calculator's forms are), so its buttons work after
a restart; after a day it is forgotten and its buttons say so.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, Final, TypeVar

from pydantic import TypeAdapter, ValidationError

from bot.calculator.small_request import FIXED_TOTAL
from bot.calculator.small_score import default_names
from bot.engine.cards import card_symbol, make_card, suit_of
from bot.engine.game import VARIANTS
from bot.engine.play import CARD_POINTS
from bot.i18n import Translator, translator
from bot.storage.base import Storage

from . import names
from .messages import DISCORD
from .payload import to_base36

log = logging.getLogger(__name__)

PREFIX: Final = "sc1"
PATTERN: Final = r"^sc1:"
# A chat's photo: Telegram's photos are at most 2560 pixels and a few MB; a file sent as a document may be larger.
MAX_PHOTO_BYTES: Final = 10 * 2**20
MAX_PHOTO_PIXELS: Final = 40_000_000
# A photo takes 0.2-1 s of one core, 3.3 s at worst on a core without AVX (docs/scanner.md); past this the machine is
# swamped
SCAN_SECONDS: Final = 60.0
WAITING: Final = 4  # photos queued behind the one being read; more get "busy, send it again"
KEPT_SECONDS: Final = 24 * 3600
# The photos of the latest scans are kept in memory (not in the database: up to 10 MB each), so that "Read as В Д П"
# reads one again with the other letters; the oldest go past this many bytes (a chat's photo is a few hundred KB),
# and all go with a restart.
KEPT_PHOTO_BYTES: Final = 32 * 2**20
READ_AGAIN: Final = "v"  # the press that reads the photo again with the other letters
STORE_KEY: Final = "scan:"
CONTRACTS: Final = ("clubs", "diamonds", "hearts", "spades", "no-trumps", "all-trumps")
# Every game of the family; a button names a game by its place here, so a new one goes at the end.
GAMES: Final = ("bulgarian", "bela", "french", "bela-3", "bela-2", "bela-open", "bulgarian-3", "bulgarian-2")
TEAM_GAMES: Final = GAMES[:3]  # on the contract step itself; the games of three and two are one press away
# The cards a deal puts into tricks (formats §7.1, tricks × seats): a photo of them all, with the last ten, is of the
# side that took every trick (a bela-3 caller's two discards are his besides).
IN_PLAY: Final = {"bulgarian": 32, "bela": 32, "french": 32, "bela-3": 30, "bela-2": 20, "bela-open": 32,
                  "bulgarian-3": 24, "bulgarian-2": 16}
STEPS: Final = ("cards", "suit", "rank", "contract", "game", "photo", "bid", "last", "points", "done")
MAX_TYPED: Final = 3  # digits on the keypad: no player takes more than 258 card points
_PAYLOAD: Final = re.compile(r"sc1:(?P<scan>[0-9a-f]{8}):(?P<nonce>[0-9a-z]{1,8}):(?P<action>[0-9a-z]{1,4})")
LAST_TEN: Final = 10
TRICK: Final = 4  # cards in a trick of a game of four: a team's won cards are a multiple of it
# The letters of a pack's jacks, queens and kings (bot.scanner.LETTERS): "latin" (J Q K, B D K) unless the photo is
# sent with вдп (in the caption on Telegram, as /score's letters on Discord): many Bulgarian packs print В Д П. A chat
# keeps the letters its people last gave (jqk or bdk gives the latin ones back), since its pack stays on the table.
LETTERS: Final = ("latin", "cyrillic")
_VDP: Final = re.compile(r"(?<!\w)(в\W?д\W?п|vdp)(?!\w)", re.IGNORECASE)
_JQK: Final = re.compile(r"(?<!\w)(j\W?q\W?k|b\W?d\W?k)(?!\w)", re.IGNORECASE)

T = TypeVar("T")


class LaneBusy(Exception):
    """More photos are waiting than the lane takes."""


class ScanLane:
    """Photos are read one at a time in a worker thread, so the event loop never waits for OpenCV or the model."""

    def __init__(self, workers: int = 1, waiting: int = WAITING, seconds: float = SCAN_SECONDS) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="scan")
        self._limit = workers + waiting
        self._in_lane = 0
        self.seconds = seconds

    async def run(self, work: Callable[[], T]) -> T:
        """``work()``'s result; LaneBusy when the queue is full, TimeoutError past ``seconds`` (the thread then
        finishes its photo, still counted in the lane, so a stuck photo cannot pile more up behind it)."""
        if self._in_lane >= self._limit:
            raise LaneBusy
        self._in_lane += 1
        future = self._pool.submit(work)
        loop = asyncio.get_running_loop()
        future.add_done_callback(lambda _: loop.call_soon_threadsafe(self._leave))
        return await asyncio.wait_for(asyncio.wrap_future(future), self.seconds)

    def _leave(self) -> None:
        self._in_lane -= 1

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


@dataclass(frozen=True, slots=True)
class Button:
    label: str
    payload: str


@dataclass(frozen=True, slots=True)
class ScanView:
    """What the scan's message shows: ``**bold**`` text and rows of buttons (at most 5 rows of 5, Discord's). A scored
    deal offers its request for the chat's sheet: the platform's calculator adds its "Add to the sheet" button, as
    under a typed deal's answer."""

    text: str
    rows: tuple[tuple[Button, ...], ...] = ()
    sheet: dict[str, Any] | None = None  # the scored request (formats §5 or §7.5)
    sheet_label: str = ""


@dataclass(frozen=True, slots=True)
class Opened:
    view: ScanView
    scan_id: str | None  # None: nothing to press (no cards, or the photo could not be read)


@dataclass(frozen=True, slots=True)
class Pressed:
    note: str  # the short private answer to the press ("" for none)
    view: ScanView | None  # the message's new content, None when the press changed nothing
    scan_id: str = ""


@dataclass
class ScanState:
    """One photo's scan, as stored: the cards as the owner has corrected them and the answers given so far."""

    scan_id: str
    owner: str
    lang: str
    cards: list[int] = field(default_factory=list)
    unsure: list[int] = field(default_factory=list)
    version: int = 0
    step: str = "cards"
    adding: bool = True  # the suit and rank steps add a card (else remove one)
    suit: int = 0
    game: str = "bulgarian"
    contract: int = 0
    photo: str = "A"  # the side whose won cards the photo shows
    bid: str = "A"
    last_ten: bool = False
    note: str = ""
    touched: float = 0.0
    letters: str = "latin"  # the pack's court letters the photo was read with (stored before them: latin)
    chat: str | None = None  # where the letters are kept (ScanFlow.open's letters_key), so a read again keeps them
    others: dict[str, int] = field(default_factory=dict)  # the other players' points typed on the keypad, by seat
    typed: str = ""  # the digits typed so far for the next of them


_STORED: Final = TypeAdapter(ScanState)


def decode_payload(text: str) -> tuple[str, int, str] | None:
    match = _PAYLOAD.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return None
    return match["scan"], int(match["nonce"], 36), match["action"]


def _contracts(game: str) -> int:
    """How many of CONTRACTS the game has: the Bulgarian games all six, the others the four suits."""
    return len(CONTRACTS) if game.startswith("bulgarian") else 4


def _cards_line(cards: list[int]) -> str:
    return " ".join(card_symbol(c) for c in sorted(cards)) or "—"


# what a file sent as a photo may be named when its sender's app announces no image type (a HEIC file often comes as
# application/octet-stream): the formats the scanner decodes
_PHOTO_SUFFIXES: Final = (".jpg", ".jpeg", ".jpe", ".png", ".webp", ".heic", ".heif", ".avif", ".bmp", ".tif", ".tiff")


def is_photo_file(mime_type: str | None, file_name: str | None) -> bool:
    """Whether a file is offered as a picture: an image type announced, or else an image's name."""
    if mime_type and mime_type.startswith("image/"):
        return True
    return (file_name or "").lower().endswith(_PHOTO_SUFFIXES)


def letters_in(words: str) -> str | None:
    """The letters a photo's words (its caption, what came with ``/score``) say the pack has: "cyrillic" when they
    name В Д П (вдп, ВДП, в д п, в.д.п., or vdp), "latin" when they name J Q K or B D K (jqk, j.q.k., bdk), else None
    (the chat's own)."""
    if _VDP.search(words):
        return "cyrillic"
    return "latin" if _JQK.search(words) else None


def read_photo(data: bytes, letters: str = "latin") -> tuple[list[int], list[int]]:
    """The cards read surely and the unsure ones (in the worker thread); ScanError for a file that is no photo."""
    from bot.scanner import decode, scan_image
    from bot.scanner.patches import WORK_SIDE

    scan = scan_image(decode(data, MAX_PHOTO_BYTES, MAX_PHOTO_PIXELS, work_side=WORK_SIDE), letters)
    return [f.card for f in scan.cards], [f.card for f in scan.unsure]


class ScanFlow:
    """The platform-free flow: a photo in, a view out; a press in, a private note and a new view out."""

    def __init__(self, storage: Storage, platform: str, lane: ScanLane | None = None) -> None:
        self.storage = storage
        self.platform = platform
        self.lane = lane or ScanLane()
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}  # a scan's lock and how many presses hold it
        self._photos: OrderedDict[str, bytes] = OrderedDict()  # scan id -> its photo, the latest last
        self._forgotten_at = 0.0

    # --- a photo ---

    @staticmethod
    def too_large(size: int | None, lang: str) -> str | None:
        """The answer for a file whose announced size is over the limit, before anything is downloaded."""
        if size is None or size <= MAX_PHOTO_BYTES:
            return None
        t = translator(lang)
        return t.gettext("The photo is too large ({mb} MB); send one of up to {limit} MB.",
                         mb=f"{size / 2**20:.1f}", limit=MAX_PHOTO_BYTES // 2**20)

    async def open(self, data: bytes, owner: str, lang: str, letters: str | None = None,
                   sheet_key: str | None = None, letters_key: str | None = None) -> Opened:
        """Read a photo of a pack lettered ``letters`` and draw its answer; the scan is stored when it has something
        to press. The game asked about first is that of the chat's sheet (``sheet_key``, as the calculator keeps
        it), if it has one: a group that keeps a sheet of Bela for three scores its photos in that game. The
        ``letters`` given are kept for the chat (``letters_key``, else ``sheet_key``: a direct message on Discord has
        no sheet but keeps its letters); None reads the photo with those it keeps."""
        from bot.scanner import ScanError

        t = translator(lang)
        if letters is not None and letters not in LETTERS:
            raise ValueError(f"unknown letters {letters!r}")
        refusal = self.too_large(len(data), lang)
        if refusal is not None:
            return Opened(ScanView(refusal), None)
        chat = letters_key or sheet_key
        letters = await self._chat_letters(letters, chat)
        try:
            read = await self._read(data, letters, t)
        except ScanError as err:
            return Opened(ScanView(self._unreadable(err.reason, t)), None)
        if isinstance(read, str):
            return Opened(ScanView(read), None)
        cards, unsure = read
        if not cards and not unsure:
            return Opened(ScanView(t.gettext(
                "No cards found in this photo. Spread the won cards so that each one's corner (rank and suit) "
                "shows, and send the photo again.")), None)
        state = ScanState(secrets.token_hex(4), owner, lang, sorted(cards), sorted(unsure), letters=letters, chat=chat)
        self._choose(state, await self._sheet_game(sheet_key))
        await self._save(state)
        self._keep_photo(state.scan_id, data)
        if time.time() - self._forgotten_at > 3600:  # now and then, scans (and forms) untouched for a day go
            self._forgotten_at = time.time()
            await self.storage.forget_forms(self.platform, self._forgotten_at - KEPT_SECONDS)
        return Opened(self.draw(state), state.scan_id)

    async def _chat_letters(self, letters: str | None, chat: str | None) -> str:
        """The letters to read a chat's photo with: those given, kept for the chat's next photos, or else those it
        keeps (latin where it has none)."""
        if chat is None:
            return letters or "latin"
        kept = await self.storage.get_chat_letters(self.platform, chat)
        if letters is None:
            return kept if kept in LETTERS else "latin"
        if letters != kept:
            await self.storage.set_chat_letters(self.platform, chat, letters)
        return letters

    async def _read(self, data: bytes, letters: str, t: Translator) -> tuple[list[int], list[int]] | str:
        """The photo's cards read in the lane (sure, unsure), or why not now: the lane full, or the photo too slow
        (ScanError for a file that is no photo)."""
        try:
            return await self.lane.run(lambda: read_photo(data, letters))
        except LaneBusy:
            return t.gettext("Many photos are being read just now; send yours again in a minute.")
        except TimeoutError:
            return t.gettext("The photo could not be read in time; send a smaller one.")

    def _keep_photo(self, scan_id: str, data: bytes) -> None:
        self._photos[scan_id] = data
        while sum(map(len, self._photos.values())) > KEPT_PHOTO_BYTES and len(self._photos) > 1:
            self._photos.popitem(last=False)

    @staticmethod
    def reads_again(payload: str) -> bool:
        """Whether a press reads its photo again (a second or so: a platform that must answer at once defers)."""
        decoded = decode_payload(payload)
        return decoded is not None and decoded[2] == READ_AGAIN

    async def _read_again(self, state: ScanState, t: Translator) -> Pressed:
        """The photo read again with the other letters, in place of what was read and corrected; the chat keeps
        those letters for its next photos."""
        data = self._photos.get(state.scan_id)
        if data is None:
            return Pressed(t.gettext("The photo is no longer at hand; send it again."), None, state.scan_id)
        letters = "latin" if state.letters == "cyrillic" else "cyrillic"
        read = await self._read(data, letters, t)
        if isinstance(read, str):
            return Pressed(read, None, state.scan_id)
        cards, unsure = read
        self._photos.move_to_end(state.scan_id)
        state.cards, state.unsure, state.letters, state.note = sorted(cards), sorted(unsure), letters, ""
        await self._chat_letters(letters, state.chat)
        state.version += 1
        await self._save(state)
        return Pressed("", self.draw(state), state.scan_id)

    async def _sheet_game(self, sheet_key: str | None) -> str:
        """The game of the chat's score sheet; Bridge-Belote without one (the calculator's default too)."""
        stored = await self.storage.get_sheet(self.platform, sheet_key) if sheet_key is not None else None
        game = stored.get("variant") if isinstance(stored, dict) else None
        return game if isinstance(game, str) and game in GAMES else "bulgarian"

    @staticmethod
    def _unreadable(reason: str, t: Translator) -> str:
        if reason == "pixels":
            return t.gettext("The picture is too large; send one of up to {n} megapixels.",
                             n=MAX_PHOTO_PIXELS // 1_000_000)
        if reason == "bytes":
            return t.gettext("The photo is too large; send one of up to {limit} MB.", limit=MAX_PHOTO_BYTES // 2**20)
        if reason == "heic":
            return t.gettext("HEIC photos are not read on this server: send the photo as a photo rather than as a "
                             "file, or as JPEG.")
        return t.gettext("This file cannot be read as a photo; send a photo of the cards (JPEG, PNG, WebP or HEIC).")

    # --- presses ---

    async def press(self, user_id: str, lang: str, data: str) -> Pressed:
        t = translator(lang)
        decoded = decode_payload(data)
        if decoded is None:
            return Pressed(t.gettext("That button is not one of ours."), None)
        scan_id, nonce, action = decoded
        lock, users = self._locks.get(scan_id, (asyncio.Lock(), 0))
        self._locks[scan_id] = (lock, users + 1)
        try:
            async with lock:  # presses at the same instant are judged one after the other
                return await self._press(scan_id, nonce, action, user_id, t)
        finally:
            lock, users = self._locks[scan_id]
            if users == 1:
                del self._locks[scan_id]  # nobody else waits on it
            else:
                self._locks[scan_id] = (lock, users - 1)

    async def _press(self, scan_id: str, nonce: int, action: str, user_id: str, t: Translator) -> Pressed:
        state = await self._load(scan_id)
        if state is None:
            return Pressed(t.gettext("This scan is finished or too old; send the photo again."), None, scan_id)
        if state.owner != user_id:
            return Pressed(t.gettext("Only the person who sent the photo can change these cards."), None, scan_id)
        if state.step == "done":
            return Pressed(t.gettext("This scan is finished or too old; send the photo again."), None, scan_id)
        if nonce != state.version:
            return Pressed(t.gettext("This message has changed since; use its newest buttons."), None, scan_id)
        if action == "x":
            await self._forget(scan_id)
            return Pressed("", ScanView(translator(state.lang).gettext("Scan closed.")), scan_id)
        if action == READ_AGAIN and state.step == "cards" and self.offers_letters(state):
            return await self._read_again(state, t)
        note = self._step(state, action)
        if note is None:
            return Pressed(t.gettext("That button is not one of ours."), None, scan_id)
        if state.step == "done":
            view = self._score(state)
            if state.step == "done":
                await self._forget(scan_id)
                return Pressed("", view, scan_id)
        state.version += 1
        await self._save(state)
        return Pressed(note, self.draw(state), scan_id)

    def _step(self, s: ScanState, action: str) -> str | None:
        """Apply a press; None for an action this step does not have (a forged or mistyped payload)."""
        kind, arg = action[:1], action[1:]
        number = int(arg) if arg.isdecimal() and arg.isascii() and len(arg) <= 2 else None
        s.note = ""
        if action == "b":
            back = {"suit": "cards", "rank": "suit", "contract": "cards", "game": "contract", "photo": "contract",
                    "bid": "photo", "last": "bid", "points": "last"}
            if s.step not in back:
                return None
            s.step = back[s.step]
            s.others, s.typed = {}, ""
        elif s.step == "cards" and action in ("y", "n") and s.unsure:
            card = s.unsure.pop(0)
            if action == "y":
                s.cards = sorted({*s.cards, card})
        elif s.step == "cards" and action in ("a", "r"):
            if action == "r" and not s.cards:
                return None
            s.adding, s.step = action == "a", "suit"
        elif s.step == "cards" and action == "g" and not s.unsure:
            s.step = "contract"
        elif s.step == "suit" and kind == "s" and number is not None and number < 4:
            s.suit, s.step = number, "rank"
        elif s.step == "rank" and kind == "c" and number is not None and number < 32 and suit_of(number) == s.suit:
            if s.adding and number not in s.cards:
                s.cards = sorted({*s.cards, number})
                s.unsure = [c for c in s.unsure if c != number]
            elif not s.adding and number in s.cards:
                s.cards.remove(number)
            else:
                return None
            s.step = "cards"
        elif s.step == "contract" and action == "m":
            s.step = "game"
        elif s.step in ("contract", "game") and kind == "g" and number is not None and number < len(GAMES):
            if (GAMES[number] in TEAM_GAMES) != (s.step == "contract"):
                return None  # each step offers its own games
            self._choose(s, GAMES[number])
            s.step = "contract"
        elif s.step == "contract" and kind == "k" and number is not None and number < _contracts(s.game):
            s.contract, s.step = number, "photo"
        elif s.step in ("photo", "bid") and kind == "t" and arg.upper() in VARIANTS[s.game].sides:
            if s.step == "photo":
                s.photo, s.step = arg.upper(), "bid"
            else:
                s.bid, s.step = arg.upper(), "last"
        elif s.step == "last" and kind == "l" and arg in ("0", "1"):
            s.last_ten = arg == "1"
            s.others, s.typed = {}, ""
            s.step = "points" if self.asking(s) else "done"
        elif s.step == "points" and kind == "d" and len(arg) == 1 and arg.isdecimal() and arg.isascii():
            if len(s.typed) < MAX_TYPED:  # a key past the last digit is a slip, not an error
                s.typed = (s.typed + arg).lstrip("0") or "0"
        elif s.step == "points" and action == "e":
            s.typed = s.typed[:-1]
        elif s.step == "points" and action == "o":  # nothing typed is the 0 the keypad shows
            s.others[self.asking(s)[0]] = int(s.typed or "0")
            s.typed = ""
            if not self.asking(s):
                s.step = "done"
        else:
            return None
        return ""

    @staticmethod
    def _choose(s: ScanState, game: str) -> None:
        """Switch the scan to ``game``, keeping what still fits it."""
        s.game = game
        if s.contract >= _contracts(game):
            s.contract = 0
        sides = VARIANTS[game].sides
        s.photo = s.photo if s.photo in sides else sides[0]
        s.bid = s.bid if s.bid in sides else sides[0]

    # --- the answer ---

    @staticmethod
    def counted(s: ScanState) -> list[int]:
        """The cards of the photo that the game's pack holds (a 24-card game has no 7s or 8s)."""
        pack = VARIANTS[s.game].pack
        return [c for c in s.cards if pack >> c & 1]

    def points(self, s: ScanState) -> int:
        return sum(CARD_POINTS[s.contract][c] for c in self.counted(s))

    def valat(self, s: ScanState, last_ten: bool) -> str | None:
        """The photo's side when it shows every trick of the deal."""
        return s.photo if last_ten and len(self.counted(s)) >= IN_PLAY[s.game] else None

    def asking(self, s: ScanState) -> list[str]:
        """The players whose points the keypad still asks for: in a game of three or two, those the calculator
        cannot work out from the photo's (formats §7.5)."""
        row = VARIANTS[s.game]
        if row.seats == 4:
            return []
        fixed = s.game in FIXED_TOTAL  # every card in play: the last player's points are the rest
        valat = self.valat(s, s.last_ten)
        if valat is not None:  # the others took nothing, but a bela-3 caller keeps his two discards
            needed = [s.bid] if s.game == "bela-3" and s.bid != valat else []
        else:
            others = [k for k in row.sides if k != s.photo]
            needed = others[:-1] if fixed else others
        return [k for k in needed if k not in s.others]

    def request(self, s: ScanState, last_ten: bool) -> dict[str, Any]:
        """The calculator's request (formats §5, or §7.5 for the other games) for what the photo showed."""
        points = self.points(s) + (LAST_TEN if last_ten else 0)
        valat = self.valat(s, last_ten)  # every trick in the photo
        four = VARIANTS[s.game].seats == 4
        data: dict[str, Any] = {} if s.game == "bulgarian" else {"variant": s.game}
        if four or s.game.startswith("bulgarian"):  # a Bela game of three or two carries none (formats §7.5)
            data["contract"] = CONTRACTS[s.contract]
        data |= {"declarer": s.bid, "valat": valat}
        given = {} if four else dict(s.others)
        if valat is None or (not four and s.game not in FIXED_TOTAL):  # else the sweeper has the rest of the deal
            given[s.photo] = points
        if given:
            data["points"] = {k: given[k] for k in sorted(given)}
        return data

    def _score(self, s: ScanState) -> ScanView:
        from bot.calculator.errors import CalculatorError
        from bot.calculator.score import score

        t = translator(s.lang)
        last_ten = s.last_ten
        try:
            answer = score(self.request(s, last_ten))
        except CalculatorError as err:  # the points typed do not fit the photo's: type them again
            s.others, s.typed = {}, ""
            s.step = "points" if self.asking(s) else "last"
            s.note = "\n".join(err.render(s.lang))
            return self.draw(s)
        counted = self.counted(s)
        head = [t.gettext("Cards in the photo ({n}): {cards}", n=len(counted), cards=_cards_line(counted))]
        head += self._outside_lines(s, t)
        head += [
            t.gettext("Card points: {points}", points=self.points(s))
            + (" + " + t.gettext("last ten") + f" {LAST_TEN}" if last_ten else ""),
            t.gettext("Declarations and contra are not in a photo: to count them, type the deal with /score."),
            "",
        ]
        return ScanView("\n".join(head) + answer.render(s.lang), sheet=answer.request.to_json(),
                        sheet_label=t.gettext("Add to the sheet"))

    def _outside_lines(self, s: ScanState, t: Translator) -> list[str]:
        """The cards read that the game's pack does not hold: a 24-card game's 7s and 8s, misread or of another
        pack, shown rather than dropped unseen."""
        counted = set(self.counted(s))
        outside = [c for c in s.cards if c not in counted]
        if not outside:
            return []
        return [t.gettext("Not in a 24-card pack, not counted: {cards}", cards=_cards_line(outside))]

    # --- drawing ---

    def draw(self, s: ScanState) -> ScanView:
        t = translator(s.lang)
        sides = self.side_names(s)

        def b(label: str, action: str) -> Button:
            return Button(label, f"{PREFIX}:{s.scan_id}:{to_base36(s.version)}:{action}")

        lines = [t.gettext("**Cards read** ({n}): {cards}", n=len(s.cards), cards=_cards_line(s.cards))]
        if s.unsure:
            lines.append(t.gettext("Unsure: {cards}", cards=" ".join(card_symbol(c) + "?" for c in s.unsure)))
        rows: list[tuple[Button, ...]] = []
        if s.step == "cards":
            if s.unsure:
                card = card_symbol(s.unsure[0])
                lines.append(t.gettext("Is {card} in the photo?", card=card))
                rows.append((b(t.gettext("Yes, {card}", card=card), "y"), b(t.gettext("No {card}", card=card), "n")))
            else:
                lines.append(t.gettext("Check the cards: a misread card is removed, then the right one added."))
                # a card missed or invented breaks the count, unless another offsets it; said in the games of
                # four only, since a bela-3 caller's two discards and the 24-card packs blur the others' counts
                if VARIANTS[s.game].seats == 4 and len(s.cards) % TRICK:
                    lines.append(t.gettext("Won cards come in tricks of four, and {n} is not a multiple of four: a "
                                           "card may be missing or misread.", n=len(s.cards)))
            letters = self.offers_letters(s)
            if letters:
                lines.append(self._letters_line(s, t))
            fix = [b(t.gettext("+ Add a card"), "a")]
            if s.cards:
                fix.append(b(t.gettext("− Remove a card"), "r"))
            rows.append(tuple(fix))
            if letters and s.scan_id in self._photos:  # the photo is at hand to be read again
                rows.append((b(t.gettext("Read as J Q K") if s.letters == "cyrillic" else t.gettext("Read as В Д П"),
                               READ_AGAIN),))
            if not s.unsure:
                rows.append((b(t.gettext("Count the points"), "g"),))
        elif s.step == "suit":
            lines.append(t.gettext("Which suit is the card to add?") if s.adding
                         else t.gettext("Which suit is the card to remove?"))
            rows.append(tuple(b(names.call_name(suit, t), f"s{suit}") for suit in range(4)))
            rows.append((b(t.gettext("Back"), "b"),))
        elif s.step == "rank":
            lines.append(t.gettext("Which card?"))
            cards = [make_card(rank, s.suit) for rank in range(8)]
            shown = [c for c in cards if (c not in s.cards) == s.adding]
            rows += [tuple(b(card_symbol(c), f"c{c}") for c in shown[i:i + 4]) for i in range(0, len(shown), 4)]
            rows.append((b(t.gettext("Back"), "b"),))
        elif s.step == "contract":
            lines.append(t.gettext("Which game, and what was the contract?"))
            rows.append(tuple(b(("● " if g == s.game else "") + names.game_name(g, t), f"g{GAMES.index(g)}")
                              for g in TEAM_GAMES))
            count = _contracts(s.game)
            rows.append(tuple(b(names.call_name(k, t), f"k{k}") for k in range(min(count, 3))))
            rows.append(tuple(b(names.call_name(k, t), f"k{k}") for k in range(3, count)))
            small = ("● " + names.game_label(s.game, t)) if s.game not in TEAM_GAMES else t.gettext("Three or two "
                                                                                                     "players…")
            rows.append((b(t.gettext("Back"), "b"), b(small, "m")))
        elif s.step == "game":
            lines.append(t.gettext("Which game of three or two players?"))
            small_games = [g for g in GAMES if g not in TEAM_GAMES]
            for part in (small_games[:3], small_games[3:]):
                rows.append(tuple(b(("● " if g == s.game else "") + names.game_label(g, t), f"g{GAMES.index(g)}")
                                  for g in part))
            rows.append((b(t.gettext("Back"), "b"),))
        else:
            lines.append(t.gettext("Contract: {contract}", contract=self._contract_label(s, t)))
            lines += self._outside_lines(s, t)
            if s.step != "photo":
                lines.append(t.gettext("The photo shows the won cards of: {team}", team=sides[s.photo]))
            if s.step in ("last", "points"):
                lines.append(t.gettext("The contract was bid by: {team}", team=sides[s.bid]))
            if s.step == "points":
                lines += [t.gettext("{player} took {points} points.", player=sides[k], points=p)
                          for k, p in s.others.items()]
                lines.append(self._keypad_question(s, sides, t))
                rows.append(tuple(b(str(d), f"d{d}") for d in (1, 2, 3, 4, 5)))
                rows.append(tuple(b(str(d), f"d{d}") for d in (6, 7, 8, 9, 0)))
                rows.append((b("⌫", "e"), b(t.gettext("OK"), "o")))
            else:
                question = {
                    "photo": t.gettext("Whose won cards are in the photo?"),
                    "bid": t.gettext("Which side bid the contract?") if VARIANTS[s.game].seats == 4
                    else t.gettext("Which player called?"),
                    "last": t.gettext("Did {team} take the last trick (the last ten)?", team=sides[s.photo]),
                }[s.step]
                lines.append(question)
                if s.step == "last":
                    rows.append((b(t.gettext("Yes, +10"), "l1"), b(t.gettext("No"), "l0")))
                else:
                    rows.append(tuple(b(sides[k], f"t{k.lower()}") for k in VARIANTS[s.game].sides))
            rows.append((b(t.gettext("Back"), "b"),))
        if s.note:
            lines.append(s.note)
        rows.append((b(t.gettext("Close"), "x"),))
        return ScanView("\n".join(lines), tuple(row for row in rows if row))

    def _keypad_question(self, s: ScanState, sides: dict[str, str], t: Translator) -> str:
        """The keypad's question, worded as the /score form's (formats §7.5: what each point count includes)."""
        typing, digits = self.asking(s)[0], (s.typed or "0") + "▌"
        if self.valat(s, s.last_ten) is not None:  # another took every trick: the caller kept his discards
            return t.gettext("How many card points are in the two cards {player} discarded? {digits}",
                             player=sides[typing], digits=digits)
        if s.game.startswith("bulgarian"):
            return t.gettext("How many card points did {player} take, the last ten included? {digits}",
                             player=sides[typing], digits=digits)
        return t.gettext("How many card points did {player} take, the last trick included? {digits}",
                         player=sides[typing], digits=digits)

    @staticmethod
    def side_names(s: ScanState) -> dict[str, str]:
        """The sides as the answer names them: the two teams in a game of four, else each player by seat."""
        t = translator(s.lang)
        row = VARIANTS[s.game]
        if row.seats == 4:
            return {"A": t.gettext("We"), "B": t.gettext("You")}
        return {k: name.render(s.lang) for k, name in zip(row.sides, default_names(row.seats), strict=True)}

    @staticmethod
    def offers_letters(s: ScanState) -> bool:
        """Whether the answer offers the other letters: packs lettered В Д П are Bulgarian, so a scan of Bela or
        French belote (the game of the chat's sheet, or chosen) is not offered them, unless it was read so."""
        return s.letters == "cyrillic" or s.game.startswith("bulgarian")

    def _letters_line(self, s: ScanState, t: Translator) -> str:
        """Which letters the photo was read with, and how to read it with the others: a pack lettered В Д П read as
        J Q K loses its jacks, queens and kings and may gain eights (docs/scanner.md)."""
        if s.letters == "cyrillic":
            if self.platform == DISCORD:
                return t.gettext("Read as a pack lettered В Д П, as this channel's next photos will be. A pack "
                                 "lettered J Q K? Use /score again with the photo and letters: J Q K.")
            return t.gettext("Read as a pack lettered В Д П, as this chat's next photos will be. A pack lettered "
                             "J Q K? Send the photo again with jqk in its caption.")
        if self.platform == DISCORD:
            return t.gettext("A pack lettered В Д П? Use /score again with the photo and letters: В Д П; this "
                             "channel's next photos are then read so too.")
        return t.gettext("A pack lettered В Д П? Send the photo again with вдп in its caption; this chat's next "
                         "photos are then read so too.")

    @staticmethod
    def _contract_label(s: ScanState, t: Translator) -> str:
        label = names.call_name(s.contract, t)
        return label if s.game == "bulgarian" else f"{names.game_label(s.game, t)}, {label}"

    # --- storage ---

    async def _load(self, scan_id: str) -> ScanState | None:
        stored = await self.storage.get_form(self.platform, STORE_KEY + scan_id)
        if stored is None:
            return None
        try:
            state = _STORED.validate_python(stored)
        except ValidationError as err:
            log.warning("scan %s cannot be read back (%d problems); it is closed", scan_id, err.error_count())
            return None
        if state.scan_id != scan_id or not self._sound(state) or time.time() - state.touched > KEPT_SECONDS:
            return None
        return state

    def _sound(self, s: ScanState) -> bool:
        """Whether a stored scan is one this flow could have drawn; one written by another version, or damaged, is
        closed (its buttons answer as an old scan's) rather than failing on a press."""
        if s.step not in STEPS or s.game not in GAMES or s.letters not in LETTERS:
            return False
        sides = set(VARIANTS[s.game].sides)
        return ({s.photo, s.bid} <= sides and set(s.others) <= sides and 0 <= s.contract < _contracts(s.game)
                and 0 <= s.suit < 4 and all(0 <= c < 32 for c in (*s.cards, *s.unsure))
                and (s.typed == "" or (s.typed.isascii() and s.typed.isdecimal() and len(s.typed) <= MAX_TYPED))
                and (s.step != "points" or bool(self.asking(s))))

    async def _save(self, state: ScanState) -> None:
        state.touched = time.time()
        await self.storage.set_form(self.platform, STORE_KEY + state.scan_id, asdict(state))

    async def _forget(self, scan_id: str) -> None:
        self._photos.pop(scan_id, None)
        await self.storage.set_form(self.platform, STORE_KEY + scan_id, None)

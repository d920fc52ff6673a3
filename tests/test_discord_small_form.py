"""The /score button form scores the games of three and two on Discord, through real discord.py objects against the
fake gateway: a Bela deal for three and a Bulgarian deal for two (its pop-up submitted after a restart) end in the
answer, and the "Add to the sheet" button, of the same deal typed as a line; a forged press, or a press on a form's
button copied onto another message, changes nothing and gets a private answer."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from bot.calculator import score_text
from tests.discord_fakes import EPHEMERAL, MODAL, FakeDiscord, FakeUser, button_ids, buttons
from tests.test_discord_adapter import start_bot


async def press_action(fake: FakeDiscord, user: FakeUser, form_id: int, action: str) -> Any:
    (cid,) = [b for b in button_ids(fake.messages[form_id]) if b.endswith(":" + action)]
    return await fake.press(user, form_id, cid)


def labels(message: dict[str, Any]) -> list[str]:
    return [b["label"] for b in buttons(message)]


async def test_a_bela_deal_for_three_by_buttons_is_the_typed_lines_answer(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    vera = FakeUser(fake.next_id(), "Vera", "en-US")
    channel = fake.add_channel()
    opened = await fake.command(vera, channel, "score")
    form_id = opened.original_id or 0
    assert "Three or two players…" in labels(fake.messages[form_id])
    await press_action(fake, vera, form_id, "op")
    assert labels(fake.messages[form_id])[:5] == ["Bela, 3 players", "Bela, 2 players", "Open Bela",
                                                  "Bulgarian, 3 players", "Bulgarian, 2 players"]
    for action in ("sx", "d1"):  # Bela for three, called by player 1
        await press_action(fake, vera, form_id, action)
    form = fake.messages[form_id]
    assert "no contra" not in labels(form), "a Bela game has no contract and no contra"
    assert "Bela for three" in form["embeds"][0]["description"]
    assert all(len(label) <= 30 for label in labels(form))
    pressed = await press_action(fake, vera, form_id, "go")
    assert pressed.response_type == MODAL and pressed.modal is not None
    assert len(pressed.modal["components"]) == 5  # three players, the valat, the player without a trick
    submitted = await fake.submit(vera, channel, pressed.modal["custom_id"],
                                  {"p0": "60", "p1": "82 tierce belote", "p2": "", "valat": "", "none": ""})
    answer = fake.reply(submitted)
    assert not answer["flags"] & EPHEMERAL
    line = "bela three you called 82 tierce belote me 60"
    typed = fake.reply(await fake.command(vera, channel, "score", line=line))
    expected = score_text(line)
    assert answer["embeds"] == typed["embeds"]
    assert answer["embeds"][0]["title"] == expected.summary("bg")  # the channel's language
    assert expected.result.score == (60, 122, 20)
    (add,) = list(button_ids(answer))
    assert [add] == list(button_ids(typed)), "the same deal goes onto the sheet"
    assert not fake.errors
    await running.stop()


async def test_a_bulgarian_deal_for_two_is_scored_after_a_restart(fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "belote.sqlite3"
    running = await start_bot(fake, db)
    ana = FakeUser(fake.next_id(), "Ana", "en-US", manager=True)
    channel = fake.add_channel()
    await fake.command(ana, channel, "belot", "lang", language="en", scope="channel")
    opened = await fake.command(ana, channel, "score")
    form_id = opened.original_id or 0
    await press_action(fake, ana, form_id, "op")
    await press_action(fake, ana, form_id, "su")  # Bulgarian belote for two
    (go,) = [b for b in buttons(fake.messages[form_id]) if b["custom_id"].endswith(":go")]
    assert go.get("disabled"), "no pop-up before the contract"
    assert "caller: Player 2" not in labels(fake.messages[form_id]), "two players"

    await running.stop()
    running = await start_bot(fake, db)
    for action in ("c2", "m2", "d0"):  # hearts, contra, called by player 0
        await press_action(fake, ana, form_id, action)
    pressed = await press_action(fake, ana, form_id, "go")
    assert pressed.modal is not None and len(pressed.modal["components"]) == 3
    submitted = await fake.submit(ana, channel, pressed.modal["custom_id"],
                                  {"p0": "90", "p1": "62 belote", "valat": ""})
    answer = fake.reply(submitted)
    line = "bulgarian two hearts contra me 90 you 62 belote"
    expected = score_text(line)
    assert answer["embeds"][0]["title"] == expected.summary("en")
    assert expected.result.score == (34, 0)
    typed = fake.reply(await fake.command(ana, channel, "score", line=line))
    assert answer["embeds"] == typed["embeds"] and list(button_ids(answer)) == list(button_ids(typed))
    # Back to the games of four, and the four-player form still works.
    await press_action(fake, ana, form_id, "bk")
    assert "Bela" in labels(fake.messages[form_id]) and "no contra" in labels(fake.messages[form_id])
    assert not fake.errors
    await running.stop()


async def test_a_forged_or_foreign_press_changes_nothing(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    vera = FakeUser(fake.next_id(), "Vera", "en-US")
    boris = FakeUser(fake.next_id(), "Boris", "en-US")
    channel = fake.add_channel()
    opened = await fake.command(vera, channel, "score")
    form_id = opened.original_id or 0
    assert fake.ephemeral_owner[form_id] == vera.id, "only the person who opened the form sees it, or presses it"
    await press_action(fake, vera, form_id, "op")
    await press_action(fake, vera, form_id, "sy")  # Bela for two
    before = copy.deepcopy(fake.messages[form_id])

    def with_button(message: dict[str, Any], custom_id: str) -> dict[str, Any]:
        seen = copy.deepcopy(message)
        seen["components"] = [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": "·", "custom_id": custom_id}]}]
        return seen

    # A seat that a game of two does not have, written into a button by hand.
    forged = await fake.press(vera, form_id, "g:y-12-:d1", seen=with_button(before, "g:y-12-:d1"))
    reply = fake.reply(forged)
    assert reply["flags"] & EPHEMERAL and "not one of ours" in reply["content"]
    assert fake.messages[form_id]["embeds"] == before["embeds"]
    assert list(button_ids(fake.messages[form_id])) == list(button_ids(before))
    # A form's button put on the channel's public answer by someone else: that message stays as it was.
    answer = fake.reply(await fake.command(boris, channel, "score", line="bela two me 90 you 62"))
    shown = copy.deepcopy(answer)
    state = next(b for b in button_ids(before) if b.endswith(":d1"))
    foreign = await fake.press(boris, int(answer["id"]), state, seen=with_button(answer, state))
    assert fake.reply(foreign)["flags"] & EPHEMERAL
    assert fake.messages[int(answer["id"])] == shown
    # A pop-up whose state no button gives is refused the same way.
    refused = await fake.submit(vera, channel, "r:y-12-", {"p0": "90", "p1": "62", "valat": ""})
    assert "not one of ours" in fake.reply(refused)["content"]
    assert not fake.errors
    await running.stop()

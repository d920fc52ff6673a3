"""Score sheets, their keepers and history, and the places chats belong to, on both storage backends."""

from __future__ import annotations

import asyncio

from tests.storage_backends import opened, poke


async def test_replacing_a_sheet_keeps_the_old_one_numbered_with_who_and_why(database: str) -> None:
    storage = await opened(database)
    assert await storage.replace_sheet("tg", "-5", {"lines": [[1, 0]]}, ("1", "Ана"), "new", "Ана") is None
    assert await storage.get_sheet_keeper("tg", "-5") == ("1", "Ана")
    assert await storage.replace_sheet("tg", "-5", {"lines": [[2, 0]]}, None, "undo", "Ана") == 1
    assert await storage.get_sheet_keeper("tg", "-5") == ("1", "Ана")  # None keeps the keeper
    assert await storage.replace_sheet("tg", "-5", {"lines": []}, ("2", "Boris"), "fix", "Boris") == 2
    history = await storage.old_sheets("tg", "-5")
    assert [(o.number, o.data, o.keeper, o.reason, o.by) for o in history] == [
        (2, {"lines": [[2, 0]]}, ("1", "Ана"), "fix", "Boris"),
        (1, {"lines": [[1, 0]]}, ("1", "Ана"), "undo", "Ана"),
    ]
    assert await storage.old_sheets("tg", "-5", limit=1) == history[:1]
    assert await storage.old_sheet("tg", "-5", 1) == history[1]
    assert await storage.old_sheet("tg", "-5", 3) is None
    assert await storage.old_sheets("tg", "-6") == [] and await storage.old_sheets("dc", "-5") == []
    await storage.set_sheet("tg", "-5", {"lines": [[9, 9]]})  # a plain write goes into no history
    assert len(await storage.old_sheets("tg", "-5")) == 2
    assert await storage.replace_sheet("tg", "-5", None, None, "new", "Ана") == 3  # the sheet ends, kept
    assert await storage.get_sheet("tg", "-5") is None and await storage.get_sheet_keeper("tg", "-5") is None
    await storage.close()


async def test_two_replacements_of_one_sheet_at_the_same_instant_both_go_into_the_history(database: str) -> None:
    storage = await opened(database)
    await storage.set_sheet("tg", "-5", {"lines": [[0, 0]]}, ("1", "Ana"))
    numbers = await asyncio.gather(*(
        storage.replace_sheet("tg", "-5", {"lines": [[n, 0]]}, ("1", "Ana"), "undo", f"p{n}") for n in range(1, 9)
    ))
    assert sorted(numbers) == list(range(1, 9))  # type: ignore[type-var]
    history = await storage.old_sheets("tg", "-5", limit=20)
    assert [o.number for o in history] == list(range(8, 0, -1))
    # Each replacement kept the sheet the one before it wrote: the history is a chain, nothing lost or doubled.
    kept = sorted(o.data["lines"][0][0] for o in history if o.data is not None)
    current = await storage.get_sheet("tg", "-5")
    assert current is not None and sorted([*kept, current["lines"][0][0]]) == list(range(9))
    await storage.close()


async def test_an_old_sheet_that_is_not_json_is_shown_as_nothing_rather_than_failing(database: str) -> None:
    storage = await opened(database)
    await storage.set_sheet("tg", "-5", {"lines": []}, ("1", "Ana"))
    await storage.replace_sheet("tg", "-5", {"lines": [[1, 1]]}, None, "undo", "Ana")
    await poke(database, "UPDATE old_sheets SET data = 'not json' WHERE number = 1")
    [old] = await storage.old_sheets("tg", "-5")
    assert old.data is None and old.reason == "undo"
    await storage.close()


async def test_a_channel_follows_its_servers_language_until_it_has_its_own(database: str) -> None:
    storage = await opened(database)
    await storage.set_chat_parent("dc", "c1", "g1")
    await storage.set_chat_parent("dc", "c2", "g1")
    await storage.set_chat_parent("dc", "c10", "g1")
    assert await storage.get_chat_language("dc", "c1") is None
    await storage.set_chat_language("dc", "g1", "hr")
    assert await storage.get_chat_language("dc", "c1") == "hr"
    await storage.set_chat_language("dc", "c2", "fr")
    assert await storage.get_chat_language("dc", "c2") == "fr"
    assert await storage.chats_following("dc", "g1") == ["c1", "c10"]
    await storage.set_chat_game("dc", "c1", "bela")
    assert await storage.get_chat_game("dc", "c1") == "bela" and await storage.get_chat_game("dc", "c2") is None
    assert await storage.get_chat_language("dc", "c1") == "hr"  # choosing a game keeps the language
    await storage.close()


async def test_a_chat_keeps_its_packs_letters_beside_its_other_settings(database: str) -> None:
    storage = await opened(database)
    assert await storage.get_chat_letters("tg", "-5") is None
    await storage.set_chat_language("tg", "-5", "bg")
    await storage.set_chat_letters("tg", "-5", "cyrillic")
    assert await storage.get_chat_letters("tg", "-5") == "cyrillic"
    assert await storage.get_chat_letters("tg", "-6") is None
    assert await storage.get_chat_letters("dc", "-5") is None  # another platform's chat of the same key
    await storage.set_chat_game("tg", "-5", "bela")
    await storage.set_chat_letters("tg", "-5", "latin")
    assert await storage.get_chat_letters("tg", "-5") == "latin"
    assert await storage.get_chat_language("tg", "-5") == "bg" and await storage.get_chat_game("tg", "-5") == "bela"
    await storage.close()

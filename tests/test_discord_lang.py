"""/belot lang: a person's own language, a channel's, and the server's, which every channel without a language of
its own follows."""

from __future__ import annotations

import re
from pathlib import Path

from bot.calculator import score_text
from tests.discord_fakes import EPHEMERAL, FakeDiscord, FakeUser, message_text
from tests.test_discord_adapter import start_bot

LINE = "hearts 102 60"
CYRILLIC = re.compile(r"[а-яА-Я]")


async def test_the_server_language_reaches_every_channel_without_its_own(fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "belote.sqlite3"
    running = await start_bot(fake, db)  # BELOTE_LANGUAGE=bg
    ana = FakeUser(fake.next_id(), "Ana", "bg")
    boss = FakeUser(fake.next_id(), "Owner", "bg", manager=True)
    lobby_channel, score_channel, own_channel = fake.add_channel(), fake.add_channel(), fake.add_channel()

    async def summary(channel: int) -> str:
        return str(fake.reply(await fake.command(ana, channel, "score", line=LINE))["embeds"][0]["title"])

    await fake.command(ana, lobby_channel, "belot", "new")
    await running.settle()
    [lobby] = fake.public(lobby_channel)
    assert CYRILLIC.search(message_text(lobby).replace("Ana", ""))
    assert await summary(score_channel) == score_text(LINE).summary("bg")
    await fake.command(boss, own_channel, "belot", "lang", language="bg", scope="channel")

    refused = fake.reply(await fake.command(ana, score_channel, "belot", "lang", language="en", scope="server"))
    assert refused["flags"] & EPHEMERAL and "сървър" in refused["content"]
    done = fake.reply(await fake.command(boss, score_channel, "belot", "lang", language="en", scope="server"))
    assert "server" in done["content"]
    await running.settle()

    english = score_text(LINE).summary("en")
    assert await summary(score_channel) == english
    lobby = fake.messages[int(lobby["id"])]
    assert not CYRILLIC.search(message_text(lobby).replace("Ana", "")), "the other channel's open table follows"
    assert await summary(own_channel) == score_text(LINE).summary("bg"), "a channel with its own language keeps it"
    assert await summary(fake.add_channel()) == english, "a channel never used before follows the server"

    await running.stop()
    running = await start_bot(fake, db)
    assert await summary(lobby_channel) == english
    assert await summary(own_channel) == score_text(LINE).summary("bg")
    assert not fake.errors
    await running.stop()


async def test_croatian_from_the_client_locale_and_from_belot_lang(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")  # BELOTE_LANGUAGE=bg
    iva = FakeUser(fake.next_id(), "Iva", "hr")  # her Discord client is Croatian
    ana = FakeUser(fake.next_id(), "Ana", "bg")
    channel = fake.add_channel()
    no_table = fake.reply(await fake.command(iva, channel, "belot", "hand"))
    assert no_table["flags"] & EPHEMERAL and no_table["content"] == "Ovdje nema stola; otvorite ga s /belot."
    assert "/belot" in fake.reply(await fake.command(ana, channel, "belot", "hand"))["content"]
    assert CYRILLIC.search(fake.reply(await fake.command(ana, channel, "belot", "hand"))["content"])
    chosen = fake.reply(await fake.command(ana, channel, "belot", "lang", language="hr"))
    assert chosen["flags"] & EPHEMERAL and chosen["content"] == "Vaš jezik sada je hrvatski."
    again = fake.reply(await fake.command(ana, channel, "belot", "hand"))
    assert again["content"] == "Ovdje nema stola; otvorite ga s /belot."
    assert not fake.errors
    await running.stop()

"""/help on Discord: what the bot does and the commands that do it, answered privately in the asker's language, with
the lobby's buttons named as they are labelled and how to have a pack lettered В Д П read."""

from __future__ import annotations

from pathlib import Path

from bot.adapters.discord.commands import help_text
from bot.calculator import score_text
from bot.i18n import translator
from tests.discord_fakes import EPHEMERAL, FakeDiscord, FakeUser
from tests.test_discord_adapter import start_bot


async def test_help_is_registered_for_servers_and_direct_messages(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    (command,) = [c for c in fake.commands if c["name"] == "help"]
    assert command.get("dm_permission") is not False, "a newcomer may ask in a direct message too"
    assert command["description_localizations"]["bg"] == translator("bg").gettext("How to play with this bot")
    assert command["description_localizations"]["bg"] != "How to play with this bot"
    await running.stop()


async def test_help_answers_each_person_privately_in_their_language(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")  # BELOTE_LANGUAGE=bg
    channel = fake.add_channel()
    ana, iva = FakeUser(fake.next_id(), "Ana", "bg"), FakeUser(fake.next_id(), "Iva", "hr")
    tom = FakeUser(fake.next_id(), "Tom")  # an English client

    bulgarian = fake.reply(await fake.command(ana, channel, "help"))
    assert bulgarian["flags"] & EPHEMERAL, "help is not posted to the channel"
    text = bulgarian["content"]
    assert text == help_text("bg")
    # the lobby's and the table's buttons by the labels people see on them
    for label in ("Join", "Add bot", "Start", "My hand"):
        assert f"„{translator('bg').gettext(label)}“" in text
    assert "/belot new" in text and "/score photo:" in text and "letters: В Д П" in text and "/sheet" in text
    assert "Сядам" in text and "{" not in text

    croatian = fake.reply(await fake.command(iva, channel, "help"))["content"]
    assert croatian == help_text("hr") and "Sjedni" in croatian and "letters: В Д П" in croatian
    english = fake.reply(await fake.command(tom, channel, "help"))["content"]
    assert english.startswith("Bulgarian Bridge-Belote for four") and "Join" in english

    # a language chosen with /belot lang wins over the client's
    await fake.command(ana, channel, "belot", "lang", language="fr")
    french = fake.reply(await fake.command(ana, channel, "help"))["content"]
    assert french == help_text("fr") and "Rejoindre" in french
    assert not fake.public(channel), "nothing was posted for everyone"
    assert not fake.errors
    await running.stop()


async def test_help_answers_in_a_direct_message(fake: FakeDiscord, tmp_path: Path) -> None:
    running = await start_bot(fake, tmp_path / "belote.sqlite3")
    iva = FakeUser(fake.next_id(), "Iva", "hr")
    direct = fake.add_direct(iva)
    answer = fake.reply(await fake.command(iva, direct, "help"))
    assert answer["content"] == help_text("hr")
    # what /help points to works there too: the calculator
    scored = fake.reply(await fake.command(iva, direct, "score", line="hearts 102 60"))
    assert scored["embeds"][0]["title"] == score_text("hearts 102 60").summary("hr")
    assert not fake.errors
    await running.stop()

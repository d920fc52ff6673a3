"""The test PostgreSQL server itself: each test gets its own empty database on a running server."""

from __future__ import annotations

from tests.pgserver import PgServer


def test_each_test_gets_an_empty_database_of_its_own(postgres_server: PgServer, postgres_url: str) -> None:
    name = postgres_url.rsplit("/", 1)[1]
    assert postgres_server.psql("SELECT current_database()", database=name).strip() == name
    tables = "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
    assert postgres_server.psql(tables, database=name).strip() == "0"
    postgres_server.psql("CREATE TABLE kept (n int)", database=name)
    other = postgres_server.new_database()
    try:
        other_name = other.rsplit("/", 1)[1]
        assert other_name != name
        assert postgres_server.psql(tables, database=other_name).strip() == "0"
    finally:
        postgres_server.drop_database(other)


def test_the_server_does_not_run_as_root(postgres_server: PgServer) -> None:
    assert postgres_server.psql("SELECT current_setting('listen_addresses')").strip() == "127.0.0.1"
    assert postgres_server.process is not None
    with open(f"/proc/{postgres_server.process.pid}/status") as status:
        uid = next(line for line in status if line.startswith("Uid:")).split()[1]
    assert uid != "0"

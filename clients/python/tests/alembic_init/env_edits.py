"""The two edits of the env.py that `alembic init` writes, as README.md shows
them: test_alembic_init.py puts the first block in place of the line
`target_metadata = None` and the second in place of the
context.configure(...) call of run_migrations_online(). Not imported."""

# README python begins
from idgen.alembic import autogenerate_options
from models import Base

target_metadata = Base.metadata
# README python ends


def run_migrations_online():
    with connectable.connect() as connection:  # noqa: F821 (the lines around the edit, as env.py has them)
        # README python begins
        context.configure(connection=connection, target_metadata=target_metadata,
                          **autogenerate_options(connection))
        # README python ends

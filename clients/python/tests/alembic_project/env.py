"""Alembic's environment: online migrations, the whole upgrade in one
transaction (PostgreSQL has transactional DDL), autogenerate with idgen's options."""
from alembic import context
from sqlalchemy import engine_from_config, pool

from idgen.alembic import autogenerate_options

import models

config = context.config


def run_migrations_online():
    engine = engine_from_config(config.get_section(config.config_ini_section),
                                prefix="sqlalchemy.", poolclass=pool.NullPool)
    with engine.connect() as connection:
        # README snippet begins
        context.configure(connection=connection, target_metadata=models.Base.metadata,
                          transactional_ddl=True, transaction_per_migration=False,
                          **autogenerate_options(connection))
        # README snippet ends
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("this project migrates online only")
run_migrations_online()

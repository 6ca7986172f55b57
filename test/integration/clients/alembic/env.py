"""Alembic's environment: online migrations over the PG* environment, one
transaction for the whole upgrade (PostgreSQL has transactional DDL)."""
from alembic import context
from sqlalchemy import engine_from_config, pool

import models

config = context.config


def run_migrations_online():
    engine = engine_from_config(config.get_section(config.config_ini_section),
                                prefix="sqlalchemy.", poolclass=pool.NullPool)
    with engine.connect() as connection:
        # README snippet begins
        context.configure(connection=connection, target_metadata=models.Base.metadata,
                          transactional_ddl=True, transaction_per_migration=False,
                          **models.autogenerate_options(connection))
        with context.begin_transaction():  # one transaction for every migration of the run
            context.run_migrations()
        # README snippet ends


if context.is_offline_mode():
    raise SystemExit("this project migrates online only")
run_migrations_online()

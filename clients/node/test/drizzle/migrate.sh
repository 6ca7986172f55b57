#!/bin/sh
# The commands of the package's README for a Drizzle project's migrations,
# run by tests/drizzle.test.mjs in a project with drizzle.config.ts.
set -e
# README package begins
npx drizzle-kit generate --custom --name idgen  # an empty migration, before the tables
npx idgen-drizzle                               # fills it: the extension and the schema's domains
npx drizzle-kit generate                        # the tables
npx drizzle-kit migrate                         # as the database's owner
# README package ends

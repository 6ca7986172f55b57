# Prisma 7 (npm prisma, @prisma/client, @prisma/adapter-pg, node-pg-migrate, pinned in
# orm/package-lock.json, installed there by test/setup.sh with npm ci) in a
# database owned by a plain role: its migrations create idgen, then every
# family goes through the ORM (orm/prisma_test.ts, whose verdicts are the
# checks).
use strict;
use warnings;
use IdgenTest;
use Test::More;

orm_test_ok('prisma', 'prisma_test.ts', '@prisma/client', '.bin/prisma', '.bin/node-pg-migrate');
done_testing();

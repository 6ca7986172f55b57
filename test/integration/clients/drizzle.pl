# Drizzle ORM (npm drizzle-orm and drizzle-kit, pinned in
# orm/package-lock.json, installed there by test/setup.sh with npm ci) in a
# database owned by a plain role: its migrations create idgen, then every
# family goes through the ORM (orm/drizzle_test.ts, whose verdicts are the
# checks).
use strict;
use warnings;
use IdgenTest;
use Test::More;

orm_test_ok('drizzle', 'drizzle_test.ts', 'drizzle-orm', '.bin/drizzle-kit');
done_testing();

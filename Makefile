# idgen: PGXS build. The version lives here; test/tap/build_checks.pl holds
# idgen.control and META.json to it.
EXTENSION = idgen
EXTVERSION = 0.8.0

MODULE_big = idgen
CORE_OBJS = src/core/chacha20.o src/core/uuidv7.o src/core/snowflake.o src/core/snowflake_layout.o src/core/base32.o src/core/ulid.o src/core/base36.o src/core/prefixed.o src/core/typeid.o src/core/rmgr_ids.o src/core/uuidv6.o src/core/ksuid.o src/core/objectid.o src/core/xid.o src/core/short_text.o src/core/nanoid.o src/core/timeflake.o src/core/push_id.o src/core/sha3.o src/core/cuid2.o src/core/sqids.o src/core/siphash.o src/core/feistel63.o src/core/uuidv47.o
OBJS = $(CORE_OBJS) src/pg/module.o src/pg/entropy.o src/pg/timestamps.o src/pg/uuidv7_sql.o src/pg/snowflake_sql.o src/pg/snowflake_layout_sql.o src/pg/lease.o src/pg/ulid_sql.o src/pg/prefixed_sql.o src/pg/typeid_sql.o src/pg/stats_sql.o src/pg/shard_claim_sql.o src/pg/origin.o src/pg/order.o src/pg/uuidv6_sql.o src/pg/fixed_bytes.o src/pg/ksuid_sql.o src/pg/id96_sql.o src/pg/objectid_sql.o src/pg/xid_sql.o src/pg/short_text_sql.o src/pg/nanoid_sql.o src/pg/timeflake_sql.o src/pg/push_id_sql.o src/pg/cuid2_sql.o src/pg/sqids_sql.o src/pg/secret_key.o src/pg/feistel63_sql.o src/pg/uuidv47_sql.o

DATA = $(wildcard sql/$(EXTENSION)--*.sql)
REGRESS = uuid_v7 uuid_v7_errors uuid_v6 uuid_v6_errors snowflake snowflake_errors ulid ulid_errors prefixed prefixed_errors prefixed_binary typeid core_uuid parallel stats roles snowflake53 distribution shard_claim text_params soft_errors copy_on_error bytea_casts ksuid ksuid_errors objectid objectid_errors xid xid_errors short_text short_text_errors nanoid nanoid_errors timeflake timeflake_errors push_id push_id_errors cuid2 cuid2_errors sqids sqids_errors secret_key secret_key_errors bigint_obfuscate bigint_obfuscate_errors uuidv47 uuidv47_errors snowflake_layout snowflake_layout_errors snowflake_layout_mint snowflake_layout_mint_errors schema
REGRESS_OPTS = --load-extension=$(EXTENSION) --inputdir=.

PG_CPPFLAGS = -I$(srcdir)/src -DIDGEN_VERSION='"$(EXTVERSION)"'
PG_CXXFLAGS = -std=c++17 -fno-exceptions -fno-rtti -Wall -Wextra $(if $(WERROR),-Werror)
# Rebuild objects when a header they include changes.
PG_CXXFLAGS += -MMD -MP

# Set before PGXS is included: pgxs.mk tests it with ifdef while it is read.
EXTRA_CLEAN = test/unit/build test/fuzz/build tmp_check results regression.diffs regression.out $(OBJS:.o=.d) build

# The extension's TAP tier (test/tap/*.pl, docs/development.md): with
# `make installcheck TAP_TESTS=1` it runs after pg_regress, on servers that
# PostgreSQL::Test::Cluster starts from the installed PostgreSQL. Not by
# default: packagers' and PGXN's `make installcheck` (as root, in a build
# chroot) runs pg_regress alone.
PROVE_TESTS = test/tap/*.pl

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# After PGXS, whose Makefile.global empties PROVE_FLAGS: the suite's library.
PROVE_FLAGS += -I $(srcdir)/test/lib

# PGXS compiles bitcode for JIT with clang and without PG_CXXFLAGS.
COMPILE.cxx.bc += $(filter-out -MMD -MP,$(PG_CXXFLAGS)) -I$(srcdir)/src
-include $(OBJS:.o=.d)

# Core unit tests: GoogleTest, built without any PostgreSQL include path.
# Sanitizers catch out-of-bounds writes and undefined behaviour in the cores;
# -O0, as they see the same there and the tests compile in half the time.
UNIT_CXXFLAGS = -std=c++17 -O0 -g -Wall -Wextra $(if $(WERROR),-Werror) -I$(srcdir)/src \
	-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# vectors_test.cpp reads the vectors file (sql/edition/vectors.py writes it).
UNIT_CXXFLAGS += -DIDGEN_VECTORS_FILE='"$(abspath $(srcdir)/test/data/id_vectors.json)"'
# Third-party vectors beside the checkout (test/unit/shared_data.hpp reads them;
# docs/development.md, "Where test data comes from").
UNIT_CXXFLAGS += -DIDGEN_SHARED_DATA_DIR='"$(abspath $(srcdir)/../shared/data)"'
UNIT_SRCS = $(wildcard test/unit/*_test.cpp)
UNIT_BIN = test/unit/build/idgen_unit

test/unit/build/core/%.o: src/core/%.cpp src/core/*.hpp
	@mkdir -p $(dir $@)
	$(CXX) $(UNIT_CXXFLAGS) -fno-exceptions -fno-rtti -c -o $@ $<

# One object a test file, so that make -j compiles them side by side.
UNIT_OBJS = $(patsubst test/unit/%.cpp,test/unit/build/%.o,$(UNIT_SRCS))
test/unit/build/%_test.o: test/unit/%_test.cpp $(wildcard test/unit/*.hpp) src/core/*.hpp
	@mkdir -p $(dir $@)
	$(CXX) $(UNIT_CXXFLAGS) -c -o $@ $<

$(UNIT_BIN): $(UNIT_OBJS) $(patsubst src/core/%.o,test/unit/build/core/%.o,$(CORE_OBJS))
	$(CXX) $(UNIT_CXXFLAGS) -o $@ $^ -lgtest -lgtest_main -pthread

unit: $(UNIT_BIN)
	$(UNIT_BIN)

# Fuzzing: a libFuzzer target per core parser (test/fuzz/NAME_fuzz.cpp), built
# with clang against the core objects alone; `make fuzz` runs each for
# FUZZ_SECONDS (0: no limit), and FUZZ_RUNS (if set) caps its executions.
FUZZ_CXX = clang++
FUZZ_SECONDS = 60
FUZZ_RUNS =
FUZZ_CXXFLAGS = -std=c++17 -O1 -g -Wall -Wextra $(if $(WERROR),-Werror) -I$(srcdir)/src \
	-fno-exceptions -fno-rtti -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
FUZZ_TARGETS = $(patsubst test/fuzz/%_fuzz.cpp,%,$(wildcard test/fuzz/*_fuzz.cpp))
FUZZ_CORE_OBJS = $(patsubst src/core/%.o,test/fuzz/build/core/%.o,$(CORE_OBJS))

test/fuzz/build/core/%.o: src/core/%.cpp src/core/*.hpp
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

test/fuzz/build/bin/%: test/fuzz/%_fuzz.cpp test/fuzz/fuzz.hpp $(FUZZ_CORE_OBJS) src/core/*.hpp
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_CORE_OBJS)

fuzz-build: $(FUZZ_TARGETS:%=test/fuzz/build/bin/%)

fuzz: fuzz-build
	perl test/fuzz/run.pl $(FUZZ_SECONDS) $(FUZZ_RUNS:%=-runs=%) $(FUZZ_TARGETS)

# The SQL edition (issue 25, docs/managed-postgresql.md): one install script in
# SQL and PL/pgSQL, generated from sql/edition/*.sql with the C++ sources'
# constants, and the same script in pieces for pg_tle (a base version and its
# updates, in pg_tle/ beside it); not installed by `make install` (it is for
# servers without idgen).
SQL_EDITION = build/idgen_sql--$(EXTVERSION).sql
sql-edition: $(SQL_EDITION)
$(SQL_EDITION): $(wildcard sql/edition/*.sql) sql/edition/generate.py src/core/base32.hpp \
		src/core/snowflake.hpp src/core/prefixed.hpp src/core/uuidv7.hpp src/core/ulid.hpp src/core/ksuid.hpp \
		src/core/uuidv6.hpp src/core/second_counter.hpp src/core/objectid.hpp src/core/xid.hpp src/core/words.hpp \
		src/core/short_text.hpp src/core/nanoid.hpp src/core/push_id.hpp src/core/cuid2.hpp src/core/sha3.cpp \
		src/core/sha3.hpp src/core/sqids.hpp src/core/sqids_blocklist.hpp src/pg/module.cpp \
		sql/idgen--$(EXTVERSION).sql
	/usr/bin/python3 sql/edition/generate.py $(EXTVERSION) $@ $(dir $@)pg_tle
all: $(SQL_EDITION)

# The vectors file (issue 52, docs/development.md): each family's layout and
# cases, answered by the cores through test/unit/vectors_probe.cpp. Committed;
# test/tap/build_checks.pl runs `vectors.py check` against a fresh generation.
vectors:
	/usr/bin/python3 sql/edition/vectors.py write test/data/id_vectors.json

# A family new in this version is written once, between `-- begin family: NAME`
# and `-- end family: NAME` in the install script; this copies each block into
# the upgrade script (test/tap/build_checks.pl checks that they agree).
family-blocks:
	/usr/bin/python3 sql/define/type_support.py write
	/usr/bin/python3 sql/family_blocks.py write

.PHONY: unit fuzz fuzz-build print-version sql-edition dist vectors family-blocks
print-version:
	@echo $(EXTVERSION)

# PGXN release: the committed tree (HEAD, not the working files) as
# idgen-<version>.zip, every file under idgen-<version>/.
DIST_ZIP = $(EXTENSION)-$(EXTVERSION).zip
dist:
	@git diff --quiet HEAD -- || echo "dist: uncommitted changes are not in $(DIST_ZIP) (it is made from HEAD)" >&2
	git archive --format=zip --prefix=$(EXTENSION)-$(EXTVERSION)/ --output=$(DIST_ZIP) HEAD

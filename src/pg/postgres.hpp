// The one place that includes PostgreSQL headers. They are C, so they sit in
// extern "C"; PG 15's atomics and spinlock headers use 'register', which
// C++17 rejects, hence the local warning suppression.
#pragma once

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wregister"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif

extern "C" {
#include "postgres.h"

#include "access/genam.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/rmgr.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xloginsert.h"
#include "access/xlogreader.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "commands/trigger.h"
#include "common/cryptohash.h"
#include "common/hashfn.h"
#include "common/sha2.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/hyperloglog.h"
#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "replication/syncrep.h"
#include "replication/walsender.h"
#include "replication/walsender_private.h"
#include "storage/condition_variable.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/lmgr.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "tcop/utility.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/jsonb.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/sortsupport.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"
#include "utils/uuid.h"
#include "utils/wait_event.h"
#if PG_VERSION_NUM >= 170000
#include "storage/procnumber.h"
#else
#include "storage/backendid.h"
#endif
#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"
#endif
}

#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#if PG_VERSION_NUM < 150000
#error "idgen requires PostgreSQL 15 or later (shmem_request_hook)"
#endif

// IDGEN_ERRSAVE(escontext, (errcode(...), errmsg(...), ...)): an input
// function's (or a conversion's) error about its argument. From PostgreSQL 16
// it is soft when the caller passed an ErrorSaveContext as fcinfo->context
// (pg_input_is_valid(), pg_input_error_info(), COPY ... ON_ERROR, a domain's
// input): saved for the caller, and the function must then return at once
// with any Datum. Otherwise, and always on 15, it is ereport(ERROR).
#if PG_VERSION_NUM >= 160000
#define IDGEN_ERRSAVE(escontext, ...) errsave(escontext, __VA_ARGS__)
#else
#define IDGEN_ERRSAVE(escontext, ...) \
    do {                              \
        (void)(escontext);            \
        ereport(ERROR, __VA_ARGS__);  \
    } while (0)
#endif

/*
 * rmgr_squatter: a test module that registers a WAL resource manager under the
 * ID in rmgr_squatter.id, so that test/tap/wal_resource_manager.pl can preload
 * it beside idgen and check what each says when both want the same ID.
 */
#include "postgres.h"

#include "access/xlog_internal.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/guc.h"

PG_MODULE_MAGIC;

void _PG_init(void);

static int squatter_id = 200;

/* It never writes a record, so replay and description are never called. */
static void
squatter_redo(XLogReaderState *record)
{
	elog(PANIC, "rmgr_squatter writes no WAL");
}

static void
squatter_desc(StringInfo buf, XLogReaderState *record)
{
}

static const char *
squatter_identify(uint8 info)
{
	return NULL;
}

static RmgrData squatter_rmgr = {
	.rm_name = "rmgr_squatter",
	.rm_redo = squatter_redo,
	.rm_desc = squatter_desc,
	.rm_identify = squatter_identify,
};

/* Registers the resource manager when preloaded. */
void
_PG_init(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;
	DefineCustomIntVariable("rmgr_squatter.id", "Resource manager ID the test module takes.",
							NULL, &squatter_id, 200, RM_MIN_CUSTOM_ID, RM_MAX_CUSTOM_ID,
							PGC_POSTMASTER, 0, NULL, NULL, NULL);
	RegisterCustomRmgr((RmgrId) squatter_id, &squatter_rmgr);
}

// idgen_shard_list(text): the shards of a list in idgen.allowed_shards syntax
// ('0-15, 100'), one row each, in order, through the core parser that the
// setting uses. idgen_claim_shards() (plpgsql) reads its lists through it.
#include "core/snowflake.hpp"
#include "pg/postgres.hpp"

namespace core = idgen::core;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_shard_list);

Datum idgen_shard_list(PG_FUNCTION_ARGS) {
    text *arg = PG_GETARG_TEXT_PP(0);
    const char *data = VARDATA_ANY(arg);
    std::string_view list(data, VARSIZE_ANY_EXHDR(arg));
    // 1 KiB: palloc'd, not on the stack of a frame that may ereport.
    auto *set = static_cast<core::SnowflakeShardSet *>(palloc(sizeof(core::SnowflakeShardSet)));
    core::ShardListParse parsed = core::snowflake_parse_shard_list(list, *set);
    int item_length = static_cast<int>(parsed.item_length);
    const char *item = data + parsed.item_begin;
    switch (parsed.error) {
        case core::ShardListError::none:
            break;
        case core::ShardListError::empty_item:
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("empty item in shard list \"%s\"", text_to_cstring(arg)),
                            errdetail("Separate shards and ranges with single commas, as in "
                                      "'0-15,100'.")));
            break;
        case core::ShardListError::syntax:
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("invalid item \"%.*s\" in shard list", item_length, item),
                            errdetail("An item is a shard such as 100 or a range of shards "
                                      "such as 0-15.")));
            break;
        case core::ShardListError::out_of_range:
            ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                            errmsg("shard list item \"%.*s\" is out of range", item_length, item),
                            errdetail("A snowflake shard is between 0 and %d.",
                                      core::kSnowflakeMaxShard)));
            break;
        case core::ShardListError::descending:
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("shard range \"%.*s\" ends below its start", item_length, item),
                            errdetail("Write a range from its first shard to its last, as in "
                                      "0-15.")));
            break;
    }
    // A scalar SETOF: the one-column descriptor the executor expects.
    InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
    auto *rsinfo = reinterpret_cast<ReturnSetInfo *>(fcinfo->resultinfo);
    for (int shard = 0; shard < core::kSnowflakeShardCount; ++shard) {
        if (!core::snowflake_shard_set_contains(*set, shard)) continue;
        Datum value = Int32GetDatum(shard);
        bool null = false;
        tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &value, &null);
    }
    pfree(set);
    return static_cast<Datum>(0);
}

}  // extern "C"

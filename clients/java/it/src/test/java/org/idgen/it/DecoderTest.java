package org.idgen.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.HexFormat;
import org.idgen.Ksuid;
import org.idgen.ObjectId;
import org.idgen.PrefixedId;
import org.idgen.PushId;
import org.idgen.Snowflake;
import org.idgen.Timeflake;
import org.idgen.TypeId;
import org.idgen.Ulid;
import org.idgen.UuidV7;
import org.idgen.Xid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The package's decoders and codecs against the server's own answers, 100,000 values a family. */
class DecoderTest
{
	static final int N = 100_000;
	static Connection conn;

	@BeforeAll
	static void connect() throws SQLException
	{
		conn = Db.connect();
		try (Statement st = conn.createStatement())
		{
			st.execute("CREATE EXTENSION IF NOT EXISTS idgen");
		}
	}

	@AfterAll
	static void close() throws SQLException
	{
		if (conn != null)
			conn.close();
	}

	/** Runs the query and hands each row to the check; returns the number of rows. */
	static int rows(String sql, RowCheck check) throws SQLException
	{
		int n = 0;
		conn.setAutoCommit(false); // a cursor: fetch 10,000 rows at a time
		try (Statement st = conn.createStatement())
		{
			st.setFetchSize(10_000);
			try (ResultSet rs = st.executeQuery(sql))
			{
				while (rs.next())
				{
					check.row(rs);
					n++;
				}
			}
		}
		finally
		{
			conn.setAutoCommit(true);
		}
		return n;
	}

	interface RowCheck
	{
		void row(ResultSet rs) throws SQLException;
	}

	static Instant instant(ResultSet rs, int column) throws SQLException
	{
		return rs.getObject(column, java.time.OffsetDateTime.class).toInstant();
	}

	@Test
	void uuidV7TimeAsTheServer() throws SQLException
	{
		// uuid_v7() now, uuid_v7_at() over 1970..2200, and random UUIDs (not version 7: no time)
		int n = rows("SELECT u, uuid_v7_time(u) FROM ("
				+ " SELECT CASE i % 3 WHEN 0 THEN uuid_v7()"
				+ " WHEN 1 THEN uuid_v7_at(to_timestamp(random() * 7258118400))"
				+ " ELSE gen_random_uuid() END AS u FROM generate_series(1, " + N + ") i) s", rs -> {
					UUID u = rs.getObject(1, UUID.class);
					Optional<Instant> expected = rs.getObject(2) == null ? Optional.empty() : Optional.of(instant(rs, 2));
					assertEquals(expected, UuidV7.time(u), u.toString());
				});
		assertEquals(N, n);
	}

	@Test
	void timeflakeTimeAndRandomAsTheServer() throws SQLException
	{
		// timeflake() now, timeflake_at() over 1970..2200, and random bits with a millisecond before
		// the year 10000 (which java.time reads from the driver)
		int n = rows("SELECT f, timeflake_time(f), timeflake_random(f)::text FROM ("
				+ " SELECT CASE i % 3 WHEN 0 THEN timeflake()"
				+ " WHEN 1 THEN timeflake_at(to_timestamp(random() * 7258118400))"
				+ " ELSE (lpad(to_hex((random() * 253402300799999)::bigint), 12, '0') || substr(md5(random()::text), 1, 20))::uuid"
				+ " END AS f FROM generate_series(1, " + N + ") i) s", rs -> {
					UUID f = rs.getObject(1, UUID.class);
					assertEquals(instant(rs, 2), Timeflake.time(f), f.toString());
					assertEquals(rs.getString(3), Timeflake.random(f).toString(), f.toString());
				});
		assertEquals(N, n);
	}

	@Test
	void pushIdTimeAndValidityAsTheServer() throws SQLException
	{
		// push_id(), any 20 characters of the alphabet, and texts of other lengths or characters
		int n = rows("SELECT p, push_id_is_valid(p), CASE WHEN push_id_is_valid(p) THEN push_id_time(p) END FROM ("
				+ " SELECT CASE i % 3 WHEN 0 THEN push_id() WHEN 1 THEN nanoid(20, '" + PushId.ALPHABET + "')"
				+ " ELSE nanoid(19 + i % 3, '" + PushId.ALPHABET + ".') END AS p FROM generate_series(1, " + N + ") i) s", rs -> {
					String p = rs.getString(1);
					boolean valid = rs.getBoolean(2);
					assertEquals(valid, PushId.isValid(p), p);
					if (valid)
						assertEquals(instant(rs, 3), PushId.time(p), p);
					else
						assertThrows(IllegalArgumentException.class, () -> PushId.time(p), p);
				});
		assertEquals(N, n);
	}

	@Test
	void snowflakeTimeShardAndSeqAsTheServer() throws SQLException
	{
		for (String epoch : new String[] {"2024-01-01 00:00:00+00", "1999-12-31 23:59:59.5+00"})
		{
			Instant e = rs1("SELECT '" + epoch + "'::timestamptz");
			int n = rows("SELECT id, snowflake_time(id, '" + epoch + "'), snowflake_shard(id), snowflake_seq(id) FROM ("
					+ " SELECT (9007199254740992 + floor(random() * (9223372036854775807 - 9007199254740992)::float8))::bigint AS id"
					+ " FROM generate_series(1, " + N + ")) s", rs -> {
						long id = rs.getLong(1);
						assertEquals(instant(rs, 2), Snowflake.SNOWFLAKE.time(id, e), "time of " + id);
						assertEquals(rs.getInt(3), Snowflake.SNOWFLAKE.shard(id), "shard of " + id);
						assertEquals(rs.getInt(4), Snowflake.SNOWFLAKE.seq(id), "seq of " + id);
					});
			assertEquals(N, n);
		}
	}

	@Test
	void snowflake53TimeShardAndSeqAsTheServer() throws SQLException
	{
		// the server's default epoch, which time(id) counts from
		int n = rows("SELECT id, snowflake53_time(id), snowflake53_shard(id), snowflake53_seq(id) FROM ("
				+ " SELECT floor(random() * 9007199254740992::float8)::bigint AS id FROM generate_series(1, " + N + ")) s", rs -> {
					long id = rs.getLong(1);
					assertEquals(instant(rs, 2), Snowflake.SNOWFLAKE53.time(id), "time of " + id);
					assertEquals(rs.getInt(3), Snowflake.SNOWFLAKE53.shard(id), "shard of " + id);
					assertEquals(rs.getInt(4), Snowflake.SNOWFLAKE53.seq(id), "seq of " + id);
				});
		assertEquals(N, n);
	}

	@Test
	void snowflakeDecodersRefuseTheOtherSplitAsTheServerDoes() throws SQLException
	{
		long small = 9007199254740991L, big = 9007199254740992L;
		assertThrows(IllegalArgumentException.class, () -> Snowflake.SNOWFLAKE.time(small));
		assertThrows(IllegalArgumentException.class, () -> Snowflake.SNOWFLAKE53.shard(big));
		assertThrows(IllegalArgumentException.class, () -> Snowflake.SNOWFLAKE.seq(-1));
		assertThrows(IllegalArgumentException.class, () -> Snowflake.SNOWFLAKE.time(big, Instant.parse("1969-12-31T23:59:59Z")));
		SQLException e = assertThrows(SQLException.class, () -> rs1("SELECT snowflake_time(" + small + ", '2024-01-01+00')"));
		assertEquals("22003", e.getSQLState());
		e = assertThrows(SQLException.class, () -> rs1("SELECT snowflake53_shard(" + big + ")"));
		assertEquals("22003", e.getSQLState());
		assertEquals(Snowflake.DEFAULT_SNOWFLAKE_EPOCH, rs1("SELECT current_setting('idgen.snowflake_epoch')::timestamptz"));
	}

	@Test
	void ulidTextUuidAndTimeAsTheServer() throws SQLException
	{
		int n = rows("SELECT u::text, u::uuid, ulid_time(u), lower(u::text) FROM ("
				+ " SELECT CASE WHEN i % 2 = 0 THEN ulid() ELSE gen_random_uuid()::ulid END AS u"
				+ " FROM generate_series(1, " + N + ") i) s", rs -> {
					String text = rs.getString(1);
					UUID uuid = rs.getObject(2, UUID.class);
					Ulid fromText = Ulid.parse(text);
					assertEquals(uuid, fromText.toUuid(), text);
					assertEquals(text, Ulid.fromUuid(uuid).toString(), text);
					assertEquals(fromText, Ulid.parse(rs.getString(4)));
					assertEquals(instant(rs, 3), fromText.time(), text);
				});
		assertEquals(N, n);
	}

	@Test
	void prefixedIdTextPrefixAndUuidAsTheServer() throws SQLException
	{
		int n = rows("SELECT p::text, prefixed_id_prefix(p), prefixed_id_uuid(p) FROM ("
				+ " SELECT CASE i % 3 WHEN 0 THEN prefixed_id_new('acct') WHEN 1 THEN prefixed_id_token('api_key')"
				+ " ELSE prefixed_id_from_uuid('x', gen_random_uuid()) END AS p FROM generate_series(1, " + N + ") i) s",
				rs -> {
					String text = rs.getString(1);
					PrefixedId p = PrefixedId.parse(text);
					assertEquals(rs.getString(2), p.prefix(), text);
					assertEquals(rs.getObject(3, UUID.class), p.toUuid(), text);
					assertEquals(text, PrefixedId.of(p.prefix(), p.toUuid()).getValue(), text);
				});
		assertEquals(N, n);
		assertEquals("x_" + "f5lxx1zz5pnorynqglhzmsp33", PrefixedId.of("x", new UUID(-1, -1)).getValue());
		assertEquals(rs1s("SELECT prefixed_id_from_uuid('x', 'ffffffff-ffff-ffff-ffff-ffffffffffff')::text"),
				PrefixedId.of("x", new UUID(-1, -1)).getValue());
	}

	@Test
	void typeIdTextPrefixAndUuidAsTheServer() throws SQLException
	{
		int n = rows("SELECT t::text, typeid_prefix(t), typeid_uuid(t) FROM ("
				+ " SELECT CASE i % 3 WHEN 0 THEN typeid_new('user') WHEN 1 THEN typeid_new('')"
				+ " ELSE typeid_from_uuid('big_table', gen_random_uuid()) END AS t FROM generate_series(1, " + N + ") i) s",
				rs -> {
					String text = rs.getString(1);
					TypeId t = TypeId.parse(text);
					assertEquals(rs.getString(2), t.prefix(), text);
					assertEquals(rs.getObject(3, UUID.class), t.toUuid(), text);
					assertEquals(text, TypeId.of(t.prefix(), t.toUuid()).getValue(), text);
				});
		assertEquals(N, n);
		assertTrue(TypeId.of("", new UUID(0, 0)).getValue().matches("0{26}"));
	}

	/** n random bytes as an SQL expression (md5 of random(), 16 bytes at a time). */
	static String randomBytes(int n)
	{
		StringBuilder hex = new StringBuilder("decode(substr(md5(random()::text)");
		for (int i = 16; i < n; i += 16)
			hex.append(" || md5(random()::text)");
		return hex.append(", 1, ").append(2 * n).append("), 'hex')").toString();
	}

	static String hex(byte[] b)
	{
		return HexFormat.of().formatHex(b);
	}

	@Test
	void ksuidTextBytesTimeAndPayloadAsTheServer() throws SQLException
	{
		// ksuid() now, ksuid_at() over the whole range of seconds, and any 20 bytes
		int n = rows("SELECT k::text, k::bytea, ksuid_time(k), ksuid_payload(k) FROM ("
				+ " SELECT CASE i % 3 WHEN 0 THEN ksuid()"
				+ " WHEN 1 THEN ksuid_at(to_timestamp(1400000000 + floor(random() * 4294967295)))"
				+ " ELSE " + randomBytes(Ksuid.BYTES) + "::ksuid END AS k FROM generate_series(1, " + N + ") i) s", rs -> {
					String text = rs.getString(1);
					Ksuid k = Ksuid.parse(text);
					assertEquals(text, k.toString());
					assertEquals(hex(rs.getBytes(2)), hex(k.toByteArray()), text);
					assertEquals(k, Ksuid.fromBytes(rs.getBytes(2)), text);
					assertEquals(instant(rs, 3), k.time(), text);
					assertEquals(hex(rs.getBytes(4)), hex(k.payload()), text);
				});
		assertEquals(N, n);
	}

	@Test
	void objectIdTextBytesTimeProcessAndCounterAsTheServer() throws SQLException
	{
		int n = rows("SELECT o::text, o::bytea, objectid_time(o), objectid_process(o), objectid_counter(o), upper(o::text) FROM ("
				+ " SELECT CASE WHEN i % 2 = 0 THEN objectid() ELSE " + randomBytes(ObjectId.BYTES) + "::objectid END AS o"
				+ " FROM generate_series(1, " + N + ") i) s", rs -> {
					String text = rs.getString(1);
					ObjectId o = ObjectId.parse(text);
					assertEquals(text, o.toString());
					assertEquals(hex(rs.getBytes(2)), hex(o.toByteArray()), text);
					assertEquals(o, ObjectId.parse(rs.getString(6)), text);
					assertEquals(instant(rs, 3), o.time(), text);
					assertEquals(hex(rs.getBytes(4)), hex(o.process()), text);
					assertEquals(rs.getInt(5), o.counter(), text);
				});
		assertEquals(N, n);
	}

	@Test
	void xidTextBytesTimeMachinePidAndCounterAsTheServer() throws SQLException
	{
		int n = rows("SELECT x::text, x::bytea, xid_time(x), xid_machine(x), xid_pid(x), xid_counter(x) FROM ("
				+ " SELECT CASE WHEN i % 2 = 0 THEN xid() ELSE " + randomBytes(Xid.BYTES) + "::rsxid END AS x"
				+ " FROM generate_series(1, " + N + ") i) s", rs -> {
					String text = rs.getString(1);
					Xid x = Xid.parse(text);
					assertEquals(text, x.toString());
					assertEquals(hex(rs.getBytes(2)), hex(x.toByteArray()), text);
					assertEquals(instant(rs, 3), x.time(), text);
					assertEquals(hex(rs.getBytes(4)), hex(x.machine()), text);
					assertEquals(rs.getInt(5), x.pid(), text);
					assertEquals(rs.getInt(6), x.counter(), text);
				});
		assertEquals(N, n);
	}

	static Instant rs1(String sql) throws SQLException
	{
		try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql))
		{
			rs.next();
			return instant(rs, 1);
		}
	}

	static String rs1s(String sql) throws SQLException
	{
		return Db.text(conn, sql);
	}
}

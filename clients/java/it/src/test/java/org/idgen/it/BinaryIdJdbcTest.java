package org.idgen.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.idgen.Idgen;
import org.idgen.Ksuid;
import org.idgen.ObjectId;
import org.idgen.Xid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGResultSetMetaData;
import org.postgresql.util.PGobject;

/**
 * pgjdbc with Ksuid, ObjectId and Xid on a real server: every valid case of the vectors file sent
 * with setObject and read back with getObject, in text and in binary, alone and in arrays, through
 * domains; every refused text refused by the server too; the BSON library's ObjectId as a parameter
 * and back.
 */
class BinaryIdJdbcTest
{
	/** Each family's SQL type (as the vectors file names it), value class and parser. */
	record Family(String name, String sqlType, Class<?> cls, Function<String, Object> parse)
	{
	}

	static final List<Family> FAMILIES = List.of(new Family("ksuid", Ksuid.TYPE, Ksuid.class, Ksuid::parse),
			new Family("objectid", ObjectId.TYPE, ObjectId.class, ObjectId::parse),
			new Family("xid", Xid.TYPE, Xid.class, Xid::parse));

	/** Results in text: never server-prepared (pgjdbc asks for binary results only of server-prepared statements). */
	static Connection text;
	/** Results and parameters in binary where registered: server-prepared from the first execution. */
	static Connection binary;

	@BeforeAll
	static void connect() throws SQLException
	{
		text = Db.connect("prepareThreshold", "0");
		try (Statement st = text.createStatement())
		{
			st.execute("CREATE EXTENSION IF NOT EXISTS idgen");
			st.execute("DROP SCHEMA IF EXISTS binary_ids CASCADE");
			st.execute("CREATE SCHEMA binary_ids");
			st.execute("SET search_path = binary_ids, public");
			// a domain over each type, and one over that domain
			st.execute("CREATE DOMAIN b_ref AS ksuid");
			st.execute("CREATE DOMAIN b_doc AS objectid");
			st.execute("CREATE DOMAIN b_trace AS rsxid");
			st.execute("CREATE DOMAIN b_trace_ref AS b_trace");
			// README java begins
			st.execute("CREATE TABLE documents (id objectid PRIMARY KEY DEFAULT objectid(),"
					+ " ref ksuid NOT NULL DEFAULT ksuid(), trace rsxid DEFAULT xid(), title text)");
			// README java ends
			st.execute("CREATE TABLE b_values (r b_ref, d b_doc, t b_trace_ref, ra b_ref[], da b_doc[], ta b_trace_ref[])");
			st.execute("INSERT INTO b_values (r, d, t) SELECT ksuid(), objectid(), xid() FROM generate_series(1, 3)");
			st.execute("UPDATE b_values SET ra = ARRAY[r, NULL], da = ARRAY[d], ta = ARRAY[NULL, t]");
		}
		Idgen.register(text);
		binary = Db.connect("prepareThreshold", "-1");
		Idgen.register(binary);
		try (Statement st = binary.createStatement())
		{
			st.execute("SET search_path = binary_ids, public");
		}
	}

	@AfterAll
	static void close() throws SQLException
	{
		for (Connection c : new Connection[] {text, binary})
			if (c != null)
				c.close();
	}

	/** The family's valid values of the vectors file, each with its case, from its texts and its bits. */
	static List<Map.Entry<JsonNode, Object>> values(Family f)
	{
		List<Map.Entry<JsonNode, Object>> out = new ArrayList<>();
		for (JsonNode c : CodecTest.cases(f.name(), "text", true))
			out.add(Map.entry(c, f.parse().apply(c.get("text").asText())));
		for (JsonNode c : CodecTest.cases(f.name(), "bits", true))
			out.add(Map.entry(c, CodecTest.BYTE_ID_MAKERS.get(f.name()).apply(CodecTest.bytes(c, "bits"))));
		return out;
	}

	@Test
	void everyVectorThroughTheServerInTextAndBinary() throws SQLException
	{
		int checked = 0;
		for (Connection c : new Connection[] {text, binary})
			for (Family f : FAMILIES)
			{
				String t = f.sqlType();
				String sql = "SELECT ?::" + t + ", (?::" + t + ")::text, (?::" + t + ")::bytea, pg_typeof(?)::text, ?::text::" + t;
				for (Map.Entry<JsonNode, Object> v : values(f))
					try (PreparedStatement ps = c.prepareStatement(sql))
					{
						for (int i = 1; i <= 4; i++)
							ps.setObject(i, v.getValue());
						ps.setString(5, v.getKey().has("text") ? v.getKey().get("text").asText() : v.getKey().get("canonical").asText());
						try (ResultSet rs = ps.executeQuery())
						{
							assertTrue(rs.next());
							String what = f.name() + ": " + v.getKey();
							int format = rs.getMetaData().unwrap(PGResultSetMetaData.class).getFormat(1);
							assertEquals(c == binary ? 1 : 0, format, what + ": the result's format");
							assertEquals(v.getValue(), assertInstanceOf(f.cls(), rs.getObject(1)), what);
							assertEquals(v.getKey().get("canonical").asText(), rs.getString(2), what);
							assertArrayEquals(CodecTest.bytes(v.getKey(), "bits"), rs.getBytes(3), what);
							assertEquals(t, rs.getString(4), what + ": setObject sends the type");
							assertEquals(v.getValue(), rs.getObject(5), what + ": the server reads the case's text");
							checked++;
						}
					}
			}
		assertTrue(checked >= 2 * 3 * 5, "cases run: " + checked);
	}

	@Test
	void theServerRefusesWhatTheClassesRefuse() throws SQLException
	{
		int refused = 0;
		for (Family f : FAMILIES)
			for (JsonNode c : CodecTest.cases(f.name(), "text", false))
			{
				String bad = c.get("text").asText();
				assertThrows(IllegalArgumentException.class, () -> f.parse().apply(bad), f.name() + ": " + c);
				if (bad.indexOf('\0') >= 0)
					continue; // a text parameter cannot hold a NUL byte
				SQLException e = assertThrows(SQLException.class, () -> Db.text(text, "SELECT ?::text::" + f.sqlType(), bad),
						f.name() + ": " + c);
				assertEquals("22P02", e.getSQLState(), f.name() + ": " + c);
				assertTrue(e.getMessage().contains("invalid input syntax for type " + f.sqlType()), e.getMessage());
				refused++;
			}
		assertTrue(refused > 20, "refused: " + refused);
		for (Family f : FAMILIES)
		{
			SQLException e = assertThrows(SQLException.class, () -> Db.text(text, "SELECT '\\x0102'::bytea::" + f.sqlType()));
			assertEquals("22P03", e.getSQLState(), f.name());
		}
	}

	@Test
	void arraysOfEveryVectorInTextAndBinary() throws SQLException
	{
		for (Connection c : new Connection[] {text, binary})
			for (Family f : FAMILIES)
			{
				List<Object> want = new ArrayList<>();
				for (Map.Entry<JsonNode, Object> v : values(f))
					want.add(v.getValue());
				want.add(null);
				Array sent = c.createArrayOf(f.sqlType(), want.toArray());
				try (PreparedStatement ps = c.prepareStatement("SELECT ?::" + f.sqlType() + "[], pg_typeof(?)::text, (?::"
						+ f.sqlType() + "[])::text[]"))
				{
					ps.setArray(1, sent);
					ps.setArray(2, sent);
					ps.setArray(3, sent);
					try (ResultSet rs = ps.executeQuery())
					{
						assertTrue(rs.next());
						Object[] back = (Object[]) rs.getArray(1).getArray();
						assertEquals(want, Arrays.asList(back), f.name());
						for (int i = 0; i + 1 < back.length; i++)
							assertInstanceOf(f.cls(), back[i], f.name());
						assertNull(back[back.length - 1]);
						assertEquals(f.sqlType() + "[]", rs.getString(2));
						Object[] texts = (Object[]) rs.getArray(3).getArray();
						for (int i = 0; i + 1 < texts.length; i++)
							assertEquals(want.get(i).toString(), texts[i], f.name());
					}
				}
			}
	}

	@Test
	void domainsOverTheTypesAndTheirArrays() throws SQLException
	{
		for (Connection c : new Connection[] {text, binary})
		{
			int rows = 0;
			try (PreparedStatement ps = c.prepareStatement("SELECT r, d, t, ra, da, ta, r::text, d::text, t::text FROM b_values");
					ResultSet rs = ps.executeQuery())
			{
				while (rs.next())
				{
					rows++;
					Ksuid r = assertInstanceOf(Ksuid.class, rs.getObject(1));
					ObjectId d = assertInstanceOf(ObjectId.class, rs.getObject(2));
					Xid t = assertInstanceOf(Xid.class, rs.getObject(3));
					assertEquals(List.of(rs.getString(7), rs.getString(8), rs.getString(9)), List.of(r.toString(), d.toString(), t.toString()));
					Object[] ra = (Object[]) rs.getArray(4).getArray();
					Object[] da = (Object[]) rs.getArray(5).getArray();
					Object[] ta = (Object[]) rs.getArray(6).getArray();
					assertEquals(r, assertInstanceOf(Ksuid.class, ra[0]));
					assertNull(ra[1]);
					assertEquals(d, assertInstanceOf(ObjectId.class, da[0]));
					assertNull(ta[0]);
					assertEquals(t, assertInstanceOf(Xid.class, ta[1]));
					try (PreparedStatement by = c.prepareStatement("SELECT count(*) FROM b_values WHERE r = ? AND d = ? AND t = ?"))
					{
						by.setObject(1, ra[0]);
						by.setObject(2, da[0]);
						by.setObject(3, ta[1]);
						try (ResultSet found = by.executeQuery())
						{
							assertTrue(found.next());
							assertEquals(1, found.getInt(1), "found by its array elements as parameters");
						}
					}
				}
			}
			assertEquals(3, rows);
		}
	}

	@Test
	void keysFromTheDefaultsAndLookupsByEachType() throws SQLException
	{
		Connection conn = text;
		ObjectId id;
		Ksuid ref;
		Xid trace;
		// README java begins
		try (PreparedStatement ps = conn.prepareStatement("INSERT INTO documents (title) VALUES (?)",
				new String[] {"id", "ref", "trace"}))
		{
			ps.setString(1, "minutes");
			ps.executeUpdate();
			try (ResultSet keys = ps.getGeneratedKeys())
			{
				keys.next();
				id = (ObjectId) keys.getObject("id");
				ref = (Ksuid) keys.getObject("ref");
				trace = (Xid) keys.getObject("trace");
			}
		}
		Instant created = id.time();             // objectid_time(id)
		byte[] process = id.process();           // objectid_process(id)
		int counter = id.counter();              // objectid_counter(id)
		byte[] payload = ref.payload();          // ksuid_payload(ref)
		int pid = trace.pid();                   // xid_pid(trace), also machine(), counter(), time()
		// README java ends
		assertEquals(Db.text(conn, "SELECT extract(epoch FROM objectid_time(?))::bigint::text", id), String.valueOf(created.getEpochSecond()));
		assertEquals(Db.text(conn, "SELECT encode(objectid_process(?), 'hex')", id), java.util.HexFormat.of().formatHex(process));
		assertEquals(Db.text(conn, "SELECT objectid_counter(?)::text", id), String.valueOf(counter));
		assertEquals(Db.text(conn, "SELECT encode(ksuid_payload(?), 'hex')", ref), java.util.HexFormat.of().formatHex(payload));
		assertEquals(Db.text(conn, "SELECT xid_pid(?)::text", trace), String.valueOf(pid));
		for (Object[] by : new Object[][] {{"id", id}, {"ref", ref}, {"trace", trace}})
			assertEquals("minutes", Db.text(conn, "SELECT title FROM documents WHERE " + by[0] + " = ?", by[1]), "by " + by[0]);
		assertEquals(id.toString(), Db.text(conn, "SELECT id::text FROM documents WHERE ref = ? AND trace = ?", ref, trace));
	}

	@Test
	void theBsonLibrarysObjectIdAsAParameterAndBack() throws SQLException
	{
		Connection conn = text;
		org.bson.types.ObjectId back, same;
		// README java begins
		org.bson.types.ObjectId fromMongo = new org.bson.types.ObjectId();
		try (PreparedStatement ps = conn.prepareStatement("INSERT INTO documents (id, title) VALUES (?, ?)"))
		{
			ps.setObject(1, ObjectId.of(fromMongo));   // the same 12 bytes, sent as an objectid
			ps.setString(2, "imported");
			ps.executeUpdate();
		}
		try (PreparedStatement ps = conn.prepareStatement("SELECT id FROM documents WHERE title = 'imported'");
				ResultSet rs = ps.executeQuery())
		{
			rs.next();
			back = ((ObjectId) rs.getObject("id")).toBson();
			same = new org.bson.types.ObjectId(rs.getString("id"));  // also without Idgen.register
		}
		// README java ends
		assertEquals(List.of(fromMongo, fromMongo), List.of(back, same));
		try (PreparedStatement ps = conn.prepareStatement("SELECT id, id::text, id::bytea FROM documents WHERE title = 'imported'");
				ResultSet rs = ps.executeQuery())
		{
			assertTrue(rs.next());
			assertEquals(fromMongo, ((ObjectId) rs.getObject(1)).toBson());
			assertEquals(fromMongo, new org.bson.types.ObjectId(rs.getString(1)));
			assertEquals(fromMongo.toHexString(), rs.getString(2));
			assertArrayEquals(fromMongo.toByteArray(), rs.getBytes(3));
		}
		// pgjdbc itself does not know the BSON class: it must go through ObjectId.of
		try (PreparedStatement ps = conn.prepareStatement("SELECT ?::objectid"))
		{
			assertThrows(SQLException.class, () -> ps.setObject(1, fromMongo));
		}
	}

	@Test
	void valuesAreImmutableAndTextIsChecked() throws SQLException
	{
		Ksuid k = Ksuid.parse("0ujtsYcgvSTl8PAuAdqWYSMnLOv");
		assertEquals("55000", assertThrows(SQLException.class, () -> k.setValue("0ujtsYcgvSTl8PAuAdqWYSMnLOw")).getSQLState());
		k.setValue("0ujtsYcgvSTl8PAuAdqWYSMnLOv");
		ObjectId upper = ObjectId.parse("56E1FC72E0C917E9C4714161");
		assertEquals("56e1fc72e0c917e9c4714161", upper.toString());
		upper.setValue("56e1fc72e0c917e9c4714161"); // the same value in either case
		upper.setValue("56E1FC72E0C917E9C4714161");
		Xid x = new Xid();
		assertEquals("22P02", assertThrows(SQLException.class, () -> x.setValue("9M4E2MR0UI3E8A215N4G")).getSQLState());
		assertEquals(PGobject.class, plainObject("SELECT xid()").getClass(), "without registration, a plain PGobject");
	}

	static Object plainObject(String sql) throws SQLException
	{
		try (Connection plain = Db.connect(); Statement st = plain.createStatement(); ResultSet rs = st.executeQuery(sql))
		{
			rs.next();
			return rs.getObject(1);
		}
	}
}

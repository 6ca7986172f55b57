package org.idgen.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.idgen.Idgen;
import org.idgen.PrefixedId;
import org.idgen.TypeId;
import org.idgen.Ulid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PGobject;

/** pgjdbc with the value classes: getObject, setObject, generated keys, domains and errors. */
class JdbcTest
{
	static Connection conn;

	@BeforeAll
	static void connect() throws SQLException
	{
		conn = Db.connect();
		try (Statement st = conn.createStatement())
		{
			st.execute("CREATE EXTENSION IF NOT EXISTS idgen");
			st.execute("CREATE SCHEMA IF NOT EXISTS jdbc_test");
			st.execute("SET search_path = jdbc_test, public");
			st.execute("DROP TABLE IF EXISTS j_items, j_accounts, j_users, j_domain_values");
			st.execute("DROP DOMAIN IF EXISTS j_account_id, j_user_id, j_member_id, j_ulid_ref_ref, j_ulid_ref");
			st.execute("SELECT prefixed_id_define('j_account_id', 'jacct')");
			st.execute("SELECT typeid_define('j_user_id', 'juser')");
			// the domains idgen_types() lists beside the two above: a plain CREATE DOMAIN over ulid,
			// a domain over that domain, and a third typeid_define() domain, with arrays of them
			st.execute("CREATE DOMAIN j_ulid_ref AS ulid");
			st.execute("CREATE DOMAIN j_ulid_ref_ref AS j_ulid_ref");
			st.execute("SELECT typeid_define('j_member_id', 'jmember')");
			st.execute("CREATE TABLE j_domain_values (r j_ulid_ref, rr j_ulid_ref_ref,"
					+ " m j_member_id DEFAULT typeid_new('jmember'), rra j_ulid_ref_ref[], ma j_member_id[])");
			st.execute("INSERT INTO j_domain_values (r, rr) SELECT ulid(), ulid() FROM generate_series(1, 3)");
			st.execute("UPDATE j_domain_values SET rra = ARRAY[rr, NULL], ma = ARRAY[m]");
			st.execute("CREATE TABLE j_accounts (id j_account_id PRIMARY KEY, label text)");
			st.execute("CREATE TABLE j_users (id j_user_id PRIMARY KEY, label text)");
			st.execute("CREATE TABLE j_items (id ulid PRIMARY KEY DEFAULT ulid(), label text)");
		}
		// README snippet begins
		Idgen.register(conn);
		// README snippet ends
	}

	@AfterAll
	static void close() throws SQLException
	{
		if (conn != null)
			conn.close();
	}

	@Test
	void getObjectReturnsTheValueClasses() throws SQLException
	{
		try (Statement st = conn.createStatement();
				ResultSet rs = st.executeQuery("SELECT ulid(), prefixed_id_new('acct'), typeid_new('user'), "
						+ "ulid()::text, NULL::ulid"))
		{
			assertTrue(rs.next());
			Ulid u = assertInstanceOf(Ulid.class, rs.getObject(1));
			PrefixedId p = assertInstanceOf(PrefixedId.class, rs.getObject(2));
			TypeId t = assertInstanceOf(TypeId.class, rs.getObject(3));
			assertEquals(rs.getString(1), u.getValue());
			assertEquals(rs.getString(2), p.toString());
			assertEquals(rs.getString(3), t.toString());
			assertEquals("acct", p.prefix());
			assertEquals("user", t.prefix());
			assertEquals(null, rs.getObject(5));
		}
	}

	@Test
	void withoutRegistrationGetObjectIsAPlainPGobject() throws SQLException
	{
		try (Connection plain = Db.connect(); Statement st = plain.createStatement();
				ResultSet rs = st.executeQuery("SELECT ulid()"))
		{
			assertTrue(rs.next());
			Object o = rs.getObject(1);
			assertEquals(PGobject.class, o.getClass());
			assertEquals("ulid", ((PGobject) o).getType());
		}
	}

	@Test
	void setObjectSendsTheTypeSoComparisonsNeedNoCast() throws SQLException
	{
		Ulid id;
		try (Statement st = conn.createStatement();
				ResultSet rs = st.executeQuery("INSERT INTO j_items (label) VALUES ('by object') RETURNING id"))
		{
			assertTrue(rs.next());
			id = (Ulid) rs.getObject(1);
		}
		try (PreparedStatement ps = conn.prepareStatement("SELECT label, pg_typeof(?)::text FROM j_items WHERE id = ?"))
		{
			ps.setObject(1, id);
			ps.setObject(2, id);
			try (ResultSet rs = ps.executeQuery())
			{
				assertTrue(rs.next());
				assertEquals("by object", rs.getString(1));
				assertEquals("ulid", rs.getString(2));
			}
		}
	}

	@Test
	void batchInsertReturnsGeneratedKeysAsValueClasses() throws SQLException
	{
		List<Ulid> ids = new ArrayList<>();
		// README snippet begins
		try (PreparedStatement ps = conn.prepareStatement("INSERT INTO j_items (label) VALUES (?)", new String[] {"id"}))
		{
			for (String label : List.of("a", "b", "c"))
			{
				ps.setString(1, label);
				ps.addBatch();
			}
			ps.executeBatch();
			try (ResultSet keys = ps.getGeneratedKeys())
			{
				while (keys.next())
					ids.add((Ulid) keys.getObject("id"));
			}
		}
		// README snippet ends
		assertEquals(3, ids.size());
		for (Ulid id : ids)
			assertEquals(id.getValue(), Db.text(conn, "SELECT id::text FROM j_items WHERE id = ?", id));
	}

	@Test
	void domainKeysFromTheirDefaultsAndLookupsByValueClass() throws SQLException
	{
		PrefixedId account;
		TypeId user;
		try (Statement st = conn.createStatement())
		{
			try (ResultSet rs = st.executeQuery("INSERT INTO j_accounts (label) VALUES ('acme') RETURNING id"))
			{
				assertTrue(rs.next());
				account = (PrefixedId) rs.getObject(1);
			}
			try (ResultSet rs = st.executeQuery("INSERT INTO j_users (label) VALUES ('ada') RETURNING id"))
			{
				assertTrue(rs.next());
				user = (TypeId) rs.getObject(1);
			}
		}
		assertEquals("jacct", account.prefix());
		assertEquals("juser", user.prefix());
		assertEquals("acme", Db.text(conn, "SELECT label FROM j_accounts WHERE id = ?", account));
		assertEquals("ada", Db.text(conn, "SELECT label FROM j_users WHERE id = ?", user));
		PrefixedId made = PrefixedId.of("jacct", UUID.randomUUID());
		try (PreparedStatement ps = conn.prepareStatement("INSERT INTO j_accounts (id, label) VALUES (?, 'made')"))
		{
			ps.setObject(1, made);
			assertEquals(1, ps.executeUpdate());
		}
		assertEquals(made.getValue(), Db.text(conn, "SELECT id::text FROM j_accounts WHERE label = 'made'"));
		try (PreparedStatement ps = conn.prepareStatement("UPDATE j_accounts SET label = 'renamed' WHERE id = ?"))
		{
			ps.setObject(1, made);
			assertEquals(1, ps.executeUpdate());
		}
		try (PreparedStatement ps = conn.prepareStatement("DELETE FROM j_accounts WHERE id = ?"))
		{
			ps.setObject(1, made);
			assertEquals(1, ps.executeUpdate());
		}
	}

	@Test
	void aDomainRefusesAnotherPrefixWith23514() throws SQLException
	{
		try (PreparedStatement ps = conn.prepareStatement("INSERT INTO j_accounts (id, label) VALUES (?, 'x')"))
		{
			ps.setObject(1, PrefixedId.of("other", UUID.randomUUID()));
			SQLException e = assertThrows(SQLException.class, ps::executeUpdate);
			assertEquals("23514", e.getSQLState());
		}
	}

	@Test
	void textParametersNeedACastInComparisons() throws SQLException
	{
		String text = Db.text(conn, "INSERT INTO j_items (label) VALUES ('by text') RETURNING id::text");
		assertEquals("by text", Db.text(conn, "SELECT label FROM j_items WHERE id = ?::ulid", text));
		SQLException e = assertThrows(SQLException.class, () -> Db.text(conn, "SELECT label FROM j_items WHERE id = ?", text));
		assertEquals("42883", e.getSQLState());
		try (Connection unspecified = Db.connect("stringtype", "unspecified"))
		{
			try (Statement st = unspecified.createStatement())
			{
				st.execute("SET search_path = jdbc_test, public");
			}
			assertEquals("by text", Db.text(unspecified, "SELECT label FROM j_items WHERE id = ?", text));
		}
	}

	@Test
	void malformedTextIsRefusedByTheClassAndByTheServer() throws SQLException
	{
		assertThrows(IllegalArgumentException.class, () -> Ulid.parse("not a ulid"));
		assertThrows(IllegalArgumentException.class, () -> Ulid.parse("8ZZZZZZZZZZZZZZZZZZZZZZZZZ"));
		assertThrows(IllegalArgumentException.class, () -> PrefixedId.parse("acct_" + "z".repeat(25)));
		assertThrows(IllegalArgumentException.class, () -> PrefixedId.parse("Acct_" + "0".repeat(25)));
		assertThrows(IllegalArgumentException.class, () -> TypeId.parse("user_" + "0".repeat(25) + "L"));
		assertThrows(IllegalArgumentException.class, () -> PrefixedId.of("_x", UUID.randomUUID()));
		Ulid empty = new Ulid();
		SQLException bad = assertThrows(SQLException.class, () -> empty.setValue("01ARZ3NDEKTSV4RRFFQ69G5FAI"));
		assertEquals("22P02", bad.getSQLState());
		SQLException server = assertThrows(SQLException.class, () -> Db.text(conn, "SELECT 'not a ulid'::ulid"));
		assertEquals("22P02", server.getSQLState());
		Ulid set = Ulid.parse("01ARZ3NDEKTSV4RRFFQ69G5FAV");
		SQLException changed = assertThrows(SQLException.class, () -> set.setValue("01ARZ3NDEKTSV4RRFFQ69G5FAW"));
		assertEquals("55000", changed.getSQLState());
	}

	@Test
	void lowerCaseUlidTextIsTheSameValue() throws SQLException
	{
		Ulid upper = Ulid.parse("01ARZ3NDEKTSV4RRFFQ69G5FAV");
		Ulid lower = Ulid.parse("01arz3ndektsv4rrffq69g5fav");
		assertEquals(upper, lower);
		assertEquals(upper.getValue(), lower.getValue());
		assertEquals(upper.getValue(), Db.text(conn, "SELECT ?::text::ulid::text", "01arz3ndektsv4rrffq69g5fav"));
	}

	@Test
	void valuesReadTheSameAfterTheServerPreparedSwitch() throws SQLException
	{
		try (Connection c = Db.connect("prepareThreshold", "2"))
		{
			Idgen.register(c);
			try (Statement st = c.createStatement())
			{
				st.execute("SET search_path = jdbc_test, public");
				st.execute("INSERT INTO j_items (label) VALUES ('switch')");
			}
			List<Object> seen = new ArrayList<>();
			try (PreparedStatement ps = c.prepareStatement("SELECT id, id::uuid FROM j_items ORDER BY 1 LIMIT 1"))
			{
				for (int i = 0; i < 5; i++)
					try (ResultSet rs = ps.executeQuery())
					{
						assertTrue(rs.next());
						seen.add(List.of(rs.getObject(1), rs.getObject(2)));
					}
			}
			assertFalse(seen.isEmpty());
			for (Object s : seen)
				assertEquals(seen.get(0), s);
			List<?> first = (List<?>) seen.get(0);
			assertEquals(((Ulid) first.get(0)).toUuid(), first.get(1));
		}
	}

	@Test
	void binaryResultsAndParametersOnceRegistered() throws SQLException
	{
		try (Connection c = Db.connect("prepareThreshold", "-1"))
		{
			Idgen.register(c);
			try (PreparedStatement ps = c.prepareStatement("SELECT u, u::text, p, p::text, t, t::text, e, e::text FROM"
					+ " (SELECT ulid() u, prefixed_id_new('acct') p, typeid_new('user') t, typeid_new('') e) s"))
			{
				try (ResultSet rs = ps.executeQuery())
				{
					assertTrue(rs.next());
					org.postgresql.PGResultSetMetaData meta = rs.getMetaData().unwrap(org.postgresql.PGResultSetMetaData.class);
					for (int col = 1; col <= 8; col += 2)
					{
						assertEquals(1, meta.getFormat(col), "column " + col + " in binary");
						assertEquals(rs.getString(col + 1), ((PGobject) rs.getObject(col)).getValue());
						assertEquals(rs.getString(col + 1), rs.getString(col));
					}
				}
			}
			Object[] values = {Ulid.parse("01ARZ3NDEKTSV4RRFFQ69G5FAV"), PrefixedId.of("acct", new UUID(1, 2)),
					TypeId.of("user", new UUID(3, 4)), TypeId.of("", new UUID(5, 6))};
			for (Object v : values)
				try (PreparedStatement ps = c.prepareStatement("SELECT ?::text"))
				{
					ps.setObject(1, v);
					try (ResultSet rs = ps.executeQuery())
					{
						assertTrue(rs.next());
						assertEquals(((PGobject) v).getValue(), rs.getString(1), "a binary parameter");
					}
				}
		}
	}

	@Test
	void domainsOverDomainsAndTheirArraysInTextAndBinary() throws SQLException
	{
		try (Connection binary = Db.connect("prepareThreshold", "-1"))
		{
			Idgen.register(binary);
			try (Statement st = binary.createStatement())
			{
				st.execute("SET search_path = jdbc_test, public");
			}
			for (Connection c : new Connection[] {conn, binary})
				assertDomainValues(c);
		}
	}

	@Test
	void registrationWithTheExtensionOffTheSearchPath() throws SQLException
	{
		try (Connection off = Db.connect("currentSchema", "jdbc_test"))
		{
			assertEquals("jdbc_test", Db.text(off, "SHOW search_path"));
			Idgen.register(off);
			assertDomainValues(off);
			try (Statement st = off.createStatement();
					ResultSet rs = st.executeQuery("SELECT public.ulid(), NULL::public.ulid"))
			{
				assertTrue(rs.next());
				assertInstanceOf(Ulid.class, rs.getObject(1));
				assertEquals(null, rs.getObject(2));
			}
		}
	}

	/** Every row of j_domain_values: each domain's value and its arrays' elements are the value classes. */
	private static void assertDomainValues(Connection c) throws SQLException
	{
		int rows = 0;
		try (PreparedStatement ps = c.prepareStatement("SELECT r, rr, m, rra, ma, r::text, rr::text, m::text FROM j_domain_values");
				ResultSet rs = ps.executeQuery())
		{
			while (rs.next())
			{
				rows++;
				Ulid r = assertInstanceOf(Ulid.class, rs.getObject(1));
				Ulid rr = assertInstanceOf(Ulid.class, rs.getObject(2));
				TypeId m = assertInstanceOf(TypeId.class, rs.getObject(3));
				Object[] rra = (Object[]) rs.getArray(4).getArray();
				Object[] ma = (Object[]) rs.getArray(5).getArray();
				assertEquals(List.of(rs.getString(6), rs.getString(7), rs.getString(8)),
						List.of(r.getValue(), rr.getValue(), m.getValue()));
				assertEquals("jmember", m.prefix());
				assertEquals(2, rra.length);
				assertEquals(rr, assertInstanceOf(Ulid.class, rra[0]));
				assertEquals(null, rra[1]);
				assertEquals(m, assertInstanceOf(TypeId.class, ma[0]));
				// (idgen's operators qualified: a connection may have public off its search_path)
				try (PreparedStatement by = c.prepareStatement(
						"SELECT count(*) FROM j_domain_values WHERE rr OPERATOR(public.=) ? AND m OPERATOR(public.=) ?"))
				{
					by.setObject(1, rra[0]);
					by.setObject(2, ma[0]);
					try (ResultSet found = by.executeQuery())
					{
						assertTrue(found.next());
						assertEquals(1, found.getInt(1), "a domain's array element as a parameter");
					}
				}
			}
		}
		assertEquals(3, rows);
	}

	@Test
	void anExtensionOlderThan080IsRefused() throws SQLException
	{
		String url = System.getenv("IDGEN_JDBC_OLD_URL");
		Assumptions.assumeTrue(url != null && !url.isEmpty(), "IDGEN_JDBC_OLD_URL (a database with idgen 0.7.0) is not set");
		try (Connection old = DriverManager.getConnection(url, Db.USER, null))
		{
			SQLException e = assertThrows(SQLException.class, () -> Idgen.register(old));
			assertEquals("42883", e.getSQLState());
			assertTrue(e.getMessage().contains("idgen 0.7.0 is installed") && e.getMessage().contains("ALTER EXTENSION idgen UPDATE"),
					e.getMessage());
		}
	}
}

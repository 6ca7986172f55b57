// Every idgen family through pgjdbc (Debian's libpostgresql-jdbc-java 42.5),
// as a Java application uses it: a migration in one transaction as the
// database's owner (not a superuser), DEFAULTs read back with RETURNING and
// getGeneratedKeys, filter, update and delete by each type, and each value read
// as its natural Java type. Also the ways a text parameter reaches ulid,
// prefixed_id and typeid (setString, stringtype=unspecified, ?::type), and the
// switch to server-prepared statements and binary transfer.
//
//   java -cp DIR:/usr/share/java/postgresql.jar IdgenJdbcTest jdbc:postgresql://127.0.0.1:PORT/DB USER
//
// Prints its plan ("plan<TAB>N"), then one verdict line per check ("ok<TAB>what",
// "not ok<TAB>what", "#<TAB>note", test/lib/verdicts.py's format), which
// jdbc.pl turns into TAP.
// The blocks between the README markers are docs/frameworks.md's snippets.

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Predicate;

import org.postgresql.PGConnection;
import org.postgresql.PGResultSetMetaData;
import org.postgresql.util.PGobject;

public class IdgenJdbcTest
{
	// README snippet begins
	// The migration: run once, in one transaction, by the database's owner.
	static final String[] MIGRATION = {
		"CREATE EXTENSION IF NOT EXISTS idgen",
		"SELECT prefixed_id_define('account_id', 'acct')",
		"SELECT typeid_define('user_id', 'user')",
		"CREATE TABLE sessions (id uuid PRIMARY KEY DEFAULT uuid_v7(), label text NOT NULL)",
		"CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT snowflake(1), label text NOT NULL)",
		"CREATE TABLE tickets (id bigint PRIMARY KEY DEFAULT snowflake53(1), label text NOT NULL)",
		"CREATE TABLE events (id ulid PRIMARY KEY DEFAULT ulid(), label text NOT NULL)",
		// the domains carry their DEFAULT (a new ID of their prefix)
		"CREATE TABLE accounts (id account_id PRIMARY KEY, label text NOT NULL)",
		"CREATE TABLE users (id user_id PRIMARY KEY, label text NOT NULL)",
	};

	static void migrate(Connection conn, String... migration) throws SQLException
	{
		conn.setAutoCommit(false);
		try (Statement st = conn.createStatement())
		{
			for (String sql : migration)
				st.execute(sql);
			conn.commit();
		}
		catch (SQLException e)
		{
			conn.rollback();
			throw e;
		}
		finally
		{
			conn.setAutoCommit(true);
		}
	}
	// README snippet ends

	// README snippet begins
	// ulid, prefixed_id and typeid as small value classes: getObject returns
	// them, and setObject sends them typed, so "WHERE id = ?" needs no cast.
	public static class Ulid extends PGobject
	{
		public Ulid() { setType("ulid"); }
		public Ulid(String text) throws SQLException { this(); setValue(text); }
	}

	public static class PrefixedId extends PGobject
	{
		public PrefixedId() { setType("prefixed_id"); }
		public PrefixedId(String text) throws SQLException { this(); setValue(text); }
	}

	public static class TypeId extends PGobject
	{
		public TypeId() { setType("typeid"); }
		public TypeId(String text) throws SQLException { this(); setValue(text); }
	}

	// Once per connection. A domain's values (account_id, user_id) arrive
	// with their base type's OID, so the base types are enough.
	static void registerIdgen(Connection conn) throws SQLException
	{
		PGConnection pg = conn.unwrap(PGConnection.class);
		pg.addDataType("ulid", Ulid.class);
		pg.addDataType("prefixed_id", PrefixedId.class);
		pg.addDataType("typeid", TypeId.class);
	}
	// README snippet ends

	// ---- verdicts ----

	// The plan line, before the first verdict: n verdicts follow.
	static void plan(int n)
	{
		System.out.println("plan\t" + n);
	}

	// The number of checks main makes: the connection, migrations' 4; for
	// each family crud's 6, batchKeys', unregistered's and binary's 1; usage's
	// 2; for each textual family setStringDefault's 5 and setStringUnspecified's
	// 1, and 1 more for a domain; the malformed ulid.
	static int planned()
	{
		int textual = 0, domains = 0;
		for (Family f : FAMILIES)
			if (f.textual())
			{
				textual++;
				if (!f.type.equals(f.baseType))
					domains++;
			}
		return 1 + 4 + FAMILIES.length * (6 + 1 + 1 + 1) + 2 + textual * (5 + 1) + domains + 1;
	}

	static void say(boolean ok, String what)
	{
		System.out.println((ok ? "ok" : "not ok") + "\t" + what.trim().replaceAll("\\s+", " "));
	}

	static void note(String text)
	{
		for (String line : String.valueOf(text).split("\n"))
			System.out.println("#\t" + line);
	}

	interface Check
	{
		boolean run() throws Exception;
	}

	// One check: its verdict, or "not ok" and the exception as a note.
	static boolean check(String what, Check c)
	{
		boolean ok;
		try
		{
			ok = c.run();
		}
		catch (Exception e)
		{
			note(what + ": " + e);
			ok = false;
		}
		say(ok, what);
		return ok;
	}

	// ---- the families ----

	// table, column type, SQL that mints a new value, the Java class getObject
	// returns once registerIdgen ran, the shape of a value, and the class that
	// wraps a text for setObject (null for uuid and bigint).
	record Family(String table, String type, String mint, Class<?> natural, Predicate<Object> shape,
				  String baseType)
	{
		boolean textual() { return baseType != null; }

		Object wrap(String text) throws SQLException
		{
			switch (baseType)
			{
				case "ulid": return new Ulid(text);
				case "prefixed_id": return new PrefixedId(text);
				default: return new TypeId(text);
			}
		}
	}

	static final long TWO_53 = 1L << 53;

	static final Family[] FAMILIES = {
		new Family("sessions", "uuid", "uuid_v7()", UUID.class,
			v -> ((UUID) v).version() == 7 && ((UUID) v).variant() == 2, null),
		new Family("orders", "bigint", "snowflake(1)", Long.class, v -> (Long) v >= TWO_53, null),
		new Family("tickets", "bigint", "snowflake53(1)", Long.class,
			v -> (Long) v > 0 && (Long) v < TWO_53, null),
		new Family("events", "ulid", "ulid()", Ulid.class,
			v -> v.toString().matches("[0-7][0-9A-HJKMNP-TV-Z]{25}"), "ulid"),
		new Family("accounts", "account_id", "prefixed_id_new('acct')", PrefixedId.class,
			v -> v.toString().matches("acct_[0-9a-z]{25}"), "prefixed_id"),
		new Family("users", "user_id", "typeid_new('user')", TypeId.class,
			v -> v.toString().matches("user_[0-7][0-9a-hjkmnp-tv-z]{25}"), "typeid"),
	};

	// ---- small JDBC helpers for the checks ----

	// The first column of the first row of SQL with text parameters, as a string.
	static String text(Connection conn, String sql, String... params) throws SQLException
	{
		try (PreparedStatement ps = conn.prepareStatement(sql))
		{
			for (int i = 0; i < params.length; i++)
				ps.setString(i + 1, params[i]);
			try (ResultSet rs = ps.executeQuery())
			{
				return rs.next() ? rs.getString(1) : null;
			}
		}
	}

	// A new value of the family, minted by the server, as its text.
	static String minted(Connection conn, Family f) throws SQLException
	{
		return text(conn, "SELECT (" + f.mint + ")::text");
	}

	// The labels of the rows whose id is the (natural, typed) VALUE.
	static List<String> labelsById(Connection conn, Family f, Object value) throws SQLException
	{
		List<String> labels = new ArrayList<>();
		try (PreparedStatement ps = conn.prepareStatement("SELECT label FROM " + f.table + " WHERE id = ?"))
		{
			ps.setObject(1, value);
			try (ResultSet rs = ps.executeQuery())
			{
				while (rs.next())
					labels.add(rs.getString(1));
			}
		}
		return labels;
	}

	static String idTextByLabel(Connection conn, Family f, String label) throws SQLException
	{
		return text(conn, "SELECT id::text FROM " + f.table + " WHERE label = ?", label);
	}

	// The SQLSTATE and message of the error SQL raises with text parameters, or "" if none.
	static String error(Connection conn, String sql, String... params)
	{
		try (PreparedStatement ps = conn.prepareStatement(sql))
		{
			for (int i = 0; i < params.length; i++)
				ps.setString(i + 1, params[i]);
			ps.execute();
			return "";
		}
		catch (SQLException e)
		{
			return e.getSQLState() + ": " + e.getMessage().split("\n")[0];
		}
	}

	// ---- the test ----

	public static void main(String[] args) throws Exception
	{
		String url = args[0];
		String user = args[1];
		String plainUrl = url + "?user=" + user;
		plan(planned());

		try (Connection conn = DriverManager.getConnection(plainUrl))
		{
			check("connects over TCP as " + user + ", a role that is not a superuser",
				() -> "f".equals(text(conn, "SELECT rolsuper FROM pg_roles WHERE rolname = current_user"))
					&& user.equals(text(conn, "SELECT current_user::text"))
					&& user.equals(text(conn, "SELECT datdba::regrole::text FROM pg_database"
						+ " WHERE datname = current_database()")));
			migrations(conn, user);
		}

		// The application's connection: default settings, the value classes registered.
		try (Connection app = DriverManager.getConnection(plainUrl))
		{
			registerIdgen(app);
			for (Family f : FAMILIES)
				crud(app, f);
			for (Family f : FAMILIES)
				batchKeys(app, f);
			usage(app);
		}

		// Without registerIdgen: setString, getString, getObject's PGobject.
		try (Connection plain = DriverManager.getConnection(plainUrl))
		{
			for (Family f : FAMILIES)
				unregistered(plain, f);
			for (Family f : FAMILIES)
				if (f.textual())
					setStringDefault(plain, f);
			check("a malformed ulid through ?::ulid is refused with 22P02 and idgen's message",
				() -> error(plain, "SELECT ?::ulid", "01ARZ3NDEKTSV4RRFFQ69G5FAI")
					.startsWith("22P02: ERROR: invalid input syntax for type ulid: \"01ARZ3NDEKTSV4RRFFQ69G5FAI\""));
		}

		// README snippet begins
		// stringtype=unspecified: setString parameters go untyped, and the server
		// reads them as the column's type, in INSERT, UPDATE and WHERE alike.
		String unspecifiedUrl = url + "?user=" + user + "&stringtype=unspecified";
		// README snippet ends
		try (Connection unspecified = DriverManager.getConnection(unspecifiedUrl))
		{
			for (Family f : FAMILIES)
				if (f.textual())
					setStringUnspecified(unspecified, f);
		}

		// Server-prepared statements from the 3rd execution on: binary transfer.
		try (Connection prepared = DriverManager.getConnection(url + "?user=" + user + "&prepareThreshold=3"))
		{
			registerIdgen(prepared);
			for (Family f : FAMILIES)
				binary(prepared, f);
		}
	}

	static void migrations(Connection conn, String user) throws SQLException
	{
		String[] failing = new String[MIGRATION.length + 1];
		System.arraycopy(MIGRATION, 0, failing, 0, MIGRATION.length);
		failing[MIGRATION.length] = "SELECT 1 / 0";
		check("a migration that fails rolls back everything, CREATE EXTENSION and the domains included",
			() -> {
				try
				{
					migrate(conn, failing);
					return false;
				}
				catch (SQLException e)
				{
					if (!"22012".equals(e.getSQLState()))
						throw e;
				}
				return "0".equals(text(conn, "SELECT count(*) FROM pg_extension WHERE extname = 'idgen'"))
					&& "0".equals(text(conn, "SELECT count(*) FROM pg_type"
						+ " WHERE typname IN ('account_id', 'user_id', 'ulid')"))
					&& text(conn, "SELECT to_regclass('sessions')::text") == null;
			});
		check("the migration runs in one transaction as the database's owner",
			() -> {
				migrate(conn, MIGRATION);
				return true;
			});
		check("the owner created the extension (it is trusted): " + user + " owns it",
			() -> user.equals(text(conn, "SELECT extowner::regrole::text FROM pg_extension"
				+ " WHERE extname = 'idgen'")));
		check("prefixed_id_define and typeid_define made domains over prefixed_id and typeid",
			() -> "prefixed_id".equals(text(conn, "SELECT typbasetype::regtype::text FROM pg_type"
					+ " WHERE typname = 'account_id'"))
				&& "typeid".equals(text(conn, "SELECT typbasetype::regtype::text FROM pg_type"
					+ " WHERE typname = 'user_id'")));
	}

	// DEFAULT, RETURNING, filter, update and delete by the family's natural Java value.
	static void crud(Connection app, Family f) throws SQLException
	{
		String t = f.table + " (" + f.type + ")";
		String label = f.table + "-crud";
		Object[] id = new Object[1];
		check(t + ": INSERT ... RETURNING id gives the DEFAULT's value as " + f.natural.getName(),
			() -> {
				try (PreparedStatement ps = app.prepareStatement(
					"INSERT INTO " + f.table + " (label) VALUES (?) RETURNING id"))
				{
					ps.setString(1, label);
					try (ResultSet rs = ps.executeQuery())
					{
						if (!rs.next())
							return false;
						id[0] = rs.getObject(1);
					}
				}
				note(t + ": " + id[0]);
				return id[0] != null && id[0].getClass() == f.natural && f.shape.test(id[0]);
			});
		if (id[0] == null)
			return;
		check(t + ": the value read equals the server's text of the stored id",
			() -> id[0].toString().equals(idTextByLabel(app, f, label)));
		check(t + ": WHERE id = ? with setObject(" + f.natural.getSimpleName() + ") finds the row",
			() -> List.of(label).equals(labelsById(app, f, id[0])));
		check(t + ": UPDATE ... WHERE id = ? changes that row only",
			() -> {
				try (PreparedStatement ps = app.prepareStatement(
					"UPDATE " + f.table + " SET label = ? WHERE id = ?"))
				{
					ps.setString(1, label + "-updated");
					ps.setObject(2, id[0]);
					return ps.executeUpdate() == 1
						&& List.of(label + "-updated").equals(labelsById(app, f, id[0]));
				}
			});
		Object[] next = new Object[1];
		check(t + ": UPDATE SET id = ? with a new " + f.natural.getSimpleName() + " stores it",
			() -> {
				try (PreparedStatement mint = app.prepareStatement("SELECT " + f.mint);
					 ResultSet rs = mint.executeQuery())
				{
					rs.next();
					next[0] = rs.getObject(1);
				}
				// bigint and ulid mint as bigint and ulid; a domain's mint is its base type
				try (PreparedStatement ps = app.prepareStatement(
					"UPDATE " + f.table + " SET id = ? WHERE id = ?"))
				{
					ps.setObject(1, next[0]);
					ps.setObject(2, id[0]);
					return ps.executeUpdate() == 1
						&& next[0].toString().equals(idTextByLabel(app, f, label + "-updated"))
						&& labelsById(app, f, id[0]).isEmpty();
				}
			});
		check(t + ": DELETE ... WHERE id = ? deletes the row",
			() -> {
				try (PreparedStatement ps = app.prepareStatement("DELETE FROM " + f.table + " WHERE id = ?"))
				{
					ps.setObject(1, next[0]);
					return ps.executeUpdate() == 1 && labelsById(app, f, next[0]).isEmpty()
						&& idTextByLabel(app, f, label + "-updated") == null;
				}
			});
	}

	// What docs/frameworks.md shows, on the events table (ulid): a batch insert
	// returning the generated keys, then lookups with a typed and a text parameter.
	static void usage(Connection conn)
	{
		List<Ulid> ids = new ArrayList<>();
		check("usage: executeBatch with getGeneratedKeys returns each new row's ulid as a Ulid",
			() -> {
				// README snippet begins
				try (PreparedStatement ps = conn.prepareStatement(
						"INSERT INTO events (label) VALUES (?)", new String[] {"id"}))
				{
					for (String label : List.of("signup", "login"))
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
				return ids.size() == 2 && !ids.get(0).equals(ids.get(1))
					&& ids.get(0).getValue().equals(text(conn,
						"SELECT id::text FROM events WHERE label = 'signup'"))
					&& ids.get(1).getValue().equals(text(conn,
						"SELECT id::text FROM events WHERE label = 'login'"));
			});
		if (ids.size() != 2)
			return;
		check("usage: WHERE id = ? with setObject(Ulid), and WHERE id = ?::ulid with setString, find the row",
			() -> {
				String byObject, byText;
				// README snippet begins
				Ulid id = ids.get(0);
				try (PreparedStatement ps = conn.prepareStatement("SELECT label FROM events WHERE id = ?"))
				{
					ps.setObject(1, id); // sent as a ulid: no cast needed
					try (ResultSet rs = ps.executeQuery())
					{
						byObject = rs.next() ? rs.getString("label") : null;
					}
				}
				try (PreparedStatement ps = conn.prepareStatement("SELECT label FROM events WHERE id = ?::ulid"))
				{
					ps.setString(1, id.getValue()); // sent as varchar: cast it in SQL
					try (ResultSet rs = ps.executeQuery())
					{
						byText = rs.next() ? rs.getString("label") : null;
					}
				}
				// README snippet ends
				return "signup".equals(byObject) && "signup".equals(byText);
			});
	}

	// A batch insert returning the generated keys.
	static void batchKeys(Connection app, Family f)
	{
		String t = f.table + " (" + f.type + ")";
		check(t + ": executeBatch of 3 rows, then getGeneratedKeys, gives the 3 new ids as "
			+ f.natural.getSimpleName(),
			() -> {
				List<Object> keys = new ArrayList<>();
				try (PreparedStatement ps = app.prepareStatement(
					"INSERT INTO " + f.table + " (label) VALUES (?)", new String[] {"id"}))
				{
					for (String label : List.of("batch-1", "batch-2", "batch-3"))
					{
						ps.setString(1, label);
						ps.addBatch();
					}
					ps.executeBatch();
					try (ResultSet rs = ps.getGeneratedKeys())
					{
						while (rs.next())
							keys.add(rs.getObject("id"));
					}
				}
				if (keys.size() != 3 || new HashSet<>(keys).size() != 3)
				{
					note(t + ": keys " + keys);
					return false;
				}
				for (int i = 0; i < 3; i++)
				{
					Object key = keys.get(i);
					if (key.getClass() != f.natural || !f.shape.test(key)
						|| !List.of("batch-" + (i + 1)).equals(labelsById(app, f, key)))
					{
						note(t + ": key " + i + " " + key + " (" + key.getClass().getName() + ")");
						return false;
					}
				}
				return true;
			});
	}

	// What a connection without registerIdgen reads: uuid and bigint as UUID and
	// Long anyway, ulid/prefixed_id/typeid as a PGobject of the base type whose
	// value, like getString, is the server's text.
	static void unregistered(Connection plain, Family f)
	{
		String t = f.table + " (" + f.type + ")";
		check(t + ": without registration, getObject gives "
			+ (f.textual() ? "a PGobject of type " + f.baseType : f.natural.getName())
			+ " and getString the server's text",
			() -> {
				String label = f.table + "-plain";
				try (PreparedStatement ps = plain.prepareStatement(
					"INSERT INTO " + f.table + " (label) VALUES (?) RETURNING id, id::text"))
				{
					ps.setString(1, label);
					try (ResultSet rs = ps.executeQuery())
					{
						rs.next();
						Object value = rs.getObject(1);
						String got = rs.getString(1);
						String server = rs.getString(2);
						note(t + ": getObject gives " + value.getClass().getName()
							+ (value instanceof PGobject ? " of type " + ((PGobject) value).getType() : ""));
						boolean classOk = f.textual()
							? value.getClass() == PGobject.class && f.baseType.equals(((PGobject) value).getType())
							: value.getClass() == f.natural;
						return classOk && server.equals(got) && server.equals(value.toString())
							&& f.shape.test(f.textual() ? f.wrap(got) : value);
					}
				}
			});
	}

	// setString on a default connection sends varchar: INSERT and UPDATE go
	// through the assignment casts varchar -> ulid/prefixed_id/typeid (idgen
	// 0.7.0); WHERE id = ? has no ulid = varchar operator (42883) and needs
	// ?::type or stringtype=unspecified.
	static void setStringDefault(Connection plain, Family f)
	{
		String t = f.table + " (" + f.type + ")";
		String label = f.table + "-setstring";
		String[] value = new String[1];
		check(t + ": INSERT (id) VALUES (?) with setString stores the text (assignment cast from varchar, 0.7.0)",
			() -> {
				value[0] = minted(plain, f);
				String err = error(plain, "INSERT INTO " + f.table + " (id, label) VALUES (?, ?)", value[0], label);
				if (!err.isEmpty())
					note(t + ": " + err);
				return err.isEmpty() && value[0].equals(idTextByLabel(plain, f, label));
			});
		check(t + ": UPDATE SET id = ? with setString stores the text (assignment cast from varchar, 0.7.0)",
			() -> {
				String old = idTextByLabel(plain, f, f.table + "-plain");
				String fresh = minted(plain, f);
				String err = error(plain, "UPDATE " + f.table + " SET id = ? WHERE id::text = ?", fresh, old);
				if (!err.isEmpty())
					note(t + ": " + err);
				return err.isEmpty() && fresh.equals(idTextByLabel(plain, f, f.table + "-plain"));
			});
		check(t + ": WHERE id = ? with setString (varchar) is refused: 42883, no " + f.type
				+ " = character varying operator",
			() -> {
				String err = error(plain, "SELECT label FROM " + f.table + " WHERE id = ?", minted(plain, f));
				note(t + ": " + err);
				return err.startsWith("42883: ERROR: operator does not exist: ")
					&& err.contains(" = character varying");
			});
		check(t + ": WHERE id = ?::" + f.type + " with setString finds the row",
			() -> {
				String sql = "SELECT label FROM " + f.table + " WHERE id = ?::" + f.type;
				String text = idTextByLabel(plain, f, f.table + "-plain");
				return text != null && (f.table + "-plain").equals(text(plain, sql, text));
			});
		check(t + ": setObject of the value class needs no cast in WHERE, INSERT and DELETE",
			() -> {
				String fresh = minted(plain, f);
				try (PreparedStatement ins = plain.prepareStatement(
					"INSERT INTO " + f.table + " (id, label) VALUES (?, ?)"))
				{
					ins.setObject(1, f.wrap(fresh));
					ins.setString(2, label + "-object");
					ins.executeUpdate();
				}
				boolean found = List.of(label + "-object").equals(labelsById(plain, f, f.wrap(fresh)));
				try (PreparedStatement del = plain.prepareStatement("DELETE FROM " + f.table + " WHERE id = ?"))
				{
					del.setObject(1, f.wrap(fresh));
					return found && del.executeUpdate() == 1;
				}
			});
	}

	// stringtype=unspecified: setString works everywhere, with idgen 0.6.0 too.
	static void setStringUnspecified(Connection conn, Family f)
	{
		String t = f.table + " (" + f.type + ")";
		String label = f.table + "-unspecified";
		check(t + ", stringtype=unspecified: setString works in INSERT, WHERE, UPDATE SET id and DELETE",
			() -> {
				String first = minted(conn, f);
				String second = minted(conn, f);
				try (PreparedStatement ins = conn.prepareStatement(
						"INSERT INTO " + f.table + " (id, label) VALUES (?, ?)");
					 PreparedStatement sel = conn.prepareStatement(
						"SELECT label FROM " + f.table + " WHERE id = ?");
					 PreparedStatement upd = conn.prepareStatement(
						"UPDATE " + f.table + " SET id = ? WHERE id = ?");
					 PreparedStatement del = conn.prepareStatement(
						"DELETE FROM " + f.table + " WHERE id = ?"))
				{
					ins.setString(1, first);
					ins.setString(2, label);
					boolean inserted = ins.executeUpdate() == 1;
					sel.setString(1, first);
					String found;
					try (ResultSet rs = sel.executeQuery())
					{
						found = rs.next() ? rs.getString(1) : null;
					}
					upd.setString(1, second);
					upd.setString(2, first);
					boolean updated = upd.executeUpdate() == 1
						&& second.equals(idTextByLabel(conn, f, label));
					del.setString(1, second);
					boolean deleted = del.executeUpdate() == 1 && idTextByLabel(conn, f, label) == null;
					note(t + ": inserted " + inserted + ", found " + found + ", updated " + updated
						+ ", deleted " + deleted);
					return inserted && label.equals(found) && updated && deleted;
				}
			});
		if (f.type.equals(f.baseType))
			return;
		// a domain's CHECK still guards the column: another prefix's ID is refused
		String other = f.baseType.equals("typeid") ? "typeid_new('acct')" : "prefixed_id_new('user')";
		check(t + ", stringtype=unspecified: setString of another prefix's ID is refused by the domain's CHECK (23514)",
			() -> {
				String err = error(conn, "INSERT INTO " + f.table + " (id, label) VALUES (?, 'other')",
					text(conn, "SELECT (" + other + ")::text"));
				note(t + ": " + err);
				return err.startsWith("23514: ERROR: value for domain " + f.type + " violates check constraint");
			});
	}

	// One statement run past prepareThreshold: the same values before and after
	// the switch to a server-prepared statement; uuid and bigint then arrive in
	// binary, ulid/prefixed_id/typeid stay text (pgjdbc asks binary only for the
	// types it knows).
	static void binary(Connection conn, Family f)
	{
		String t = f.table + " (" + f.type + ")";
		int runs = 6;
		check(t + ": " + runs + " executions past prepareThreshold=3 read the same value, the same text",
			() -> {
				Object id;
				try (PreparedStatement ps = conn.prepareStatement(
					"INSERT INTO " + f.table + " (label) VALUES ('binary') RETURNING id");
					 ResultSet rs = ps.executeQuery())
				{
					rs.next();
					id = rs.getObject(1);
				}
				String server = idTextByLabel(conn, f, "binary");
				List<Integer> formats = new ArrayList<>();
				boolean same = true;
				try (PreparedStatement ps = conn.prepareStatement(
					"SELECT id, label FROM " + f.table + " WHERE id = ?"))
				{
					for (int i = 0; i < runs; i++)
					{
						ps.setObject(1, id);
						try (ResultSet rs = ps.executeQuery())
						{
							if (!rs.next())
								return false;
							formats.add(rs.getMetaData().unwrap(PGResultSetMetaData.class).getFormat(1));
							Object got = rs.getObject(1);
							same &= Objects.equals(got, id) && got.getClass() == f.natural
								&& server.equals(rs.getString(1)) && "binary".equals(rs.getString(2));
						}
					}
				}
				note(t + ": result formats per execution " + formats + " (0 text, 1 binary)");
				// uuid and int8 switch from text to binary; idgen's types stay text
				int last = f.textual() ? 0 : 1;
				return same && formats.get(0) == 0 && formats.get(runs - 1) == last;
			});
	}
}

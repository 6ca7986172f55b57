package org.idgen.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.idgen.Ksuid;
import org.idgen.ObjectId;
import org.idgen.PrefixedId;
import org.idgen.TypeId;
import org.idgen.Ulid;
import org.idgen.UuidV7;
import org.idgen.Snowflake;
import org.idgen.Xid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Spring Boot 4, Spring Data JPA and Hibernate 7 with the package's types: Flyway's migration
 * creates the extension and the domains as the database's owner, each DEFAULT's value comes back
 * on persist, and rows are found, updated and deleted by every type.
 */
class JpaTest
{
	static ConfigurableApplicationContext context;
	static Repositories.Accounts accounts;
	static Repositories.Users users;
	static Repositories.Orders orders;
	static Repositories.Events events;
	static Repositories.Messages messages;
	static Repositories.Notes notes;
	static JdbcTemplate jdbc;

	@BeforeAll
	static void start()
	{
		context = new SpringApplicationBuilder(Shop.class)
				.properties(Map.of("spring.datasource.url", Db.URL, "spring.datasource.username", Db.USER))
				.run();
		accounts = context.getBean(Repositories.Accounts.class);
		users = context.getBean(Repositories.Users.class);
		orders = context.getBean(Repositories.Orders.class);
		events = context.getBean(Repositories.Events.class);
		messages = context.getBean(Repositories.Messages.class);
		notes = context.getBean(Repositories.Notes.class);
		jdbc = context.getBean(JdbcTemplate.class);
	}

	@AfterAll
	static void stop()
	{
		if (context != null)
			context.close();
	}

	@Test
	void flywayCreatedTheExtensionAsTheNonSuperuserOwner()
	{
		assertEquals("f", jdbc.queryForObject("SELECT rolsuper::text::char FROM pg_roles WHERE rolname = current_user", String.class));
		assertEquals(Db.USER, jdbc.queryForObject(
				"SELECT extowner::regrole::text FROM pg_extension WHERE extname = 'idgen'", String.class));
		assertEquals("1", jdbc.queryForObject(
				"SELECT version FROM flyway_schema_history WHERE success AND script = 'V1__idgen.sql'", String.class));
		assertEquals("account_id prefixed_id, user_id typeid", jdbc.queryForObject(
				"SELECT string_agg(typname || ' ' || typbasetype::regtype, ', ' ORDER BY typname) FROM pg_type "
						+ "WHERE typtype = 'd' AND typname IN ('account_id', 'user_id')", String.class));
	}

	@Test
	void prefixedIdKeyFromTheDomainDefaultComesBackOnPersist()
	{
		Account account = accounts.save(new Account("Acme"));
		assertNotNull(account.getId());
		assertEquals("acct", account.getId().prefix());
		assertEquals(account.getId().getValue(),
				jdbc.queryForObject("SELECT id::text FROM accounts WHERE id = ?::account_id", String.class,
						account.getId().getValue()));
		assertEquals("Acme", accounts.findById(account.getId()).orElseThrow().getName());
	}

	@Test
	void typeIdKeyFromTheDomainDefaultComesBackOnPersist()
	{
		ShopUser user = users.save(new ShopUser("ada@example.com"));
		assertEquals("user", user.getId().prefix());
		assertEquals(user.getId().getValue(),
				jdbc.queryForObject("SELECT id::text FROM users WHERE id = ?::user_id", String.class,
						user.getId().getValue()));
		assertEquals("ada@example.com", users.findById(user.getId()).orElseThrow().getEmail());
	}

	@Test
	void uuidV7KeyAndUlidColumnFromDefaultsComeBackOnPersist()
	{
		Account account = accounts.save(new Account("Orders Inc"));
		ShopUser user = users.save(new ShopUser("bob@example.com"));
		Order order = orders.save(new Order(account.getId(), user.getId(), "first"));
		assertNotNull(order.getId(), "the uuid_v7() key");
		assertNotNull(order.getRef(), "the ulid() column, read back by @Generated");
		assertTrue(UuidV7.time(order.getId()).isPresent(), "a version 7 UUID");
		assertEquals(order.getRef().getValue(), jdbc.queryForObject(
				"SELECT ref::text FROM orders WHERE id = ?::uuid", String.class, order.getId().toString()));
		Order found = orders.findById(order.getId()).orElseThrow();
		assertEquals(order.getRef(), found.getRef());
		assertEquals(account.getId(), found.getAccountId());
		assertEquals(user.getId(), found.getUserId());
	}

	@Test
	void findByEveryIdgenType()
	{
		Account account = accounts.save(new Account("Finders"));
		ShopUser user = users.save(new ShopUser("cy@example.com"));
		Order order = orders.save(new Order(account.getId(), user.getId(), "find me"));
		assertEquals(order.getId(), orders.findByRef(order.getRef()).getId());
		assertEquals(order.getId(), orders.findByRef(Ulid.parse(order.getRef().getValue().toLowerCase())).getId());
		assertEquals(List.of(order.getId()), orders.findByAccountId(account.getId()).stream().map(Order::getId).toList());
		assertEquals(List.of(order.getId()), orders.findByUserId(user.getId()).stream().map(Order::getId).toList());
		assertNull(orders.findByRef(Ulid.fromUuid(new java.util.UUID(0, 1))));
	}

	@Test
	void updateAndDeleteByIdgenKeys()
	{
		Account account = accounts.save(new Account("Old name"));
		account.setName("New name");
		accounts.save(account);
		assertEquals("New name", jdbc.queryForObject(
				"SELECT name FROM accounts WHERE id = ?::account_id", String.class, account.getId().getValue()));
		Order order = orders.save(new Order(account.getId(), null, "to update"));
		assertNull(order.getUserId(), "DEFAULT NULL on a reference to a domain key");
		order.setNote("updated");
		orders.save(order);
		assertEquals("updated", orders.findByRef(order.getRef()).getNote());
		orders.delete(order);
		accounts.deleteById(account.getId());
		assertEquals(0, jdbc.queryForObject("SELECT count(*) FROM accounts WHERE id = ?::account_id", Integer.class,
				account.getId().getValue()));
	}

	@Test
	void snowflakeKeysComeBackOnPersist()
	{
		Event event = events.save(new Event("signup"));
		assertEquals(7, Snowflake.SNOWFLAKE.shard(event.getId()));
		assertEquals(String.valueOf(event.getId()),
				jdbc.queryForObject("SELECT kind || ' ' || id FROM events WHERE id = ?", String.class, event.getId()).replace("signup ", ""));
		Message message = messages.save(new Message("hello"));
		assertEquals(3, Snowflake.SNOWFLAKE53.shard(message.getId()));
		assertTrue(message.getId() < (1L << 53));
		assertEquals("hello", jdbc.queryForObject("SELECT body FROM messages WHERE id = ?", String.class, message.getId()));
		assertEquals("signup", events.findById(event.getId()).orElseThrow().getKind());
	}

	@Test
	void aReferenceLeftOutMintsNothing()
	{
		// without the migration's DEFAULT NULL, the domain's DEFAULT would mint an acct_ that no
		// account has, and the foreign key would fail instead of NOT NULL
		DataIntegrityViolationException e = assertThrows(DataIntegrityViolationException.class,
				() -> jdbc.update("INSERT INTO orders (note) VALUES ('no account')"));
		assertEquals("23502", ((java.sql.SQLException) e.getMostSpecificCause()).getSQLState(),
				e.getMostSpecificCause().getMessage());
	}

	@Test
	void aDomainRefusesAnotherPrefix()
	{
		PrefixedId wrong = PrefixedId.parse("team_" + "0".repeat(25));
		DataIntegrityViolationException e = assertThrows(DataIntegrityViolationException.class,
				() -> orders.saveAndFlush(new Order(wrong, null, "wrong prefix")));
		assertTrue(e.getMostSpecificCause().getMessage().contains("account_id"), e.getMostSpecificCause().getMessage());
	}

	@Test
	void hibernateReadsTheTypesWithoutDriverRegistration() throws Exception
	{
		// the user types read text: the pool's connections never called Idgen.register
		try (Connection conn = context.getBean(javax.sql.DataSource.class).getConnection())
		{
			Object raw = Db.text(conn, "SELECT pg_typeof(ulid())::text");
			assertEquals("ulid", raw);
		}
		Order order = orders.save(new Order(accounts.save(new Account("Readers")).getId(), null, "read"));
		assertTrue(Pattern.matches("[0-7][0-9A-HJKMNP-TV-Z]{25}", orders.findById(order.getId()).orElseThrow().getRef().getValue()));
	}

	/** The row of a note as the database holds it: id, ref, trace and mongo_id as text, and the body. */
	static List<String> stored(ObjectId id)
	{
		return jdbc.queryForObject("SELECT ARRAY[id::text, ref::text, trace::text, mongo_id::text, body] FROM notes WHERE id = ?::objectid",
				(rs, n) -> java.util.Arrays.asList((String[]) rs.getArray(1).getArray()), id.toString());
	}

	@Test
	void objectIdKeyAndKsuidColumnFromDefaultsComeBackOnPersist()
	{
		Xid trace = Xid.parse("9m4e2mr0ui3e8a215n4g");
		org.bson.types.ObjectId mongo = new org.bson.types.ObjectId();
		Note note = notes.save(new Note(trace, mongo, "first"));
		assertNotNull(note.getId(), "the objectid() key");
		assertNotNull(note.getRef(), "the ksuid() column, read back by @Generated");
		assertEquals(List.of(note.getId().toString(), note.getRef().toString(), "9m4e2mr0ui3e8a215n4g", mongo.toHexString(), "first"),
				stored(note.getId()));
		// the key's time is the server's objectid_time(), the ref's its ksuid_time()
		assertEquals(note.getId().time(), jdbc.queryForObject("SELECT objectid_time(?::objectid)", java.time.OffsetDateTime.class,
				note.getId().toString()).toInstant());
		assertEquals(note.getRef().time(), jdbc.queryForObject("SELECT ksuid_time(?::ksuid)", java.time.OffsetDateTime.class,
				note.getRef().toString()).toInstant());
		Note found = notes.findById(note.getId()).orElseThrow();
		assertEquals(List.of(note.getRef(), trace, mongo), List.of(found.getRef(), found.getTrace(), found.getMongoId()));
	}

	@Test
	void findByKsuidXidAndTheBsonObjectId()
	{
		Xid trace = Xid.fromBytes(java.util.HexFormat.of().parseHex("4d88e15b60f486e428412dc9"));
		org.bson.types.ObjectId mongo = new org.bson.types.ObjectId();
		Note note = notes.save(new Note(trace, mongo, "find me"));
		assertEquals(note.getId(), notes.findByRef(note.getRef()).getId());
		assertEquals(note.getId(), notes.findByMongoId(mongo).getId());
		assertEquals(note.getId(), notes.findByMongoId(new org.bson.types.ObjectId(mongo.toHexString())).getId());
		assertTrue(notes.findByTrace(trace).stream().map(Note::getId).toList().contains(note.getId()));
		assertNull(notes.findByRef(Ksuid.fromBytes(new byte[Ksuid.BYTES])));
		assertNull(notes.findByMongoId(new org.bson.types.ObjectId(new byte[12])));
		assertEquals(List.of(), notes.findByTrace(Xid.fromBytes(new byte[Xid.BYTES])));
	}

	@Test
	void updateAndDeleteByAnObjectIdKey()
	{
		Note note = notes.save(new Note(null, null, "draft"));
		org.bson.types.ObjectId mongo = new org.bson.types.ObjectId();
		note.setBody("final");
		note.setMongoId(mongo);
		notes.save(note);
		List<String> row = stored(note.getId());
		assertEquals(List.of(mongo.toHexString(), "final"), row.subList(3, 5));
		assertNull(row.get(2), "no trace: NULL");
		notes.deleteById(note.getId());
		assertEquals(0, jdbc.queryForObject("SELECT count(*) FROM notes WHERE id = ?::objectid", Integer.class, note.getId().toString()));
	}

	@Test
	void aDuplicateBsonObjectIdIsRefusedByTheUniqueIndex()
	{
		org.bson.types.ObjectId mongo = new org.bson.types.ObjectId();
		notes.saveAndFlush(new Note(null, mongo, "one"));
		DataIntegrityViolationException e = assertThrows(DataIntegrityViolationException.class,
				() -> notes.saveAndFlush(new Note(null, mongo, "two")));
		assertTrue(e.getMostSpecificCause().getMessage().contains("notes_mongo_id_key"), e.getMostSpecificCause().getMessage());
	}
}

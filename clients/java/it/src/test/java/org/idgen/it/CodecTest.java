package org.idgen.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import org.idgen.Ksuid;
import org.idgen.ObjectId;
import org.idgen.PrefixedId;
import org.idgen.Snowflake;
import org.idgen.TypeId;
import org.idgen.Ulid;
import org.idgen.UuidV7;
import org.idgen.Xid;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PGBinaryObject;
import org.postgresql.util.PGobject;

/**
 * The value classes and decoders alone, without a server, on the cases of the extension's vectors
 * file, test/data/id_vectors.json (docs/development.md of idgen): each answer is the C++ cores'.
 * IDGEN_VECTORS names the file (java_package.pl sets it: the tests run from a copy); without it,
 * ../../../test/data/id_vectors.json from this project's directory. Jackson 2, which reads it, comes
 * with Flyway (flyway-core depends on jackson-databind). (test/setup.sh runs this class alone to
 * fetch Surefire's JUnit provider.)
 */
class CodecTest
{
	static final JsonNode FAMILIES = load().get("families");

	static JsonNode load()
	{
		String env = System.getenv("IDGEN_VECTORS");
		Path path = env != null ? Path.of(env) : Path.of("..", "..", "..", "test", "data", "id_vectors.json");
		try
		{
			return new ObjectMapper().readTree(path.toFile());
		}
		catch (IOException e)
		{
			throw new UncheckedIOException("the vectors file " + path + " (set IDGEN_VECTORS)", e);
		}
	}

	/** A family's cases of one form, those with ok as given (a form without refusals: all). */
	static List<JsonNode> cases(String family, String form, boolean ok)
	{
		List<JsonNode> out = new ArrayList<>();
		for (JsonNode c : FAMILIES.get(family).get("cases").get(form))
			if (c.path("ok").asBoolean(true) == ok)
				out.add(c);
		return out;
	}

	static String s(JsonNode c, String key)
	{
		return c.get(key).asText();
	}

	static byte[] bytes(JsonNode c, String key)
	{
		return HexFormat.of().parseHex(s(c, key));
	}

	static UUID uuid(JsonNode c, String key)
	{
		String h = s(c, key);
		return new UUID(Long.parseUnsignedLong(h.substring(0, 16), 16), Long.parseUnsignedLong(h.substring(16), 16));
	}

	static Optional<Instant> time(JsonNode c)
	{
		return c.get("unix_ms").isNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(c.get("unix_ms").asLong()));
	}

	@Test
	void ulidVectors()
	{
		List<Ulid> all = new ArrayList<>();
		for (JsonNode c : cases("ulid", "text", true))
		{
			Ulid u = Ulid.parse(s(c, "text"));
			assertEquals(List.of(uuid(c, "bits"), s(c, "canonical"), time(c).get()), List.of(u.toUuid(), u.toString(), u.time()),
					c.toString());
			assertArrayEquals(bytes(c, "bits"), u.toByteArray(), c.toString());
			assertEquals(List.of(u, u), List.of(Ulid.fromUuid(uuid(c, "bits")), Ulid.fromBytes(bytes(c, "bits"))), c.toString());
			assertEquals(u.hashCode(), Ulid.fromBytes(bytes(c, "bits")).hashCode(), c.toString());
			all.add(u);
		}
		for (JsonNode c : cases("ulid", "bits", true))
		{
			Ulid u = Ulid.fromBytes(bytes(c, "bits"));
			assertEquals(List.of(s(c, "text"), uuid(c, "bits"), time(c).get(), Ulid.parse(s(c, "text"))),
					List.of(u.toString(), u.toUuid(), u.time(), u), c.toString());
			assertArrayEquals(bytes(c, "bits"), u.toByteArray(), c.toString());
			all.add(u);
		}
		assertThrows(IllegalArgumentException.class, () -> Ulid.fromBytes(new byte[15]));
		// ordered as the bytes and as the text
		List<Ulid> sorted = all.stream().distinct().sorted().toList();
		assertTrue(sorted.size() > 4);
		assertEquals(sorted, all.stream().distinct().sorted((a, b) -> Arrays.compareUnsigned(a.toByteArray(), b.toByteArray())).toList());
		assertEquals(sorted, all.stream().distinct().sorted((a, b) -> a.toString().compareTo(b.toString())).toList());
	}

	/** The parts of a prefixed_id or typeid: prefix, bits, text. */
	static List<Object> parts(Object v)
	{
		return v instanceof PrefixedId p ? List.of(p.prefix(), p.toUuid(), p.getValue())
				: List.of(((TypeId) v).prefix(), ((TypeId) v).toUuid(), ((TypeId) v).getValue());
	}

	@Test
	void prefixedIdAndTypeIdVectors()
	{
		Map<String, Function<String, Object>> parsers = Map.of("prefixed_id", PrefixedId::parse, "typeid", TypeId::parse);
		Map<String, BiFunction<String, UUID, Object>> makers = Map.of("prefixed_id", PrefixedId::of, "typeid", TypeId::of);
		for (String family : parsers.keySet())
		{
			for (JsonNode c : cases(family, "text", true))
			{
				Object p = parsers.get(family).apply(s(c, "text"));
				List<Object> want = List.of(s(c, "prefix"), uuid(c, "bits"), s(c, "canonical"));
				assertEquals(want, parts(p), c.toString());
				assertEquals(time(c), UuidV7.time(uuid(c, "bits")), c.toString());
				assertEquals(want, parts(makers.get(family).apply(s(c, "prefix"), uuid(c, "bits"))), c.toString());
			}
			// the prefix rule: a prefixed ID needs a prefix, a TypeID takes the empty one too
			for (JsonNode c : FAMILIES.get("prefix").get("cases").get("check"))
			{
				boolean ok = c.get("ok").asBoolean() || (family.equals("typeid") && s(c, "reason").equals("empty"));
				if (ok)
					assertEquals(s(c, "prefix"), parts(makers.get(family).apply(s(c, "prefix"), new UUID(0, 0))).get(0), c.toString());
				else
					assertThrows(IllegalArgumentException.class, () -> makers.get(family).apply(s(c, "prefix"), new UUID(0, 0)),
							family + ": " + c);
			}
		}
	}

	@Test
	void textErrorsAreRefused()
	{
		assertTrue(refused(false) > 0);
	}

	/** Refuses each refused text of the three families, look-alikes or not; how many. */
	static int refused(boolean lookAlikes)
	{
		Map<String, Function<String, Object>> parsers = Map.of("ulid", Ulid::parse, "prefixed_id", PrefixedId::parse,
				"typeid", TypeId::parse, "ksuid", Ksuid::parse, "objectid", ObjectId::parse, "xid", Xid::parse);
		int run = 0;
		for (Map.Entry<String, Function<String, Object>> e : parsers.entrySet())
		{
			for (JsonNode c : cases(e.getKey(), "text", false))
			{
				if (c.path("not_ascii").asBoolean(false) != lookAlikes)
					continue;
				run++;
				assertThrows(IllegalArgumentException.class, () -> e.getValue().apply(s(c, "text")), e.getKey() + ": " + c + " accepted");
			}
		}
		return run;
	}

	/** A KSUID, ObjectId or XID value: its text, bytes and time, and the fields of its family. */
	static List<Object> fields(Object v)
	{
		List<Object> out = new ArrayList<>();
		if (v instanceof Ksuid k)
			out.addAll(List.of(k.toString(), HexFormat.of().formatHex(k.toByteArray()), k.time(), HexFormat.of().formatHex(k.payload())));
		else if (v instanceof ObjectId o)
			out.addAll(List.of(o.toString(), HexFormat.of().formatHex(o.toByteArray()), o.time(), HexFormat.of().formatHex(o.process()),
					o.counter()));
		else
		{
			Xid x = (Xid) v;
			out.addAll(List.of(x.toString(), HexFormat.of().formatHex(x.toByteArray()), x.time(), HexFormat.of().formatHex(x.machine()),
					x.pid(), x.counter()));
		}
		return out;
	}

	/** What fields() gives for a case of the vectors file (its answer: canonical, bits, unix_s and the family's fields). */
	static List<Object> wanted(String family, JsonNode c, String text)
	{
		List<Object> out = new ArrayList<>(List.of(text, s(c, "bits"), Instant.ofEpochSecond(c.get("unix_s").asLong())));
		switch (family)
		{
			case "ksuid" -> out.add(s(c, "payload"));
			case "objectid" -> out.addAll(List.of(s(c, "process"), c.get("counter").asInt()));
			default -> out.addAll(List.of(s(c, "machine"), c.get("pid").asInt(), c.get("counter").asInt()));
		}
		return out;
	}

	static final Map<String, Function<String, Object>> BYTE_ID_PARSERS = Map.of("ksuid", Ksuid::parse, "objectid", ObjectId::parse,
			"xid", Xid::parse);
	static final Map<String, Function<byte[], Object>> BYTE_ID_MAKERS = Map.of("ksuid", Ksuid::fromBytes, "objectid",
			ObjectId::fromBytes, "xid", Xid::fromBytes);

	@Test
	void ksuidObjectIdAndXidVectors()
	{
		for (String family : BYTE_ID_PARSERS.keySet())
		{
			JsonNode f = FAMILIES.get(family);
			List<Object> all = new ArrayList<>();
			for (JsonNode c : cases(family, "text", true))
			{
				Object v = BYTE_ID_PARSERS.get(family).apply(s(c, "text"));
				assertEquals(wanted(family, c, s(c, "canonical")), fields(v), family + ": " + c);
				assertEquals(v, BYTE_ID_MAKERS.get(family).apply(bytes(c, "bits")), family + ": " + c);
				assertEquals(v.hashCode(), BYTE_ID_MAKERS.get(family).apply(bytes(c, "bits")).hashCode(), family + ": " + c);
				all.add(v);
			}
			for (JsonNode c : cases(family, "bits", true))
			{
				Object v = BYTE_ID_MAKERS.get(family).apply(bytes(c, "bits"));
				assertEquals(wanted(family, c, s(c, "canonical")), fields(v), family + ": " + c);
				assertEquals(v, BYTE_ID_PARSERS.get(family).apply(s(c, "canonical")), family + ": " + c);
				all.add(v);
			}
			// the layout and alphabet the classes hold are the file's
			int size = f.get("bits").asInt() / 8;
			assertThrows(IllegalArgumentException.class, () -> BYTE_ID_MAKERS.get(family).apply(new byte[size - 1]), family);
			assertThrows(IllegalArgumentException.class, () -> BYTE_ID_MAKERS.get(family).apply(new byte[size + 1]), family);
			Object largest = BYTE_ID_MAKERS.get(family).apply(filled(size));
			assertEquals(f.get("digits").asInt(), largest.toString().length(), family);
			if (f.has("max_text"))
				assertEquals(s(f, "max_text"), largest.toString(), family);
			assertEquals(Instant.ofEpochSecond(f.get("epoch_unix_s").asLong()), fields(BYTE_ID_MAKERS.get(family).apply(new byte[size])).get(2),
					family + ": the epoch");
			// ordered as the bytes and as the text (C collation: Java's String order on ASCII)
			List<Object> distinct = all.stream().distinct().toList();
			assertTrue(distinct.size() >= 3, family);
			List<Object> byBytes = distinct.stream()
					.sorted((a, b) -> Arrays.compareUnsigned(bytes(a), bytes(b))).toList();
			assertEquals(byBytes, distinct.stream().sorted().toList(), family);
			assertEquals(byBytes, distinct.stream().sorted((a, b) -> a.toString().compareTo(b.toString())).toList(), family);
		}
	}

	static byte[] filled(int size)
	{
		byte[] b = new byte[size];
		Arrays.fill(b, (byte) 0xFF);
		return b;
	}

	static byte[] bytes(Object v)
	{
		return v instanceof Ksuid k ? k.toByteArray() : v instanceof ObjectId o ? o.toByteArray() : ((Xid) v).toByteArray();
	}

	/** The decoders as clients/java/README.md shows them, on the file's first KSUID and XID. */
	@Test
	void decodersAsTheReadmeShowsThem()
	{
		byte[] bytes = bytes(cases("objectid", "text", true).get(0), "bits");
		// README java begins
		Ksuid k = Ksuid.parse("0ujtsYcgvSTl8PAuAdqWYSMnLOv");
		Instant at = k.time();                           // ksuid_time(): 2017-10-10T04:00:47Z
		byte[] payload = k.payload();                    // ksuid_payload(): the last 16 bytes
		Xid x = Xid.parse("9m4e2mr0ui3e8a215n4g");
		byte[] machine = x.machine();                    // xid_machine(): 3 bytes
		int pid = x.pid(), counter = x.counter();        // xid_pid(), xid_counter()
		ObjectId o = ObjectId.fromBytes(bytes);          // 12 bytes, as objectid::bytea gives them
		ObjectId same = ObjectId.parse(o.toString().toUpperCase());  // hex in either case
		// README java ends
		assertEquals(Instant.parse("2017-10-10T04:00:47Z"), at);
		assertEquals("b5a1cd34b5f99d1154fb6853345c9735", HexFormat.of().formatHex(payload));
		assertEquals(List.of("60f486", 58408, 4271561), List.of(HexFormat.of().formatHex(machine), pid, counter));
		assertEquals(o, same);
		assertEquals("56e1fc72e0c917e9c4714161", same.toString());
	}

	/** The BSON library's ObjectId and the package's: the same 12 bytes and text both ways. */
	@Test
	void bsonObjectIdConvertsBothWays()
	{
		for (JsonNode c : cases("objectid", "text", true))
		{
			ObjectId id = ObjectId.parse(s(c, "text"));
			org.bson.types.ObjectId bson = id.toBson();
			assertEquals(s(c, "canonical"), bson.toHexString(), c.toString());
			assertArrayEquals(bytes(c, "bits"), bson.toByteArray(), c.toString());
			assertEquals(c.get("unix_s").asLong(), Integer.toUnsignedLong(bson.getTimestamp()), c.toString());
			assertEquals(id, ObjectId.of(bson), c.toString());
			assertEquals(id, ObjectId.of(new org.bson.types.ObjectId(s(c, "canonical"))), c.toString());
		}
		org.bson.types.ObjectId fresh = new org.bson.types.ObjectId();
		assertEquals(fresh.toHexString(), ObjectId.of(fresh).toString());
		assertEquals(fresh, ObjectId.of(fresh).toBson());
	}

	@Test
	void binaryFormsRoundTrip() throws SQLException
	{
		Ulid u = Ulid.parse(s(cases("ulid", "text", true).get(0), "text"));
		byte[] ub = new byte[u.lengthInBytes()];
		u.toBytes(ub, 0);
		Ulid u2 = new Ulid();
		u2.setByteValue(ub, 0);
		assertEquals(u, u2);
		SQLException e = assertThrows(SQLException.class, () -> new Ulid().setByteValue(new byte[15], 0));
		assertEquals("22P03", e.getSQLState());
		Map<String, Supplier<PGBinaryObject>> raw = Map.of("ksuid", Ksuid::new, "objectid", ObjectId::new, "xid", Xid::new);
		for (String family : raw.keySet())
		{
			// the binary form is the raw bytes, as the file's bits
			for (JsonNode c : cases(family, "bits", true))
			{
				PGBinaryObject p = raw.get(family).get();
				p.setByteValue(bytes(c, "bits"), 0);
				byte[] back = new byte[p.lengthInBytes()];
				p.toBytes(back, 0);
				assertArrayEquals(bytes(c, "bits"), back, family + ": " + c);
				assertEquals(s(c, "canonical"), ((PGobject) p).getValue(), family + ": " + c);
				// a value once set is not changed, not by other bytes either
				byte[] other = bytes(c, "bits");
				other[other.length - 1] ^= 1;
				assertEquals("55000", assertThrows(SQLException.class, () -> p.setByteValue(other, 0)).getSQLState(), family);
				p.setByteValue(bytes(c, "bits"), 0);
			}
			int size = FAMILIES.get(family).get("bits").asInt() / 8;
			for (int wrong : new int[] {0, size - 1, size + 1})
			{
				PGBinaryObject p = raw.get(family).get();
				e = assertThrows(SQLException.class, () -> p.setByteValue(new byte[wrong], 0), family + ": " + wrong + " bytes");
				assertEquals("22P03", e.getSQLState());
			}
			for (JsonNode c : cases(family, "text", false))
			{
				PGobject p = (PGobject) raw.get(family).get();
				e = assertThrows(SQLException.class, () -> p.setValue(s(c, "text")), family + ": " + c);
				assertEquals("22P02", e.getSQLState());
			}
		}
		Map<String, Supplier<PGBinaryObject>> types = Map.of("prefixed_id", PrefixedId::new, "typeid", TypeId::new);
		for (String family : types.keySet())
		{
			for (JsonNode c : FAMILIES.get(family).get("cases").get("binary"))
			{
				PGBinaryObject p = types.get(family).get();
				byte[] field = bytes(c, "binary");
				if (!c.get("ok").asBoolean())
				{
					e = assertThrows(SQLException.class, () -> p.setByteValue(field, 0), family + ": " + c);
					assertEquals("22P03", e.getSQLState());
					continue;
				}
				p.setByteValue(field, 0);
				byte[] back = new byte[p.lengthInBytes()];
				p.toBytes(back, 0);
				assertEquals(s(c, "canonical"), ((PGobject) p).getValue(), c.toString());
				assertArrayEquals(field, back, c.toString());
			}
		}
	}

	@Test
	void snowflakeAndUuidV7Vectors()
	{
		for (JsonNode c : cases("uuid_v7", "bits", true))
			assertEquals(time(c), UuidV7.time(uuid(c, "bits")), c.toString());
		for (Snowflake split : List.of(Snowflake.SNOWFLAKE, Snowflake.SNOWFLAKE53))
		{
			JsonNode f = FAMILIES.get(split.toString());
			List<Integer> widths = new ArrayList<>();
			f.get("fields").forEach(x -> widths.add(x.get("bits").asInt()));
			assertEquals(widths, Arrays.stream(split.fieldBits()).boxed().toList(), split + ": the layout is the file's");
			assertEquals(Instant.ofEpochMilli(f.get("epoch_unix_ms").asLong()), Snowflake.DEFAULT_SNOWFLAKE_EPOCH);
			for (JsonNode c : cases(split.toString(), "id", true))
			{
				long id = Long.parseLong(s(c, "id"));
				// without an epoch, the default; with one, counted from it
				long ms = c.get("ms").asLong();
				assertEquals(List.of(Snowflake.DEFAULT_SNOWFLAKE_EPOCH.plusMillis(ms), Instant.ofEpochMilli(ms), c.get("shard").asInt(),
						c.get("seq").asInt()), List.of(split.time(id), split.time(id, Instant.EPOCH), split.shard(id), split.seq(id)),
						split + ": " + c);
			}
			for (JsonNode c : cases(split.toString(), "id", false))
			{
				long id = Long.parseLong(s(c, "id"));
				assertFalse(split.isValid(id), split + ": " + c);
				assertThrows(IllegalArgumentException.class, () -> split.shard(id), split + ": " + c);
				assertThrows(IllegalArgumentException.class, () -> split.time(id), split + ": " + c);
			}
		}
	}

	/**
	 * Text the server refuses because a character is not ASCII: a look-alike that Unicode case
	 * mapping or digit tables ({@code Character.toLowerCase}, {@code Character.digit}) turn into a
	 * digit or letter of the alphabet (issue 51); the server reads bytes, and only ASCII digits and
	 * letters are digits. The package parses no uuid or snowflake text (it takes java.util.UUID and
	 * long): the file's server_text cases are not run here.
	 */
	@Test
	void notAsciiLookAlikesAreRefused()
	{
		assertTrue(refused(true) > 0);
	}
}

package org.idgen.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.idgen.SnowflakeLayout;
import org.idgen.SnowflakeLayout.Field;
import org.idgen.SnowflakeLayout.LayoutException;
import org.junit.jupiter.api.Test;

/**
 * SnowflakeLayout: the predefined layouts and every snowflake_layout case of the extension's vectors
 * file (definitions, IDs, compositions, boundaries, as the C++ cores answer them), then IDs the server
 * composes with snowflake_layout_compose() over random times and fields in each layout of the file,
 * decoded as snowflake_layout_decompose() decodes them and composed as the server composes them.
 */
class SnowflakeLayoutTest
{
	static final JsonNode FAMILY = CodecTest.FAMILIES.get("snowflake_layout");
	static final JsonNode LAYOUTS = FAMILY.get("layouts");

	static Iterable<JsonNode> cases(String form)
	{
		return FAMILY.get("cases").get(form);
	}

	/** The file's "name:number,..." as pairs, in order. */
	static Map<String, Long> pairs(String text)
	{
		Map<String, Long> out = new LinkedHashMap<>();
		for (String p : text.split(","))
			if (!p.isEmpty())
				out.put(p.substring(0, p.lastIndexOf(':')), Long.parseLong(p.substring(p.lastIndexOf(':') + 1)));
		return out;
	}

	/** The file's "name:bits,..." as fields, in order (a name twice stays twice, for the refusal). */
	static List<Field> fields(String text)
	{
		List<Field> out = new ArrayList<>();
		for (String p : text.split(","))
			if (!p.isEmpty())
				out.add(new Field(p.substring(0, p.lastIndexOf(':')), Integer.parseInt(p.substring(p.lastIndexOf(':') + 1))));
		return out;
	}

	static String text(List<Field> fields)
	{
		List<String> parts = new ArrayList<>();
		fields.forEach(f -> parts.add(f.name() + ":" + f.bits()));
		return String.join(",", parts);
	}

	/** A layout of the file as the package makes it. */
	static SnowflakeLayout layoutOf(String name)
	{
		JsonNode l = LAYOUTS.get(name);
		if (l.get("predefined").asBoolean())
			return SnowflakeLayout.predefined(name, Instant.ofEpochMilli(l.get("epoch_unix_ms").asLong()));
		List<Field> fields = new ArrayList<>();
		l.get("fields").forEach(f -> fields.add(new Field(f.get("name").asText(), f.get("bits").asInt())));
		return SnowflakeLayout.of(l.get("epoch_unix_ms").asLong(), l.get("time_unit_ms").asLong(), fields);
	}

	static void refused(JsonNode c, Supplier<Object> call)
	{
		LayoutException e = assertThrows(LayoutException.class, call::get, c.toString());
		assertEquals(c.get("reason").asText(), e.reason(), c.toString());
	}

	@Test
	void predefinedLayoutsAreTheFiles()
	{
		List<String> file = new ArrayList<>();
		LAYOUTS.fields().forEachRemaining(e -> {
			if (e.getValue().get("predefined").asBoolean())
				file.add(e.getKey());
		});
		assertEquals(file, new ArrayList<>(SnowflakeLayout.PREDEFINED.keySet()));
		for (JsonNode c : cases("predefined"))
		{
			Supplier<Object> make = () -> SnowflakeLayout.predefined(c.get("name").asText(), Instant.ofEpochMilli(c.get("instagram_epoch_ms").asLong()));
			if (!c.get("ok").asBoolean())
			{
				refused(c, make);
				continue;
			}
			SnowflakeLayout l = (SnowflakeLayout) make.get();
			assertEquals(List.of(c.get("epoch_unix_ms").asLong(), c.get("time_unit_ms").asLong(), c.get("fields").asText(), c.get("total_bits").asLong(), c.get("end_unix_ms").asLong()),
				List.of(l.epochUnixMs(), l.timeUnitMs(), text(l.fields()), (long) l.totalBits(), l.endUnixMs()), c.toString());
		}
	}

	@Test
	void definitions()
	{
		for (JsonNode c : cases("define"))
		{
			Supplier<Object> make = () -> SnowflakeLayout.of(c.get("epoch_unix_ms").asLong(), c.get("time_unit_ms").asLong(), fields(c.get("fields").asText()));
			if (!c.get("ok").asBoolean())
			{
				refused(c, make);
				continue;
			}
			SnowflakeLayout l = (SnowflakeLayout) make.get();
			assertEquals(List.of(c.get("total_bits").asLong(), c.get("end_unix_ms").asLong()), List.of((long) l.totalBits(), l.endUnixMs()), c.toString());
		}
	}

	@Test
	void idsCompositionsAndBoundaries()
	{
		for (JsonNode c : cases("id"))
		{
			SnowflakeLayout l = layoutOf(c.get("layout").asText());
			long id = Long.parseLong(c.get("id").asText());
			if (!c.get("ok").asBoolean())
			{
				refused(c, () -> l.decompose(id));
				continue;
			}
			Map<String, Long> want = new LinkedHashMap<>();
			l.fields().forEach(f -> want.put(f.name(), c.get(f.name()).asLong()));
			assertEquals(want, l.decompose(id), c.toString());
			assertEquals(c.get("unix_ms").asLong(), l.time(id).toEpochMilli(), c.toString());
		}
		for (JsonNode c : cases("compose"))
		{
			SnowflakeLayout l = layoutOf(c.get("layout").asText());
			Supplier<Object> compose = () -> l.compose(c.get("unix_ms").asLong(), pairs(c.get("fields").asText()));
			if (c.get("ok").asBoolean())
				assertEquals(Long.parseLong(c.get("id").asText()), compose.get(), c.toString());
			else
				refused(c, compose);
		}
		for (JsonNode c : cases("boundary"))
		{
			SnowflakeLayout l = layoutOf(c.get("layout").asText());
			long ms = c.get("unix_ms").asLong();
			if (!c.get("ok").asBoolean())
			{
				refused(c, () -> l.boundary(ms));
				refused(c, () -> l.boundaryLargest(ms));
				continue;
			}
			assertEquals(List.of(Long.parseLong(c.get("smallest").asText()), Long.parseLong(c.get("largest").asText())),
				List.of(l.boundary(ms), l.boundaryLargest(ms)), c.toString());
		}
	}

	@Test
	void readmeExample()
	{
		// README java begins
		Map<String, Long> parts = SnowflakeLayout.predefined("discord").decompose(175928847299117063L);
		// {time=41944705796, worker=1, process=0, sequence=7}
		SnowflakeLayout shop = SnowflakeLayout.of(1_577_836_800_000L, 1, List.of(new Field("time", 42),
			new Field("region", 4), new Field("worker", 6), new Field("sequence", 11)));
		long id = shop.compose(Instant.parse("2026-12-04T05:00:00.500Z"), Map.of("region", 15L, "worker", 63L, "sequence", 2047L));
		long from = shop.boundary(Instant.parse("2026-12-04T00:00:00Z").toEpochMilli()); // WHERE id >= from
		// README java ends
		assertEquals(List.of(41944705796L, 1L, 0L, 7L), List.copyOf(parts.values()));
		assertEquals(1462015105796L, SnowflakeLayout.predefined("discord").unixMs(175928847299117063L));
		assertEquals(List.of(458277205837873151L, 458239456051200000L), List.of(id, from), "docs/reference.md's figures");
	}

	@Test
	void serverComposedIdsInEveryLayout() throws SQLException
	{
		int n = DecoderTest.N / 10;
		ObjectMapper json = new ObjectMapper();
		try (Connection conn = Db.connect(); Statement st = conn.createStatement())
		{
			st.execute("CREATE EXTENSION IF NOT EXISTS idgen");
			for (Iterator<String> names = LAYOUTS.fieldNames(); names.hasNext();)
			{
				String name = names.next();
				SnowflakeLayout l = layoutOf(name);
				if (!LAYOUTS.get(name).get("predefined").asBoolean())
				{
					// a layout of the file's own, as a restore inserts it (one has run out)
					List<String> fieldNames = new ArrayList<>();
					List<String> bits = new ArrayList<>();
					l.fields().forEach(f -> {
						fieldNames.add("'" + f.name() + "'");
						bits.add(Integer.toString(f.bits()));
					});
					st.execute("DELETE FROM snowflake_layouts WHERE name = '" + name + "'");
					st.execute("INSERT INTO snowflake_layouts (name, epoch, time_unit_ms, field_names, field_bits) VALUES ('" + name
						+ "', timestamptz 'epoch' + " + l.epochUnixMs() + " * interval '1 ms', " + l.timeUnitMs() + ", ARRAY["
						+ String.join(", ", fieldNames) + "]::text[], ARRAY[" + String.join(", ", bits) + "])");
				}
				long span = Math.min(l.endUnixMs(), 7_258_118_400_000L) - l.epochUnixMs();
				List<String> given = new ArrayList<>();
				l.fields().stream().filter(f -> !f.name().equals("time"))
					.forEach(f -> given.add("'" + f.name() + "', floor(random() * " + (1L << f.bits()) + ")::int8"));
				String sql = "WITH given AS (SELECT (" + l.epochUnixMs() + " + floor(random() * " + span + "))::int8 AS ms, jsonb_build_object("
					+ String.join(", ", given) + ") AS f FROM generate_series(1, " + n + ")), c AS (SELECT ms, f, snowflake_layout_compose('"
					+ name + "', timestamptz 'epoch' + ms * interval '1 ms', f) AS id FROM given) "
					+ "SELECT ms, f::text, id, snowflake_layout_decompose(id, '" + name + "')::text FROM c";
				int rows = 0;
				List<String> bad = new ArrayList<>();
				try (ResultSet rs = st.executeQuery(sql))
				{
					while (rs.next())
					{
						rows++;
						long ms = rs.getLong(1);
						long id = rs.getLong(3);
						JsonNode server = json.readTree(rs.getString(4));
						Map<String, Long> fieldsGiven = new LinkedHashMap<>();
						json.readTree(rs.getString(2)).fields().forEachRemaining(e -> fieldsGiven.put(e.getKey(), e.getValue().asLong()));
						Map<String, Long> mine = l.decompose(id);
						boolean same = l.compose(ms, fieldsGiven) == id && server.get("unix_ms").asLong() == l.unixMs(id)
							&& Instant.parse(server.get("timestamp").asText()).equals(l.time(id))
							&& server.size() == mine.size() + 2;
						for (Map.Entry<String, Long> e : mine.entrySet())
							same = same && server.get(e.getKey()).asLong() == e.getValue();
						if (!same && bad.size() < 3)
							bad.add(id + ": " + mine + " " + server);
					}
				}
				catch (com.fasterxml.jackson.core.JsonProcessingException e)
				{
					throw new AssertionError(e);
				}
				assertEquals(n, rows, name);
				assertEquals(List.of(), bad, name);
			}
		}
	}
}

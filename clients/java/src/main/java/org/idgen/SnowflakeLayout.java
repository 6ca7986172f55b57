package org.idgen;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Other systems' 64-bit snowflakes in a layout (Twitter's, Discord's, Sonyflake's, pgEdge's or one's
 * own), decoded, composed and bounded as the server's {@code snowflake_layout_*} functions do. A
 * layout is an epoch, the length of one unit of the time field (ms) and the fields from the most
 * significant bit, one named {@code time} and one {@code sequence}, checked as
 * {@code snowflake_layout_define()} checks them. Minting in these layouts is the systems' own
 * libraries'.
 */
public final class SnowflakeLayout
{
	/** A field of a layout: its name and width in bits. */
	public record Field(String name, int bits)
	{
	}

	/**
	 * A refused layout, ID, time or field value: {@link #reason()} is the extension's core's (its
	 * vectors file's: "too_wide", "negative", "above_layout", "field_range", "before_epoch", ...).
	 */
	public static final class LayoutException extends IllegalArgumentException
	{
		private static final long serialVersionUID = 1L;
		private final String reason;
		private final String field;

		LayoutException(String reason, String field, String message)
		{
			super(message);
			this.reason = reason;
			this.field = field;
		}

		/** Why, in the core's words. */
		public String reason()
		{
			return reason;
		}

		/** The field concerned, or null. */
		public String field()
		{
			return field;
		}
	}

	/**
	 * The predefined layouts of the extension (its snowflake_layout.hpp), by name: epoch in Unix ms
	 * (instagram's is {@code idgen.snowflake_epoch}, its default here), unit in ms, fields from the
	 * most significant bit. The package's tests hold them to the extension's vectors file.
	 */
	public static final Map<String, SnowflakeLayout> PREDEFINED;

	private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
	private static final long END_OF_TIME_MS = 253_402_300_800_000L; // 10000-01-01

	static
	{
		Map<String, SnowflakeLayout> m = new LinkedHashMap<>();
		m.put("instagram", predefined(Snowflake.DEFAULT_SNOWFLAKE_EPOCH.toEpochMilli(), 1,
			new Field("time", 40), new Field("shard", 13), new Field("sequence", 10)));
		m.put("twitter", predefined(1_288_834_974_657L, 1,
			new Field("time", 41), new Field("datacenter", 5), new Field("worker", 5), new Field("sequence", 12)));
		m.put("discord", predefined(1_420_070_400_000L, 1,
			new Field("time", 42), new Field("worker", 5), new Field("process", 5), new Field("sequence", 12)));
		m.put("sonyflake", predefined(1_409_529_600_000L, 10,
			new Field("time", 39), new Field("sequence", 8), new Field("machine", 16)));
		m.put("pgedge", predefined(1_672_531_200_000L, 1,
			new Field("time", 41), new Field("node", 10), new Field("sequence", 12)));
		PREDEFINED = Collections.unmodifiableMap(m);
	}

	private final long epochMs;
	private final long unitMs;
	private final List<Field> fields;
	private final int totalBits;
	private final long endMs;

	private static SnowflakeLayout predefined(long epochMs, long unitMs, Field... fields)
	{
		return new SnowflakeLayout(epochMs, unitMs, List.of(fields), true);
	}

	/** A predefined layout by name (instagram from {@link Snowflake#DEFAULT_SNOWFLAKE_EPOCH}). */
	public static SnowflakeLayout predefined(String name)
	{
		SnowflakeLayout l = PREDEFINED.get(name);
		if (l == null)
			throw new LayoutException("unknown_layout", null, "no predefined snowflake layout \"" + name + "\"");
		return l;
	}

	/** A predefined layout by name, instagram's epoch the server's {@code idgen.snowflake_epoch}. */
	public static SnowflakeLayout predefined(String name, Instant instagramEpoch)
	{
		SnowflakeLayout l = predefined(name);
		return name.equals("instagram") ? new SnowflakeLayout(instagramEpoch.toEpochMilli(), l.unitMs, l.fields, true) : l;
	}

	/** A layout of one's own: epoch and unit in ms, the fields from the most significant bit. */
	public static SnowflakeLayout of(long epochUnixMs, long timeUnitMs, List<Field> fields)
	{
		return new SnowflakeLayout(epochUnixMs, timeUnitMs, fields, false);
	}

	private static LayoutException refuse(String reason, String field, String message)
	{
		return new LayoutException(reason, field, message);
	}

	// the core's layout_validate, in its order; allow64 admits discord's 64 bits
	private SnowflakeLayout(long epochMs, long unitMs, List<Field> fields, boolean allow64)
	{
		if (fields.size() > 8)
			throw refuse("too_many_fields", null, "a layout has at most 8 fields: time, sequence and 6 node fields");
		for (Field f : fields)
		{
			if (f.name().length() > 63)
				throw refuse("bad_name", f.name(), "field name \"" + f.name() + "\" is longer than 63 characters");
			if (f.bits() < 1 || f.bits() > 63)
				throw refuse("bad_width", f.name(), "field \"" + f.name() + "\" is " + f.bits() + " bits wide: 1 to 63");
		}
		List<String> seen = new ArrayList<>();
		int total = 0;
		int timeIndex = -1;
		for (Field f : fields)
		{
			String n = f.name();
			if (!NAME.matcher(n).matches())
				throw refuse("bad_name", n, "field name \"" + n + "\" is not lowercase letters, digits and underscores");
			if (n.equals("unix_ms") || n.equals("timestamp"))
				throw refuse("reserved_name", n, "a node field cannot be named \"" + n + "\"");
			if (seen.contains(n))
				throw refuse("duplicate_name", n, "two fields are named \"" + n + "\"");
			if (n.equals("time"))
				timeIndex = seen.size();
			seen.add(n);
			total += f.bits();
		}
		if (timeIndex < 0)
			throw refuse("no_time", null, "a layout has one field named \"time\"");
		if (!seen.contains("sequence"))
			throw refuse("no_sequence", null, "a layout has one field named \"sequence\"");
		if (total > 64 || (total == 64 && !(allow64 && timeIndex == 0)))
			throw refuse("too_wide", null, "the fields take " + total + " bits: 63 at most");
		if (unitMs < 1 || unitMs > 86_400_000)
			throw refuse("bad_unit", null, "a time unit of " + unitMs + " ms: 1 ms to a day");
		if (epochMs < 0 || epochMs >= END_OF_TIME_MS)
			throw refuse("bad_epoch", null, "an epoch of " + epochMs + " ms: from 1970 to 9999");
		int bits = fields.get(timeIndex).bits() - (total == 64 ? 1 : 0); // a 64-bit layout's sign bit
		if (bits > 48 || (1L << bits) > (END_OF_TIME_MS - epochMs) / unitMs)
			throw refuse("outlasts_year_9999", "time", "the time field would hold times from the year 10000 on");
		this.epochMs = epochMs;
		this.unitMs = unitMs;
		this.fields = List.copyOf(fields);
		this.totalBits = total;
		this.endMs = epochMs + unitMs * (1L << bits);
	}

	/** The epoch in Unix ms. */
	public long epochUnixMs()
	{
		return epochMs;
	}

	/** The length of one unit of the time field, in ms. */
	public long timeUnitMs()
	{
		return unitMs;
	}

	/** The fields from the most significant bit. */
	public List<Field> fields()
	{
		return fields;
	}

	/** The bits the fields take (63 or fewer; discord's 64). */
	public int totalBits()
	{
		return totalBits;
	}

	/** The first Unix ms the time field cannot hold, as {@code snowflake_layout_end()}. */
	public long endUnixMs()
	{
		return endMs;
	}

	private int shift(int i)
	{
		int s = 0;
		for (Field f : fields.subList(i + 1, fields.size()))
			s += f.bits();
		return s;
	}

	private long max(int i)
	{
		Field f = fields.get(i);
		int bits = f.name().equals("time") && totalBits == 64 ? f.bits() - 1 : f.bits();
		return (1L << bits) - 1;
	}

	private int index(String name)
	{
		for (int i = 0; i < fields.size(); i++)
			if (fields.get(i).name().equals(name))
				return i;
		return -1;
	}

	/**
	 * An ID's fields by name, in the layout's order ({@code time} as the count of units), as
	 * {@code snowflake_layout_decompose(id, layout)}; a negative ID ("negative") or one with bits above
	 * the layout ("above_layout") is refused.
	 */
	public Map<String, Long> decompose(long id)
	{
		if (id < 0)
			throw refuse("negative", null, "snowflake id " + id + " is negative");
		if (totalBits < 63 && (id >>> totalBits) != 0)
			throw refuse("above_layout", null, "snowflake id " + id + " is out of range for a layout of " + totalBits + " bits");
		Map<String, Long> out = new LinkedHashMap<>();
		for (int i = 0; i < fields.size(); i++)
			out.put(fields.get(i).name(), (id >>> shift(i)) & ((1L << fields.get(i).bits()) - 1));
		return Collections.unmodifiableMap(out);
	}

	/** The Unix ms of the start of the time unit an ID was made in. */
	public long unixMs(long id)
	{
		return epochMs + decompose(id).get("time") * unitMs;
	}

	/** The start of the time unit an ID was made in, as {@code snowflake_layout_time()}. */
	public Instant time(long id)
	{
		return Instant.ofEpochMilli(unixMs(id));
	}

	private long timeValue(long unixMs)
	{
		if (unixMs < epochMs)
			throw refuse("before_epoch", "time", unixMs + " ms is before the layout's epoch");
		if (unixMs >= endMs)
			throw refuse("after_end", "time", unixMs + " ms is at or after the layout's end");
		return (unixMs - epochMs) / unitMs;
	}

	/**
	 * The ID of the time unit holding {@code unixMs} with the node fields and sequence given (missing
	 * ones 0), as {@code snowflake_layout_compose()}: for backfills and tests.
	 */
	public long compose(long unixMs, Map<String, Long> given)
	{
		long[] values = new long[fields.size()];
		values[index("time")] = timeValue(unixMs);
		for (Map.Entry<String, Long> e : given.entrySet())
		{
			int i = index(e.getKey());
			if (i < 0)
				throw refuse("unknown_field", e.getKey(), "the layout has no field \"" + e.getKey() + "\" to set");
			if (e.getKey().equals("time"))
				throw refuse("time_field", "time", "the time field is set by the time argument");
			if (e.getValue() < 0 || e.getValue() > max(i))
				throw refuse("field_range", e.getKey(), "field \"" + e.getKey() + "\" is out of range: " + e.getValue() + " (0 to " + max(i) + ")");
			values[i] = e.getValue();
		}
		long id = 0;
		for (int i = 0; i < fields.size(); i++)
			id |= values[i] << shift(i);
		return id;
	}

	/** The ID of a time given as an Instant, as {@link #compose(long, Map)}. */
	public long compose(Instant time, Map<String, Long> given)
	{
		return compose(Math.floorDiv(time.getEpochSecond() * 1_000_000_000L + time.getNano(), 1_000_000L), given);
	}

	/**
	 * The smallest ID of the time unit holding {@code unixMs}, as {@code snowflake_layout_boundary()},
	 * for range predicates ({@code id >= boundary(t1) AND id < boundary(t2)}).
	 */
	public long boundary(long unixMs)
	{
		return bound(unixMs, false);
	}

	/** The largest ID of the time unit holding {@code unixMs}. */
	public long boundaryLargest(long unixMs)
	{
		return bound(unixMs, true);
	}

	private long bound(long unixMs, boolean largest)
	{
		long t = timeValue(unixMs);
		long id = 0;
		for (int i = 0; i < fields.size(); i++)
			id |= (fields.get(i).name().equals("time") ? t : largest ? max(i) : 0) << shift(i);
		return id;
	}

	@Override
	public String toString()
	{
		return "SnowflakeLayout(" + epochMs + ", " + unitMs + ", " + fields + ")";
	}
}
